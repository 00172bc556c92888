"""Sentences that state what the fact table lacks.

A question about an attribute the table has no value of, for an entity it
knows, is declined as ``no_fact``, unless a top passage may still state it:
a sentence naming the entity with a quantity of the attribute's kind beside
one of its cues ("1 TB/sec of DMA bandwidth" on the Inferentia2 page) or,
for a count, in its unit ("up to 256 chips"), the asked life event without
a date ("already available on Intel cloud"), a
comparison stated in words ("the SXM version uses 30% more power"), or, for
a product the table has no entity for, a sentence writing its name and such
a quantity ("H800 带宽 300GB/s"). The answer then quotes that sentence.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.index import KnowledgeIndex
from kb.models import Hit
from kb.specs import dates
from kb.specs.attribution import attribute_of
from kb.specs.clauses import SUBJECT_KINDS, compared
from kb.specs.quantities import quantities
from kb.specs.relations import COMPARATIVE
from kb.specs.units import UNITS, counted
from kb.specs.vocabulary import name_pattern
from kb.textnorm import normalize_for_matching

ANSWER_FROM_TOP = 3  # passages the answer may quote
NEAR_CUE = 24  # characters between a comparative and the attribute's cue that still make one phrase


def passage_statement(index: KnowledgeIndex, hits: list[Hit], query) -> list[tuple[int, int, int]]:
    """A sentence of the top passages that states the asked attribute of the asked entity although the fact
    table has no such value: it writes a quantity in the attribute's dimension and a cue of the attribute, or the
    very count asked ("up to 256 chips"), in a passage that names the entity ("1 TB/sec of DMA bandwidth" on the
    Inferentia2 page). Such a question is answered by quoting it, not declined as ``no_fact``; the spec part still
    says the table lacks the value."""
    vocabulary = index.facts.vocabulary
    attribute = vocabulary.attributes[query.attribute]
    dimension = _dimension(attribute.unit)
    cue = cue_pattern(tuple(attribute.headers) + attribute.cue_patterns(*attribute.cues))
    wanted = set(query.entities) | {r for e in query.entities for r in index.facts.related(e)}
    unlisted = query.unlisted
    for pos, hit in enumerate(hits[:ANSWER_FROM_TOP]):
        chunk = hit.chunk
        text = normalize_for_matching(" ".join((*chunk.section, chunk.text)))
        if unlisted:  # the product the table has no entity for; beside a known one without the value, either
            if found := next(iter(unlisted_sentences(chunk, query.unlisted, dimension)), None):
                return [(pos, *found)]
            if not query.entities:
                continue
        # the other side of a comparison ("40% more than MI250X") is not what the passage's figures are about,
        # unless the question compares it too: then that sentence states the relation asked for
        named = {m.entity for m in vocabulary.mentions(text)
                 if query.kind == "comparison" or not compared(text, m.start)}
        if not named & wanted:
            continue
        previous = None  # the sentence before, where it names an asked entity as its subject
        for start, end in chunk.sentences:
            text = chunk.span_text(start, end)
            normed = normalize_for_matching(text)
            # a sentence about another entity ("H100: 132 SM") states nothing about the one asked
            subjects = [m for m in vocabulary.mentions(normed) if vocabulary.entities[m.entity].kind in SUBJECT_KINDS]
            own = {m.entity for m in subjects if not compared(normed, m.start)}
            if own and not own & wanted:
                previous = None
                continue
            low = normed.lower()
            if _states(low, text, cue, attribute, vocabulary, chunk.lang):
                return [(pos, start, end)]
            # the asked life event said of the entity without a date ("Gaudi3 ... already available on Intel cloud")
            if query.attribute == dates.ATTRIBUTE and own & wanted and (event := dates.EVENTS.get(query.basis or "")) \
                    and event.search(normed):
                return [(pos, start, end)]
            # a comparison the table cannot make may still be stated in words ("the SXM version uses 30% more
            # power"): a sentence that names only the compared sides, with a comparative beside the attribute's
            # cue, whose subject is one of them; naming only the other side ("the much lower cost than H100"),
            # its subject is what the sentence before names
            named_here = {m.entity for m in subjects}
            if query.kind == "comparison" and named_here and named_here <= wanted and \
                    (own & wanted or previous) and _compares(low, cue):
                return [(pos, start if own & wanted else previous[0], end)]
            previous = (start, end) if own & wanted else None
    return []


def _states(low: str, text: str, cue: re.Pattern, attribute, vocabulary, lang: str) -> bool:
    """Whether a sentence writes a quantity of the attribute's kind beside one of its cues, or, for a count, one the
    fact reader would take as that very count ("scales up to 256 chips" counts chips, with no cue of its own; "6912
    CUDA Cores" counts no NeuronCores, nor "four links" between two dies a chip's links)."""
    cued, count = cue.search(low) is not None, counted(attribute.unit)
    if not (cued or count):
        return False  # reading the sentence's quantities is the costly part: only where either may hold
    found, dimension = quantities(text), _dimension(attribute.unit)
    if cued and any(UNITS[q.unit].dimension == dimension for q in found if q.unit in UNITS):
        return True
    return count and any(q.unit == attribute.unit and q.counted and
                         attribute_of(text, q, vocabulary, lang)[0] == attribute.id for q in found)


def _dimension(unit: str) -> str:
    """What a unit measures ("GB/s": bytes per second); a count's unit is its own dimension."""
    return UNITS[unit].dimension if unit in UNITS else unit


def _compares(text: str, cue: re.Pattern) -> bool:
    """Whether a comparative word stands within a few words of a cue of the attribute ("30% more power",
    "功耗更高", "потребляет больше энергии")."""
    words = [w.span() for w in COMPARATIVE.finditer(text)]
    return any(ws < c.end() + NEAR_CUE and c.start() - NEAR_CUE < we for c in cue.finditer(text) for ws, we in words)


@lru_cache(maxsize=64)
def _written(names: tuple[str, ...]) -> re.Pattern:
    """The names whole, as an entity's name is matched, not the start of a relative's ("TPU v5" is not the TPU
    v5e, "H20" not the H200); a Chinese character may follow ("H800带宽"). Compiled once for every passage."""
    return re.compile("|".join(name_pattern(n) for n in names), re.IGNORECASE)


def unlisted_sentences(chunk, names: tuple[str, ...], dimension: str) -> list[tuple[int, int]]:
    """The sentences of a passage that write the name of a thing the table has no entity for and a quantity
    of the asked dimension: they state its attribute ("H800 带宽 300GB/s" its NVLink bandwidth), with or
    without the attribute's cue."""
    written = _written(names)
    if not written.search(normalize_for_matching(chunk.text)):
        return []
    return [(start, end) for start, end in chunk.sentences
            if written.search(normalize_for_matching(chunk.span_text(start, end))) and
            any(UNITS[q.unit].dimension == dimension for q in quantities(chunk.span_text(start, end)) if q.unit in UNITS)]


def unlisted_evidence(index: KnowledgeIndex, query) -> list[int]:
    """The passages that state the asked attribute of a thing the table has no entity for (see
    ``unlisted_sentences``), wherever retrieval ranked them: the evidence the answer quotes, as a fact's
    passage is."""
    dimension = _dimension(index.facts.vocabulary.attributes[query.attribute].unit)
    return [i for i, chunk in enumerate(index.chunks) if unlisted_sentences(chunk, query.unlisted, dimension)]


@lru_cache(maxsize=256)
def cue_pattern(patterns: tuple[str, ...]) -> re.Pattern:
    """A table header's pattern ("^power") and the cues, as one pattern over prose: a header pattern matches a
    whole word there ("power", not "powerful")."""
    return re.compile("|".join(f"(?<![a-z])(?:{p[1:]})(?![a-z])" if p.startswith("^") else f"(?:{p})"
                               for p in patterns))
