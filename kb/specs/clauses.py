"""What the prose and relation readers share: a sentence's clauses, and what a figure may be about."""

from __future__ import annotations

import re

from kb.language import HAN
from kb.specs.units import DTYPE, dtype_name
from kb.specs.vocabulary import Vocabulary

# a rate stated for both directions together ("a bidirectional peak transfer bandwidth of 400 GB/sec")
BIDIRECTIONAL = re.compile(r"\bbi-?directional\b|\btwo[- ]way\b|двунаправлен\w*|в обе стороны|双向", re.IGNORECASE)
ONE_WAY = re.compile(r"\buni-?directional\b|\bone[- ]way\b|однонаправлен\w*|в одну сторону|单向", re.IGNORECASE)
# a figure of a rate: a direction word with another one between it and a figure is that one's ("50 GB/sec per link
# (or 100 GB/sec bidirectional)": the 100 is bidirectional, the 50 one way)
_RATE_FIGURE = re.compile(r"\d[\d.,]*\s*(?:[GTMK]i?B(?:ps|/s(?:ec)?)|[GT]bps|GT/s(?:ec)?|[ГТМ]Б/с|[ГТ]бит/с)", re.IGNORECASE)
MEASURED = re.compile(r"\b(?:clocked|measured|achieved|reached|benchmarked)\b|实测|измерен\w*|достиг\w*", re.IGNORECASE)
SPARSE = re.compile(r"sparsity|sparse|稀疏|разрежен", re.IGNORECASE)
CLAUSE = re.compile(r"[,，;；:：]|\s-\s|\s—\s| and | but | which |，而|，并")  # an aside in brackets stays in its clause
WINDOW = 48  # characters around a number that its attribute cue may stand in
SUBJECT_KINDS = ("chip", "instance", "system")  # memory types and interconnects are rarely what a figure is about
# the other side of a comparison is never what a figure is about
COMPARED = re.compile(r"(?:than|compared (?:to|with)|versus|vs\.?|against|чем|比|相比)\s*(?:the\s+|an?\s+)?$", re.IGNORECASE)


# What a figure is said for ("per link", "на чип", "每芯片"), in prose and in questions alike: a figure said per
# one thing is of no attribute defined per another ("ICI bandwidth per chip" is not the ICI's bandwidth per link).
_SAID_PER = {noun: re.compile(pattern, re.IGNORECASE) for noun, pattern in {
    "chip": r"\b(?:per|each|a single|one)[- ]chip\b|(?<![а-яё])на (?:один |каждый )?чип(?![а-яё])|每(?:个|颗|张)?芯片|"
            r"单(?:个|颗)?芯片",
    "link": r"\b(?:per|each|a single|one)[- ]link\b|(?<![а-яё])на (?:один |каждый )?линк(?![а-яё])|每条(?:链路|链接|link)|"
            r"单(?:条)?链路",
    # a clock cycle: every rate the table holds is per second, so a figure per cycle is of none of them
    # (not "a clock of 1.83 GHz", "one clock rate", "на цикл обучения": a training loop)
    "cycle": r"\b(?:per|each|every)[- ](?:clock[- ])?cycle\b|\bper clock\b(?! rate| speed| frequency)|"
             r"(?<![а-яё])(?:за|на) (?:один |каждый )?такт\w*|每(?:个)?(?:时钟)?周期|单(?:个)?时钟周期",
    **{noun: rf"\bper[- ]{noun}\b" for noun in ("node", "instance", "device", "gpu", "core", "stack", "pod", "host", "hour")},
}.items()}


def said_per(text: str) -> set[str]:
    """The things a figure in ``text`` is said per ("per chip" -> {"chip"})."""
    return {noun for noun, pattern in _SAID_PER.items() if pattern.search(text)}


def defined_per(label: str) -> str | None:
    """The thing an attribute is defined per, from its English label ("ICI bandwidth per link" -> "link")."""
    own = re.search(r"\bper (\w+)$", label)
    return own.group(1).lower() if own and own.group(1).lower() in _SAID_PER else None


