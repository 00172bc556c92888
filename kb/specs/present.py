"""Spec answers: the facts a query selects, shown in the question's language, and rankings.

Every entry carries its value, unit and the exact source sentence; a value
the source lost is shown as unknown, never as a number. Superlatives are
computed from the cited values with units reconciled (GiB against GB, PFLOPS
against TFLOPS) over one scope, never over fewer than two entities; two
things named are compared by ``comparison``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kb.models import LANGS
from kb.response import (
    ComparisonAnswer,
    LookupAnswer,
    SpecAnswer,
    SpecEntry,
    SuperlativeAnswer,
)
from kb.specs.attribution import COUNTED
from kb.specs.class_relation import class_relation, classes_named, relation_answer
from kb.specs.clauses import PARTS
from kb.specs.comparison import by_relation, compare, conflict_text, stated_relation
from kb.specs.facts import FactTable
from kb.specs.lines import members
from kb.specs.model import Fact, FactSource
from kb.specs.phrases import TEXTS, fmt_range
from kb.specs.questions import SpecQuery, understand
from kb.specs.selection import entry, merge_repeats, select
from kb.specs.several import clause_readings
from kb.specs.units import convert

MAX_RANKED = 5


@dataclass(frozen=True)
class SpecResult:
    """The fact table's part of an answer: its entries and the answer stated from them."""

    entries: list[SpecEntry]
    answer: SpecAnswer | None  # None when nothing was found
    found: bool  # at least one entry
    missing: bool  # the question named an entity and an attribute, and the table has neither value nor note
    relation: FactSource | None = None  # the sentence that states the relation a comparison rests on
    # where ``missing``: sentences the prose reader read as this fact without being sure (candidates)
    unsure: tuple[FactSource, ...] = ()


def _ranked_by_relation(table: FactTable, query: SpecQuery, pool: list[Fact], unit: str, scope: str | None,
                       lang: str) -> tuple[list[Fact], SuperlativeAnswer | None, FactSource | None]:
    """One entity has a value, and a stated relation ranks it against another ("8 Gaudi processors cost 13.11 USD
    per hour, 60% lower than P4d"): the winner of the two, with the relation; said to be a ranking of two."""
    only = pool[0].entity
    rel = table.relation_to_any(only, query.attribute, query.dtype)
    if rel is None:
        return [], None, None
    # a relation stated of the entity's series is shown for the entity, as a comparison asked of it would be
    compared = by_relation(table, replace(query, entities=(only,)), rel, {}, lang)
    best = compared.lower if query.direction == "lower" else compared.higher
    other = compared.higher if best == compared.lower else compared.lower
    label = table.vocabulary.attributes[query.attribute].label(lang)
    text = (" " if lang != "zh" else "").join((compared.text, TEXTS['ranked_two'][lang].format(label=label)))
    return pool[:MAX_RANKED], SuperlativeAnswer(kind="superlative", attribute=query.attribute, direction=query.direction,
                                                lang=lang, entities=(best, other), best=best, unit=unit, scope=scope,
                                                text=text), rel.source


def _rankable(facts: list[Fact], announced: bool = False) -> list[Fact]:
    """The figures a ranking weighs: numbers, not an announced plan unless the question takes those in."""
    return [f for f in facts if f.is_number and (announced or not (f.note or "").startswith("announced"))]


def rank(table: FactTable, query: SpecQuery,
         lang: str) -> tuple[list[Fact], SuperlativeAnswer | None, FactSource | None]:
    """The entity with the most or least of an attribute, over every entity with a comparable value (and the
    sentence of a stated relation, where one ranks the only valued entity against another)."""
    within = members(table.vocabulary, query.line) if query.line else None  # "which TPU": TPUs only

    def gather(kinds: set[str] | None) -> list[Fact]:
        found = []
        for entity in table.entities_with(query.attribute):
            if kinds is not None and table.vocabulary.entities[entity].kind not in kinds or \
                    within is not None and entity not in within:
                continue
            found += _rankable(select(table, query, entity)[0], query.announced)
        return found

    # "Which chip is cheapest per hour?": chips have no hourly price, the instances built of them do.
    candidates = gather({query.kind_filter} if query.kind_filter else None) or gather(None)
    # a part's figure ranks only among parts asked for: "40 CUs per XCD" is no chip's count
    candidates = [f for f in candidates if f.scope not in PARTS or f.scope in query.scopes]
    if not candidates:
        return [], None, None
    # One unit and one scope: the most common among the candidates, so like is ranked with like (ties in a fixed
    # order, so the answer never depends on the order of a set).
    scope = max(sorted({f.scope for f in candidates}, key=str), key=lambda s: sum(f.scope == s for f in candidates))
    unit = next(f.unit for f in candidates if f.scope == scope)  # so the pool holds at least that fact
    pool = [f for f in candidates if f.scope == scope and convert(f.value, f.unit, unit) is not None]
    by_entity: dict[str, list[Fact]] = {}
    for f in pool:
        by_entity.setdefault(f.entity, []).append(f)
    if len(by_entity) < 2:  # a ranking of one is no ranking: never "the cheapest of 1", at most a stated relation
        return _ranked_by_relation(table, query, pool, unit, scope, lang)
    order, ranking = _ranking(table, query, by_entity, unit, scope, lang, named=False)
    shown = [f for e in order[:MAX_RANKED] for f in pool if f.entity == e][:MAX_RANKED * 2]
    return shown, ranking, None


