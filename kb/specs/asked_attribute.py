"""Which attribute a spec question asks for, among the ones its words cue.

A question may cue several attributes ("the clock of the compute units", "SBUF memory", "HBM bandwidth"):
one is the head of the phrase and the others qualify it, a word of bandwidth or speed asks for a rate, and a
unit written in the question narrows the choice to its dimension (see ``choose_attribute``).
"""

from __future__ import annotations

import re

from kb.language import HAN
from kb.specs.clauses import asking_part, defined_per, fits_said_per, said_per
from kb.specs.facts import FactTable
from kb.specs.units import UNITS, counted

# Units written in a question say what kind of quantity it asks for ("in %", "сколько гигабит", "多少美元").
UNIT_WORDS = {
    "%": r"%|percent|процент\w*|百分",
    "USD/h": r"\busd\b|\$|dollars?|долл\w*|美元",
    "W": r"\bwatts?\b|ватт\w*|\bвт\b|瓦",
    "nm": r"\bnm\b|нанометр\w*|\bнм\b|纳米",
    "GHz": r"\bghz\b|\bmhz\b|гигагерц\w*|мегагерц\w*|ггц|мгц|赫兹|兆赫",
    "Gbps": r"\bgbps\b|гигабит\w*|гбит",
    # a size, not a rate: "ГБ/с" and "gigabytes per second" are rates
    "GB": r"(?:\bgi?b\b|гигабайт\w*|\bгб\b)(?!\s*(?:/|per sec|в секунду|в сек\b))",
    "TB/s": r"\bt?gb/s\b|\btb/s\b|\bgbps\b|(?:\b[гт]б|гигабайт\w*|терабайт\w*)\s*(?:/\s*с|в секунду|в сек\b)|"
            r"\b(?:giga|tera)bytes? per second\b|\b[gt]b per sec",
    "TFLOPS": r"\btflops\b|\bpflops\b|\btops\b",
    "mm²": r"mm²|\bmm2\b|мм²|\bмм2\b|平方毫米|square millimet\w+|квадратн\w+ миллиметр\w*",
}
# Words that ask how fast something goes: the answer is a rate (bandwidth, compute, clock), never a size or a
# count, so "how fast can a TPU move data to host RAM over PCIe" asks for the PCIe bandwidth, not the host memory.
_RATE_WORDS = re.compile(r"\bhow fast\b|\bspeeds?\b|\bhow quickly\b|\bfast(?:er|est)\b|скорост\w*|как быстро|"
                         r"насколько быстр\w*|(?<![а-яё])быстрее|多快|速度|速率|更快")
# "пропускная" alone is said for the whole phrase ("какая у него пропускная памяти?")
_BANDWIDTH_WORDS = re.compile(r"\bbandwidth\b|\bbw\b|(?<![а-яё])пропускн\w*|带宽")
# "high-bandwidth memory" spelled out is the name of a kind of memory (HBM), not a word asking for a bandwidth
_MEMORY_NAMED = re.compile(r"\bhigh[- ]?bandwidth memory\b|高带宽(?:内存|显存|存储器?)|"
                           r"(?<![а-яё])памят\w* с высокой пропускной способностью|высокопропускн\w* памят\w*")