def fits_said_per(said: set[str], label: str) -> bool:
    """Whether an attribute with this English label may hold a figure said per ``said``."""
    own = defined_per(label)
    return not (said and own and own not in said)

# Words that put two things side by side ("than", "или", "还是", "beats", "обгоняет", "优于"): they make a question a
# comparison, and an unknown name joined by them to a known one a compared name, not an incidental one. Not 超过:
# "超过 40GB" is "more than".
COMPARING = {
    "en": r"vs\.?|versus|than|or|against|compar(?:e|es|ed|ing)|beats?|outperform\w*|outpac\w+|exceeds?|surpass(?:es)?",
    "ru": r"или|чем|против|сравн\w*|обгоня\w*|обгонит|превосход\w*|опережа\w*|уступа\w*",
    "zh": r"还是|比|和|跟|与|对比|胜过|优于|超越|不如",
}


def compared(text: str, start: int) -> bool:
    """Whether the name that starts at ``start`` is the other side of a comparison ("than P4d")."""
    return bool(COMPARED.search(text[max(0, start - 16):start]))

# Two things offered as the sides of a question: "A or B", "A vs B", "A 还是 B", or asked "which"/"кто"/"谁" of them
_SIDES = re.compile(r"\b(?:or|vs\.?|versus|which|who)\b|(?<![а-яё])(?:или|против|кто|что|у кого)(?![а-яё])|还是|谁|哪个|哪款",
                    re.IGNORECASE)


def two_sides(text: str, mentions, entities) -> bool:
    """Whether the two entities named are the two sides of a comparison ("Trainium2 vs H100, which is faster?"),
    not one side named twice ("во сколько раз TPU v4 и v5p быстрее предыдущих версий": both against older ones)."""
    first = {m.entity: m for m in reversed(mentions) if m.entity in entities}
    return len(entities) == 2 and len(first) == 2 and \
        (bool(_SIDES.search(text)) or compared(text, max(m.start for m in first.values())))


# The words a bare "which is faster" question has besides the two names and its word of speed or strength
# (the kind of thing, and training or inference in general, ask nothing else: "Which GPU is faster for training?")
_WHICH_WORDS = frozenset("""which one is are the a an vs versus or than who what of these two between for at in
    gpu gpus chip chips accelerator accelerators card cards training inference
    кто что у из или против чем сильнее них двух какой какая какое который которая для в на при
    ускоритель ускорителей ускорители карта карты чип чипа чипов обучения обучении инференса инференсе
    谁 哪 个 哪个 哪款 和 跟 与 比 还是 更 呢 吗 的 之间 芯片 卡 显卡 加速器 训练 推理 时 在""".split())
_WORD = re.compile(rf"[a-zа-яё0-9]+|[{HAN}]")
_HAN_CHAR = re.compile(f"[{HAN}]")
_HAN_WHICH = sorted((w for w in _WHICH_WORDS if _HAN_CHAR.match(w)), key=len, reverse=True)  # longest first


def only_which(low: str, mentions, word: re.Match, vocabulary) -> bool:
    """Whether a question of speed or strength asks nothing but which of two named things it is ("Trainium2 vs H100,
    which one is faster?", "AWS Trainium2 和 NVIDIA H100 谁更强？"): "the faster interconnect", "faster at all-reduce"
    ask something else."""
    makers = {w for e in vocabulary.entities.values() if e.vendor for w in e.vendor.lower().split()} | {"amazon"}
    rest = list(low)
    for start, end in [(m.start, m.end) for m in mentions] + [word.span()]:
        rest[start:end] = " " * (end - start)
    words = _WORD.findall("".join(rest))
    han = "".join(w for w in words if _HAN_CHAR.match(w))
    for function in _HAN_WHICH:
        han = han.replace(function, "")
    return not han and all(w in _WHICH_WORDS or w in makers for w in words if not _HAN_CHAR.match(w))