def _ranking(table: FactTable, query: SpecQuery, by_entity: dict[str, list[Fact]], unit: str, scope: str | None,
             lang: str, named: bool) -> tuple[list[str], SuperlativeAnswer]:
    """The entities ordered by their best figure in ``unit`` (the asked direction first; ties in the order given),
    and the ranking that states the winner with its value as its source writes it, not converted."""
    higher = query.direction == "higher"
    best: dict[str, float] = {}
    won: dict[str, Fact] = {}
    for entity, facts in by_entity.items():
        for f in facts:
            v = convert(f.value, f.unit, unit)
            if v is not None and (entity not in best or (v > best[entity] if higher else v < best[entity])):
                best[entity], won[entity] = v, f
    order = sorted(best, key=lambda e: best[e], reverse=higher)
    top = order[0]
    key = ("best_higher" if higher else "best_lower") + ("_named" if named else "")
    text = TEXTS[key][lang].format(label=table.vocabulary.attributes[query.attribute].label(lang),
                                   a=table.vocabulary.entities[top].display_name(lang),
                                   va=fmt_range(won[top].value, won[top].value, won[top].unit, lang), n=len(best))
    return order, SuperlativeAnswer(kind="superlative", attribute=query.attribute, direction=query.direction,
                                    lang=lang, entities=tuple(order if named else order[:MAX_RANKED]), best=top,
                                    unit=unit, scope=scope, text=text)


def rank_named(table: FactTable, query: SpecQuery, lang: str) -> SpecResult | None:
    """The one of the things a question names ("V100, A100, H100, H200 or B200") with the most or least of an
    attribute, each by its own figure or that of what it is built of, in one scope; None unless every one named
    has such a figure (then each one's value is listed instead, as for a question naming them without ranking)."""
    per: dict[str, list[Fact]] = {}
    vias: dict[str, bool] = {}
    for entity in query.entities:
        facts, via = select(table, query, entity)
        per[entity], vias[entity] = _rankable(facts, query.announced), bool(via)
    shared = [s for s in sorted({f.scope for fs in per.values() for f in fs}, key=str)
              if all(any(f.scope == s for f in fs) for fs in per.values())]
    if not shared:
        return None
    unit = next(f.unit for fs in per.values() for f in fs if f.scope == shared[0])
    in_scope = {e: [f for f in fs if f.scope == shared[0] and convert(f.value, f.unit, unit) is not None]
                for e, fs in per.items()}
    if not all(in_scope.values()):
        return None
    order, ranking = _ranking(table, query, in_scope, unit, shared[0], lang, named=True)
    # the winner's winning figure first, as the answer's first citation, then each one's figures in rank order
    sign = -1 if query.direction == "higher" else 1

    def rank_of(f: Fact) -> tuple[int, float]:
        v = convert(f.value, f.unit, unit) if f.scope == shared[0] else None
        return (0, sign * v) if v is not None else (1, 0.0)
    entries = [entry(f, table, lang, via=e if vias[e] else None) for e in order for f in sorted(per[e], key=rank_of)]
    return SpecResult(merge_repeats(entries), ranking, True, False, None)


