"""Two things compared on one attribute: by their values with units reconciled, else by a relation the corpus
states between them, else said to be not comparable and why (per chip against per instance).

A machine set against a chip is also compared chip against chip, said so; two machines never are.
"""

from __future__ import annotations

from kb.response import ComparisonAnswer
from kb.specs.clauses import PARTS
from kb.specs.facts import FactTable
from kb.specs.model import Fact
from kb.specs.phrases import (
    RELATION_WORDS,
    TEXTS,
    factor_text,
    fmt_difference,
    fmt_range,
    qualifier,
    times_agreed,
    value_display,
)
from kb.specs.questions import SpecQuery
from kb.specs.selection import entry, select, value_range
from kb.specs.units import UNITS


def conflict_text(name: str, facts: list[Fact], lang: str) -> str:
    values = "; ".join(dict.fromkeys(f"{value_display(f, lang)} ({f.source.title})" for f in facts if f.conflict))
    return TEXTS["conflict"][lang].format(a=name, values=values)


def _like_with_like(fa: list[Fact], fb: list[Fact], a: str, b: str) -> dict[str, list[Fact]]:
    """Both sides' figures of one basis when each side has figures of several ("one-way" and "bidirectional"
    ICI bandwidth): the first basis of the first side that the other side has too."""
    bases_b = {f.plain_basis for f in fb if f.is_number}
    common = [f.plain_basis for f in fa if f.is_number and f.plain_basis in bases_b]
    if not common or len({f.plain_basis for f in fa + fb if f.is_number}) == 1:
        return {}
    return {a: [f for f in fa if not f.is_number or f.plain_basis == common[0]],
            b: [f for f in fb if not f.is_number or f.plain_basis == common[0]]}


def _compare(table: FactTable, query: SpecQuery, per_entity: dict[str, list[Fact]], lang: str) -> ComparisonAnswer:
    names = {e: table.vocabulary.entities[e].display_name(lang) for e in per_entity}
    label = table.vocabulary.attributes[query.attribute].label(lang)
    ids = list(per_entity)[:2]
    a, b = ids

    def answer(text: str, **found) -> ComparisonAnswer:
        fields = {"higher": None, "lower": None, "comparable": False, "difference": None, "ratio": None,
                  "unit": next((f.unit for f in per_entity[a] + per_entity[b] if f.is_number), None), **found}
        return ComparisonAnswer(kind="comparison", attribute=query.attribute, entities=tuple(ids), lang=lang,
                                text=text, **fields)

    per_entity = {**per_entity, **_like_with_like(per_entity[a], per_entity[b], a, b)}
    if all(per_entity[e] and per_entity[e][0].text is not None for e in ids):
        # text values (a memory type, a date) are shown side by side, not ranked
        return answer("; ".join(entry(per_entity[e][0], table, lang).display for e in ids))
    for e in ids:
        if not any(f.is_number for f in per_entity[e]):
            related = stated_relation(table, query, per_entity)
            if related is not None:
                return by_relation(table, query, related, per_entity, lang)
            return answer(TEXTS["missing"][lang].format(label=label, a=names[e]))
    fa = next(f for f in per_entity[a] if f.is_number)
    fb = next(f for f in per_entity[b] if f.is_number)
    if not (fa.unit in UNITS and fb.unit in UNITS and UNITS[fa.unit].dimension == UNITS[fb.unit].dimension) \
            or fa.scope != fb.scope:
        return answer(TEXTS["incomparable"][lang].format(a=names[a], b=names[b], qa=qualifier(fa, lang) or fa.unit,
                                                         qb=qualifier(fb, lang) or fb.unit))
    unit = fa.unit
    ra = value_range([f for f in per_entity[a] if f.scope == fa.scope], unit)
    rb = value_range([f for f in per_entity[b] if f.scope == fa.scope], unit)
    found: dict = {"comparable": True, "unit": unit}
    if ra[0] > rb[1] or rb[0] > ra[1]:
        hi, lo = (a, b) if ra[0] > rb[1] else (b, a)
        rh, rl = (ra, rb) if hi == a else (rb, ra)
        diff = (rh[0] - rl[1], rh[1] - rl[0])
        ratio = (rh[0] / rl[1], rh[1] / rl[0]) if rl[0] > 0 else None
        found.update(higher=hi, lower=lo, difference=tuple(round(d, 6) for d in diff),
                     ratio=tuple(round(r, 4) for r in ratio) if ratio else None)
        ratio_text = fmt_range(round(ratio[0], 2), round(ratio[1], 2), "", lang).strip() if ratio else "—"
        # the side the question asks for goes first: "which is cheaper" is answered by the lower one
        first, second, rf, rs = (lo, hi, rl, rh) if query.direction == "lower" else (hi, lo, rh, rl)
        stated = table.relation_between(a, b, query.attribute, query.dtype) if query.ratio else None
        if stated is not None and (stated.subject in table.sides(hi)) == (stated.direction == "higher") and \
                ratio and _agrees(stated, ratio):
            # the factor as the source states it ("3.6x" of an improvement column), with both values
            return by_relation(table, query, stated, per_entity, lang, {hi: rh, lo: rl, "unit": unit})
        key = query.direction
        if query.ratio and ratio:
            if query.direction == "lower" and query.ratio == "share":  # "how much less": the share less
                key = "ratio_lower"
                ratio_text = fmt_range(round((1 - rl[1] / rh[0]) * 100), round((1 - rl[0] / rh[1]) * 100), "%", lang)
                if unit == "%":  # two shares: less by points, the share of a share after it ("28.9 points (36%)")
                    ratio_text = fmt_difference(*diff, unit, lang) + ("（{}）" if lang == "zh" else " ({})").format(
                        ratio_text)
            else:  # "во сколько раз меньше": the factor
                key = "ratio_higher" if query.direction == "higher" else "ratio_lower_times"
        text = times_agreed(TEXTS[key][lang].format(a=names[first], b=names[second], va=fmt_range(*rf, unit, lang),
                                                    vb=fmt_range(*rs, unit, lang), diff=fmt_difference(*diff, unit, lang),
                                                    ratio=ratio_text, label=label), lang)
    elif ra == rb and ra[1] - ra[0] <= 0.02 * abs(ra[1]):  # the same figures within rounding ("989–990" twice)
        text = TEXTS["equal"][lang].format(a=names[a], b=names[b], va=fmt_range(*ra, unit, lang))
    else:
        text = TEXTS["overlap"][lang].format(a=names[a], b=names[b], va=fmt_range(*ra, unit, lang),
                                             vb=fmt_range(*rb, unit, lang))
    for e in ids:
        if any(f.conflict for f in per_entity[e]):
            text += conflict_text(names[e], per_entity[e], lang)
    return answer(text, **found)