# Parts of a chip that a figure may be stated for ("the MI250 GCD has 104 active CUs", "1.6 TB/sec per GCD"):
# such a figure is per part, not per chip. Plurals ("both GCDs together") are totals.
PARTS = {"per_gcd": r"gcd|graphics compute die", "per_xcd": r"xcd|accelerator complex die"}
# the part as the subject: not joined to other words ("dual-GCD design", "GCD-to-GCD link"), not a name glossed
# in brackets ("Accelerator Complex Die (XCD) chiplets"), not a word that describes ("XCD chiplets")
_PART_BEFORE = {scope: re.compile(rf"(?<![A-Za-z0-9-])(?:{words})(?![A-Za-z0-9-]|\s*\(|\)?\s+(?:chiplets?|designs?|"
                                  rf"architecture|links?|dies?)\b)", re.IGNORECASE) for scope, words in PARTS.items()}
_PART_AFTER = {scope: re.compile(rf"(?:\bper|\beach|/|на (?:один |каждый )?|每个?)\s*(?:{words})(?![A-Za-z0-9])",
                                 re.IGNORECASE) for scope, words in PARTS.items()}


# A sentence about one part of a chip, named as its subject ("On the XCD, ...", "The MI250 GCD has ...", "Each GCD
# ...") or as a level ("XCD-level architecture"): the sentences after it in its paragraph are about that part
# until one names the parts in the plural ("8 XCDs"), the whole ("the processor") or a total ("in total").
_PART_TOPIC = {scope: re.compile(rf"^[\W_]*(?:(?:on|in|within|inside)\s+)?(?:the|a|one|single|each)\s+"
                                 rf"(?:[\w-]+\s+){{0,2}}?(?:{words})(?![A-Za-z0-9-])|(?<![A-Za-z0-9-])(?:{words})-level\b",
                                 re.IGNORECASE) for scope, words in PARTS.items()}
_WHOLE_CHIP = "processor|package|chip|accelerator|gpu|device"  # English nouns for a whole chip
_WHOLE = re.compile(r"(?<![A-Za-z0-9-])(?:" + "|".join(f"(?:{w})s" for w in PARTS.values()) +
                    rf")\b|\b(?:the (?:{_WHOLE_CHIP})s?|in total|total|overall|combined)\b|"
                    r"(?<![а-яё])(?:всего|в сумме|суммарн\w*)|总共|合计|总计", re.IGNORECASE)
# A sentence naming no product but "the processor", "этот чип", "该芯片" refers back to the one its article is about.
THE_CHIP = re.compile(rf"\b(?:the|this) (?:{_WHOLE_CHIP})\b|"
                      r"(?<![а-яё])(?:этот|данный|этого|данного|этом|данном) (?:чип|процессор|ускорител)|"
                      r"(?:该|此|这款|这颗)(?:芯片|处理器|加速器|GPU)", re.IGNORECASE)
# A figure of each of many parts the sentence counts ("40 Compute Units, each with 32 KB L1 cache", "40 个 CU，每个 32KB"):
# per one compute unit or core, which no scope of the table holds (a chip counted so, "12 chips, each with", is a scope).
EACH_PART = re.compile(r"\d\s*(?:compute units?|cus?|sms?|streaming multiprocessors?|(?:\w+[- ])?\w*cores?)\s*[,(]?\s*"
                       r"(?:each|every one)(?: of (?:which|them))?\s+(?:with|has|having|holding|containing)?\s*"
                       r"(?:an?\s+|its own\s+)?$|"
                       r"\d\s*(?:\w+ )?(?:вычислительн\w+ (?:блок|единиц)\w*|cus?|sms?|ядер|ядра)\s*[,(]?\s*"
                       r"(?:кажд\w+|у каждого)(?: из (?:них|которых))?(?:\s+(?:с|имеет|содержит))?\s*$|"
                       r"\d\s*[个颗]?\s*(?:计算单元|cu|sm|\w*核心?|[a-z-]*cores?)\s*[,，(（]?\s*(?:每一?个\s*(?:cu|sm|核心?)?|各)\s*(?:都|均)?"
                       r"(?:有|带|含|配备?|配有)?\s*$", re.IGNORECASE)
# What a chip's parts add up to: a count, a cache or a compute figure in a paragraph about one part is that part's;
# a clock or a process node is the same for the part and the whole.
PART_SUMMED = {"CUs", "SM", "cores", "bytes", "bytes/s", "ops/s", "transistors"}