def answer_spec(table: FactTable, query: SpecQuery, lang: str, classes: set[str] = frozenset()) -> SpecResult:
    """The answer to one reading; ``classes`` are the classes of product the question sets the product against."""
    if related := class_relation(table, query, classes):  # against a class: how the source compares them, first
        own = answer_spec(table, query, lang)
        answer = relation_answer(table, query, related, lang)
        if own.found and own.answer is not None:  # with the product's own value after it
            answer = answer.model_copy(update={"text": f"{answer.text}{' ' if lang != 'zh' else ''}{own.answer.text}"})
        return SpecResult(own.entries if own.found else [], answer, True, False, related.source)
    if query.kind == "superlative" and query.entities:
        named = rank_named(table, query, lang)
        if named is not None:
            return named
        query = replace(query, kind="lookup")  # not every one named has a figure to rank by: each one's value
    if query.kind == "superlative":
        facts, ranking, relation = rank(table, query, lang)
        return SpecResult(merge_repeats([entry(f, table, lang) for f in facts]), ranking, bool(facts), False, relation)
    per_entity: dict[str, list[Fact]] = {}
    entries: list[SpecEntry] = []
    held = {table.vocabulary.entities[e].parts.chip for e in query.entities if table.vocabulary.entities[e].parts}
    for entity in query.entities:
        facts, via = select(table, query, entity)
        if via and via in query.entities or entity in held and query.attribute == COUNTED["chips"]:
            continue  # "Gaudi in a DL1": the chip's own facts already answer it; "Trainium2 chips in a Trn2 UltraServer"
        per_entity[entity] = facts
        entries += [entry(f, table, lang, via=entity if via else None) for f in facts]
    entries = merge_repeats(entries)
    label = table.vocabulary.attributes[query.attribute].label(lang)
    answer: SpecAnswer
    if query.kind == "comparison" and len(per_entity) >= 2:
        answer = compare(table, query, per_entity, lang)
    elif entries:
        # two articles stating the same value are two citations, one line of text; each entity asked keeps its
        # first figure before another's second one takes the room
        # and one value written two ways ("2.90 TB/s", "2.9 TB/s") is one line, as the first source writes it
        line: dict[tuple, str] = {}
        shown = [line.setdefault((e.entity, e.status, e.value, e.text, e.unit, e.qualifier, e.approx, e.bound, e.via),
                                 e.display) for e in entries]
        displays = list(dict.fromkeys(shown))
        firsts = {next(d for e, d in zip(entries, shown, strict=True) if e.entity == entity)
                  for entity in {e.entity for e in entries}}
        kept = set(sorted(displays, key=lambda d: d not in firsts)[:max(3, len(per_entity))])
        text = "; ".join(d for d in displays if d in kept)
        for entity, facts in per_entity.items():
            if any(f.conflict for f in facts):
                text += conflict_text(table.vocabulary.entities[entity].display_name(lang), facts, lang)
        lacking = [table.vocabulary.entities[e].display_name(lang) for e, facts in per_entity.items() if not facts]
        if lacking:  # several named, some without a value: said, not left out
            text += (" " if lang != "zh" else "") + TEXTS["lookup_none"][lang].format(label=label, a=", ".join(lacking))
        answer = LookupAnswer(kind="lookup", attribute=query.attribute, lang=lang, entities=tuple(per_entity),
                              text=text)
    else:
        names = ", ".join([table.vocabulary.entities[e].display_name(lang) for e in query.entities] +
                          list(query.unlisted))
        related = next(filter(None, (table.relation_of(e, query.attribute) for e in query.entities)), None)
        if related is not None:  # no value, but how it compares with a class of products
            return SpecResult(entries, relation_answer(table, query, related, lang), True, False, related.source)
        unsure = tuple(c.source for e in query.entities for c in table.candidates_about(e, query.attribute))
        answer = LookupAnswer(kind="lookup", attribute=query.attribute, lang=lang, entities=tuple(query.entities),
                              text=TEXTS["lookup_unsure" if unsure else "lookup_none"][lang].format(label=label, a=names))
        return SpecResult(entries, answer, False, True, None, unsure)
    relation = stated_relation(table, query, per_entity) if isinstance(answer, ComparisonAnswer) and answer.relation \
        else None
    return SpecResult(entries, answer, bool(entries) or relation is not None, not entries and relation is None,
                      relation.source if relation else None)


def lookup(table: FactTable, question: str, lang: str | None, known_words: frozenset[str] = frozenset(),
           unlisted: tuple[str, ...] = ()) -> tuple[SpecQuery | None, SpecResult | None]:
    """The spec reading of a question and its answer; (None, None) when it is not a spec question."""
    query = understand(question, lang, table, known_words, unlisted)
    lang = lang if lang in LANGS else "en"
    readings = clause_readings(question, lang, table, query, known_words, unlisted)
    # only a lookup of one product may be set against a class
    classes = classes_named(question, lang, table) if any(
        q.kind == "lookup" and len(q.entities) == 1 for q in readings or [query] if q is not None) else set()
    if not readings:
        return (query, answer_spec(table, query, lang, classes)) if query is not None else (None, None)
    return readings[0], _together([answer_spec(table, q, lang, classes) for q in readings], lang)


def _together(results: list[SpecResult], lang: str) -> SpecResult:
    """The answers to the clauses of one question, in question order, as one."""
    answers = [r.answer for r in results if r.answer is not None]
    stop = "。" if lang == "zh" else ". "
    text = stop.join([a.text.rstrip(".。") for a in answers[:-1]] + [a.text for a in answers[-1:]])
    answer = answers[0].model_copy(update={"text": text, "also": tuple(a.attribute for a in answers[1:])}) \
        if answers else None
    return SpecResult(entries=[e for r in results for e in r.entries], answer=answer,
                      found=any(r.found for r in results), missing=all(r.missing for r in results),
                      relation=next((r.relation for r in results if r.relation), None),
                      unsure=tuple(u for r in results for u in r.unsure))