def stated_relation(table: FactTable, query: SpecQuery, per_entity: dict[str, list[Fact]]):
    """A stated relation of the two compared sides on the asked attribute, or of what their figures belong to:
    "8 Gaudi" is priced as the DL1 instance built of them, and the corpus relates DL1's price to P4d's."""
    a, b = list(per_entity)[:2]

    def owners(e: str) -> list[str]:
        return [e, *dict.fromkeys(f.entity for f in per_entity[e] if f.entity != e)]

    return next((r for x in owners(a) for y in owners(b)
                 if (r := table.relation_between(x, y, query.attribute, query.dtype)) is not None), None)


def _agrees(rel, ratio: tuple[float, float]) -> bool:
    """Whether a stated factor fits the values' own (within rounding and 15%): "3.6x" of 2.9 against 0.8-0.88 TB/s
    does, "6x" of 1,979 against 624 TFLOPS does not, and then the values speak."""
    stated = (rel.ratio if rel.direction == "higher" else (1 / rel.ratio[1], 1 / rel.ratio[0]))
    return stated[0] <= ratio[1] * 1.15 and ratio[0] <= stated[1] * 1.15


def by_relation(table: FactTable, query: SpecQuery, rel, per_entity: dict[str, list[Fact]],
                 lang: str, ranges: dict | None = None) -> ComparisonAnswer:
    """A comparison from a stated relation ("8 Gaudi processors cost 13.11 USD per hour, 60% lower than P4d"),
    when one side has no value of its own, or when the question asks for the factor: the side the question asks
    for first, with the relation (and ``ranges``, both sides' values, where both have one)."""
    # the sides as asked: a relation stated of a chip's series is shown for the chip
    asked = {side: next((e for e in query.entities if side in table.sides(e)), side) for side in (rel.subject, rel.object)}
    subject, obj = asked[rel.subject], asked[rel.object]
    names = {e: table.vocabulary.entities[e].display_name(lang) for e in (subject, obj)}
    attribute = table.vocabulary.attributes[rel.attribute]
    lower, higher = (subject, obj) if rel.direction == "lower" else (obj, subject)
    winner = lower if query.direction == "lower" else higher
    word, other = RELATION_WORDS[(rel.direction, rel.attribute == "price_per_hour")][lang]
    # the subject's own value beside the relation: a whole chip's, as the relation is ("40 CUs" per XCD is no
    # figure of the MI300X that is "40% more than MI250X")
    own = [f for f in per_entity.get(subject, []) + table.about(subject, rel.attribute) if f.is_number
           and f.scope not in PARTS]
    value = f"{': ' if lang != 'zh' else '：'}{value_display(own[0], lang)}" if own else ""
    if ranges:
        unit = ranges["unit"]
        value = TEXTS["pair"][lang].format(vs=fmt_range(*ranges[subject], unit, lang),
                                           vo=fmt_range(*ranges[obj], unit, lang))
    template = "relation_subject" if winner == subject else "relation_object"
    if template == "relation_subject" and rel.direction == "higher" and not rel.factor.endswith("%"):
        template = "relation_times"
    text = TEXTS[template][lang].format(s=names[subject], o=names[obj], factor=factor_text(rel.factor, lang),
                                        word=word, other=other, label=attribute.label(lang), value=value)
    ratio = (1 / rel.ratio[1], 1 / rel.ratio[0]) if rel.direction == "lower" else rel.ratio
    return ComparisonAnswer(kind="comparison", attribute=rel.attribute, entities=(subject, obj), lang=lang,
                            higher=higher, lower=lower, comparable=True, difference=None,
                            ratio=tuple(round(r, 4) for r in ratio), unit=None, text=text, relation=rel.source.quote)