def part_topic(text: str, before: str | None) -> str | None:
    """The part of a chip a sentence is about: one it names as its subject, else ``before`` (that of the sentences
    before it in its paragraph) unless it turns to the parts in the plural, the whole chip or a total."""
    named = [scope for scope, pattern in _PART_TOPIC.items() if pattern.search(text)]
    if len(named) == 1:
        return named[0]
    return None if named or _WHOLE.search(text) else before


def part_scope(text: str, start: int, end: int) -> str | None:
    """The part of a chip the figure ``text[start:end]`` is stated for: one its clause names after it ("1.6
    TB/sec of bandwidth per GCD"), or one named in its clause before it, in the singular ("The MI250 GCD has")."""
    left, right = clause(text, start, end)
    for scope in PARTS:
        after = _PART_AFTER[scope].search(text, end, right)
        if after and re.search(r"(?<![A-Za-z])\d", text[end:after.start()]):
            after = None  # "3.2 TB/sec (1.6 TB/sec per GCD)": the part is the nearer figure's
        if after or _PART_BEFORE[scope].search(text, left, start):
            return scope
    return None

# the chip a system is built of ("HGX B200 platform", "DGX H100") is not what the system's figures are about
_BUILT_BEFORE = re.compile(r"\b(?:HGX|DGX)[\s-]*$", re.IGNORECASE)
_BUILT_AFTER = re.compile(r"[\s-]*(?:platforms?|systems?|servers?|boxes|box|supernodes?)\b", re.IGNORECASE)


def built_into(text: str, mention, vocabulary: Vocabulary) -> bool:
    """Whether a chip's name is named as what a system is built of ("HGX B200 platform"); a system's own name
    ("GB200 NVL72 system") is not."""
    return vocabulary.entities[mention.entity].kind == "chip" and bool(
        _BUILT_BEFORE.search(text[max(0, mention.start - 8):mention.start]) or _BUILT_AFTER.match(text, mention.end))


def beside(text: str, mention, vocabulary: Vocabulary) -> bool:
    """Whether a name is named beside what a figure is about rather than as it: the other side of a
    comparison ("than P4d"), or the chip a system is built of."""
    return compared(text, mention.start) or built_into(text, mention, vocabulary)


# a precision that leads the sentence, set off by a comma, is the one of its figures ("For FP64, the peak ...")
_LEAD_PRECISION = re.compile(r"\W*(?:for|in|with|для|в|при|在|对于)\s*(?:the\s+)?(" + DTYPE.pattern + r")[^,，;；.]{0,24}[,，]",
                             re.IGNORECASE)


def precision(text: str, start: int, end: int, unit_text: str) -> str | None:
    """The number format of the compute figure ``text[start:end]``: the ones written with it ("190 FP16/BF16
    TFLOPS"), else the first of its clause, else one just before it across a dash ("cut FP64 hard - 10TFLOPS"),
    else one that leads the sentence ("For FP64, the peak performance ... amounts to 90.5 TFLOPS")."""
    written = DTYPE.findall(unit_text)
    if written:
        return "/".join(map(dtype_name, written))
    left, right = clause(text, start, end)
    if m := DTYPE.search(text[left:right]):
        return dtype_name(m.group(1))
    near = [m for m in DTYPE.finditer(text, max(0, start - WINDOW), start) if not re.search(r"[,;:.]", text[m.end():start])]
    if near:
        return dtype_name(near[-1].group(1))
    lead = _LEAD_PRECISION.match(text)
    if lead and lead.end() <= start and not DTYPE.search(text, lead.end(), start):
        return dtype_name(lead.group(1))
    return None


