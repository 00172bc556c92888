"""Questions that ask several attributes at once: "TPU v5p: how many chips in a pod and how much HBM per chip?",
"Какую частоту и пропускную способность памяти имеет MI250?", "TPU v5p 的 pod 有多少颗芯片，每颗芯片多少 HBM？".

Read whole, such a question is one attribute (the longest cue) and loses the other; worse, a word of one clause
("per chip") steers the reading of the other. Each clause that asks an attribute of its own is read on its own,
of everything the question names, and each reading is answered. A clause asks where it has a question word, or
continues the clause before it that asks across "and" ("what is the memory capacity and the memory bandwidth");
one that states a figure ("Since the H100 has 132 SMs, ...", "With 80 GB of HBM, ...") is the question's premise,
and one about a total of chips alone ("the pod's total HBM") is no figure of a chip.
"""

from __future__ import annotations

import re

from kb.specs.asked_attribute import CLAUSE_BREAK, unit_cue
from kb.specs.facts import FactTable
from kb.specs.quantities import quantities
from kb.specs.questions import ASKS, TOTAL, SpecQuery, understand
from kb.textnorm import normalize_for_matching

_BREAK = re.compile(CLAUSE_BREAK.pattern + r"|以及")
# a word that points back at what the clause before named ("its bandwidth", "у неё", "它的带宽")
_BACK = re.compile(r"\b(?:its|their)\b|(?<![а-яё])(?:её|ее|его|их|у нее|у неё)(?![а-яё])|它|其")
_FOLLOW_UP = re.compile(r"呢\s*[?？]?\s*$")  # "它的带宽呢？": a Chinese follow-up asks with its particle alone
_JOINS = re.compile(r"(?:\s(?:and|и)\s|[和且及])\s*$")  # a break that joins two asks rather than ends a clause


def clause_readings(question: str, lang: str, table: FactTable, whole: SpecQuery | None, known_words: frozenset[str] = frozenset(),
                    unlisted: tuple[str, ...] = ()) -> list[SpecQuery]:
    """The lookups of the question's clauses, in question order, where two or more of them ask different
    attributes; [] where the whole reading stands (one attribute asked, a comparison, a ranking)."""
    if whole is not None and whole.kind != "lookup":
        return []
    text = normalize_for_matching(question)
    low, vocabulary = text.lower(), table.vocabulary
    breaks = list(_BREAK.finditer(low))
    bounds = [0] + [m.end() for m in breaks] + [len(low)]
    mentions = vocabulary.mentions(text)
    # a cue inside a name is the name's ("PCIe" of "the H100 SXM and PCIe versions")
    starts = [s for found in vocabulary.cue_spans(low, lang).values() for s, _ in found
              if not any(m.start <= s < m.end for m in mentions)]
    keywords = ASKS.search(low) is None  # "H100: memory capacity, memory bandwidth?": each cued clause asks
    # a total asked of a chip is no figure of the chip (of an instance or system it is: "the total HBM of a Trn2")
    chips_only = all(vocabulary.entities[m.entity].kind == "chip" for m in mentions)
    asking, asked = [], False
    for k, (left, right) in enumerate(zip(bounds, bounds[1:], strict=False)):
        clause = low[left:right]
        joined = k > 0 and _JOINS.search(low[breaks[k - 1].start():breaks[k - 1].end()]) is not None
        asked = not quantities(clause) and (keywords or ASKS.search(clause) is not None or asked and joined or
                                            _FOLLOW_UP.search(clause) is not None)
        if not asked or TOTAL.search(clause) and chips_only:
            continue
        # cued, or a unit written in it names the one attribute of its dimension ("how big is the die in mm²?")
        if any(left <= s < right for s in starts) or unit_cue(clause, table):
            asking.append(text[left:right])
        elif asking and _BACK.search(clause):
            # "how much HBM per chip and what is its bandwidth?": a bare measure asked of what the clause before
            # asked about is read with that clause (HBM's bandwidth), and asks only where that reads differently
            asking.append(f"{asking[-1]} {text[left:right]}")
    if len(asking) < 2:
        return []
    readings: list[SpecQuery] = []
    for clause in asking:
        # a clause that names nothing asks about what the question names ("... and how much HBM per chip"), and
        # so does each clause of a list of keywords ("H100 and A100: memory capacity and memory bandwidth?")
        own = {m.entity for m in vocabulary.mentions(clause)}
        rest = " ".join(dict.fromkeys(text[m.start:m.end] for m in mentions if m.entity not in own)) \
            if keywords or not own else ""
        reading = understand(f"{clause} {rest}".strip(), lang, table, known_words, unlisted)
        if reading is not None and reading.kind == "lookup" and reading.entities and \
                reading.attribute not in {r.attribute for r in readings}:
            readings.append(reading)
    return readings if len(readings) >= 2 else []
