"""Relations stated in prose: "60% lower than P4d", "2-3x faster than A100", "比前者低了60%".

A relation is a fact about two entities: the subject's attribute is a factor
or share of the object's, in a direction. The factor is no value of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from kb.specs.clauses import SUBJECT_KINDS, WINDOW, clause, compared, hourly_instance, precision
from kb.specs.model import FactSource
from kb.specs.units import DTYPE, dtype_name
from kb.specs.vocabulary import Mention, Vocabulary

# A relation: a factor or share, a comparative word, then (in English and Russian) "than" and the other side.
# (not the digits of a name: "H100 - 3x" is no range "100-3x")
_FACTOR = r"(?<![A-Za-z0-9.])(?P<low>\d+(?:\.\d+)?)(?:\s*[-–/]\s*(?P<high>\d+(?:\.\d+)?))?\s*(?P<kind>%|x|×|times|раза?|倍)"
RELATIONS = [
    re.compile(_FACTOR + r"\s+(?P<word>more|less|lower|higher|faster|slower|cheaper|better|larger|smaller|bigger)"
               r"(?:\s+\w+){0,3}?\s+than\s+", re.IGNORECASE),
    re.compile(r"(?:на|в)\s+" + _FACTOR + r"\s+(?P<word>дешевле|дороже|быстрее|медленнее|больше|меньше|выше|ниже)"
               r"(?:,?\s+чем\s+)?", re.IGNORECASE),
    re.compile(r"比(?P<other>前者|后者|[^，。,]{1,20}?)(?P<word>低|高|快|慢|便宜|贵|多|少)了?\s*" + _FACTOR),
    # "B200 的 FLOPs 是 H100 的 2.25 倍": a multiple of the other side's (a share, "是 H100 的 30%", is none)
    re.compile(r"是\s*(?P<other>[^，。,的]{1,20}?)\s*的\s*(?P<word>)" + _FACTOR.replace("%|", "")),
    # "与最新的GPU实例相比性价比高出40%"
    re.compile(r"与(?P<other>[^，。,]{1,20}?)相比[^，。,\d]{0,8}?(?P<word>高出|低|高|快|慢|便宜|贵|多|少)了?\s*" + _FACTOR),
]
# The other side may be a class of products rather than one ("the latest GPU instances", "最新的GPU实例").
_CLASS = re.compile(r"\b(?:gpu|tpu)s?\b|\b(?:gpu|tpu)-|\binstances\b|\baccelerators\b|инстанс|ускорител|实例|加速器",
                    re.IGNORECASE)
# A factor that goes on with the same two sides in another number format: "2-3x faster than A100 (half
# precision), 6x faster for fp8".
CONTINUED = re.compile(r"[^.;]{0,40}?,\s*" + _FACTOR + r"\s+(?P<word>faster|slower|more|less|higher|lower)\s+"
                       r"(?:for|in|at|on|with)\s+", re.IGNORECASE)
# A comparative stated without a factor ("more power", "更高", "дешевле"): a relation in words.
COMPARATIVE = re.compile(r"\b(?:more|less|higher|lower|faster|slower|cheaper|pricier|better|worse|larger|smaller|bigger"
                         r"|twice|half|double)\b|больше|меньше|выше|ниже|быстрее|медленнее|дешевле|дороже|лучше|хуже"
                         r"|вдвое|更(?:高|低|多|少|快|慢|贵|便宜|大|小|强)|比[^，。,]{1,20}?(?:高|低|多|少|快|慢|贵|便宜|大|小|强)"
                         r"|高于|低于|不如")
LOWER_WORDS = ("less", "lower", "slower", "cheaper", "smaller", "дешевле", "медленнее", "меньше", "ниже", "低", "慢",
               "便宜", "少")
# a price of work done ("cost per image", "每张图片的成本") is not the price of the hardware
PER_WORK = re.compile(r"\bper (?!hour|chip|gpu|card|instance|device)[a-z]+|每(?!小时)[^，。]{0,4}(?:图片|张|个样本)|"
                      r"за (?:изображени|картинк|токен)\w*", re.IGNORECASE)


@dataclass(frozen=True)
class Relation:
    """A stated relation: ``subject``'s ``attribute`` is ``ratio`` times ``object``'s (a range when two)."""

    subject: str
    object: str
    attribute: str
    ratio: tuple[float, float]
    direction: str  # the subject is "higher" or "lower"
    bound: str | None  # "at_least": the factor is more than written ("more than 2x cheaper")
    factor: str  # "60%", "2-3x"
    source: FactSource
    dtype: str | None = None  # the data type of compared figures ("FP8"), where the statement names one
    object_text: str | None = None  # the other side as written when it is a class ("the latest GPU instances")


def read_relation(text: str, m: re.Match, mentions: list[Mention], vocabulary: Vocabulary, lang: str,
                  source: FactSource, article_subject: str | None = None) -> Relation | None:
    """The relation that a match of ``RELATIONS`` in ``text`` states, or None when a side or the attribute
    is not named. A sentence that names only the other side ("the processor ... 40% more than MI250X") is
    about ``article_subject``, the one entity the article's title names."""
    subjects = [x for x in mentions if vocabulary.entities[x.entity].kind in SUBJECT_KINDS]
    before = [x for x in subjects if x.end <= m.start() and not compared(text, x.start)]
    if "other" in m.groupdict() and m.group("other"):
        other = m.group("other")
        # "比前者低了60%": the former is the first entity of the sentence, the latter the nearest one
        named = [x for x in subjects if m.start("other") <= x.start < m.end("other")]
        obj = named[0] if named else (subjects[0] if other == "前者" and subjects else None)
        subject = next((x for x in reversed(before) if obj is None or x.entity != obj.entity), None)
        written = other if obj is None and other not in ("前者", "后者") else None
    else:
        after = [x for x in subjects if x.start >= m.end() - 1 and x.start <= m.end() + 24]
        obj = after[0] if after else None
        subject = before[-1] if before else None
        written = text[m.end():clause(text, m.end(), m.end())[1]] if obj is None else None
    object_text = written.strip(" .") if written and _CLASS.search(written) and len(written) <= 40 else None
    if obj is None and object_text:  # a class on the other side: the relation is the subject's alone
        obj = Mention("", 0, 0, object_text)
    if subject is None and obj is not None and article_subject and article_subject != obj.entity and \
            not [x for x in subjects if x.end <= m.start() and x.entity != obj.entity]:
        subject = Mention(article_subject, 0, 0, "")
    if subject is None or obj is None or subject.entity == obj.entity:
        return None
    left, right = clause(text, m.start(), m.end())
    lo = max(0, left - WINDOW)
    words = text[lo:right].lower()
    # each attribute cued in the clause, by the gap between its cue and the comparative word; of two as near, the
    # longer cue ("每张图片的成本" over the "成本" inside it)
    distance: dict[str, tuple[int, int]] = {}
    at = m.start("word")
    for attr in vocabulary.attributes.values():
        for cue in attr.cue_patterns("en", lang):
            for c in re.finditer(cue, words):
                gap = max(lo + c.start() - at, at - (lo + c.end()), 0)
                distance[attr.id] = min(distance.get(attr.id, (10**6, 0)), (gap, -(c.end() - c.start())))
    word = m.group("word").lower()
    if word in ("faster", "slower", "быстрее", "медленнее", "快", "慢") and not distance:
        distance = {"peak_compute": (0, 0)}  # "2-3x faster" without a named attribute is about compute
    attribute = min(distance, key=distance.get) if distance else None
    # a price of work done ("cost per image", "每张图片的成本") is not the price of the hardware
    if attribute is None or attribute == "price_per_hour" and PER_WORK.search(words):
        return None
    lower = word in LOWER_WORDS
    ratio = _ratio(m, lower)
    dtype = precision(text, m.start(), m.end(), "") if attribute == "peak_compute" else None
    subject_id = hourly_instance(subject.entity, attribute, vocabulary)
    object_id = hourly_instance(obj.entity, attribute, vocabulary) if obj.entity else ""
    bound = "at_least" if re.search(r"more than\s*$", text[:m.start()], re.IGNORECASE) else None
    factor = _factor(m)
    return Relation(subject=subject_id, object=object_id, attribute=attribute, ratio=ratio,
                    direction="lower" if lower else "higher", bound=bound, factor=factor,
                    source=source, dtype=dtype, object_text=object_text)