# What stands between a head cue and a cue that qualifies it: English "of" (a word or two may come between:
# "clock speed of the"), a Russian genitive right after its head (nothing but a space between).
_GOVERNS = {
    # a model name may stand before the governed cue ("the clock of the MI250 compute units")
    "en": re.compile(r"(?:\s+[a-z-]+){0,2}\s+of\s+(?:the\s+|its\s+|an?\s+|each\s+|one\s+|all\s+)?"
                     r"(?:(?:[a-z]+\s+)?[a-z]*\d[\w.-]*(?:['’]s)?\s+)?"),
    "ru": re.compile(r"\s+"),
}
# The noun right after the question word is what is asked; a cue later in its clause is whom it is asked of ("at
# what peak clock do the MI250 compute units run", "на какой частоте работают NeuronCore"). An auxiliary verb ends
# the English phrase; a Russian one is the one or two words after the question word.
# (A conjunction is no word of the phrase: "какую частоту и пропускную способность" asks both.)
_ASKED_NOUN = {
    # "what's the NP the MI250 compute units run at": the NP up to the clause it heads
    "en": re.compile(r"\b(?:what(?:['’]s|\s+is|\s+are|\s+was)\s+(?:the|its|their)\s+|(?:what|which|how much|how many)\s+)"
                     r"(?P<np>(?:(?!(?:and|or)\s)[a-z0-9-]+\s+){0,2}?[a-z0-9-]+)\s+(?:do|does|did|is|are|was|were|can|could|will"
                     r"|would|should|has|have|the|that|which)\b"),
    "ru": re.compile(r"(?<![а-яё])(?:как(?:ой|ая|ую|ое|ие|им|ом|ова?|ово|овы)|сколько)\s+"
                     r"(?P<np>(?:(?!(?:и|или|а)\s)[a-zа-яё0-9-]+\s+)?(?!(?:и|или|а)(?![а-яё-]))[a-zа-яё0-9-]+)"),
}
# One chip asked of ("a single GPU in a GB200 NVL72", "одного GPU", "单卡"): no figure of a whole node or domain.
ONE_GPU = re.compile(r"\b(?:per[- ]|one |single |each |a single )(?:gpu|chip|card)s?\b|"
                     r"(?<![а-яё])(?:на|одн\w*|кажд\w*) (?:gpu|чип\w*|карт\w*)|单卡|单(?:个|张|块|颗)?\s*(?:gpu|卡|芯片)|"
                     r"每(?:个|张|块|颗)?\s*(?:gpu|卡|芯片)")
_NEXT_WORD = re.compile(r"\s+(?!(?:и|или|а)(?![а-яё-]))([а-яё-]+)")
# Where a clause ends: a stop, a comma, a conjunction between clauses.
CLAUSE_BREAK = re.compile(r"[,，;；?？。]|\s(?:and|и|а)\s|[和并]且?")
_IN_MEASUREMENT = re.compile(r"\s+(?:in|from|on)\s+(?:the\s+|its\s+|their\s+)?(?:[a-z0-9]+\s+){0,2}")
_MEASUREMENT = re.compile(r"\s*(?:\([^()]{0,20}\)\s*)?(?:measurements?|benchmarks?|results?|tests?|runs?)\b")
# the same setting in Chinese, after the cue it is of: "MAMF 实测里", "在 MAMF 测试中", "MAMF 基准测试的结果里"
_ZH_MEASUREMENT = re.compile(r"\s*的?\s*(?:实测|测试|测量|基准测试|基准|跑分)\s*(?:的?结果)?\s*(?:里|中|上)")
# what stands between a Chinese modifier and its head: 的, or the bracket of a gloss (two words written together
# may be no phrase: "每小时几块钱" is a price)
_ZH_MODIFIES = re.compile(r"\s*(?:[)）]\s*的?|的)\s*")
_GLOSS, _GLOSS_END = re.compile(r"\s*[(（]\s*"), re.compile(r"\s*[)）]")
_ZH_RATE_HEAD = re.compile(rf"\s*[{HAN}]{{0,3}}?(?:带宽|速率|速度)")  # "峰值传输带宽": the bandwidth is the head
_RATE_DIMENSIONS = {"bytes/s", "ops/s", "Hz"}
# what ends here is a number (not the digits of a name: "FP8", "A100"): the unit after it is of a figure given
_GIVEN = re.compile(r"(?<![\w.])\d(?:[\d.,]*\d)?\s*$")
# what ends here is a figure given with its unit, and "of": the cue after it names what is given ("8 TB/s of HBM
# bandwidth", "192GB of memory"), not what is asked
_GIVEN_OF = re.compile(r"(?<![\w.])\d(?:[\d.,]*\d)?\s*[a-zа-яё]+(?:/s)?\s+(?:of|из)\s+$")
Spans = list[tuple[int, int]]


