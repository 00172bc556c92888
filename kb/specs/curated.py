"""Facts that live in prose: ``corpus/specs/facts.yaml``, checked against the article text."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from kb.errors import SpecError
from kb.markdown import parse_article
from kb.models import Article
from kb.specs.model import Bound, Fact, FactSource, Status
from kb.specs.units import UNITS, canonical_unit, numbers_in, same_number
from kb.specs.vocabulary import Vocabulary
from kb.specs.yaml_entries import load_yaml_items, validated

FACTS_FILE = "facts.yaml"


class CuratedFact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    entity: str
    attribute: str
    article: str
    quote: str
    status: Status = "value"
    value: float | None = None
    value_max: float | None = None
    text: str | None = None
    unit: str = ""
    value_text: str | None = None
    dtype: str | None = None
    scope: str | None = None
    basis: str | None = None
    variant: str | dict[str, str] | None = None  # text, or {en: ..., ru: ..., zh: ...}
    note: str | None = None
    approx: bool = False
    bound: Bound | None = None
    as_of: dt.date | None = None


def find_quote(body: str, quote: str) -> tuple[int, int] | None:
    """The first place a quote occurs, whitespace runs matching any whitespace run."""
    pattern = r"\s+".join(re.escape(part) for part in quote.split())
    m = re.search(pattern, body)
    return m.span() if m else None


def _anchor(article: Article, offset: int) -> str:
    sections, _ = parse_article(article)
    inside = [s for s in sections if s.char_start <= offset < s.char_end]
    return inside[-1].anchor if inside else ""


def check_value(entry: CuratedFact, quote: str, where: str) -> tuple[str, int]:
    """The value as the quote writes it, and its precision; an error when the quote does not state it."""
    if entry.status != "value":
        if not entry.value_text or entry.value_text not in quote:
            raise SpecError(where, f"status {entry.status}: value_text (the source's own words for the missing "
                                   f"value, such as '[?]963') must occur in the quote")
        if entry.value is not None:
            raise SpecError(where, f"status {entry.status} cannot carry a value")
        return entry.value_text, 0
    if entry.text is not None:
        if entry.text not in quote:
            raise SpecError(where, f"the text value {entry.text!r} does not occur in the quote")
        return entry.text, 0
    if entry.value is None:
        raise SpecError(where, "field 'value': a fact with status 'value' needs a value or a text")
    for number in numbers_in(quote):
        if same_number(number.value, entry.value):
            if quote[max(0, number.start - 3):number.start] == "[?]":
                raise SpecError(where, "the source lost digits of this number ([?] before it); store it as "
                                       "status: unknown with value_text, never as a number")
            return quote[number.start:number.end], number.decimals
    found = ", ".join(f"{n.value:g}" for n in numbers_in(quote)) or "none"
    raise SpecError(where, f"the quote does not contain the value {entry.value:g} (numbers in it: {found})")


def read_curated(folder: Path, articles: dict[str, Article], vocabulary: Vocabulary) -> list[Fact]:
    path = folder / FACTS_FILE
    facts = []
    for line, item in load_yaml_items(path):
        where = f"{path}:{line}"
        entry = validated(CuratedFact, where, item)
        if entry.entity not in vocabulary.entities:
            raise SpecError(where, f"field 'entity': unknown entity '{entry.entity}' (add it to entities.yaml)")
        if entry.attribute not in vocabulary.attributes:
            raise SpecError(where, f"field 'attribute': unknown attribute '{entry.attribute}'")
        article = articles.get(entry.article)
        if article is None:
            raise SpecError(where, f"field 'article': unknown article '{entry.article}'")
        span = find_quote(article.body, entry.quote)
        if span is None:
            raise SpecError(where, f"field 'quote': not found in article {entry.article}: {entry.quote[:60]!r}")
        quote = article.body[span[0]:span[1]]
        value_text, decimals = check_value(entry, quote, where)
        unit = canonical_unit(entry.unit) if entry.unit else vocabulary.attributes[entry.attribute].unit
        expected = vocabulary.attributes[entry.attribute].unit
        if unit is None or UNITS[unit].dimension != UNITS[expected].dimension:
            raise SpecError(where, f"field 'unit': {entry.unit!r} is not a unit of {entry.attribute} "
                                   f"(measured like {expected!r})")
        facts.append(Fact(
            entity=entry.entity, attribute=entry.attribute, status=entry.status, value=entry.value,
            value_max=entry.value_max, text=entry.text, unit=unit, decimals=decimals, value_text=value_text,
            approx=entry.approx, bound=entry.bound, dtype=entry.dtype, scope=entry.scope, basis=entry.basis,
            variant=entry.variant.get("en") if isinstance(entry.variant, dict) else entry.variant,
            variant_labels=entry.variant if isinstance(entry.variant, dict) else {}, note=entry.note,
            as_of=entry.as_of or article.meta.as_of or article.meta.published,
            source=FactSource(article_id=article.meta.id, title=article.meta.title, url=article.meta.source.link(),
                              anchor=_anchor(article, span[0]), char_start=span[0], char_end=span[1], quote=quote,
                              origin="curated", location=f"{folder.parent.name}/{folder.name}/{FACTS_FILE}:{line}"),
        ))
    return facts
