"""Units and numbers as the corpus writes them, to typed values that can be compared.

A unit belongs to a dimension (bytes, bytes per second, operations per
second, ...) and has a factor to that dimension's base, so "96 GiB" and
"96 GB" are different amounts of the same dimension and "2.9 TB/sec" equals
"2900 GB/s". Byte units keep their decimal/binary prefix exactly as written:
GB is 10^9 bytes and GiB is 2^30, never folded into one another (but see
``capacity_twins``: one figure of memory written with either prefix is one
statement). In rates,
"Bps" is bytes and "bps" is bits (Gbps is a network figure), as the sources use them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

# The number formats a compute figure is given in, as a regex alternation (longest spellings first).
PRECISIONS = r"c?fp64|c?fp32|tf32|c?fp16|bf16|mxfp8|mxfp4|nvfp4|c?fp8|fp6|fp4|int8"
DTYPE = re.compile(r"(?<![A-Za-z0-9])(" + PRECISIONS + ")"
                   r"(?![A-Za-z0-9])", re.IGNORECASE)


_TOPOLOGY = re.compile(r"\d+(?:\s*[x×]\s*\d+){1,2}")


def topology_chips(text: str) -> int | None:
    """How many chips a torus of the shape ``text`` holds ("16x20x28": 8,960), or None for no shape."""
    if not _TOPOLOGY.fullmatch(text.strip()):
        return None
    return math.prod(int(n) for n in re.split(r"\s*[x×]\s*", text.strip()))


def dtype_name(written: str) -> str:
    """A number format as the vendors print it: "BF16", "FP8", "cFP8" (AWS's configurable FP8 keeps its c)."""
    upper = written.upper()
    return "c" + upper[1:] if upper.startswith("CFP") else upper


@dataclass(frozen=True)
class Unit:
    symbol: str
    dimension: str
    factor: float  # to the dimension's base unit


_UNITS = [
    Unit("B", "bytes", 1), Unit("kB", "bytes", 1e3), Unit("MB", "bytes", 1e6), Unit("GB", "bytes", 1e9),
    Unit("TB", "bytes", 1e12), Unit("KiB", "bytes", 2**10), Unit("MiB", "bytes", 2**20),
    Unit("GiB", "bytes", 2**30), Unit("TiB", "bytes", 2**40),
    Unit("B/s", "bytes/s", 1), Unit("MB/s", "bytes/s", 1e6), Unit("GB/s", "bytes/s", 1e9),
    Unit("TB/s", "bytes/s", 1e12), Unit("GiB/s", "bytes/s", 2**30), Unit("TiB/s", "bytes/s", 2**40),
    Unit("Gbps", "bytes/s", 1e9 / 8), Unit("Tbps", "bytes/s", 1e12 / 8),
    Unit("FLOPS", "ops/s", 1), Unit("GFLOPS", "ops/s", 1e9), Unit("TFLOPS", "ops/s", 1e12),
    Unit("PFLOPS", "ops/s", 1e15), Unit("TOPS", "ops/s", 1e12),
    Unit("GHz", "Hz", 1e9), Unit("MHz", "Hz", 1e6),
    Unit("nm", "length", 1), Unit("mm²", "area", 1), Unit("W", "power", 1), Unit("%", "ratio", 1),
    Unit("USD/h", "USD/h", 1),
]
# Counted things: each is its own dimension.
COUNTS = ("SM", "CUs", "cores", "chips", "instances", "transistors", "images/s", "vCPUs", "links", "dies")
for _count in COUNTS:
    _UNITS.append(Unit(_count, _count, 1))
_UNITS.append(Unit("", "text", 1))
UNITS = {u.symbol: u for u in _UNITS}

# Spellings in the corpus -> canonical symbol. Case matters only for b/B in rates, so the
# lookup tries the exact spelling first, then a case-folded one among unambiguous names.
_SPELLINGS = {
    "TBps": "TB/s", "TB/sec": "TB/s", "TB/second": "TB/s", "GBps": "GB/s", "GB/sec": "GB/s",
    "GB/second": "GB/s", "GiB/sec": "GiB/s", "bytes/s": "B/s", "bytes/sec": "B/s",
    "GiBs": "GiB", "GBs": "GB", "GB/sec/chip": "GB/s", "Gb/s": "Gbps",
    "TFLOP": "TFLOPS", "TFLOPs": "TFLOPS", "TFLOPs/s": "TFLOPS", "FLOPs/s": "FLOPS", "FLOPS/s": "FLOPS",
    "PFLOP": "PFLOPS", "PFLOPs": "PFLOPS", "T": "TFLOPS", "mm2": "mm²", "kb": "kB", "KB": "kB",
    "TB per second": "TB/s", "GB per second": "GB/s", "GB / second": "GB/s",
    # units spelled out in words
    "gigaflops": "GFLOPS", "teraflops": "TFLOPS", "petaflops": "PFLOPS", "teraflop": "TFLOPS", "petaflop": "PFLOPS",
    "megabytes": "MB", "gigabytes": "GB", "terabytes": "TB", "megahertz": "MHz", "gigahertz": "GHz",
    "watts": "W", "nanometers": "nm", "nanometres": "nm",
}
_FOLDED = {k.lower(): v for k, v in {**{u: u for u in UNITS if u}, **_SPELLINGS}.items()
           if not re.search(r"[bB]ps$|^[kMGT]?[bB]$|/s$|ec$", k)}


def counted(unit: str) -> bool:
    """Whether ``unit`` counts things (SMs, cores, chips) rather than measuring an amount."""
    return unit in COUNTS


def canonical_unit(spelling: str) -> str | None:
    """The canonical symbol of a unit as written, or None when it is not a unit we know."""
    s = spelling.strip()
    if s in UNITS:
        return s
    if s in _SPELLINGS:
        return _SPELLINGS[s]
    return _FOLDED.get(s.lower())


def convert(value: float, source: str, target: str) -> float | None:
    """``value`` in ``source`` units expressed in ``target`` units; None when the dimensions differ."""
    a, b = UNITS.get(source), UNITS.get(target)
    if a is None or b is None or a.dimension != b.dimension:
        return None
    return value * a.factor / b.factor


def capacity_twins(a: str, b: str) -> bool:
    """Whether two units are the decimal and the binary name of one prefix of a byte capacity (GB and GiB).
    Memory is made in powers of two and JEDEC's memory standards write 2^30 bytes as "GB", so vendors print
    the same HBM as "96 GB" and "96 GiB": one figure under either name is one statement, not two.
    Rates are not: 820 GB/s is decimal."""
    ua, ub = UNITS.get(a), UNITS.get(b)
    return ua is not None and ub is not None and ua.dimension == ub.dimension == "bytes" and \
        a != b and a.replace("i", "").upper() == b.replace("i", "").upper()


# ---- numbers ----

_MULTIPLIERS = {"万亿": 1e12, "亿": 1e8, "万": 1e4, "trillion": 1e12, "billion": 1e9, "million": 1e6, "трлн": 1e12, "млрд": 1e9,
                "млн": 1e6}
# Thousands are grouped with commas ("3,200") or, as Russian typesets them, no-break spaces ("3\u00a0200").
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])(\d+(?:,\d{3})+(?:\.\d+)?(?!\d)|\d{1,3}(?:[\u00a0\u202f]\d{3})+(?:,\d+)?(?!\d)|"
                    r"\d+(?:[.,]\d+)?(?:e[+-]?\d+)?)", re.IGNORECASE)