def rate_asked(low: str) -> bool:
    """Whether a word of bandwidth or speed asks for a figure: not inside the name "high-bandwidth memory"."""
    unnamed = _MEMORY_NAMED.sub(lambda m: " " * len(m.group()), low)
    return bool(_BANDWIDTH_WORDS.search(unnamed) or _RATE_WORDS.search(unnamed))


def _unit_only(words: str) -> bool:
    """Whether a cue's words are nothing but a unit ("TFLOPS", "ГБ")."""
    return any(re.fullmatch(pattern, words) for pattern in UNIT_WORDS.values())


def _holds(outer: Spans, inner: Spans) -> bool:
    """Whether a phrase of ``outer`` holds one of ``inner`` (or is it)."""
    return any(s <= i_s and i_e <= e for s, e in outer for i_s, i_e in inner)


# A share of the peak asked with what it is of: "achieved TFLOPS relative to the theoretical peak", "отношение
# достигнутых TFLOPS к теоретическим", "实测 TFLOPS 与理论峰值之比", "占峰值的比例"
_SHARE = re.compile(r"\b(?:relative to|as an? (?:share|percentage|fraction) of|(?:ratio|percentage|share) of .{0,40}?"
                    r"(?:to|of)) (?:the |its |their )?(?:theoretical|peak)|(?<![а-яё])(?:отношени\w*|относительно|дол\w*)"
                    r"(?![а-яё]).{0,40}?(?:теоретическ|пиков)\w*|(?:与|相对于|占)(?:其|它的)?(?:理论)?峰值")

# a share said of something ("percentage of the peak power", "процентов от пиковой мощности", "是峰值的百分之几")
_SHARE_OF = re.compile(r"\b(?:percent(?:age)?|fraction|share|proportion) of\b|(?<![а-яё])(?:процент\w*|дол[яеиюй]) от"
                       r"(?![а-яё])|的?(?:百分之几|百分比|比例|占比|几成)")

# Russian stems of what holds chips without being one: a supercomputer ("суперкомп" as people shorten it), a cluster,
# a server, a system, a machine, a board
HOLDER_STEMS_RU = "суперкомп|кластер|сервер|систем|машин|плат"
_STANDS = re.compile(rf"(?<![а-яё])сто(?:ит|ят|ял\w*)\s+(?:в|на)\s+(?:\S+\s+)?(?:{HOLDER_STEMS_RU}|узл|нод|стойк)\w*")