def qualifiers(text: str, start: int, end: int, unit_text: str, dimension: str) -> tuple[str | None, str | None,
                                                                                     str | None]:
    """(data type, basis, scope) of the figure ``text[start:end]``: a compute figure's precision and whether it
    is sparse or measured, whether a rate is for both directions, and the part of a chip it is stated for."""
    left, right = clause(text, start, end)
    words = text[left:right]
    dtype = precision(text, start, end, unit_text) if dimension == "ops/s" else None
    basis = None
    if dimension == "ops/s":
        basis = "sparse" if SPARSE.search(words) else ("measured" if MEASURED.search(words) else None)
    elif dimension == "bytes/s":
        def nearest(pattern: re.Pattern) -> int | None:
            """How far the pattern's nearest word stands from the figure, with no other rate figure between."""
            return min((m.start() - end if m.start() >= end else start - m.end() for m in pattern.finditer(text, left, right)
                        if not _RATE_FIGURE.search(text, *((m.end(), start) if m.end() <= start else (end, m.start())))),
                       default=None)
        both, one = nearest(BIDIRECTIONAL), nearest(ONE_WAY)
        # the nearer word says ("900GB/s（双向）和 450GB/s（单向）": the 450 is one way)
        basis = None if both is None and one is None else \
            ("bidirectional" if one is None or both is not None and both <= one else "one-way")
    return dtype, basis, part_scope(text, start, end)


# Words of a figure planned or advertised rather than reached ("the planned 1750MHz", "1835 as per whitepaper spec",
# "заявленных", "计划的")
PLANNED = re.compile(r"\b(?:planned|promised|claimed|advertised|whitepaper|on paper|paper spec|datasheet)\b|"
                     r"(?<![а-яё])(?:заявлен|запланирован|планир|обещан)\w*|计划|原定|宣称|白皮书|纸面", re.IGNORECASE)
# A question asks the planned figure where it names the plan and neither sets it aside nor asks what is reached ("not
# the planned one", "не на заявленной", "不是计划的", "actually", "реально", "实际")
PLANNED_ASKED = re.compile(r"(?s)^(?!.*(?:\b(?:not|rather than|instead of)\s+(?:\w+\s+){0,2}(?=planned|promised|claimed|"
                           r"advertised)|\b(?:actual(?:ly)?|real(?:ly)?|in practice)\b|(?<![а-яё])не\s+(?:\w+\s+)?(?=заявлен|"
                           r"запланирован|обещан)|реальн|фактическ|на самом деле|不是(?=计划|原定|宣称)|实际|真实)).*?(?:"
                           + PLANNED.pattern + ")", re.IGNORECASE)
# Where a sentence of a question ends: a stop (not a decimal point), a question or exclamation mark (not
# kb.sentences' splitter, which wants a capital after a stop: a question is read lower-cased here)
_SENTENCE_END = re.compile(r"[?？!！。]|\.(?=\s|$)")
# A sentence that asks by a request, not a question mark ("Give me the H100 memory bandwidth.", "Назови ...", "告诉我 ...")
_REQUEST = re.compile(r"\W*(?:(?:please\s+)?(?:give|tell|show|list|name|find|compare)\b|(?:пожалуйста,?\s+)?(?:скаж|назов|"
                      r"дай|покаж|подскаж|сравн)\w*|请?(?:告诉我|给我|列出|说说|比较))", re.IGNORECASE)  # matched where a sentence starts


def asking_part(text: str) -> str:
    """The question with each sentence that asks nothing blanked out, where another ends in a question mark or makes a
    request ("Give me ..."): "What's the peak clock of the MI250? I'm trying to reason about throughput per GCD." says
    why it asks, and its words ("throughput") name no figure asked. The text as it is where no sentence asks so."""
    found, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        found.append((start, m.end(), m.group() in "?？" or bool(_REQUEST.match(text, start))))
        start = m.end()
    found.append((start, len(text), bool(_REQUEST.match(text, start))))
    if not any(asks for *_, asks in found):
        return text
    return "".join(text[s:e] if asks else " " * (e - s) for s, e, asks in found)


# a word that sets things side by side: a comparative, "than", a word of comparing
_SETS_SIDE_BY_SIDE = re.compile(r"\b(?:than|vs\.?|versus|compar\w*|faster|slower|better|worse|cheaper|more|less|higher|lower|"
                                r"bigger|smaller)\b|(?<![а-яё])(?:чем|сравн\w*|быстрее|медленнее|лучше|хуже|дешевле|дороже|"
                                r"больше|меньше|выше|ниже|мощнее)(?![а-яё])|比|相比|更|哪个|谁")


