"""Dates of a product's life stated in prose: "SN50 was announced in February 2026", "will start shipping in the
second half of 2026", "2026年2月发布".

A date is a fact of the ``release_date`` attribute when a word of a life event (announced, released, launched,
shipping, available; анонсирован, вышел; 发布, 推出, 上市) stands in its clause and an entity of the fact table is
named before it in the sentence. The value is kept the same way in every language ("2026-02", "2026 H2"), shown in
the reader's ("February 2026", "февраль 2026", "2026年2月": ``shown``), and the event is its basis ("announced", "shipping", "released", "available"), so an announcement and a first
shipment are two quantities, never a disagreement.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from kb.specs.clauses import SUBJECT_KINDS, beside, clause
from kb.specs.model import Fact, FactSource
from kb.specs.quantities import quantities
from kb.specs.vocabulary import Mention, Vocabulary

ATTRIBUTE = "release_date"

_MONTH_NAMES = {"en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                       "November", "December"),
                "ru": ("январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август", "сентябрь", "октябрь",
                       "ноябрь", "декабрь")}
_MONTHS_EN = tuple(name[:3].lower() for name in _MONTH_NAMES["en"])  # "jan" ... "dec": how a month is read
_MONTHS_RU = ("январ", "феврал", "март", "апрел", "ма[йяе]", "июн", "июл", "август", "сентябр", "октябр", "ноябр",
              "декабр")
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_EN_MONTH = (r"(?P<month_en>(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
             r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?)")
_RU_MONTH = rf"(?P<month_ru>(?:{'|'.join(_MONTHS_RU)})[а-яё]*)"
# The forms a date is written in, most precise first; each names its year, and a month, half or quarter where
# it has one.
DATES = [re.compile(p, re.IGNORECASE) for p in (
    rf"\b{_EN_MONTH}[\s-]+(?:\d{{1,2}},?\s+)?{_YEAR}\b",  # "February 2026", "Feb-2026", "Feb 3, 2026"
    rf"(?<![а-яё]){_RU_MONTH}\s+{_YEAR}",  # "в феврале 2026"
    rf"{_YEAR}\s*年\s*(?P<month_zh>\d{{1,2}})\s*月",  # "2026年2月"
    rf"\b(?P<half_en>first|second|1st|2nd)\s+half\s+of\s+{_YEAR}\b",  # "the second half of 2026"
    rf"(?<![а-яё])(?P<half_ru>перв|втор)\w*\s+половин\w*\s+{_YEAR}",  # "во второй половине 2026"
    rf"{_YEAR}\s*年\s*(?P<half_zh>上|下)半年",  # "2026年下半年"
    rf"\b(?P<quarter>q[1-4])\s*[\s-]?\s*{_YEAR}\b",  # "Q3 2026"
    rf"\bin\s+{_YEAR}\b", rf"(?<![а-яё])в\s+{_YEAR}(?:\s*(?:году|г\.))?", rf"{_YEAR}\s*年(?![\d上下])",  # a year
)]
# A time a sentence states, in any of its forms or as a bare year ("19年12月" writes one in two digits).
# A bare year, or a Chinese month of a two-digit year ("19年12月", "19年六月").
_YEAR_OR_MONTH = re.compile(r"(?<![\d.,])(?:19[5-9]\d|20[0-3]\d)(?!\d|[.,]\d|%)|"
                            r"(?<!\d)\d{2}\s*年\s*(?:\d{1,2}|十[一二]?|[一二三四五六七八九])\s*月")


def states_time(text: str) -> bool:
    """Whether ``text`` states a time: a date of ``DATES``, or a year that is no figure ("2016 chips", "1960
    TFLOPS": a quantity) and stands in no table row (a cell's number)."""
    if any(p.search(text) for p in DATES):
        return True
    if text.lstrip().startswith("|"):
        return False
    figures = [(q.start, q.end) for q in quantities(text)]
    return any(not any(s <= m.start() < e for s, e in figures) for m in _YEAR_OR_MONTH.finditer(text))


# Words of a life event, and the event they name: what the date is the date of.
EVENTS = {
    "announced": re.compile(r"\b(?:announc\w*|unveil\w*|introduc\w*)\b|(?<![а-яё])(?:анонс\w*|представ\w*)|发布|亮相|宣布",
                            re.IGNORECASE),
    # not "deliver", said of throughput ("delivers 1.3x the throughput ... in 2024 benchmarks")
    "shipping": re.compile(r"\bship(?:s|ped|ping)?\b|(?<![а-яё])(?:поставк\w*|постав(?:ля|л)\w*|отгруз\w*)|出货|发货",
                           re.IGNORECASE),
    "released": re.compile(r"\b(?:releas\w*|launch\w*|came out|debut\w*)\b|"
                           r"(?<![а-яё])(?:вышел|вышл[аио]|выйд\w*|выпущ\w*|выпуст\w*|запущ\w*|запуст\w*)(?![а-яё])|"
                           r"推出|上市|问世",
                           re.IGNORECASE),
    # "has been available on all Tier-1 clouds since Q4-2023": when it could be had, not when it came out
    "available": re.compile(r"\bavailab\w*\b|(?<![а-яё])доступ\w*|可用|开放", re.IGNORECASE),
}


# a clause that opens with a relative pronoun is about the thing named just before it
_RELATIVE = re.compile(r"\W*(?:which|that|who|whose|котор\w*|что)\b|\W*(?:它|该)", re.IGNORECASE)
_RELATIVE_END = re.compile(r"\b(?:which|that|who|whose)\s*$|(?<![а-яё])(?:котор\w*|что)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class StatedDate:
    """A date in a sentence and the life event its clause names."""

    start: int
    end: int
    text: str  # as written
    value: str  # as shown: "2026-02", "2026 H2", "2026 Q3", "2026"
    event: str  # announced | shipping | released | available


def _value(m: re.Match) -> str:
    found = {k: v for k, v in m.groupdict().items() if v}
    year = found["year"]
    if month := found.get("month_en"):
        return f"{year}-{_MONTHS_EN.index(month.lower()[:3]) + 1:02d}"
    if month := found.get("month_ru"):
        low = month.lower()
        return f"{year}-{next(i for i, p in enumerate(_MONTHS_RU) if re.match(p, low)) + 1:02d}"
    if month := found.get("month_zh"):
        return f"{year}-{int(month):02d}"
    if half := found.get("half_en") or found.get("half_ru") or found.get("half_zh"):
        return f"{year} H{1 if half.lower() in ('first', '1st', 'перв', '上') else 2}"
    if quarter := found.get("quarter"):
        return f"{year} {quarter.upper()}"
    return year


def _dates(text: str) -> list[re.Match]:
    """Every date of ``text``, the most precise form where forms overlap ("February 2026" before "2026")."""
    chosen: list[re.Match] = []
    for m in (m for pattern in DATES for m in pattern.finditer(text)):  # DATES lists the precise forms first
        if not any(c.start() < m.end() and m.start() < c.end() for c in chosen):
            chosen.append(m)
    return sorted(chosen, key=lambda m: m.start())


def stated_dates(text: str) -> list[StatedDate]:
    """The dates of ``text`` whose clause names a life event, each with the event nearest before it (else
    after it): "announced Feb-2026, will start shipping in the second half of 2026" is two."""
    found = []
    for m in _dates(text):
        left, right = clause(text, m.start(), m.end())
        before = [(e.start(), name) for name, p in EVENTS.items() for e in p.finditer(text, left, m.start())]
        after = [(e.start(), name) for name, p in EVENTS.items() for e in p.finditer(text, m.end(), right)]
        if not before and not after:
            continue
        event = max(before)[1] if before else min(after)[1]
        found.append(StatedDate(m.start(), m.end(), m.group(0), _value(m), event))
    return found


def date_facts(text: str, mentions: list[Mention], vocabulary: Vocabulary, as_of: dt.date | None,
               source: Callable[[int], FactSource], confidence: float, rival: float) -> list[Fact]:
    """The life-event dates of a sentence, each of the entity named nearest before it in the sentence. A date whose
    nearest name is the other side of a comparison ("3x faster than A100, which was released in 2020") is about
    none; another entity the sentence is about makes it a candidate (``confidence`` less ``rival``: "The DL1
    instance, built on Gaudi, launched ..."). ``source(at)``: the fact's source, its value at ``at``."""
    found = []
    subjects = [m for m in mentions if vocabulary.entities[m.entity].kind in SUBJECT_KINDS]
    for d in stated_dates(text):
        before = [m for m in subjects if m.end <= d.start]
        left = clause(text, d.start, d.end)[0]
        if before and beside(text, before[-1], vocabulary) and \
                (_RELATIVE.match(text, left) or _RELATIVE_END.search(text[max(0, left - 12):left])):
            continue  # "..., which was released in 2020" is said of the compared thing just named
        before = [m for m in before if not beside(text, m, vocabulary)]
        if not before:
            continue
        others = {m.entity for m in before} - {before[-1].entity}  # named after it, another clause's subject
        found.append(Fact(entity=before[-1].entity, attribute=ATTRIBUTE, text=d.value, value_text=d.text,
                          basis=d.event, as_of=as_of, source=source(d.start),
                          confidence=round(confidence - (rival if others else 0), 2)))
    return found


def same_date(a: str, b: str) -> bool:
    """Whether two dates as shown agree: equal, or one more precise within the other ("2026" holds "2026-02")."""
    return a.startswith(b) or b.startswith(a)


def asked_event(question: str) -> str | None:
    """The life event a question about a date asks for ("when will SN50 ship" asks the shipping date), the one
    whose word it writes last; None when it names none."""
    found = [(m.start(), name) for name, pattern in EVENTS.items() for m in pattern.finditer(question)]
    return max(found)[1] if found else None


_SHOWN = re.compile(r"(?P<year>\d{4})(?:-(?P<month>\d{2})| H(?P<half>[12])| Q(?P<quarter>[1-4]))?")


def shown(value: str, lang: str) -> str:
    """A date as its value is kept ("2026-02", "2026 H2", "2026 Q3", "2026") worded in the reader's language
    ("February 2026", "февраль 2026", "2026年2月"); any other text as it is."""
    m = _SHOWN.fullmatch(value)
    if m is None:
        return value
    year, month, half, quarter = m.group("year", "month", "half", "quarter")
    if month:
        return f"{year}年{int(month)}月" if lang == "zh" else f"{_MONTH_NAMES.get(lang, _MONTH_NAMES['en'])[int(month) - 1]} {year}"
    if half:
        return {"ru": f"{'первое' if half == '1' else 'второе'} полугодие {year}",
                "zh": f"{year}年{'上' if half == '1' else '下'}半年"}.get(lang, f"H{half} {year}")
    if quarter:
        return {"ru": f"{quarter}-й квартал {year}", "zh": f"{year}年第{'一二三四'[int(quarter) - 1]}季度"}.get(
            lang, f"Q{quarter} {year}")
    return f"{year}年" if lang == "zh" else year