def choose_attribute(cues: list[tuple[int, str]], low: str, vocabulary, has_facts, spans: dict[str, Spans],
                     lang: str) -> str | None:
    """The attribute a question asks for (None for a bandwidth of none of the cued things). A cue that only
    qualifies another one is not what is asked: the object of "of" in English ("the clock of the compute units"), the genitive right after a Russian head
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

    # "стоит в суперкомпьютере" ("в суперкомпе") stands in a machine: how many are installed, no price
    standing = [m.span() for m in _STANDS.finditer(low)]
    cues = [(n, a) for n, a in cues if not (standing and spans.get(a) and all(
        any(s <= x < e for s, e in standing) for x, _ in spans[a]))]
    if not cues:
        return None
    asking = asking_part(low)  # a cue in a sentence that asks nothing names no figure asked, where one that asks has
    kept = {a: [(s, e) for s, e in found if asking[s:e].strip()] for a, found in spans.items()}
    if any(kept.get(a) for _, a in cues):
        spans = {**spans, **kept}
        cues = sorted(((max(e - s for s, e in spans[a]), a) for _, a in cues if spans[a]), key=lambda c: (-c[0], c[1]))
    else:
        asking = low
    if ONE_GPU.search(low):
        cues = [(n, a) for n, a in cues if not vocabulary.attributes[a].whole] or cues
    # a kind of thing counted ("CUDA 核心", "ядер NeuronCore") is what is asked, not the count of all its kinds its
    # words cue too (a kind of memory, "SBUF on-chip memory", is weighed with the rest below)
    narrowed = {vocabulary.attributes[a].kind_of for _, a in cues}
    cues = [(n, a) for n, a in cues if not (a in narrowed and counted(vocabulary.attributes[a].unit))] or cues
    # a count asked beside the whole it is of ("TPU v5p pod size: how many chips?") is that whole's count
    wholes = {vocabulary.attributes[a].unit for _, a in cues if vocabulary.attributes[a].whole}
    cues = [(n, a) for n, a in cues if vocabulary.attributes[a].whole or not (
        counted(vocabulary.attributes[a].unit) and vocabulary.attributes[a].unit in wholes)] or cues
    # a figure asked per one thing is of no attribute defined per another ("ICI bandwidth per chip" is not the
    # ICI's bandwidth per link)
    per = said_per(low)
    if "chip" in per and "link" not in per:  # one link's figure asked of a chip is the chip's: all its links
        wholes = {a: w for _, a in cues if (w := vocabulary.attributes[a].per_chip) in vocabulary.attributes}
        spans = {**spans, **{w: spans.get(w, []) + spans.get(a, []) for a, w in wholes.items()}}
        cues = [(n, wholes.get(a, a)) for n, a in cues]
    cues = [(n, a) for n, a in cues if fits_said_per(per, vocabulary.attributes[a].labels.get("en", ""))] or cues
    if "cycle" in per and not (cues := [(n, a) for n, a in cues if defined_per(vocabulary.attributes[a].labels.get(
            "en", "")) == "cycle"]):
        return None  # "FLOPs per cycle of a tensor core" asks no count of tensor cores, nor any rate per second
    # a cue that is only a unit ("TFLOPS") names no attribute beside one of its dimension that is named ("what
    # TFLOPS does the H100 get in MAMF" asks the MAMF)
    unit_only = {a for a, found in spans.items() if found and all(_unit_only(low[s:e]) for s, e in found)}
    cues = [(n, a) for n, a in cues if a not in unit_only or not any(
        b not in unit_only and dimension(b) == dimension(a) for _, b in cues)]
    # a unit after a number is a figure the question gives ("if NVIDIA claims 80 TFLOPS ..., what clock does that
    # make?"), not the one it asks: its attribute is no answer where another is cued
    given_of = {a for _, a in cues if spans.get(a) and all(_GIVEN_OF.search(low, 0, s) for s, _ in spans[a])}
    given = given_of | {a for a in unit_only if all(_GIVEN.search(low, 0, s) for s, _ in spans[a])}
    asked = [(n, a) for n, a in cues if a not in given]
    if given_of and not asked:
        return None  # every attribute named is a figure given ("With 192GB of memory, what's its FP8 speed?")
    cues = asked or cues  # "more than 100 TFLOPS" is a bar: compute is asked
    heads = _heads(spans, low, lang, dimension)
    cues = [(n, a) for n, a in cues if a in heads] or cues
    apposed = _apposed(cues, spans, low, dimension, has_facts)
    cues = [(n, a) for n, a in cues if a not in apposed] or cues
    # a share of the peak asked, and what of said: the figures named are its parts, not what is asked
    # (said without a word of efficiency, "the H100's MAMF relative to its theoretical peak" asks the one share
    # of the peak the vocabulary has)
    if share := _SHARE.search(low):
        of_peak = [a.id for a in vocabulary.attributes.values() if dimension(a.id) == "ratio" and
                   re.search(r"\bpeak\b", a.labels.get("en", ""))]
        shares = [(n, a) for n, a in cues if dimension(a) == "ratio"]
        if not shares and len(of_peak) == 1:
            shares, spans = [(len(share.group(0)), of_peak[0])], {**spans, of_peak[0]: [share.span()]}
        if shares:
            cues, spans = shares, {a: found for a, found in spans.items() if dimension(a) == "ratio"}
    # a unit inside another dimension's cue is what that one is measured against ("closest to its theoretical
    # TFLOPS" asks a share), not the unit asked
    def against(unit: str, m: re.Match) -> bool:
        return any(dimension(a) != UNITS[unit].dimension and any(s <= m.start() and m.end() <= e for s, e in found)
                   for a, found in spans.items())
    written = units_asked(low, against)
    dimensions = {UNITS[u].dimension for u in written}
    def rate_siblings() -> list[tuple[int, str]]:  # "HBM" with a word of speed: the memory's bandwidth
        return [(n, sibling.id) for n, a in cues for sibling in vocabulary.attributes.values()
                if set(sibling.named_by) & set(vocabulary.attributes[a].named_by) and dimension(sibling.id) == "bytes/s"]

    unnamed = _MEMORY_NAMED.sub(lambda m: " " * len(m.group()), asking)
    if _BANDWIDTH_WORDS.search(unnamed):
        rates = [(n, a) for n, a in cues if dimension(a) == "bytes/s"]
        cues = rates or rate_siblings()
        if not cues:
            return None  # a bandwidth the vocabulary has no attribute for is never answered with TFLOPS
    elif _RATE_WORDS.search(unnamed):
        rates = [(n, a) for n, a in cues if dimension(a) in _RATE_DIMENSIONS]
        cues = rates or rate_siblings() or cues
    if dimensions:
        of_unit = [(n, a) for n, a in cues if dimension(a) in dimensions]
        if of_unit:
            cues = of_unit
        elif "%" in written and cues and _SHARE_OF.search(low):
            return None  # a share of a cued figure ("percentage of the peak power") is no figure the table holds
        elif not any(n >= 6 for n, _ in cues):  # only short, generic cues: the unit says more
            named = [a.id for a in vocabulary.attributes.values() if a.unit in UNITS and UNITS[a.unit].dimension
                     in dimensions]
            named = [a for a in named if has_facts(a)] or named  # of those, the ones the table has values of
            if len(named) == 1:
                return named[0]
    # a phrase that holds an acronym cued of its own dimension ("per ICI link" holds "ICI") names that thing
    # where only the acronym's attribute has values: the ICI's per-link bandwidth, not a generic link's (a
    # generic word inside, "памяти" of "оперативной памяти", never takes over: see ``_apposed``)
    def acronyms(b: str) -> Spans:
        return [(s, e) for s, e in spans.get(b, []) if _ACRONYM.fullmatch(low, s, e)]
    cues = [(n, a) for n, a in cues if has_facts(a) or not any(
        b != a and dimension(b) == dimension(a) and has_facts(b) and _holds(spans.get(a, []), acronyms(b))
        for _, b in cues)] or cues
    best = max(n for n, _ in cues)
    tied = [a for n, a in cues if n == best]
    if len({dimension(a) for a in tied}) == 1:  # two words for one kind of thing: the one with values
        tied = [a for a in tied if has_facts(a)] or tied
    ends = {a: max((e for _, e in spans.get(a, [])), default=0) for a in tied}
    last = max(ends.values())
    tied = [a for a in tied if ends[a] == last]
    chosen = next((a for a in tied if has_facts(a)), tied[0])
    kinds = [a.id for a in vocabulary.attributes.values() if a.kind_of == chosen]
    narrower = [a for a in kinds if has_facts(a)]
    if kinds and not has_facts(chosen) and len(narrower) != 1 and counted(vocabulary.attributes[chosen].unit):
        return None  # cores of no kind, of a chip with none or several kinds counted ("H100": CUDA and tensor): passages
    return narrower[0] if not has_facts(chosen) and len(narrower) == 1 else chosen


# Two cues side by side: one right after the other ("SBUF memory", "SBUF-памяти", "片上缓存 SBUF") or in brackets
# right after it ("SBUF (on-chip памяти)", "片上缓存(SBUF)"), or with the word of rate they share between them
# ("ICI bandwidth per link"); one of them an acronym ("sbuf", "smem", "l2", "ici").
_SIDE_BY_SIDE = re.compile(r"[ -]?(?:\([^()]{0,20})?(?:(?:bandwidth|bw|пропускн\w* способност\w*|带宽)\s*)?")
_ACRONYM = re.compile(r"[a-z][a-z0-9]{1,3}|[a-z0-9]{1,3}[a-z]")  # a short Latin token: "sbuf", "l2" (not "memory")


def _apposed(cues: list[tuple[int, str]], spans: dict[str, Spans], low: str, dimension,
             has_facts) -> set[str]:
    """The attributes to drop where an acronym and a word of one dimension stand side by side: they name one
    thing in either order ("SBUF memory", "памяти SBUF", "片上缓存(SBUF)"), and the acronym says which, though the
    generic word is the longer cue; unless only the word's attribute has values for what is asked."""
    dropped: set[str] = set()
    cued = [a for _, a in cues]
    for a in cued:
        for b in cued:
            if a == b or dimension(a) is None or dimension(a) != dimension(b) or \
                    _holds(spans.get(a, []), spans.get(b, [])):
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