def chips_alike(table: FactTable, query: SpecQuery, per_entity: dict[str, list[Fact]]) -> tuple[dict[str, list[Fact]], str]:
    """Two things compared where one is a chip given per chip and the other a machine built of one kind of chip and
    given per machine ("trn2.48xlarge или gaudi3"): the two with the machine's chip in its place, and the machine; ({}, "")
    where there is no such pair (two machines are never swapped for their chips)."""
    if len(per_entity) != 2:
        return {}, ""
    entities = table.vocabulary.entities
    for side, other in (tuple(per_entity), tuple(reversed(per_entity))):
        theirs = {f.scope for f in per_entity[other] if f.is_number}
        part = entities[side].parts
        if part is None or entities[other].kind != "chip" or part.chip in per_entity or not theirs or \
                {f.scope for f in per_entity[side] if f.is_number} & theirs:
            continue
        chips = [f for f in select(table, query, part.chip)[0] if f.scope in theirs]
        if chips:
            return {(part.chip if e == side else e): (chips if e == side else facts)
                    for e, facts in per_entity.items()}, side
    return {}, ""


def compare(table: FactTable, query: SpecQuery, per_entity: dict[str, list[Fact]], lang: str) -> ComparisonAnswer:
    """The first two things of ``per_entity`` compared on the query's attribute. Where they do not compare and one
    is a machine of the other's kind of chip: the "not comparable", then the machine's own chip against the other
    ("... Chip against chip (AWS trn2.48xlarge is built of AWS Trainium2): Intel Gaudi3 is higher: 3.7 TB/s against
    2.9 TB/s"): a user naming "trn2" may mean either, and each is said."""
    answer = _compare(table, query, per_entity, lang)
    alike, machine = chips_alike(table, query, per_entity) if not answer.comparable else ({}, "")
    if not alike:
        return answer
    by_chip = _compare(table, query, alike, lang)
    if not by_chip.comparable:
        return answer
    entities = table.vocabulary.entities
    lead = TEXTS["by_chip"][lang].format(a=entities[machine].display_name(lang),
                                        c=entities[entities[machine].parts.chip].display_name(lang))
    sep = "" if lang == "zh" else " "
    return by_chip.model_copy(update={"text": f"{answer.text}{sep}{lead}{sep}{by_chip.text}"})
