"""Which attribute a quantity of a sentence states, and why: the cue written nearest it in its clause, the
noun it counts ("8 NeuronCores"), the label of its table cell or list item, or the only attribute of its unit;
else the first attribute of its unit, a guess for curators. Used by the prose reader (``kb.specs.prose``)."""

from __future__ import annotations

import re

from kb.specs.clauses import WINDOW, clause, fits_said_per, said_per
from kb.specs.quantities import Quantity
from kb.specs.units import UNITS
from kb.specs.vocabulary import Mention, Vocabulary

COUNTED = {"neuroncores": "neuron_cores", "tensor cores": "tensor_cores", "cuda cores": "cuda_cores", "cc cores": "cc_cores",
           "compute units": "compute_units", "sms": "sm_count", "chips": "chip_count", "transistors": "transistor_count",
           "vcpus": "vcpus", "stream processors": "stream_processors",
           "links": "link_count", "xcds": "xcd_count", "ccds": "ccd_count", "gcds": "gcd_count",
           "io dies": "io_die_count"}
# what a plain count ("900,000 AI-optimized cores", "two GPU dies") is where the words before it name no kind
# counted above
GENERIC_COUNTED = {"cores": "core_count", "dies": "die_count"}
# A plain count inside a calculation ("132 SM × 4 子分区 × 32 核心 = 16,896", "8 chips = 8 cores", "`8960 * 2 = 17,920`
# cores") counts a part or a sum of something the sentence derives, not the named thing's cores; a count of a named
# kind there ("= 16,896 个 CUDA 核心") is what the calculation establishes.
_OPERATOR_BEFORE = re.compile(r"[×*=]\s*`?\s*$")
_OPERATOR_AFTER = re.compile(r"\s*`?\s*(?:\S+\s*)?[×*=]")


def _in_calculation(text: str, q: Quantity) -> bool:
    digits = re.match(r"[\d.,\s]+", text[q.start:q.end])
    number_end = q.start + (digits.end() if digits else 0)
    return bool(_OPERATOR_BEFORE.search(text[max(0, q.start - 6):q.start]) or
                _OPERATOR_AFTER.match(text[q.end:q.end + 12]) or _OPERATOR_AFTER.match(text[number_end:number_end + 12]))

# Links said to join two parts ("the two GCDs are connected via four links", "The GCD pairs 2 and 6 ... connect via
# two XGMI links", "between the two dies") are that connection's, and links a part drives ("Both interfaces can drive
# four links") are that part's: neither is the number of links a chip has ("每个 GPU 18 条 NVLink", "connected with its
# neighbours by six ICI links", "18 NVLink links between it and the switches").
_NOT_THE_CHIPS = re.compile(r"\b(?:two|both|pairs?)\b.*\bconnect|\bbetween\s+(?!it\b|them\b|itself\b)|"
                            r"\b(?:both|each|every)\s+(?:interfaces?|controllers?|sides?)\b|"
                            r"(?<![а-яё])(?:дв[ae]|об[ae]|пар\w*)(?![а-яё]).*соедин|(?<![а-яё])между (?!ним|собой)|"
                            r"两(?:个|颗)?\s*\w*\s*之间|相连", re.IGNORECASE | re.DOTALL)

# Dies named by their capacity or as memory ("a stack of 8x 24Gbit dies") are a memory stack's, not the package's
# dies of no kind named just after a stack ("8 stacks of HBM3e, each of 12 dies") are the stack's
_STACK = re.compile(r"stack|стек|堆叠|堆栈", re.IGNORECASE)
_MEMORY_DIES = re.compile(r"\d|\b[kmgt]i?b(?:it)?\b|dram|hbm|memory|памят|内存|显存", re.IGNORECASE)

# The words for a kind of entity written with no generation: "HBM" names memory as "HBM3e" does.
GENERIC_NAMES = {"memory": re.compile(r"(?<![a-z0-9])(?:hbm|gddr|lpddr)(?![a-z0-9])")}


def _measured_in(attr, dimension: str | None) -> bool:
    return attr.unit in UNITS and UNITS[attr.unit].dimension == dimension


def _patterns(attr, lang: str) -> tuple[str, ...]:
    """What names an attribute in a text: its table-header patterns and its question cues."""
    return (*attr.headers, *attr.cue_patterns("en", lang))