def _heads(spans: dict[str, Spans], low: str, lang: str, dimension) -> set[str]:
    """The cued attributes no other cue governs (see ``choose_attribute``)."""
    # a cue in brackets right after another names what that one is measured of ("matmul 效率（MAMF）"), unless it
    # is of one dimension with it: then it glosses it (see ``_apposed``); or the other's phrase holds it too
    glossed = {b for a, a_spans in spans.items() for b, b_spans in spans.items() if dimension(a) != dimension(b) and
               any(_GLOSS.fullmatch(low, e, bs) and _GLOSS_END.match(low, be) for _, e in a_spans for bs, be in b_spans)
               and not _holds(a_spans, b_spans)}
    return _governing(spans, low, lang, dimension) - glossed


def _governing(spans: dict[str, Spans], low: str, lang: str, dimension) -> set[str]:
    if lang == "zh":  # the head comes last: "矩阵乘法（MAMF）效率" is an efficiency, "每个 SM 的 SMEM" a memory;
        # a word of rate after the second cue is the head itself ("GCD 之间的峰值带宽": a bandwidth, not a peak);
        # two cues of one dimension side by side name one thing ("SBUF 片上缓存": see ``_apposed``)
        # a measurement named as the setting ("MAMF 实测里，谁的效率更高") is where the asked figure was measured
        setting = {a for a, a_spans in spans.items() if any(_ZH_MEASUREMENT.match(low, e) for _, e in a_spans)
                   and any(dimension(b) != dimension(a) for b in spans)}
        return set(spans) - setting - _before_zh_question(spans, low) - {a for a, a_spans in spans.items() for b, b_spans in spans.items()
                             if a != b and dimension(a) != dimension(b) and any(
            e <= bs and _ZH_MODIFIES.fullmatch(low, e, bs) and not _ZH_RATE_HEAD.match(low, be) and
            not any(s2 <= bs < e2 for s2, e2 in a_spans) for s, e in a_spans for bs, be in b_spans)}
    link = _GOVERNS.get(lang)
    if link is None:
        return set(spans)
    governed = _after_asked_noun(spans, low, lang)
    for a, a_spans in spans.items():
        for b, b_spans in spans.items():
            # "the efficiency in the MAMF measurements": what is measured in a named measurement is the head
            if lang == "en" and a != b and any(_IN_MEASUREMENT.fullmatch(low, ae, bs) and _MEASUREMENT.match(low, be)
                                               for _, ae in a_spans for bs, be in b_spans if bs >= ae):
                governed.add(b)
            # "peak bandwidth of a single link": the bandwidth is the head, of the link; "peak" only qualifies it
            if a != b and not _holds(b_spans, a_spans) and any(
                    link.fullmatch(low[ae:bs]) and not _BANDWIDTH_WORDS.search(low, ae, bs) and
                    not any(s <= bs < e for s, e in a_spans) for _, ae in a_spans for bs, _ in b_spans if bs >= ae):
                governed.add(b)
            # b's last word right after a, which stands inside b's phrase: the words b lets stand between its ends
            # hold a, and b's word qualifies it ("сколько всего памяти ускорителей": memory, not a count); unless
            # that word is a cue itself, of one phrase with a ("пропускная способность кэша l2": the L2's)
            if a != b and any(bs < s and e < be and link.fullmatch(low[e:(last := low.rfind(" ", bs, be) + 1)]) and
                              not any(c != b and cs <= last and be <= ce for c, c_spans in spans.items()
                                      for cs, ce in c_spans)
                              for s, e in a_spans for bs, be in b_spans):
                governed.add(b)
    return set(spans) - governed


