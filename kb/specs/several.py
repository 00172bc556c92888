"""Questions that ask several attributes at once: "TPU v5p: how many chips in a pod and how much HBM per chip?",
"Какую частоту и пропускную способность памяти имеет MI250?", "H100 的显存容量和带宽分别是多少？".

Read whole, such a question is one attribute (the longest cue) and loses the other; worse, a word of one clause
("per chip") steers the reading of the other. Each clause that names an attribute of its own is read on its own,
of the things the whole question names, and each reading is answered.
"""

from __future__ import annotations

from kb.specs.asked_attribute import CLAUSE_BREAK
from kb.specs.facts import FactTable
from kb.specs.questions import SpecQuery, understand
from kb.textnorm import normalize_for_matching


def clause_readings(question: str, lang: str, table: FactTable, whole: SpecQuery, known_words: frozenset[str] = frozenset(),
                    unlisted: tuple[str, ...] = ()) -> list[SpecQuery]:
    """The lookups of the question's clauses, in question order, where two or more of them ask different
    attributes of what the question names; [] where the whole reading stands (one attribute asked, a comparison,
    a ranking)."""
    if whole.kind != "lookup":
        return []
    text = normalize_for_matching(question)
    low, vocabulary = text.lower(), table.vocabulary
    bounds = [0] + [m.end() for m in CLAUSE_BREAK.finditer(low)] + [len(low)]
    starts = [s for found in vocabulary.cue_spans(low, lang).values() for s, _ in found]
    cued = [text[left:right] for left, right in zip(bounds, bounds[1:], strict=False)
            if any(left <= s < right for s in starts)]
    if len(cued) < 2:
        return []
    # a clause that names nothing asks about what the question names elsewhere ("... and how much HBM per chip")
    names = " ".join(dict.fromkeys(text[m.start:m.end] for m in vocabulary.mentions(text)))
    readings: list[SpecQuery] = []
    for clause in cued:
        own = vocabulary.mentions(clause)
        reading = understand(clause if own else f"{clause} {names}", lang, table, known_words, unlisted)
        if reading is not None and reading.kind == "lookup" and reading.entities and \
                reading.attribute not in {r.attribute for r in readings}:
            readings.append(reading)
    return readings if len(readings) >= 2 else []