def _cued(text: str, q: Quantity, vocabulary: Vocabulary, lang: str,
          mentions: list[Mention] = (), window: int = WINDOW) -> list[tuple[int, str]]:
    """(distance, attribute) of every attribute of the quantity's dimension cued near it (within ``window``
    characters, in its clause), nearest first: by a cue, or by the name of an entity of a kind that names it
    ("HBM3e" for memory)."""
    dimension = UNITS[q.unit].dimension if q.unit in UNITS else None
    left, right = clause(text, q.start, q.end)
    lo, hi = max(left, q.start - window), min(right, q.end + window)
    window = text[lo:hi].lower()
    found: dict[str, int] = {}
    for attr in vocabulary.attributes.values():
        if not _measured_in(attr, dimension):
            continue
        for pattern in _patterns(attr, lang):
            for m in re.finditer(pattern.lstrip("^"), window):
                at = lo + m.start()
                distance = q.start - (lo + m.end()) if at < q.start else at - q.end
                found[attr.id] = min(found.get(attr.id, 10**6), max(distance, 0))
        named = [(m.start, m.end) for m in mentions if vocabulary.entities[m.entity].kind in attr.named_by]
        for kind in attr.named_by:  # the kind's word with no generation ("192GB HBM at 7.37 TB/s")
            if kind in GENERIC_NAMES:
                named += [(lo + m.start(), lo + m.end()) for m in GENERIC_NAMES[kind].finditer(window)]
        for start, end in named:
            if lo <= start and end <= hi:
                distance = q.start - end if start < q.start else start - q.end
                found[attr.id] = min(found.get(attr.id, 10**6), max(distance, 0))
    return sorted((d, a) for a, d in found.items())


def _counted_per(vocabulary: Vocabulary, unit: str, whole: str) -> str | None:
    """The attribute that counts ``unit`` per ``whole``: the one whose English label is "<unit> per <whole>"."""
    return next((a.id for a in vocabulary.attributes.values()
                 if a.unit == unit and a.labels.get("en", "") == f"{unit} per {whole}"), None)


def _container(text: str, q: Quantity, vocabulary: Vocabulary) -> str | None:
    """For a count written as a compound adjective ("a 9216-chip pod", "4-chip hosts"), the attribute that counts
    the things per the noun it qualifies."""
    noun = re.match(r"\s+(\w+?)s?\b", text[q.end:])
    return _counted_per(vocabulary, q.unit, noun.group(1).lower()) if noun else None


# The wholes chips make up, each counted by the attribute labelled "chips per <whole>": chips counted in the clause of
# (or just after) a chip named with its whole right after it ("1024 GPU 的 H100 SuperPod", "an H100 SuperPod holds 1024 GPUs",
# "H100 节点：8 GPU"), or with the whole right before the count ("a single pod of 8960 chips"), are the whole's. (Not
# the Russian "под" alone after a name: it is also the preposition "under", "for".)
_WHOLES = {"pod": r"(?:super\s*)?pods?\b|(?<![а-яё])под(?:а|е|у|ы|ов)(?![а-яё])",
           "host": r"hosts?\b|nodes?\b|хост\w*|узл\w*|узел|主机|节点"}
_WHOLE_AFTER_NAME = {whole: re.compile(rf"\s*(?:{words})", re.IGNORECASE) for whole, words in _WHOLES.items()}
# before the count, "под из 4096 чипов" is the pod's too
_WHOLE_BEFORE_COUNT = {whole: re.compile(rf"(?:{words}{'|(?<![а-яё])под' if whole == 'pod' else ''})\s*"
                                         rf"(?:of|with|has|holds|contains|из|с|有|包含)\s*(?:up to\s+|до\s+)?$",
                                         re.IGNORECASE) for whole, words in _WHOLES.items()}


def _whole_of_chips(text: str, q: Quantity, mentions: list[Mention], vocabulary: Vocabulary) -> str | None:
    """For a count of chips said of a whole they make up, the attribute counting chips per that whole; None where
    the count is not said of one."""
    for whole, pattern in _WHOLE_BEFORE_COUNT.items():
        if pattern.search(text[max(0, q.start - 40):q.start]):
            return _counted_per(vocabulary, q.unit, whole)
    left, right = clause(text, q.start, q.end)
    for m in mentions:
        if vocabulary.entities[m.entity].kind == "chip" and (left <= m.start < right or 0 <= q.start - m.end <= 24):
            for whole, pattern in _WHOLE_AFTER_NAME.items():
                if pattern.match(text, m.end):
                    return _counted_per(vocabulary, q.unit, whole)
    return None


