"""Whether the names a question's corpus never mentions are what it asks about.

An unknown name declines the question only when it is what the question asks
about: the question names nothing the corpus knows (no entity of the fact
table, no domain term such as GPU or HBM), it asks the unknown thing as a part
of a known product ("the Infinity Cache on the MI300X", "MI300X 的 Infinity
Cache 有多大"), or it compares the unknown thing with a known one ("is the
Maia 100 faster than an H100?"). A name beside a known subject is incidental
and the question is answered: "How much memory does the H100 have for training
Mistral models?", "跑Stable Diffusion想用L40S".
"""

from __future__ import annotations

import re

from kb.coverage import Name
from kb.language import HAN
from kb.specs.clauses import COMPARING

# Words that put two things side by side: a name joined to a known one by them is compared, not incidental.
_COMPARING = re.compile(rf"\b(?:{COMPARING['en']})\b|(?<![а-яё])(?:{COMPARING['ru']})(?![а-яё])|{COMPARING['zh']}",
                        re.IGNORECASE)
# where one sentence ends and another begins: a Chinese sentence runs on with no space ("…更大？在 k8s 上…")
_SENTENCE_BREAK = re.compile(rf"[.?!。？！…](?:\s|[{HAN}])")


# a part of a known product asked by a name of its own: "the Infinity Cache on the (AMD) MI300X", "Infinity Cache у
# MI300X", "MI300X 的 Infinity Cache 有多大"
_PART_OF = re.compile(r"\s+(?:on|of|in)\s+(?:the\s+|an?\s+)?(?:[A-Z]\w*\s+)?")
_OWNS = re.compile(r"\s*(?:上?的|['’]s)\s*")
# after the part: how much of it, past a gloss in brackets ("Infinity Cache（L3 缓存）有多大")
_HOW_MUCH = re.compile(r"\s*(?:[(（][^()（）]{0,24}[)）]\s*)?(?:有多|是多|多大|多少|的?(?:容量|大小))")
# before the product: asked how much or how big ("how big is the MI300X's Infinity Cache")
_HOW_MUCH_BEFORE = re.compile(r"\bhow\s+(?:big|large|much|many|fast)\b|\bwhat(?:['’]s|\s+is)?\s+(?:the\s+)?size\b", re.I)


def _part_asked(question: str, name: Name, start: int, end: int) -> bool:
    """Whether an unknown name is asked of the known product at ``start``-``end`` as a part of it."""
    if name.end <= start:
        between = question[name.end:start]
        return between.strip() == "у" or (_PART_OF.fullmatch(between) is not None and
                                          re.search(r"\bthe\s+$", question[:name.start]) is not None)
    return bool(_OWNS.fullmatch(question[end:name.start])) and bool(
        _HOW_MUCH.match(question[name.end:]) or _HOW_MUCH_BEFORE.search(question[:start]))


def asked_about(question: str, unknown: list[Name], known: list[tuple[int, int]],
                cues: list[tuple[int, int]] = ()) -> bool:
    """Whether the unknown names are what the question asks about, given the spans of the known
    subjects it names (fact-table entities, domain terms) and of its attribute cues (an attribute's words in
    capitals, "the Die Size of the A100", are no part of the product)."""
    if not unknown:
        return False
    # a known name inside an unknown one, or right before or after it, is part of it: "NVIDIA" and "Rubin"
    # of "NVIDIA Rubin Ultra", "Gen3" of "骁龙8 Gen3"
    def part_of(a: int, b: int, n: Name) -> bool:
        rest = question[n.start:a] + question[b:n.end]
        inside = n.start <= a and b <= n.end and rest.strip() and all(w[:1].isupper() for w in rest.split())
        return bool(inside) or (b <= n.start and not question[b:n.start].strip()) or \
            (n.end <= a and not question[n.end:a].strip())

    known = [(a, b) for a, b in known if not any(part_of(a, b, n) for n in unknown)]
    parts = [n for n in unknown if not any(n.start < e and s < n.end for s, e in cues)]
    if not known or any(_part_asked(question, n, a, b) for n in parts for a, b in known):
        return True
    # compared with a known subject: a comparing word between an unknown name and the known one next to it, in
    # its sentence ("Serving Gemma is memory-bound. Does the H200 have faster memory than the H100?" compares
    # the H200 with the H100, not Gemma with either)
    for name in unknown:
        for start, end in known:
            left, right = (name.end, start) if name.end <= start else (end, name.start)
            between = question[left:right]
            if left <= right and _COMPARING.search(between) and not _SENTENCE_BREAK.search(between + " ") and \
                    not any(left <= a and b <= right for a, b in known):
                return True
    return False
