"""Scoring what a user sees: the spec entries and the text read first, against a question's ``Expected``.

The text a user reads first is the spec answer when the service gives one,
else the extractive answer; a declined question shows neither. The answer
metric asks whether that text states the expected value (in the expected
unit or any unit of the same kind: 2.9 TB/s is 2900 GB/s) or, for a
comparison, names the winner, and names it before the loser where both appear.
"""

from __future__ import annotations

from kb.evaluation.datasets import Expected
from kb.response import AskResponse, SpecEntry, spec_leads
from kb.specs.units import UNITS, convert, numbers_in, same_number
from kb.specs.vocabulary import Vocabulary
from kb.textnorm import normalize_for_matching


def read_first(response: AskResponse) -> str | None:
    """The text a user reads first, or None when the question is declined."""
    if not response.answerable:
        return None
    if response.spec_answer is not None and (spec_leads(response) or response.answer is None):
        return response.spec_answer.text  # a value or a stated relation leads; a note that it has none does not
    return response.answer.text if response.answer else None


def _has_value(specs: tuple[SpecEntry, ...], value: float, unit: str, entities: tuple[str, ...] = (),
               vocabulary: Vocabulary | None = None) -> bool:
    return any(s.value is not None and abs(s.value - value) < 1e-6 and s.unit == unit
               and (not entities or s.entity in entities or _series_of(s, entities, vocabulary)) for s in specs)


def _series_of(entry: SpecEntry, entities: tuple[str, ...], vocabulary: Vocabulary | None) -> bool:
    """An entry of the series the expected entity belongs to ("AMD Instinct MI300 series: 4 MB (per XCD)" for
    the MI300X, whether the question named the member or the series): what the series states holds for each
    member, so it is that member's value."""
    return vocabulary is not None and any(
        e in vocabulary.entities and vocabulary.entities[e].family == entry.entity for e in entities)


def lost_value_safe(response: AskResponse) -> bool:
    """A value the source lost is reported as unknown, and no number stands in for it anywhere."""
    unknown = [s for s in response.specs if s.status == "unknown"]
    if not unknown:
        return False
    text = response.spec_answer.text if response.spec_answer else ""
    for s in unknown:
        if any(o.value is not None for o in response.specs if o.entity == s.entity and o.attribute == s.attribute):
            return False
        digits = s.value_text.replace("[?]", "")
        if digits and digits in text.replace(s.value_text, ""):
            return False
    return True


def resolve_new(expected: Expected, vocabulary: Vocabulary) -> Expected:
    """``new:<name>`` stands for an entity the fact table lacked when the question was written; once the
    table has an entity of that name (or alias) it is that entity, else it stays unmatched."""
    def one(entity: str) -> str:
        if not entity.startswith("new:"):
            return entity
        name = normalize_for_matching(entity.removeprefix("new:"))
        whole = [m.entity for m in vocabulary.mentions(name) if m.start == 0 and m.end == len(name)]
        return whole[0] if whole else entity
    if expected.entity is None:
        return expected
    entity = one(expected.entity) if isinstance(expected.entity, str) else tuple(one(e) for e in expected.entity)
    return expected.model_copy(update={"entity": entity})


def spec_match(response: AskResponse, expected: Expected, vocabulary: Vocabulary | None = None) -> bool:
    """The fact-table part is right: the right entity with the exact value and unit (96 GiB is not
    96 GB); a comparison names the winner on the asked side and cites every compared value; a lost
    value stays unknown."""
    if vocabulary is not None:
        expected = resolve_new(expected, vocabulary)
    if expected.form == "lost":
        return lost_value_safe(response)
    if expected.form == "comparison":
        summary = response.spec_answer
        return summary is not None and summary.kind == "comparison" and \
            getattr(summary, expected.direction) == expected.winner and \
            all(_has_value(response.specs, v.value, v.unit, (v.entity,), vocabulary) for v in expected.values)
    return _has_value(response.specs, expected.value, expected.unit, expected.entities, vocabulary)


def states_value(text: str, value: float, unit: str) -> bool:
    """Whether a number in ``text`` is ``value``, in its unit or another unit of the same dimension."""
    # as written (no-break spaces group thousands) and normalized (full-width digits)
    numbers = [n.value for n in numbers_in(text) + numbers_in(normalize_for_matching(text))]
    dimension = UNITS[unit].dimension if unit in UNITS else None
    candidates = [value] + [convert(value, unit, other) for other, u in UNITS.items()
                            if dimension is not None and u.dimension == dimension and other != unit]
    return any(same_number(round(n, 6), round(c, 6)) for n in numbers for c in candidates if c is not None)


def _first_position(text: str, side: str, expected: Expected, vocabulary: Vocabulary) -> int | None:
    found = [m.start for m in vocabulary.mentions(text) if m.entity == side]
    low = text.lower()
    for name in expected.names.get(side, ()):
        at = low.find(normalize_for_matching(name).lower())
        if at >= 0:
            found.append(at)
    return min(found) if found else None


def names_winner(text: str, expected: Expected, vocabulary: Vocabulary) -> bool:
    """Whether ``text`` names the winner, before the loser if it names both."""
    text = normalize_for_matching(text)
    winner = _first_position(text, expected.winner, expected, vocabulary)
    loser = _first_position(text, expected.loser, expected, vocabulary)
    return winner is not None and (loser is None or winner < loser)


def answer_correct(response: AskResponse, expected: Expected, vocabulary: Vocabulary) -> bool | None:
    """The answer metric of one question; None when it does not apply (a lost value)."""
    if expected.form == "lost":
        return None
    text = read_first(response)
    if text is None:
        return False
    if expected.form == "comparison":
        return names_winner(text, expected, vocabulary)
    return states_value(text, expected.value, expected.unit)