def _ratio(m: re.Match, lower: bool) -> tuple[float, float]:
    """The subject's value over the object's that a matched factor states: "60% lower" is 0.4, "2-3x" 2 to 3."""
    low, high = float(m.group("low")), float(m.group("high") or m.group("low"))
    if m.group("kind") == "%":
        return (1 - high / 100, 1 - low / 100) if lower else (1 + low / 100, 1 + high / 100)
    return (1 / high, 1 / low) if lower else (low, high)


def _factor(m: re.Match) -> str:
    """The factor of a match as "60%" or "2-3x", whatever the language wrote ("в 2 раза", "2.25 倍")."""
    number = m.group("low") + (f"-{m.group('high')}" if m.group("high") else "")
    return number + ("%" if m.group("kind") == "%" else "x")


def continued(text: str, rel: Relation, end: int) -> list[Relation]:
    """The factor after a relation's that keeps its two sides in another number format it names ("..., 6x
    faster for fp8"); one that names none ("..., 2x faster with sparsity on B200") is no figure of theirs."""
    out = []
    m = CONTINUED.match(text, end)
    written = DTYPE.match(text, m.end()) if m else None  # "for fp8": its own number format, else no figure of its own
    if written is not None and rel.attribute == "peak_compute":
        lower = m.group("word").lower() in LOWER_WORDS
        out.append(replace(rel, ratio=_ratio(m, lower), direction="lower" if lower else "higher", factor=_factor(m),
                           dtype=dtype_name(written.group(1))))
    return out