@dataclass(frozen=True)
class Number:
    value: float
    decimals: int  # digits after the decimal point as written (0 for a whole number)
    start: int
    end: int  # end of the number including a multiplier word, if any


def _parse_token(token: str) -> tuple[float, int]:
    if re.fullmatch(r"\d+(?:,\d{3})+(?:\.\d+)?", token):  # thousands separators: "1,299", "2,614.9"
        token = token.replace(",", "")
    elif re.fullmatch(r"\d+(?:[\u00a0\u202f]\d{3})+(?:,\d+)?", token):  # as Russian typesets them: "2 614,9"
        token = re.sub(r"[\u00a0\u202f]", "", token)
    if token.isdigit():  # a whole number is exact to its last digit: 190 and 191 are two statements
        return float(token), 0
    token = token.replace(",", ".")  # a decimal comma ("13,11")
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    if exponent:
        value = float(token)
        # significant digits of the mantissa, re-expressed as decimals of the full value
        sig = len(mantissa.replace(".", "").lstrip("0")) or 1
        # negative when coarser than units: 2.8e12 is exact to a hundred billion, -11 decimals
        return value, sig - 1 - int(math.floor(math.log10(abs(value)))) if value else 0
    return float(token), decimals


def numbers_in(text: str) -> list[Number]:
    """Every number in a text with its precision; Chinese and English scale words applied."""
    out = []
    for m in NUMBER.finditer(text):
        value, decimals = _parse_token(m.group(1))
        end = m.end()
        rest = text[end:end + 12]
        for word, factor in _MULTIPLIERS.items():
            if rest.lstrip().startswith(word):
                value *= factor
                decimals = max(0, decimals - round(math.log10(factor)))
                end = end + rest.index(word) + len(word)
                break
        out.append(Number(value, decimals, m.start(), end))
    return out