def asked_of(text: str, mentions: list) -> list:
    """The mentions a question asks of: those of its sentences that ask (``asking_part``), where they name any and no
    sentence compares ("I have an H100 cluster. What is the memory bandwidth of the B200?" asks the B200's; "I use an
    A100. Is the H100 faster?" and "I'm comparing to the A100. How much memory does the MI300X have?" set the two
    side by side)."""
    asking = asking_part(text)
    own = [m for m in mentions if asking[m.start:m.end].strip()]
    return own if own and not _SETS_SIDE_BY_SIDE.search(text.lower()) else mentions


def clause(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the clause of ``text`` that holds ``text[start:end]``."""
    left = max((m.end() for m in CLAUSE.finditer(text, 0, start)), default=0)
    right = next((m.start() for m in CLAUSE.finditer(text, end)), len(text))
    return left, right


def and_joined(text: str, left: int, named: list) -> int:
    """Where a clause opened by "and" starts when it names nothing of its own and goes on a list of figures: with the
    clause before it, which states one after the last thing it names ("MI300A with 6 XCDs and 3 CCDs": both are the
    MI300A's; not "built to rival the H100 and with 192GB", where the H100 is no owner of a figure)."""
    if not text.endswith(" and ", 0, left):
        return left
    start = clause(text, left - 5, left - 5)[0]
    ends = [m.end for m in named if start <= m.start < left]
    return start if ends and re.search(r"\d", text[max(ends):left]) else left


_ITEM_TERM = re.compile(r"[ \t]*(?:[*+-]|\d+\.)[ \t]+\*\*([^*\n]{1,40})\*\*")  # "* **VMEM** (...) is ..."


def item_term(body: str, block_start: int, at: int) -> str:
    """The term a list item defines ("* **VMEM** (Vector Memory) is an on-chip scratchpad ..."), for a sentence
    that starts on the item's first line (a hard-wrapped item's later lines get none): what its figures are
    about when no cue beside them says."""
    line = body.rfind("\n", block_start, at) + 1 or block_start
    m = _ITEM_TERM.match(body, max(line, block_start))
    return m.group(1).strip() if m else ""


def machine_of(attribute, subjects: list, vocabulary) -> str | None:
    """The one instance or system a sentence names, for a figure only a machine has (local storage, vCPUs):
    "DL1 instances ... up to 8 Gaudi processors ... 4TB of NVMe storage" states the instance's storage."""
    machines = {m.entity for m in subjects if vocabulary.entities[m.entity].kind in ("instance", "system")}
    return machines.pop() if attribute.of_machine and len(machines) == 1 else None


def hourly_instance(entity: str, attribute: str, vocabulary: Vocabulary) -> str:
    """A chip's hourly price is the price of the instance built of it, when there is one such instance."""
    if attribute != "price_per_hour" or vocabulary.entities[entity].kind != "chip":
        return entity
    built = [e.id for e in vocabulary.entities.values() if e.parts and e.parts.chip == entity]
    return built[0] if len(built) == 1 else entity


def may_hold(holder, counted: set[str], vocabulary) -> bool:
    """Whether a machine may hold the chips counted: one built of another chip does not ("Vera Rubin NVL72 ... 2x
    Rubin GPU" is no count of the GB200 NVL72's chips)."""
    if not counted or holder.parts is None:
        return True
    built = vocabulary.entities[holder.parts.chip]
    return any(c == built.id or built.family and vocabulary.entities[c].family == built.family for c in counted)


def of_another_chip(text: str, mention, mentions: list, vocabulary) -> bool:
    """Whether a machine's name stands right after the name of a chip it is not built of ("Vera Rubin NVL72"): the
    other chip's machine, not the one its alias ("NVL72") names."""
    holder = vocabulary.entities[mention.entity]
    chip = next((m for m in mentions if m.end <= mention.start and not text[m.end:mention.start].strip()), None)
    return holder.parts is not None and chip is not None and vocabulary.entities[chip.entity].kind == "chip" and \
        not may_hold(holder, {chip.entity}, vocabulary)
