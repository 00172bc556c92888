"""Which facts answer a spec query, and how each is shown: the entries of a lookup, a comparison or a ranking.

A chip's facts answer for the instance built of it (and an instance's for its chip) where the one asked has
none of its own; a series' facts answer for its members. Each entry keeps its source sentence.
"""

from __future__ import annotations

from kb.response import SpecEntry, SpecRepeat, SpecSource
from kb.specs.clauses import PARTS
from kb.specs.facts import FactTable
from kb.specs.model import Fact
from kb.specs.phrases import BASES, SCOPES, SEP, qualifier, tr, value_display, variant
from kb.specs.questions import SpecQuery
from kb.specs.units import convert

MAX_PER_ENTITY = 6


def entry(fact: Fact, table: FactTable, lang: str, via: str | None = None) -> SpecEntry:
    entity = table.vocabulary.entities[fact.entity]
    attribute = table.vocabulary.attributes[fact.attribute]
    name = entity.display_name(lang)
    shown, qual = value_display(fact, lang), qualifier(fact, lang)
    value_part = shown + (f" {fact.dtype}" if fact.dtype and fact.status == "value" else "")
    rest = SEP[lang].join(p for p in (tr(BASES, fact.basis, lang) if fact.basis and fact.basis != "dense" else "",
                                      tr(SCOPES, fact.scope, lang) if fact.scope else "", variant(fact, lang)) if p)
    if rest:
        value_part += f" ({rest})" if lang != "zh" else f"（{rest}）"
    display = f"{name}: {value_part}"
    src = fact.source
    return SpecEntry(
        entity=fact.entity, entity_name=name, attribute=fact.attribute, label=attribute.label(lang),
        status=fact.status, value=fact.value if fact.status == "value" and fact.text is None else None,
        text=fact.text, unit=fact.unit, value_text=fact.value_text, display=display, value_display=value_part,
        qualifier=qual, dtype=fact.dtype, scope=fact.scope, basis=fact.basis, variant=variant(fact, lang) or None,
        note=fact.note, approx=fact.approx, bound=fact.bound, as_of=fact.as_of.isoformat() if fact.as_of else None,
        conflict=fact.conflict, via=via, quote=src.quote,
        citation=SpecSource(article_id=src.article_id, title=src.title, url=src.url, anchor=src.anchor,
                            char_start=src.char_start, char_end=src.char_end, origin=src.origin,
                            location=src.location, context=src.context, value_start=src.value_start),
    )


def merge_repeats(entries: list[SpecEntry]) -> list[SpecEntry]:
    """One entry per statement: the same value stated again in the same article (a summary table and
    its prose) becomes one entry whose ``also`` lists the other places."""
    merged: dict[tuple, SpecEntry] = {}
    for e in entries:
        key = (e.entity, e.attribute, e.status, e.value, e.text, e.unit, e.dtype, e.scope, e.basis or "dense", e.variant,
               e.citation.article_id)
        first = merged.get(key)
        if first is None:
            merged[key] = e
        elif e.citation.char_start != first.citation.char_start:
            c = e.citation
            repeat = SpecRepeat(char_start=c.char_start, char_end=c.char_end, quote=e.quote, anchor=c.anchor,
                                location=c.location)
            merged[key] = first.model_copy(update={"also": (*first.also, repeat)})
    return list(merged.values())


def select(table: FactTable, query: SpecQuery, entity: str) -> tuple[list[Fact], str | None]:
    """The facts answering ``query`` for one entity, and the related entity they came from, if any."""
    via = None
    facts = table.about(entity, query.attribute)
    part = table.vocabulary.entities[entity].parts
    if part and "per_chip" in query.scopes and not any(f.scope == "per_chip" for f in facts) and \
            table.about(part.chip, query.attribute):
        facts, via = table.about(part.chip, query.attribute), part.chip  # "trn2 HBM per chip": the chip's own figure
    elif not facts and "per_node" not in query.scopes:  # a rack's total is no figure of the chip it is built of
        link = table.vocabulary.entities[entity].interconnect  # its link generation's figure per GPU, after all else
        for other in (*table.related(entity), *([link] if link else [])):
            if table.about(other, query.attribute):
                facts, via = table.about(other, query.attribute), other
                break
        if not facts and query.kind == "lookup":  # "MI300 HBM": a series without a figure of its own, each member's
            members = [x.id for x in table.vocabulary.entities.values() if x.family == entity]
            facts = [f for m in members for f in table.about(m, query.attribute)]
    if query.dtype and query.attribute in table.typed:  # only figures given per data type: no clock, no count
        facts = [f for f in facts if query.dtype.lower() in f.dtypes]
    if query.dtype is None and len({f.dtype for f in facts}) > 1:
        # Peak compute without a data type: the BF16 figures are the usual headline.
        preferred = [f for f in facts if "bf16" in f.dtypes]
        facts = preferred or facts
    if query.scopes and any(f.scope in query.scopes for f in facts):
        facts = [f for f in facts if f.scope in query.scopes]
    elif not query.scopes:  # a question about the chip reads the whole chip's figure before a part's ("per GCD")
        facts = sorted(facts, key=lambda f: f.scope in PARTS)
    if query.basis and any(f.basis == query.basis for f in facts):
        facts = [f for f in facts if f.basis == query.basis]
    if not query.sparse and any(f.basis != "sparse" for f in facts):
        facts = [f for f in facts if f.basis != "sparse"]
    if query.basis != "planned" and any(f.basis != "planned" for f in facts):  # a plan shown only where asked
        facts = [f for f in facts if f.basis != "planned"]
    numbers = [f for f in facts if f.is_number or f.text is not None]
    others = [f for f in facts if not (f.is_number or f.text is not None) and f.status in ("unknown", "unpublished")]
    return (numbers + others)[:MAX_PER_ENTITY], via


def value_range(facts: list[Fact], unit: str) -> tuple[float, float] | None:
    values = [convert(f.value, f.unit, unit) for f in facts if f.is_number]
    values = [v for v in values if v is not None]
    return (min(values), max(values)) if values else None
