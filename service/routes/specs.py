"""Browsing the fact table: what is known, everything about one entity, two entities side by side."""

from __future__ import annotations

from litestar import get
from litestar.datastructures import State
from litestar.params import Parameter

from kb.models import LANGS
from kb.specs.facts import FactTable
from kb.specs.present import answer_spec
from kb.specs.questions import SpecQuery
from kb.specs.selection import entry
from service.problems import ProblemError
from service.schemas import (
    SPACE,
    AttributeSummary,
    EntitySpecsResponse,
    EntitySummary,
    SpecComparisonResponse,
    SpecTableResponse,
    problem_responses,
    strip_space,
)

LANG_PATTERN = "^(en|ru|zh)$"
# two or more comma-separated names that are not blank (blank items are skipped)
_ITEM = f"[^,]*[^,{SPACE}][^,]*"
TWO_OR_MORE = f"^(?:[^,]*,)*{_ITEM}(?:,[^,]*)*,{_ITEM}(?:,[^,]*)*$"


def _table(state: State) -> FactTable:
    return state.runtime.retriever.index.facts


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise ProblemError(422, "Invalid request", f"lang: one of {', '.join(LANGS)} (got {lang!r})",
                           errors=[{"field": "lang", "message": "unknown language"}])
    return lang


def _entity(table: FactTable, name: str) -> str:
    found = table.resolve_entity(name)
    if found is None:
        close = table.close_entities(name)
        raise ProblemError(404, "Unknown entity", f"no entity {name!r} in the fact table"
                           + (f"; did you mean {', '.join(close)}?" if close else ""), close_matches=close)
    return found


def _attribute(table: FactTable, name: str) -> str:
    if name in table.vocabulary.attributes:
        return name
    close = table.close_attributes(name)
    raise ProblemError(404, "Unknown attribute", f"no attribute {name!r} in the fact table"
                       + (f"; did you mean {', '.join(close)}?" if close else ""), close_matches=close)


@get("/v1/specs", responses=problem_responses(400, 422), summary="Entities and attributes in the fact table")
async def list_specs(state: State, lang: str = Parameter(default="en", description="en, ru or zh", pattern=LANG_PATTERN)) -> SpecTableResponse:
    table, lang = _table(state), _lang(lang)
    entities = [EntitySummary(id=e.id, name=e.display_name(lang), kind=e.kind, vendor=e.vendor,
                              aliases=list(e.aliases), attributes=table.attributes_of(e.id),
                              facts=len(table.about(e.id))) for e in table.vocabulary.entities.values()]
    attributes = [AttributeSummary(id=a.id, label=a.label(lang), unit=a.unit, better=a.better,
                                   entities=len(table.entities_with(a.id)))
                  for a in table.vocabulary.attributes.values()]
    return SpecTableResponse(entities=entities, attributes=attributes, facts=len(table.facts),
                             conflicts=sum(f.conflict for f in table.facts))


@get("/v1/specs/compare", responses=problem_responses(400, 404, 422), summary="Compare entities on one attribute")
async def compare_specs(state: State, entities: str = Parameter(description="comma-separated, e.g. h100,mi300x", pattern=TWO_OR_MORE),
                        attribute: str = Parameter(description="an attribute id, e.g. memory_capacity"),
                        lang: str = Parameter(default="en", pattern=LANG_PATTERN),
                        dtype: str | None = Parameter(default=None, description="e.g. BF16")) -> SpecComparisonResponse:
    table, lang = _table(state), _lang(lang)
    names = [strip_space(n) for n in entities.split(",") if strip_space(n)]
    if len(names) < 2:
        raise ProblemError(422, "Invalid request", "entities: give two or more, separated by commas",
                           errors=[{"field": "entities", "message": "fewer than two"}])
    ids = tuple(dict.fromkeys(_entity(table, n) for n in names))
    attribute = _attribute(table, attribute)
    query = SpecQuery(kind="comparison" if len(ids) >= 2 else "lookup", attribute=attribute, entities=ids,
                      dtype=dtype.upper() if dtype else None,
                      direction=table.vocabulary.attributes[attribute].better)
    result = answer_spec(table, query, lang)
    return SpecComparisonResponse(attribute=attribute, entities=list(ids), specs=result.entries,
                                  comparison=result.answer)


@get("/v1/specs/{entity:str}", responses=problem_responses(400, 404, 422), summary="Every fact about one entity, with sources")
async def entity_specs(state: State, entity: str, lang: str = Parameter(default="en", pattern=LANG_PATTERN),
                       attribute: str | None = Parameter(default=None)) -> EntitySpecsResponse:
    table, lang = _table(state), _lang(lang)
    eid = _entity(table, entity)
    aid = _attribute(table, attribute) if attribute else None
    e = table.vocabulary.entities[eid]
    return EntitySpecsResponse(entity=eid, name=e.display_name(lang), kind=e.kind, vendor=e.vendor,
                               aliases=list(e.aliases), parts=e.parts.model_dump() if e.parts else None,
                               related=table.related(eid), specs=[entry(f, table, lang) for f in table.about(eid, aid)])