def attribute_of(text: str, q: Quantity, vocabulary: Vocabulary, lang: str,
                 mentions: list[Mention] = (), label: str = "") -> tuple[str | None, str]:
    """The quantity's attribute and why (or why none)."""
    attribute, why = _attribute_of(text, q, vocabulary, lang, mentions, label)
    if attribute in GENERIC_COUNTED.values() and not label and _in_calculation(text, q):
        return None, "a factor or result of a calculation, not a count of the whole"
    return attribute, why


def _attribute_of(text: str, q: Quantity, vocabulary: Vocabulary, lang: str,
                  mentions: list[Mention] = (), label: str = "") -> tuple[str | None, str]:
    # of the sentence up to the end of the figure's clause: "pairs 2 and 6 ... connect via"; not a later clause's
    # "(2.4Tbps between nodes)"
    if q.unit == "links" and _NOT_THE_CHIPS.search(text, 0, clause(text, q.start, q.end)[1]):
        return None, "links of a part or between two parts, not a chip's count"
    if q.counted:
        if q.unit == "dies" and (_MEMORY_DIES.search(q.unit_text) or q.counted == "dies" and _STACK.search(
                text, max(0, q.start - 60), q.start)):
            return None, "dies of a memory stack, not the package's"
        if q.unit_text.startswith("-") and (container := _container(text, q, vocabulary)):
            return container, "counted"
        if q.counted == "chips" and (whole := _whole_of_chips(text, q, mentions, vocabulary)):
            return whole, "counted"
        counted = COUNTED.get(q.counted)
        if counted is None:  # plain "cores": the words between say which
            cues = [a for _, a in _cued(q.unit_text + " " + text[clause(text, q.start, q.end)[0]:q.end], q,
                                        vocabulary, lang) if a in COUNTED.values()]
            counted = cues[0] if cues else GENERIC_COUNTED.get(q.counted)
        if counted in vocabulary.attributes:
            return counted, "counted"
        return None, f"counts {q.counted}, which no attribute measures"
    if q.unit not in UNITS:
        return None, f"money without a period ({q.unit})"
    dimension = UNITS[q.unit].dimension
    of_dimension = [a.id for a in vocabulary.attributes.values() if _measured_in(a, dimension)]
    if not of_dimension:
        return None, f"no attribute is measured in {q.unit}"
    # a figure said per one thing is of no attribute defined per another ("ICI bandwidth per chip" is no
    # "ICI bandwidth per link"); the cue of one that fits may stand further off in its clause ("inter-chip
    # interconnect (ICI) bandwidth per chip (GBps)" of 1200)
    left, right = clause(text, q.start, q.end)
    said = said_per(text[left:right])

    def fits(attribute: str) -> bool:
        return fits_said_per(said, vocabulary.attributes[attribute].labels.get("en", ""))
    near = _cued(text, q, vocabulary, lang, mentions)
    cued = [(d, a) for d, a in near if fits(a)]
    if near and not cued:
        cued = [(d, a) for d, a in _cued(text, q, vocabulary, lang, mentions, window=len(text)) if fits(a)]
    if cued:
        if len(cued) > 1 and cued[1][0] == cued[0][0]:
            return None, f"cues of {cued[0][1]} and {cued[1][1]} stand equally near"
        return cued[0][1], "cue"
    labelled = _labelled(label, dimension, vocabulary, lang) if label else []
    if len(labelled) == 1:
        return labelled[0], "label"
    of_dimension = [a for a in of_dimension if not vocabulary.attributes[a].needs_cue] or of_dimension
    if len(of_dimension) == 1:
        return of_dimension[0], "unit"
    # No cue: the first attribute of its unit in attributes.yaml (memory for GB, memory bandwidth for TB/s)
    # is a guess, kept as a candidate for curators, never an answer.
    return of_dimension[0], "guess"


def _labelled(label: str, dimension: str, vocabulary: Vocabulary, lang: str) -> list[str]:
    """The attributes of ``dimension`` that a table cell's label names ("Data Movement" none, "NeuronLink" the
    chip-to-chip bandwidth): by a header pattern or cue, else as the rate or size sibling of an attribute it names
    ("Device Memory" beside a bandwidth is the memory's bandwidth)."""
    text = label.lower()
    named = [a for a in vocabulary.attributes.values() if any(re.search(p, text) for p in _patterns(a, lang))]
    direct = [a.id for a in named if _measured_in(a, dimension)]
    if direct:
        return direct
    kinds = {k for a in named for k in a.named_by}
    return [a.id for a in vocabulary.attributes.values() if _measured_in(a, dimension) and kinds & set(a.named_by)]
