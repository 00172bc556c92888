"""Quantities as prose writes them: a number (in digits or words) with its unit or the thing it counts.

"96 GiB", "2.9 TB/sec", "13.11美元", "13,11 долл.", "eight NeuronCore-V3 cores", "16 Trainium2
chips", "up to twelve Inferentia2 chips", "304 CUs", "542亿个晶体管": each becomes a value with a
canonical unit (``kb.specs.units``), its offsets in the text, and whether the text gives it as
approximate or as a bound.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kb.language import HAN
from kb.specs.units import PRECISIONS, UNITS, canonical_unit, numbers_in

NUMBER_WORDS = {
    "en": {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16, "twenty": 20, "thirty-two": 32, "sixty-four": 64},
    "ru": {"один": 1, "одна": 1, "два": 2, "две": 2, "двух": 2, "три": 3, "трёх": 3, "трех": 3, "четыре": 4,
           "четырёх": 4, "пять": 5, "шесть": 6, "восемь": 8, "восьми": 8, "десять": 10, "двенадцать": 12,
           "шестнадцать": 16, "шестнадцати": 16},
    "zh": {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10,
           "十二": 12, "十六": 16},
}
_WORD_NUMBER = re.compile(r"(?<![A-Za-zА-Яа-яЁё\-])(" + "|".join(sorted(
    (w for lang in ("en", "ru") for w in NUMBER_WORDS[lang]), key=len, reverse=True)) + r")(?![A-Za-zА-Яа-яЁё])",
    re.IGNORECASE)
_HAN_NUMBER = re.compile(r"(十[一二三四五六七八九]?|[一两二三四五六七八九]十?[一二三四五六七八九]?)(?=[个颗块张台])")

# Units the corpus writes in Russian or Chinese, and the currency that makes a price.
LOCAL_UNITS = {"美元": "USD", "долл": "USD", "usd": "USD", "$": "USD", "瓦": "W", "вт": "W", "纳米": "nm", "нм": "nm",
               "гб": "GB", "тб": "TB", "гбит/с": "Gbps", "兆赫": "MHz", "ггц": "GHz", "мгц": "MHz"}
# Between a number and "links": a width ("16-wide", "x16"), or a word that makes the number count something else
# ("2 of its links", "2 hops over links"), or a rate ("100 Gigabit Ethernet", "400G Ethernet ports": a port's speed)
_NOT_LINK_COUNT = re.compile(r"^-|\bx\d+\b|\b(?:of|in|on|over|hops?|with|to|via|for)\b|^\s*(?:g|gb|gbe|gbit|gigabit)\b",
                             re.IGNORECASE)
# A number right after an architecture's or a product's name is its generation ("the CDNA™ 3 XCD die", "Zen 4
# CCDs"), no count of dies; a unit or a height between a number and its dies ("4-нм кристалла", "8-Hi") is no count,
# nor is one of two ("6 or 8 XCDs")
_ARCHITECTURE_VERSION = re.compile(r"(?:cdna|rdna|gcn|zen|gen|rocm|pcie|version|v)\W{0,2}$", re.IGNORECASE)
_NOT_DIE_COUNT = re.compile(r"nm|нм|mm|hi\b|纳米", re.IGNORECASE)
_ALTERNATIVE = re.compile(r"\d\s*(?:or|или|或)\s*\d+$", re.IGNORECASE)
# A number right after a link's or bus's name is its version or generation ("NVLink 4.0 links", "PCIe Gen 5"), no count
_LINK_VERSION = re.compile(r"(?:nvlink|neuronlink|pcie|gen|ici|fabric|version|xgmi)[\s-]*v?$", re.IGNORECASE)
# Nouns that say what a number counts (after at most one name or word between them: "16 Trainium2 chips").
COUNT_NOUNS = [
    (r"stream processors?|потоков\w* процессор\w*|流处理器", "cores", "stream processors"),
    (r"tensor cores?|тензорн\w* (?:ядр\w*|ядер)|tensor core", "cores", "tensor cores"),
    (r"neuroncores?(?:-v\d)?|neuron cores?", "cores", "neuroncores"),
    (r"cuda cores?|ядер cuda|cuda 核心", "cores", "cuda cores"),
    (r"cc[- ]cores?", "cores", "cc cores"),
    (r"compute units|cus|вычислительн\w* блок\w*|计算单元", "CUs", "compute units"),
    (r"sms|streaming multiprocessors?", "SM", "sms"),
    # the dies a package is built of, by kind ("6 XCDs and 3 CCDs", "4 I/O dies"), or of no kind ("two GPU dies")
    (r"xcds?", "dies", "xcds"), (r"ccds?", "dies", "ccds"), (r"gcds?", "dies", "gcds"),
    (r"i/o[- ]dies|iods?|i/o[- ]кристалл\w*", "dies", "io dies"),
    (r"dies|chiplets|кристалл(?:а|ов)|чиплет(?:а|ов)|个\s*(?:裸片|芯粒|小芯片)", "dies", "dies"),
    (r"cores?|ядр\w*|ядер|个?核心?", "cores", "cores"),
    (r"chips|chip|чип\w*|个芯片|颗芯片|颗|gpus|gpu|accelerators|ускорител\w*|"
     r"个\s*(?:[a-z][a-z0-9.-]*\s*)?处理器", "chips", "chips"),  # "8个Gaudi处理器": the corpus's chips are processors too
    (r"instances|инстанс\w*|个实例|台", "instances", "instances"),
    (r"transistors|транзистор\w*|个晶体管", "transistors", "transistors"),
    (r"vcpus", "vCPUs", "vcpus"),
    # a link is named by the words before it ("seven high-bandwidth, low-latency AMD Infinity Fabric links",
    # "18 条 NVLink"), not by words that join another thing counted ("8 GPUs with NVLink links")
    (r"(?:(?!(?:with|and|or|of|per|each|to|via|the|in|on|for|gpus?|chips?|nodes?|hops?)\b)[a-z0-9.™-]+,?\s+){0,5}?links|"
     r"(?:[a-z0-9.-]+-)?линк\w*|条\s*(?:[a-z0-9.-]+\s*)?(?:nvlink|链路|链接|link)|个\s*(?:[a-z0-9.-]+\s*)?(?:链路|链接)|"
     # ports of a network integrated on a chip ("24x 100 Gigabit Ethernet", "24 个 100G 以太网口") are its links
     r"ethernet(?:\s+ports?)?|个\s*(?:[a-z0-9.-]+\s*)?以太网(?:端)?口",
     "links", "links"),
]
# "16 x Trainium chips", "8 x A100 80GB GPU": after a times sign, a name and a size may stand before the noun
# (capitalized or numbered: "2x faster chips" is a factor)
_COUNT = re.compile(r"(?:-|\s*[x×]\s*(?:(?-i:[A-Z0-9])[\w.\-]*\s+){0,2}|\s*(?:[\w.\-]+\s+)?)(?:x\s*)?(" + "|".join(p for p, _, _ in COUNT_NOUNS) + r")(?![A-Za-z])",
                    re.IGNORECASE)
_UNIT_TOKEN = re.compile(r"\s?(mm2|[A-Za-zА-Яа-яЁё%²$]+(?:\s?/\s?[A-Za-zА-Яа-яЁё]+)?\.?|[" + HAN + r"]{1,2})")
_PER_SECOND = re.compile(r"\s*(?:per\s+sec(?:ond)?|a\s+second|в\s+секунду|в\s+сек\.?|每秒)(?![A-Za-zА-Яа-яЁё])", re.IGNORECASE)
_APPROX = re.compile(r"(?:~|≈|about|roughly|around|approximately|примерно|около|约|大约)\s*$", re.IGNORECASE)
_AT_MOST = re.compile(r"(?:up to|at most|до|最多|高达)\s*$", re.IGNORECASE)
_AT_LEAST = re.compile(r"(?:more than|over|at least|более|свыше|超过|至少)\s*$", re.IGNORECASE)
# Number formats written between a number and its rate: "380 INT8 TOPS", "2,563 FP8/FP16 sparse TFLOPS".
_PRECISION = re.compile(r"\s?(?:(?:" + PRECISIONS + r")(?:/|\s+))+(?:sparse\s+|dense\s+)?", re.IGNORECASE)
_HOURLY = re.compile(r"per hour|an hour|hourly|/h(?:ou)?r\b|в час|/ч\b|每小时|一小时", re.IGNORECASE)


def word_number(text: str) -> float | None:
    """The value of a number written as a word ("eight", "восемь", "八"), or None."""
    key = text.strip().lower()
    return next((table[key] for table in NUMBER_WORDS.values() if key in table), None)


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str  # a canonical unit of kb.specs.units; "USD" for money not yet known to be hourly
    start: int
    end: int  # of the number and its unit (or counted noun)
    number_text: str  # the number as written
    decimals: int = 0
    approx: bool = False
    bound: str | None = None
    counted: str | None = None  # for a count: what it counts ("neuroncores", "chips")
    unit_text: str = ""  # what follows the number up to its end: the unit, or the counted words


def _unit_after(text: str, end: int) -> tuple[str, int] | None:
    while end < len(text) and text[end] == "`":  # "`2.5e12` bytes/s": code marks around the number
        end += 1
    m = _UNIT_TOKEN.match(text, end)
    if not m:
        return None
    word, stop = m.group(1).rstrip("."), m.end()
    unit = canonical_unit(word) or canonical_unit(word.replace(" ", "")) or LOCAL_UNITS.get(word.lower()) or \
        next((u for k, u in LOCAL_UNITS.items() if word.lower().startswith(k)), None)
    if unit and (per := _PER_SECOND.match(text, stop)) and canonical_unit(unit + "/s"):
        unit, stop = canonical_unit(unit + "/s"), per.end()  # "5.3 TB per second", "2 ТБ в секунду": a rate
    return (unit, stop) if unit else None


# a unit in brackets after a label, the figure after it: 'bandwidth per chip (GBps)" of 1200', "speed (TB/s): 3.35"
_UNIT_BEFORE = re.compile(r"\(\s*([A-Za-z/]{2,8})\s*\)[\"”']?\s*(?:of|is|was|=|:)\s*$")


def _unit_before(text: str, start: int) -> str | None:
    m = _UNIT_BEFORE.search(text, max(0, start - 32), start)
    unit = m and canonical_unit(m.group(1))
    return unit if unit in UNITS else None


def _after_link_name(text: str, start: int) -> bool:
    """Whether the number at ``start`` follows a link's or bus's name: its version, no count of links."""
    return _LINK_VERSION.search(text, max(0, start - 16), start) is not None


def _count_after(text: str, end: int) -> tuple[str, str, int] | None:
    while end < len(text) and text[end] == "`":  # "`132 × 4 × 32 = 16,896` 个 CUDA 核心": a formula's result
        end += 1
    m = _COUNT.match(text, end)
    if not m:
        return None
    noun = m.group(1)
    for pattern, unit, counted in COUNT_NOUNS:
        if re.fullmatch(pattern, noun, re.IGNORECASE):
            if unit == "links" and _NOT_LINK_COUNT.search(text[end:m.start(1)] + " "):
                return None  # "16-wide links", "x16 links", "2 of its links": a width, or a count of something else
            if unit == "dies" and (_NOT_DIE_COUNT.search(text[end:m.start(1)]) or
                                   _ALTERNATIVE.search(text, max(0, end - 24), end)):
                return None  # "a 4-нм кристалла", "12-Hi": a size or a height; "6 or 8 XCDs": one of two
            return unit, counted, m.end()
    return None


def _numbers(text: str) -> list[tuple[float, int, int, int]]:
    """(value, decimals, start, end) of every number, in digits or in words."""
    out = [(n.value, n.decimals, n.start, n.end) for n in numbers_in(text)]
    out += [(NUMBER_WORDS["en"].get(m.group(1).lower()) or NUMBER_WORDS["ru"][m.group(1).lower()], 0,
             m.start(), m.end()) for m in _WORD_NUMBER.finditer(text)]
    out += [(NUMBER_WORDS["zh"][m.group(1)], 0, m.start(), m.end()) for m in _HAN_NUMBER.finditer(text)
            if m.group(1) in NUMBER_WORDS["zh"]]
    return sorted(out, key=lambda n: n[2])


# A count that leaves its noun to the line before, ending on its measure word ("**B200**：`148 × 4 × 32 = 18,944` 个"
# after "**H100**：`... = 16,896` 个 CUDA 核心"): the line before names what both count
MEASURE_WORDS = "个颗块台张条根枚"  # the Chinese measure words a count of things stands before
_ELIDED = re.compile(rf"`?\s*([{MEASURE_WORDS}])[\s*。.]*$")


def quantities(text: str, elided: tuple[str, str, str] | None = None) -> list[Quantity]:
    """Every number of ``text`` that carries a unit or counts something, in text order. ``elided``: the unit, the
    counted noun and the measure word of the line before's count, for a last number that ends on that measure word
    alone."""
    out = []
    for value, decimals, start, end in _numbers(text):
        if start and (text[start - 1].isalnum() and not "\u4e00" <= text[start - 1] <= "\u9fff"):
            continue  # inside a name ("Trainium2", "MI300X")
        before = text[max(0, start - 16):start]
        approx = bool(_APPROX.search(before))
        bound = "at_most" if _AT_MOST.search(before) else ("at_least" if _AT_LEAST.search(before) else None)
        found = _unit_after(text, end)
        if found and found[0] in ("chips", "dies") and _count_after(text, end):
            found = None  # "4096 chips": a count of chips, read as one below, not a unit of measure
        precision = _PRECISION.match(text, end) if not found else None
        if precision and (behind := _unit_after(text, precision.end())) and behind[0] in UNITS and \
                UNITS[behind[0]].dimension == "ops/s":
            found = behind  # "380 INT8 TOPS", "190 FP16/BF16 TFLOPS": the precision between number and unit
        if not found and (written := _unit_before(text, start)):
            found = written, end
        if found and found[0] == "links" and _after_link_name(text, start):
            continue  # "NVLink 4.0 links": the version
        if found:
            unit, stop = found
            if re.match(r"\s?/\s?[^\sA-Za-z]|\s?/\s?(?:cycle|clk|周期)|\s+per (?:cycle|clock)", text[stop:stop + 10]):
                continue  # a rate per something else: "FLOPs/周期", "FLOPs per cycle"
            if unit == "USD" and _HOURLY.search(text[stop:stop + 12] + " " + text[max(0, start - 24):start]):
                unit = "USD/h"
            if unit in UNITS or unit == "USD":
                out.append(Quantity(value, unit, start, stop, text[start:end], decimals, approx, bound,
                                    unit_text=text[end:stop]))
            continue
        counted = _count_after(text, end)
        if counted and counted[0] == "links" and _after_link_name(text, start):
            counted = None  # "18 NVLink 4.0 links": 4.0 is the version
        if counted and counted[0] == "dies" and _ARCHITECTURE_VERSION.search(text, max(0, start - 8), start):
            counted = None  # "CDNA 3 XCD": the generation
        if counted:
            unit, noun, stop = counted
            out.append(Quantity(value, unit, start, stop, text[start:end], decimals, approx, bound, noun,
                                text[end:stop]))
        elif elided and (alone := _ELIDED.match(text, end)) and alone.group(1) == elided[2]:
            out.append(Quantity(value, elided[0], start, alone.end(1), text[start:end], decimals, approx, bound,
                                elided[1], text[end:alone.end(1)]))
    return out


def elided_count(found: list[Quantity], before: tuple[str, str, str] | None) -> tuple[str, str, str] | None:
    """What a line's last count counts, with its measure word ("个"), for a next line that leaves the noun out; the
    line before's where this one counts nothing."""
    for q in reversed(found):
        word = q.unit_text.lstrip("` ")[:1]
        if q.counted and word and word in MEASURE_WORDS:
            return q.unit, q.counted, word
    return before if not found else None
