"""The product line or maker a ranking is asked within ("which TPU has the most memory", "哪一代 Trainium").

A word the table's names are built on ("TPU" of "Google TPU v5e", "Trainium" of "AWS Trainium2") or a maker
("NVIDIA", "AMD") names a group of entities. Asked which of a group has the most of something, the ranking
is over that group only: the most memory "of any TPU" is never an AMD GPU's. A product named with a word of
generation beside it ("which Trainium generation", "какое поколение Gaudi", "几代 Trainium") asks about its
line, not about that one product.
"""

from __future__ import annotations

import re

from kb.specs.clauses import SUBJECT_KINDS
from kb.specs.vocabulary import Mention, Vocabulary

_GENERATION = r"generations?|gens?|series|family|поколени\w*|сери\w*|семейств\w*|代|系列"
_GENERATION_BESIDE = re.compile(rf"^\s*(?:{_GENERATION})(?![a-z])|(?:{_GENERATION})\s*(?:的\s*)?$")
_WHICH_BEFORE = re.compile(r"(?:\bwhich|\bwhat|(?<![а-яё])как(?:ой|ая|ое|ие|ого|их)|哪(?:款|个|一|种)?)\s*$")
_WORD = re.compile(r"(?<![a-z0-9])[a-z]{3,}(?![a-z0-9])")


def _name_words(vocabulary: Vocabulary, entity: str) -> set[str]:
    """The letter runs that start the words of an entity's names and its maker ("trainium" of "Trainium2",
    "tpu" of "TPU v5e", "nvidia")."""
    e = vocabulary.entities[entity]
    words = {m.group(0) for name in (e.name, *e.aliases) for w in name.lower().split()
             if (m := re.match(r"[a-z]+", w)) and len(m.group(0)) >= 3}
    return words | ({e.vendor.lower()} if e.vendor else set())


def members(vocabulary: Vocabulary, word: str) -> frozenset[str]:
    """The products (chips, instances, systems) whose names or maker are built on ``word``; a memory type or a
    link ("HBM3", "NVLink 4") is no product line."""
    return frozenset(eid for eid, e in vocabulary.entities.items()
                     if e.kind in SUBJECT_KINDS and word in _name_words(vocabulary, eid))


def asked_line(low: str, mentions: list[Mention], vocabulary: Vocabulary,
               cued: list[tuple[int, int]] = ()) -> tuple[str | None, tuple[Mention, ...]]:
    """The line word a ranking is asked within, if any, and the mentions that only named that line (to drop
    from the question's entities). The word stands outside every entity's name and every attribute's cue
    (``cued``: "the fastest PCIe bandwidth" ranks every chip) ("which TPU"), or is the
    name of a product written beside a word of generation ("which Trainium generation") or right after "which"
    ("which Gaudi is fastest": the first Gaudi is no answer to it)."""
    for m in mentions:
        word = re.fullmatch(r"[a-z]{3,}", m.text.lower())
        if word and (_GENERATION_BESIDE.search(low[:m.start]) or _GENERATION_BESIDE.search(low[m.end:]) or
                     _WHICH_BEFORE.search(low[:m.start])) and \
                len(members(vocabulary, word.group(0))) >= 2:
            return word.group(0), (m,)
    taken = [(m.start, m.end) for m in mentions] + list(cued)
    words = {w.group(0) for w in _WORD.finditer(low) if not any(a <= w.start() < b for a, b in taken)
             and len(members(vocabulary, w.group(0))) >= 2}
    # two groups named ("among NVIDIA and AMD chips") rank both, as every entity does
    return (words.pop() if len(words) == 1 else None), ()
