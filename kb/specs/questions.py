"""What a spec question asks: which entities, which attribute, and whether it compares or ranks them.

Everything here is matching against the vocabulary: entity names (with
Russian inflections and Chinese written without spaces), attribute cues in
the question's language (units count as cues: "TFLOPS", "GB/s"), data types,
and words that make a question a comparison ("or", "или", "还是") or a
superlative ("the most", "дешевле всего", "最"). A question that names no
attribute, or asks why, is not a spec question, and gets passages only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from kb.class_comparison import offers_classes
from kb.specs import dates
from kb.specs.clauses import BIDIRECTIONAL, PARTS, SUBJECT_KINDS
from kb.specs.facts import FactTable
from kb.specs.units import DTYPE, UNITS, counted
from kb.textnorm import normalize_for_matching

Kind = Literal["lookup", "comparison", "superlative"]

_COMPARE = {
    # a comparative between two names compares them even where "than" is misspelt ("more sbuf then trainium")
    "en": r"\b(?:vs\.?|versus|compared?|than|which|or|difference|more|less|fewer|higher|lower|bigger|larger|"
          r"smaller|faster|slower|cheaper|better|worse)\b",
    # a Russian comparative compares without "чем": "B200 быстрее H100" (the genitive of comparison)
    "ru": r"(?<![а-яё])(?:или|чем|против|сравнени\w*|как\w{1,3}|кто|у кого|что|насколько|лучше|хуже|больше|меньше|"
          r"дешевле|дороже|выше|ниже|быстрее|медленнее|мощнее|сильнее|слабее)(?![а-яё])",
    "zh": r"还是|和|与|比|相比|哪个|哪款|谁|对比|提升",
}
_SUPERLATIVE = {
    "en": r"\b(?:most|highest|largest|biggest|fastest|least|lowest|cheapest|smallest|slowest|best|maximum|minimum)\b|"
          r"\bwhich\b.*\b(?:cheaper|faster|slower|larger|bigger|more|higher|less|lower|smaller)\b",
    "ru": r"(?<![а-яё])(?:сам\w+|больше всего|меньше всего|наибольш\w*|наименьш\w*|максимальн\w*|минимальн\w*|"
          r"дешевле|дороже|быстрее|больше|меньше)(?![а-яё])",
    "zh": r"最|更便宜|更贵|更大|更多|更快|更慢",
}
_LOWER = {
    "en": r"\b(?:least|lowest|cheap\w*|smallest|slow(?:er|est)|weak(?:er|est)?(?![- ]scal)|minimum|less|fewer|lower)\b",
    "ru": r"(?:меньш\w*|наименьш\w*|минимальн\w*|деш[её]в\w*|выгодн\w*|ниже|медленн\w*|слаб\w*)",
    "zh": r"最少|最低|最小|最便宜|便宜|划算|更少|更低|更小|更慢|最慢|更弱|最弱",
}
# The words that ask for more of a thing; beside a word of _LOWER, the one nearer the attribute's cue decides
# ("which has more HBM? we want less sharding" asks for more memory)
_HIGHER = {
    "en": r"\b(?:most|highest|largest|biggest|fastest|greatest|best|maximum|more|higher|larger|bigger|faster|"
          r"greater|better|stronger|strongest)\b",
    "ru": r"(?:больш\w*|наибольш\w*|максимальн\w*|выше|быстрее|мощнее|сильнее|дороже)",
    "zh": r"最多|最高|最大|最快|最强|更多|更高|更大|更快|更强",
}
# Two things offered as alternatives ("TPU or GPU", "TPU или GPU", "TPU 还是 GPU", "跟 GPU 比"): without a named
# entity on either side the question compares classes, and the passage that compares them answers it.
_ALTERNATIVES = re.compile(r"\b(?:or|vs\.?|versus)\b|(?<![а-яё])или(?![а-яё])|还是|[跟和与].{1,12}?(?:比|相比)",
                           re.IGNORECASE)
# Words that ask how many times or by how much one side exceeds the other: the factor is the answer, so it leads.
_RATIO = re.compile(r"\bhow many times\b|\bwhat factor\b|\bby how much\b|\bhow much (?:faster|slower|more|less|higher|"
                    r"lower|bigger|larger|smaller|cheaper)\b|\bin percent\b|\bwhat percent|\bhow many percent|"
                    r"во сколько раз|на сколько процент|(?:на ?сколько|насколько) (?:больше|меньше|быстрее|медленнее|"
                    r"дешевле|дороже|выше|ниже)|几倍|多少倍|倍数|百分之几|百分之多少|多少\s*%|"
                    r"(?<!最)(?:高|低|快|慢|便宜|贵)(?:了|出)?多少|(?:提升|提高|增加|降低)了?多少")
_TIMES = re.compile(r"\btimes\b|\bfactor\b|(?<![а-яё])раз(?:а)?(?![а-яё])|倍")
# A Chinese count asked with a measure word ("几条 NVLink", "多少个核心") wants things counted, never an amount
# of bytes or a rate: a reading whose attribute is no count is none, and the passages answer
# "几个"/"多少个" before a unit or money ask for an amount of it ("多少个 GB", "几块钱"), no count
_COUNTED = re.compile(r"(?:几|多少)\s*[条个颗块张台根枚](?!\s*(?:钱|元|美元|美金|(?:[KMGTP]i?B?|TFLOPS|PFLOPS|W|瓦)(?![A-Za-z])))", re.IGNORECASE)
# An English noun phrase ends in its head: a cue word right before a noun of a part ("compute engine", "memory
# controller", "compute die") only says which part, and the part is what the phrase names, not the cue's attribute
# (when another cue names one).
_PART_HEAD = re.compile(r"[\s-]+(?:engines?|units?|dies?|tiles?|blocks?|chiplets?|complex(?:es)?|controllers?|"
                        r"subsystems?)\b")
WHY = re.compile(r"\bwhy\b|\bhow come\b|(?<![а-яё])(?:почему|зачем|отчего)(?![а-яё])|为什么|为啥|为何|怎么会")
# What a thing is or is for ("what are the CC-Cores used for?", "что такое LNC", "CC-Core 是干什么用的") asks for a
# definition, not a figure, though the thing is an attribute's word ("NeuronCore" counts cores); never where a
# figure is asked too ("what is the price for H100", "сколько памяти ... и для чего").
DEFINES = re.compile(r"^\W*what (?:is|are) (?:an? |the )?[\w-]+(?: [\w-]+){0,3} used for\W*$|"
                     r"^\W*what (?:does|do) (?:an? |the )?[\w-]+(?: [\w-]+){0,3} do\W*$|"
                     r"что такое|для чего (?:нуж|служ|использ)\w*|(?<![а-яё])зачем нуж\w*|"
                     r"什么是|是干什么|干什么用|做什么用|有什么用|起什么作用")
_FIGURE_ASKED = re.compile(r"\bhow (?:much|many|fast|big|large)\b|(?<![а-яё])скольк|каков|какой объ|多少|几|是多少")
# Units written in a question say what kind of quantity it asks for ("in %", "сколько гигабит", "多少美元").
_UNIT_WORDS = {
    "%": r"%|percent|процент\w*|百分",
    "USD/h": r"\busd\b|\$|dollars?|долл\w*|美元",
    "W": r"\bwatts?\b|ватт\w*|\bвт\b|瓦",
    "nm": r"\bnm\b|нанометр\w*|\bнм\b|纳米",
    "GHz": r"\bghz\b|\bmhz\b|гигагерц\w*|мегагерц\w*|ггц|мгц|赫兹|兆赫",
    "Gbps": r"\bgbps\b|гигабит\w*|гбит",
    "GB": r"\bgi?b\b|гигабайт\w*|\bгб\b",
    "TB/s": r"\bt?gb/s\b|\btb/s\b|\bgbps\b",
    "TFLOPS": r"\btflops\b|\bpflops\b|\btops\b",
    "mm²": r"mm²|\bmm2\b|мм²|\bмм2\b|平方毫米|square millimet\w+|квадратн\w+ миллиметр\w*",
}
# Words that ask how fast something goes: the answer is a rate (bandwidth, compute, clock), never a size or a
# count, so "how fast can a TPU move data to host RAM over PCIe" asks for the PCIe bandwidth, not the host memory.
_RATE_WORDS = re.compile(r"\bhow fast\b|\bspeeds?\b|\bhow quickly\b|\bfaster\b|скорост\w*|как быстро|"
                         r"насколько быстр\w*|(?<![а-яё])быстрее|多快|速度|速率|更快")
# "Which is faster at FP8", "how fast in BF16", "у кого FP64 мощнее": with a precision named, a word that asks how
# fast or how powerful (or two things compared) and no other cue, the question asks for the peak compute in that
# precision (the one attribute given per data type).
_FAST_WORDS = re.compile(r"\bhow (?:fast|quick(?:ly)?)\b|\bspeeds?\b(?! up)|\b(?:fast|quick)(?:er|est)\b|скорост\w*|"
                         r"как быстро|(?<![а-яё])быстре\w*|самы\w* быстр\w*|多快|速度|更快|最快|哪个快|谁快|"
                         r"\b(?:more|most) powerful\b|\bstronger\b|мощне\w*|самы\w* мощн\w*|更强|最强")
# of those, the comparatives: they ask how fast only of things compared ("FP8 for faster training" asks no figure)
_FAST_COMPARATIVES = re.compile(r"(?:fast|quick)er|быстре\w*|更快|more powerful|stronger|мощне\w*|更强")
PER_PRECISION = "peak_compute"
# Words that qualify a figure as achieved in practice rather than the datasheet's peak ("real matmul", "实测").
# Adjectives only: the adverbs ("actually faster", "реально быстрее", "实际上") stress a comparison.
_PRACTICE = re.compile(r"\b(?:real(?:istic|[- ]world)?|actual|achievable|achieved|measured)\b|"
                       r"реальн(?:ый|ого|ом|ая|ой|ую|ые|ых|ым|ыми)(?![а-яё])|фактическ\w*|достижим\w*|实测|实际(?!上)")
MEASURED_COMPUTE = "mamf"
_SUPPORT = re.compile(r"\bsupport\w*|поддерж\w*|支持")  # whether a format is supported is no figure of it
# "пропускная" alone is said for the whole phrase ("какая у него пропускная памяти?")
_BANDWIDTH_WORDS = re.compile(r"\bbandwidth\b|\bbw\b|(?<![а-яё])пропускн\w*|带宽")
# What stands between a head cue and a cue that qualifies it: English "of" (a word or two may come between:
# "clock speed of the"), a Russian genitive right after its head (nothing but a space between).
_GOVERNS = {
    # a model name may stand before the governed cue ("the clock of the MI250 compute units")
    "en": re.compile(r"(?:\s+[a-z-]+){0,2}\s+of\s+(?:the\s+|its\s+|an?\s+|each\s+|one\s+|all\s+)?"
                     r"(?:(?:[a-z]+\s+)?[a-z]*\d[\w.-]*\s+)?"),
    "ru": re.compile(r"\s+"),
}
_RATE_DIMENSIONS = {"bytes/s", "ops/s", "Hz"}
# Precisions named in words: a data type as surely as "FP64" is.
_PRECISION_WORDS = {
    "FP64": re.compile(r"\bdouble[- ]precision\b|двойн\w* точност\w*|双精度"),
    "FP32": re.compile(r"\bsingle[- ]precision\b|одинарн\w* точност\w*|单精度"),
    "FP16": re.compile(r"\bhalf[- ]precision\b|половинн\w* точност\w*|半精度"),
}
# The kind of figure ("Matrix FP8" against "Vector FP8" rows of a spec table, one-way against bidirectional).
_BASIS_WORDS = {"matrix": r"\bmatrix\b|\bmatmul\b|матричн\w*|矩阵", "vector": r"\bvector\b|векторн\w*|向量",
                "one-way": r"\bone[- ]way\b|\bunidirectional\b|однонаправлен\w*|в одну сторону|单向",
                "bidirectional": BIDIRECTIONAL.pattern}
_SCOPE_WORDS = {
    # the singular: "both GCDs" is the whole chip, as the prose reader takes it
    **{scope: rf"(?<![a-z0-9])(?:{words})(?![a-z0-9])" for scope, words in PARTS.items()},
    "per_instance": r"\binstances?\b|инстанс\w*|实例",
    "per_chip": r"\bchips?\b|\bper chip\b|чип\w*|芯片",
}
# A part counted ("with 8 XCDs", "с 8 XCD", "8个XCD") is the whole chip's make-up, not a scope asked for.
_COUNT_BEFORE = re.compile(r"(?<![A-Za-z0-9.])\d+\s*(?:[个块颗]\s*)?$")  # a number, not a name's last digits ("MI250 GCD")
_KIND_WORDS = {
    "chip": r"\bchips?\b|\bgpus?\b|\baccelerators?\b|чип\w*|ускорител\w*|芯片|加速器",
    "instance": r"\binstances?\b|инстанс\w*|实例",
}
# A chip of a consumer device ("smartphone chip", "чип для ноутбука", "手机芯片") is no kind the table holds:
# the classes of device a data-centre accelerator is not, in the three languages.
# (not words also said of the cloud: "console", "notebook", "mobile")
_CONSUMER = re.compile(r"\b(?:(?:smart)?phones?|laptops?|tablets?|ipad|iphone|android|playstation|ps5|xbox|nintendo|"
                       r"gaming|automotive|smartwatch(?:es)?|tvs?|cameras?|drones?)\b|"
                       r"(?<![а-яё])(?:смартфон\w*|телефон\w*|ноутбук\w*|планшет\w*|игров\w*|автомобил\w*|телевизор\w*|"
                       r"дрон\w*)|手机|平板|游戏|汽车|车载|手表|电视|相机|无人机")


@dataclass(frozen=True)
class SpecQuery:
    kind: Kind
    attribute: str
    entities: tuple[str, ...] = ()
    dtype: str | None = None
    direction: Literal["higher", "lower"] = "higher"
    sparse: bool = False
    basis: str | None = None  # "matrix", "vector": the kind of unit a figure is of, when the question names one
    kind_filter: str | None = None
    scopes: tuple[str, ...] = ()  # scopes the question names ("each MI250 GCD")
    # the question asks by how much one side exceeds the other: "times" ("во сколько раз", "几倍"), "share"
    # ("how much less", "на сколько процентов"), or None
    ratio: str | None = None
    cued: tuple[str, ...] = field(default=(), compare=False)  # every attribute the question cued, best first
    # things the question asks about that the corpus names but the table has no entity for ("the MI300A")
    unlisted: tuple[str, ...] = ()


def understand(question: str, lang: str | None, table: FactTable, known_words: frozenset[str] = frozenset(),
               unlisted: tuple[str, ...] = ()) -> SpecQuery | None:
    """The spec reading of a question, or None when it asks about no attribute. ``known_words`` (the
    corpus's) are never taken for misspellings of attribute words; ``unlisted`` are the names of things the
    corpus writes that are no table entity (``kb.coverage.unlisted_names``): asked about with no entity
    named, the question asks their attribute, and the table has none."""
    lang = lang or "en"
    text = normalize_for_matching(question)
    vocabulary = table.vocabulary
    low = vocabulary.mend_spelling(text.lower(), known_words)
    entities = tuple(dict.fromkeys(m.entity for m in vocabulary.mentions(text)))
    dtype_match = DTYPE.search(text)
    dtype = dtype_match.group(1).upper() if dtype_match else \
        next((d for d, pattern in _PRECISION_WORDS.items() if pattern.search(low)), None)
    # a cue inside a product's name ("PCIe" of "A100 PCIe") is part of the name, not a question about it
    names = [(m.start, m.end) for m in vocabulary.mentions(low) if vocabulary.entities[m.entity].kind in SUBJECT_KINDS]
    spans = {a: kept for a, found in vocabulary.cue_spans(low, lang).items()
             if (kept := [(s, e) for s, e in found if not any(ns <= s and e <= ne for ns, ne in names)])}
    # beside another cue, one that only names a part ("compute engine") is not what is asked; alone, it is
    heads = {a: kept for a, found in spans.items() if (kept := [(s, e) for s, e in found if not _PART_HEAD.match(low, e)])}
    spans = heads or spans
    if WHY.search(low) or DEFINES.search(low) and not _FIGURE_ASKED.search(low):
        return None  # a reason or a definition is asked, not a figure: the passage that gives it answers
    cues = vocabulary.attribute_cues(low, lang, spans) or _unit_cue(low, table)
    fast = _FAST_WORDS.search(low)
    if fast and _FAST_COMPARATIVES.fullmatch(fast.group(0)) and len(entities) < 2:
        fast = None
    compare = re.search(_COMPARE.get(lang, _COMPARE["en"]), low) or re.search(_COMPARE["en"], low)
    ratio = bool(_RATIO.search(low))
    # a precision is what two things are compared in ("is a B300 or a B200 the better pick for FP64?")
    if not cues and dtype and (fast or len(entities) >= 2 and compare and not _SUPPORT.search(low)) and \
            PER_PRECISION in vocabulary.attributes:
        cues = [(0, PER_PRECISION)]
    # "H100 比 A100 快几倍？": how much faster one is than the other, where the corpus states it of their compute
    # (a word of speed, not of size: "H100 比 A100 大几倍" asks no compute)
    if not cues and len(entities) >= 2 and (fast or ratio and re.search(r"快|быстр|\bfaster\b", low)) and \
            table.relation_between(entities[0], entities[1], PER_PRECISION) is not None:
        cues = [(0, PER_PRECISION)]
    if not cues:
        return None
    cued = tuple(a for _, a in cues)

    def has_facts(attribute: str) -> bool:
        pool = entities or tuple(table.entities_with(attribute))
        return any(table.about(e, attribute) or any(table.about(r, attribute) for r in table.related(e))
                   for e in pool)

    attribute = _choose(cues, low, vocabulary, has_facts, spans, lang)
    if attribute is None or lang == "zh" and _COUNTED.search(low) and not counted(vocabulary.attributes[attribute].unit):
        return None
    if attribute == PER_PRECISION and _PRACTICE.search(low) and MEASURED_COMPUTE in vocabulary.attributes:
        attribute = MEASURED_COMPUTE  # "на реальном bf16 matmul": what is achieved, not the peak
    superlative = re.search(_SUPERLATIVE.get(lang, _SUPERLATIVE["en"]), low)
    better = vocabulary.attributes[attribute].better
    lower = _nearer_lower(low, lang, spans.get(attribute, []))
    direction = "lower" if lower else ("higher" if superlative or compare else better)
    kind_filter = None if _CONSUMER.search(low) else \
        next((k for k, pattern in _KIND_WORDS.items() if re.search(pattern, low)), None)
    sparse = bool(re.search(r"sparse|稀疏|разрежен", low))
    basis = next((b for b, pattern in _BASIS_WORDS.items() if re.search(pattern, low)), None)
    if attribute == dates.ATTRIBUTE:
        basis = dates.asked_event(low)  # the shipping date for "when will it ship", not the announcement
    ranks = superlative or re.search(_HIGHER.get(lang, _HIGHER["en"]), low) or lower or fast
    if len(_things(entities, vocabulary)) >= 3 and ranks and not ratio and \
            vocabulary.attributes[attribute].unit in UNITS:
        # "which of V100, A100, H100 and B200 has the most L2": a ranking of those named; a plain list of them
        # ("Какой объём памяти у H100, A100 и MI300X?") asks each one's value
        kind: Kind = "superlative"
    elif len(entities) >= 2 and (compare or ratio):
        kind = "comparison"
    elif not entities and (_ALTERNATIVES.search(low) or offers_classes(low)):
        return None  # classes compared ("TPU or GPU"): no ranking over whichever instances have a value
    elif not entities and superlative:
        kind = "superlative"
    elif not entities and not unlisted:
        return None
    else:
        kind = "lookup"
    scopes = tuple(s for s, pattern in _SCOPE_WORDS.items()
                   if any(not _COUNT_BEFORE.search(low, 0, m.start()) for m in re.finditer(pattern, low)))
    return SpecQuery(kind=kind, attribute=attribute, entities=entities, dtype=dtype, direction=direction,
                     sparse=sparse, basis=basis, kind_filter=kind_filter, scopes=scopes, cued=cued,
                     ratio=(("times" if _TIMES.search(low) else "share") if ratio and kind == "comparison" else None),
                     unlisted=unlisted if kind == "lookup" and not entities else ())


def _things(entities: tuple[str, ...], vocabulary) -> tuple[str, ...]:
    """The chips, instances and systems named (not a memory or link named beside them: "the H100 (HBM3)"), a
    chip named beside the instance or system built of it being part of that one ("a dl1 (gaudi) instance or a
    p4d" names two)."""
    chips = {vocabulary.entities[e].parts.chip for e in entities if vocabulary.entities[e].parts}
    return tuple(e for e in entities if e not in chips and vocabulary.entities[e].kind in SUBJECT_KINDS)


def _nearer_lower(low: str, lang: str, cued: list[tuple[int, int]]) -> bool:
    """Whether the question asks for less of the attribute cued at the spans ``cued``: a word of _LOWER, unless
    a word of _HIGHER stands nearer a cue (with no cue span, any word of _LOWER)."""
    def nearest(pattern: str) -> int | None:
        return min((max(s - m.end(), m.start() - e, 0) for m in re.finditer(pattern, low) for s, e in cued or [(0, 0)]),
                   default=None)
    lower = nearest(_LOWER.get(lang, _LOWER["en"]))
    if lower is None:
        return False
    higher = nearest(_HIGHER.get(lang, _HIGHER["en"])) if cued else None
    return higher is None or lower <= higher


def _choose(cues: list[tuple[int, str]], low: str, vocabulary, has_facts, spans: dict[str, list[tuple[int, int]]],
            lang: str) -> str | None:
    """The attribute a question asks for (None for a bandwidth of none of the cued things). A cue that only qualifies another one is not what is asked: the
    object of "of" in English ("the clock of the compute units"), the genitive right after a Russian head
    noun ("частота вычислительных блоков"). A word of bandwidth asks for bytes per second: of the cued
    attributes, or of the rate sibling a cued one names ("пропускная способность HBM" asks for the memory
    bandwidth, not the memory). Then the longest cue, never a shorter one because the table has facts of it
    (a question about a clock is not answered with TFLOPS). A unit written in the question narrows the cues
    to its dimension, or names the attribute when no cue does. Among cues of equal length the last one
    written, as a noun phrase ends in its head ("peak clock", "峰值主频", "пиковая частота"); where one cue
    names two attributes, one the table can answer; cues of equal length of one dimension are two words for
    one kind of thing ("исходящая пропускная способность сети"), and one the table can answer comes first.
    Before all that, an acronym and a word of one dimension written side by side name one thing
    (``_apposed``)."""
    def dimension(a: str) -> str | None:
        unit = vocabulary.attributes[a].unit
        return UNITS[unit].dimension if unit in UNITS else None

    heads = _heads(spans, low, lang)
    cues = [(n, a) for n, a in cues if a in heads] or cues
    apposed = _apposed(cues, spans, low, dimension, has_facts)
    cues = [(n, a) for n, a in cues if a not in apposed] or cues
    written = [unit for unit, pattern in _UNIT_WORDS.items() if re.search(pattern, low)]
    dimensions = {UNITS[u].dimension for u in written}
    def rate_siblings() -> list[tuple[int, str]]:  # "HBM" with a word of speed: the memory's bandwidth
        return [(n, sibling.id) for n, a in cues for sibling in vocabulary.attributes.values()
                if set(sibling.named_by) & set(vocabulary.attributes[a].named_by) and dimension(sibling.id) == "bytes/s"]

    if _BANDWIDTH_WORDS.search(low):
        rates = [(n, a) for n, a in cues if dimension(a) == "bytes/s"]
        cues = rates or rate_siblings()
        if not cues:
            return None  # a bandwidth the vocabulary has no attribute for is never answered with TFLOPS
    elif _RATE_WORDS.search(low):
        rates = [(n, a) for n, a in cues if dimension(a) in _RATE_DIMENSIONS]
        cues = rates or rate_siblings() or cues
    if dimensions:
        of_unit = [(n, a) for n, a in cues if dimension(a) in dimensions]
        if of_unit:
            cues = of_unit
        elif not any(n >= 6 for n, _ in cues):  # only short, generic cues: the unit says more
            named = [a.id for a in vocabulary.attributes.values() if a.unit in UNITS and UNITS[a.unit].dimension
                     in dimensions]
            named = [a for a in named if has_facts(a)] or named  # of those, the ones the table has values of
            if len(named) == 1:
                return named[0]
    best = max(n for n, _ in cues)
    tied = [a for n, a in cues if n == best]
    if len({dimension(a) for a in tied}) == 1:  # two words for one kind of thing: the one with values
        tied = [a for a in tied if has_facts(a)] or tied
    ends = {a: max((e for _, e in spans.get(a, [])), default=0) for a in tied}
    last = max(ends.values())
    tied = [a for a in tied if ends[a] == last]
    return next((a for a in tied if has_facts(a)), tied[0])


# Two cues side by side: one right after the other ("SBUF memory", "SBUF-памяти", "片上缓存 SBUF") or in brackets
# right after it ("SBUF (on-chip памяти)", "片上缓存(SBUF)"), or with the word of rate they share between them
# ("ICI bandwidth per link"); one of them an acronym ("sbuf", "smem", "l2", "ici").
_SIDE_BY_SIDE = re.compile(r"[ -]?(?:\([^()]{0,20})?(?:(?:bandwidth|bw|пропускн\w* способност\w*|带宽)\s*)?")
_ACRONYM = re.compile(r"[a-z][a-z0-9]{1,3}|[a-z0-9]{1,3}[a-z]")  # a short Latin token: "sbuf", "l2" (not "memory")


def _apposed(cues: list[tuple[int, str]], spans: dict[str, list[tuple[int, int]]], low: str, dimension,
             has_facts) -> set[str]:
    """The attributes to drop where an acronym and a word of one dimension stand side by side: they name one
    thing in either order ("SBUF memory", "памяти SBUF", "片上缓存(SBUF)"), and the acronym says which, though the
    generic word is the longer cue; unless only the word's attribute has values for what is asked."""
    dropped: set[str] = set()
    cued = [a for _, a in cues]
    for a in cued:
        for b in cued:
            if a == b or dimension(a) is None or dimension(a) != dimension(b) or any(
                    s <= bs and be <= e for s, e in spans.get(a, []) for bs, be in spans.get(b, [])):
                continue  # one inside the other's phrase ("每个 SM 的共享内存(SMEM)"): the longer cue decides
            for (s1, e1), (s2, e2) in ((x, y) for x in spans.get(a, []) for y in spans.get(b, []) if y[0] >= x[1]):
                if not _SIDE_BY_SIDE.fullmatch(low, e1, s2):
                    continue
                first, second = _ACRONYM.fullmatch(low, s1, e1), _ACRONYM.fullmatch(low, s2, e2)
                if bool(first) == bool(second):
                    continue  # two words, or two acronyms: a phrase of its own ("исходящая пропускная способность сети")
                term, word = (a, b) if first else (b, a)
                dropped.add(term if has_facts(word) and not has_facts(term) else word)
    # a cue inside a dropped one's phrase goes with it ("memory" of "SBUF on-chip memory")
    inside = {c for c in cued if c not in dropped and spans.get(c) and any(
        all(any(ds <= s and e <= de for ds, de in spans.get(d, [])) for s, e in spans[c]) for d in dropped)}
    return dropped | inside


def _heads(spans: dict[str, list[tuple[int, int]]], low: str, lang: str) -> set[str]:
    """The cued attributes no other cue governs (see ``_choose``)."""
    link = _GOVERNS.get(lang)
    if link is None:
        return set(spans)
    governed = set()
    for a, a_spans in spans.items():
        for b, b_spans in spans.items():
            inside = any(bs <= s and e <= be for s, e in a_spans for bs, be in b_spans)  # b's phrase holds a's
            if a != b and not inside and any(link.fullmatch(low[ae:bs]) and not any(s <= bs < e for s, e in a_spans)
                                             for _, ae in a_spans for bs, _ in b_spans if bs >= ae):
                governed.add(b)
    return set(spans) - governed


def _unit_cue(low: str, table: FactTable) -> list[tuple[int, str]]:
    """With no attribute named, a unit written in the question ("多少美元") names the one attribute
    measured in its dimension that the table has values of, when there is one."""
    dimensions = {UNITS[u].dimension for u, pattern in _UNIT_WORDS.items() if re.search(pattern, low)}
    named = [a.id for a in table.vocabulary.attributes.values() if a.unit in UNITS and UNITS[a.unit].dimension in dimensions
             and table.entities_with(a.id)]
    return [(0, named[0])] if len(named) == 1 else []
