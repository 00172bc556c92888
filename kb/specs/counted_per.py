"""A count a question asks per one thing ("how many warps can one SM schedule") or per a part of the chip ("CUDA
cores per SM"): no count of the chip's the table holds answers it."""

from __future__ import annotations

import re

from kb.specs.clauses import defined_per
from kb.specs.units import counted

Spans = list[tuple[int, int]]


# One thing of many named ("one SM", "каждый SM", "一个 SM"): what a question counts, it counts per that thing.
_ONE_OF = re.compile(r"\b(?:one|each|every|a single|per)\s+$|(?<![а-яё])(?:один|одн(?:ом|ого|а|у)|кажд\w+)\s+$|"
                     r"(?:一个|每个|每一个|单个|每)\s*$")


def counted_per_one(low: str, attribute, found: Spans | None) -> bool:
    """Whether a count of things is cued only after "one" or "each" ("how many warps can one SM schedule"): the
    question counts something else per that thing. A count defined per a whole ("chips per pod", cued by "一个 pod")
    is what such a question asks."""
    return counted(attribute.unit) and not attribute.whole and defined_per(attribute.labels.get("en", "")) is None \
        and bool(found) and all(_ONE_OF.search(low, 0, s) for s, _ in found)


# the parts of a chip a count may be asked per ("CUDA cores per SM", "每个 CU 的流处理器"): counted in these units
_PART_COUNTS = ("SM", "CUs", "cores")
_PER_PART = re.compile(r"(?<![а-яё])на\s+$")  # "сколько ядер CUDA на SM"


def counted_per_part(low: str, attribute, spans: dict[str, Spans], vocabulary) -> bool:
    """Whether a count is asked per one part of a chip that another attribute counts ("How many CUDA cores per
    SM", "每个 SM 有多少个 CUDA 核心", "сколько ядер CUDA на один SM"): the table counts a chip's parts, never a
    part's, so no figure of it answers."""
    if not counted(attribute.unit):
        return False
    return any(b != attribute.id and vocabulary.attributes[b].unit in _PART_COUNTS and found and
               all(_ONE_OF.search(low, 0, s) or _PER_PART.search(low, 0, s) for s, _ in found)
               for b, found in spans.items())