def rebase(value: float, decimals: int, unit: str, target: str) -> tuple[float, int, str]:
    """A value in a base unit (bytes/s, FLOP/s as 9.0e11) expressed in ``target``, its precision shifted
    with it (2.8e12 B/s, exact to 1e11, is 2.8 TB/s, exact to 0.1); any other unit is kept as written."""
    if unit in ("B/s", "FLOPS", "B") and target in UNITS and UNITS[target].dimension == UNITS[unit].dimension:
        converted = convert(value, unit, target)
        shift = round(math.log10(UNITS[target].factor / UNITS[unit].factor))
        return round(converted, max(decimals + shift, 0) + 6), decimals + shift, target
    return value, decimals, unit


def same_number(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


# ---- display ----

def format_number(value: float, lang: str = "en", decimals: int | None = None) -> str:
    """A value as a reader of ``lang`` writes it: 1,299.5 / 1 299,5 / 1299.5."""
    if decimals is None:
        text = f"{value:.6g}" if abs(value) < 1e15 else f"{value:.3e}"
        if "e" in text:
            text = f"{value:,.0f}"
    else:
        text = f"{value:,.{max(decimals, 0)}f}"
    if "." in text and decimals is None:
        text = text.rstrip("0").rstrip(".")
    if "," not in text and abs(value) >= 1000 and "e" not in text:
        whole, _, frac = text.partition(".")
        text = f"{int(whole):,}" + (f".{frac}" if frac else "")
    if lang == "ru":
        return text.replace(",", "\u00a0").replace(".", ",")
    if lang == "zh":
        return text.replace(",", "")
    return text


_BIG = {"en": [(1e12, " trillion"), (1e9, " billion"), (1e6, " million")],
        "ru": [(1e12, " трлн"), (1e9, " млрд"), (1e6, " млн")],
        "zh": [(1e12, "万亿"), (1e8, "亿"), (1e4, "万")]}


def format_count(value: float, lang: str) -> str:
    """Large counts with a scale word (54.2 billion, 54,2 млрд, 542亿)."""
    for factor, word in _BIG.get(lang, _BIG["en"]):
        if abs(value) >= factor:
            return format_number(round(value / factor, 4), lang) + word
    return format_number(value, lang)


UNIT_NAMES = {
    "USD/h": {"en": "USD/h", "ru": "долл./ч", "zh": "美元/小时"},
    "images/s": {"en": "images/s", "ru": "изобр./с", "zh": "张/秒"},
    "cores": {"en": "cores", "ru": "ядер", "zh": "个核心"},
    "chips": {"en": "chips", "ru": "чипов", "zh": "个芯片"},
    "instances": {"en": "instances", "ru": "инстансов", "zh": "个实例"},
    "transistors": {"en": "transistors", "ru": "транзисторов", "zh": "个晶体管"},
    "SM": {"en": "SMs", "ru": "SM", "zh": "个 SM"},
    "CUs": {"en": "CUs", "ru": "CU", "zh": "个 CU"},
    "vCPUs": {"en": "vCPUs", "ru": "vCPU", "zh": "个 vCPU"},
    "links": {"en": "links", "ru": "линков", "zh": "条链路"},
    "dies": {"en": "dies", "ru": "кристаллов", "zh": "个裸片"},
}


# Russian nouns agree with the number before them: 1 чип, 24 чипа, 1 024 чипа, 64 чипа, 11 чипов, 128 чипов
_RU_FORMS = {"chips": ("чип", "чипа", "чипов"), "cores": ("ядро", "ядра", "ядер"), "links": ("линк", "линка", "линков"),
             "dies": ("кристалл", "кристалла", "кристаллов"),
             "instances": ("инстанс", "инстанса", "инстансов"), "transistors": ("транзистор", "транзистора", "транзисторов")}


def unit_name(symbol: str, lang: str, count: float | None = None) -> str:
    """The unit as written after a number; in Russian, a counted noun in the form the whole ``count`` takes."""
    if lang == "ru" and symbol in _RU_FORMS and count is not None and float(count).is_integer():
        n = int(abs(count))
        one, few, many = _RU_FORMS[symbol]
        return one if n % 10 == 1 and n % 100 != 11 else few if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else many
    return UNIT_NAMES.get(symbol, {}).get(lang, symbol)