def _after_asked_noun(spans: dict[str, Spans], low: str, lang: str) -> set[str]:
    """The cues after the noun a question word asks for, in its clause (see ``_ASKED_NOUN``); none where that
    noun is only a unit ("what TFLOPS does the H100 get in MAMF" asks the MAMF)."""
    pattern = _ASKED_NOUN.get(lang)
    asked = pattern.search(low) if pattern else None
    if asked is None:
        return set()
    start, end = asked.span("np")
    # a cue that starts in the phrase may go on past it ("на какой пиковой тактовой частоте")
    heads = {a: e for a, found in spans.items() for s, e in found if start <= s < end and not _unit_only(low[s:e])}
    if not heads and lang == "ru" and (third := _NEXT_WORD.match(low, end)):
        # two words that qualify it ("на какой пиковой тактовой частоте"): the noun is the third
        heads = {a: e for a, found in spans.items() for s, e in found if third.start(1) <= s < third.end()
                 and not _unit_only(low[s:e])}
    if not heads:
        return set()
    end = max(end, *heads.values())
    stop = CLAUSE_BREAK.search(low, end)
    while stop and _QUALIFIES.match(low, stop.start()):  # "How much SBUF memory is on a Trainium2, shared by its ..."
        stop = CLAUSE_BREAK.search(low, stop.end())
    limit = stop.start() if stop else len(low)
    return {b for b, found in spans.items() if b not in heads and all(end <= s < limit for s, _ in found)}


# A clause after a comma that qualifies what comes before it ("..., shared by its NeuronCores", "..., which the CUs
# share", "..., которую делят NeuronCore"): it names whom the noun asked is of, as the rest of its clause does
_QUALIFIES = re.compile(r"[,，]\s*(?:(?:which|that|whose|\w+ed\s+(?:by|to|with|between|across|among|over|from))\b|"
                        r"котор\w+|(?:использу|дел|разделя)\w*(?:ем|ем\w+|им\w+)\b)")


# A Chinese question word with the noun it asks right after it ("运行在多高的峰值频率", "有多少个 CUDA 核心"): a cue
# before it in its clause names whom it is asked of ("MI250 的计算单元（CU）"), not what.
_ZH_ASKS = re.compile(r"(?:多高|多大|多快|多少|几|什么|哪个|哪种)\s*(?:个|颗|条|种|块|张)?\s*的?\s*")


def _before_zh_question(spans: dict[str, Spans], low: str) -> set[str]:
    for asked in _ZH_ASKS.finditer(low):
        if not any(s == asked.end() for found in spans.values() for s, _ in found):
            continue
        stop = max((m.end() for m in CLAUSE_BREAK.finditer(low, 0, asked.start())), default=0)
        return {a for a, found in spans.items() if all(stop <= s and e <= asked.start() for s, e in found)}
    return set()


def units_asked(low: str, against=lambda unit, match: False) -> list[str]:
    """The units the question writes other than after a number ("в теории же 450 ГБ/с" gives a figure) and other
    than where ``against(unit, match)`` says the unit is what another figure is measured against."""
    return [unit for unit, pattern in UNIT_WORDS.items()
            if any(not against(unit, m) and not _GIVEN.search(low, 0, m.start()) for m in re.finditer(pattern, low))]


def unit_cue(low: str, table: FactTable) -> list[tuple[int, str]]:
    """With no attribute named, a unit written in the question ("多少美元") names the one attribute
    measured in its dimension that the table has values of, when there is one."""
    dimensions = {UNITS[u].dimension for u in units_asked(low)}
    named = [a.id for a in table.vocabulary.attributes.values() if a.unit in UNITS and UNITS[a.unit].dimension in dimensions
             and table.entities_with(a.id)]
    return [(0, named[0])] if len(named) == 1 else []
