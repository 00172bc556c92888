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

from kb.asks import ACTION, DEFINES, DRAWBACK, FIGURE_ASKED, MEANS, METHOD, WHERE, WHY
from kb.class_comparison import offers_classes
from kb.language import HAN
from kb.lexical import STOPWORDS, tokenize
from kb.specs import asked_attribute, clauses, dates
from kb.specs.asked_attribute import CLAUSE_BREAK, choose_attribute, unit_cue
from kb.specs.clauses import BIDIRECTIONAL, COMPARING, ONE_WAY, PARTS, SUBJECT_KINDS, defined_per, of_another_chip
from kb.specs.counted_per import counted_per_one, counted_per_part
from kb.specs.facts import FactTable
from kb.specs.lines import asked_line, line_generations, lists_parts, unlisted_variant
from kb.specs.quantities import MEASURE_WORDS
from kb.specs.units import DTYPE, UNITS, counted
from kb.textnorm import normalize_for_matching

Kind = Literal["lookup", "comparison", "superlative"]

_COMPARE = {
    # a comparative between two names compares them even where "than" is misspelt ("more sbuf then trainium")
    "en": rf"\b(?:{COMPARING['en']}|which|difference|more|less|fewer|higher|lower|bigger|larger|smaller|faster|"
          r"slower|cheaper|better|worse)\b",
    # a Russian comparative compares without "чем": "B200 быстрее H100" (the genitive of comparison); a verb of
    # comparing often comes first in a yes-no question ("Обгоняет ли H100 A100 по памяти?")
    "ru": rf"(?<![а-яё])(?:{COMPARING['ru']}|как\w{{1,3}}|кто|у кого|что|насколько|лучше|хуже|больше|меньше|дешевле|"
          r"дороже|выше|ниже|быстрее|медленнее|мощнее|сильнее|слабее)(?![а-яё])",
    "zh": rf"{COMPARING['zh']}|相比|哪个|哪款|谁|提升",
}
_SUPERLATIVE = {
    # "closest to its peak" ranks by the efficiency; "closest to 100 GB" ranks nothing
    "en": r"\b(?:most|highest|largest|biggest|fastest|least|lowest|cheapest|smallest|slowest|best|maximum|minimum)\b|"
          r"\b(?:closest|nearest) to (?:its |their |the )?(?:theoretical|peak)\b|"
          r"\bwhich\b.*\b(?:cheaper|faster|slower|larger|bigger|more|higher|less|lower|smaller)\b",
    "ru": r"(?<![а-яё])(?:сам(?:ый|ая|ое|ые|ого|ой|ую|ых|ым|ыми|ом)|больше всего|меньше всего|ближе всего к (?:своему |своим )?(?:теоретическ|пик)\w*|наибольш\w*|наименьш\w*|максимальн\w*|минимальн\w*|"
          r"дешевле|дороже|быстрее|больше|меньше)(?![а-яё])",
    "zh": r"最|更便宜|更贵|更大|更多|更快|更慢",
}
_LOWER = {
    # not a smaller or lower thing of another kind ("smaller precisions", "при низкой загрузке")
    "en": r"\b(?:least|lowest|cheap\w*|small(?:er|est)(?! (?:precision|model|batch|data ?type)s?\b)|slow(?:er|est)|"
          r"weak(?:er|est)?(?![- ]scal)|minimum|less|fewer|lower)\b",
    "ru": r"(?:меньш\w*|наименьш\w*|минимальн\w*|деш[её]в\w*|выгодн\w*|ниже|"
          r"(?<![а-яё])низк\w*(?! (?:точност|загрузк|нагрузк|энерго|уровн|задержк)\w*)|медленн\w*|слаб\w*)",
    "zh": r"最少|最低|最小|最便宜|便宜|划算|更少|更低|更小|更慢|最慢|更弱|最弱|(?<!至)[慢弱低少小]了?(?:多少|几倍)",
}
# The words that ask for more of a thing; beside a word of _LOWER, the one nearer the attribute's cue decides
# ("which has more HBM? we want less sharding" asks for more memory)
_HIGHER = {
    "en": r"\b(?:most|highest|largest|biggest|fastest|greatest|best|maximum|more|higher|larger|bigger|faster|"
          r"greater|better|stronger|strongest)\b",
    "ru": r"(?:больш\w*|наибольш\w*|максимальн\w*|выше|(?<![а-яё])высок\w*|быстрее|мощнее|сильнее|дороже)",
    "zh": r"最多|最高|最大|最快|最强|更多|更高|更大|更快|更强",
}
# Two things offered as alternatives ("TPU or GPU", "TPU или GPU", "TPU 还是 GPU", "跟 GPU 比"): without a named
# entity on either side the question compares classes, and the passage that compares them answers it.
_ALTERNATIVES = re.compile(r"\b(?:or|vs\.?|versus)\b|(?<![а-яё])или(?![а-яё])|还是|[跟和与].{1,12}?(?:(?<!之)比|相比)",
                           re.IGNORECASE)
# A speedup asked for ("the speedup of X over Y", "FP8 speedup factor"), not a kind of thing ("speedup techniques")
_SPEEDUP_OF = r"\bspeed-?ups?\b(?=\s*(?:factor|of|over|from|vs|versus|compared|for|in|on|at|with|when|[?,.]|$))"
# Words that ask how many times or by how much one side exceeds the other: the factor is the answer, so it leads.
_RATIO = re.compile(r"\bhow many times\b|\bwhat factor\b|" + _SPEEDUP_OF + r"|\bmultiplier\b|\bby how much\b|\bhow much (?:faster|slower|more|less|higher|"
                    r"lower|bigger|larger|smaller|cheaper)\b|\bin percent\b|\bwhat percent|\bhow many percent|"
                    r"во сколько раз|на сколько процент|(?:на ?сколько|насколько) (?:больше|меньше|быстрее|медленнее|"
                    r"дешевле|дороже|выше|ниже)|(?<![а-яё])ускорени[ея](?![а-яё])|几倍|多少倍|倍数|加速比|百分之几|百分之多少|多少\s*%|"
                    r"(?<!最)(?:高|低|快|慢|便宜|贵|加速)(?:了|出)?多少|(?:提升|提高|增加|降低)了?多少")
_TIMES = re.compile(r"\btimes\b|\bfactor\b|(?<![а-яё])раз(?:а)?(?![а-яё])|倍")
# A Chinese count asked with a measure word ("几条 NVLink", "多少个核心") wants things counted, never an amount
# of bytes or a rate: of the cued attributes, the one that counts; none, and the passages answer
# "几个"/"多少个" before a unit or money ask for an amount of it ("多少个 GB", "几块钱"), no count
_COUNTED = re.compile(rf"(?:几|多少)\s*[{MEASURE_WORDS}](?!\s*(?:钱|元|美元|美金|(?:[KMGTP]i?B?|TFLOPS|PFLOPS|W|瓦)(?![A-Za-z])))", re.IGNORECASE)
# An English noun phrase ends in its head: a cue word right before a noun of a part ("compute engine", "memory
# controller", "compute die") only says which part, not the cue's attribute (when another cue names one).
_PART_HEAD = re.compile(r"[\s-]+(?:engines?|units?|dies?|tiles?|blocks?|chiplets?|complex(?:es)?|controllers?|"
                        r"subsystems?)\b")
# What a thing does, a drawback, a thing to do, the means against a problem or where a cost lies asks no figure ("что
# делают CC-Cores", "能干什么", "最大的问题", "what do I need to set so that ..."), unless a clause asks a figure
_NOT_A_FIGURE = re.compile(r"(?<![а-яё])что (?:делает|делают)(?![а-яё])|за что отвеча\w*|干什么|作用是什么|" +
                           "|".join(p.pattern for p in (DRAWBACK, ACTION, MEANS, WHERE, METHOD)))
ASKS = re.compile(r"\b(?:what|which|how)\b|(?<![а-яё])(?:как(?:ой|ая|ое|ие|ую|им|ом|ов|ова|ово|овы)|скольк\w*)(?![а-яё])|"
                  r"多少|几|哪|多[大快高]")
# "Which is faster at FP8", "how fast in BF16", "у кого FP64 мощнее": with a precision named, a word that asks how
# fast or how powerful (or two things compared) and no other cue, the question asks for the peak compute in that
# precision (the one attribute given per data type).
_FAST_WORDS = re.compile(r"\bhow (?:fast|quick(?:ly)?)\b|\bspeeds?\b(?! up)|\b(?:fast|quick)(?:er|est)\b|скорост\w*|"
                         r"как быстро|(?<![а-яё])быстре\w*|сам\w+ быстр\w*|多快|速度|更快|最快|哪个快|谁快|"
                         r"\b(?:more|most) powerful\b|\bstronger\b|мощне\w*|сам\w+ мощн\w*|(?<![а-яё])мощност\w*|"
                         r"更强|最强|"
                         # and the other way: how much slower or weaker one is
                         # (not the slowest part of a job: "the slowest step of BF16 training" asks no compute)
                         r"\bhow slow\b|\bslower\b|\bslowest\b(?! (?:step|stage|part|phase|op|operation|layer)s?\b)|"
                         r"\bweaker\b|\bless powerful\b|(?<![а-яё])медленне\w*|сам\w+ медленн\w*|"
                         r"(?<![а-яё])слабее(?![а-яё])|更慢|最慢|[慢弱]了?(?:多少|几倍)|更弱")
# of those, the comparatives: they ask how fast only of things compared ("FP8 for faster training" asks no figure)
_FAST_COMPARATIVES = re.compile(r"(?:fast|quick|slow)er|weaker|less powerful|быстре\w*|медленне\w*|слабее|更快|更慢|"
                                r"[慢弱]了?(?:多少|几倍)|更弱|more powerful|stronger|мощне\w*|更强")
_SPEEDUP = re.compile(r"快|加速比|加速了|быстр|ускорени[ея](?![а-яё])|\bfaster\b|" + _SPEEDUP_OF)
PER_PRECISION = "peak_compute"
# Words that qualify a figure as achieved in practice rather than the datasheet's peak ("real matmul", "实测").
# Adjectives only: the adverbs ("actually faster", "реально быстрее", "实际上") stress a comparison.
_PRACTICE = re.compile(r"\b(?:real(?:istic|[- ]world)?|actual|achievable|achieved|measured|in practice)\b|"
                       r"реальн(?:ый|ого|ом|ая|ой|ую|ые|ых|ым|ыми)(?![а-яё])|фактическ\w*|достижим\w*|на практике|"
                       r"实测|实际(?!上)")
MEASURED_COMPUTE = "mamf"
_SUPPORT = re.compile(r"\bsupport\w*|поддерж\w*|支持")  # whether a format is supported is no figure of it
# Precisions named in words: a data type as surely as "FP64" is.
_PRECISION_WORDS = {
    "FP64": re.compile(r"\bdouble[- ]precision\b|двойн\w* точност\w*|双精度"),
    "FP32": re.compile(r"\bsingle[- ]precision\b|одинарн\w* точност\w*|单精度"),
    "FP16": re.compile(r"\bhalf[- ]precision\b|половинн\w* точност\w*|半精度"),
}
# The kind of figure ("Matrix FP8" against "Vector FP8" rows of a spec table, one-way against bidirectional).
_BASIS_WORDS = {"matrix": r"\bmatrix\b|\bmatmul\b|матричн\w*|矩阵", "vector": r"\bvector\b|векторн\w*|向量",
                "one-way": ONE_WAY.pattern, "planned": clauses.PLANNED_ASKED.pattern,
                "bidirectional": BIDIRECTIONAL.pattern}
_SCOPE_WORDS = {
    # the singular: "both GCDs" is the whole chip, as the prose reader takes it
    **{scope: rf"(?<![a-z0-9])(?:{words})(?![a-z0-9])" for scope, words in PARTS.items()},
    "per_instance": r"\binstances?\b|инстанс\w*|实例",
    "per_chip": r"\bchips?\b|\bper chip\b|чип\w*|芯片",
}
# A figure of a whole node or rack of chips: the place named with a word of total ("8 卡 H100 节点的 NVLink 总带宽"),
# or "per node". A chip's own figure is no answer to it.
# Not a process node, nor training over several nodes ("multi-node", "на нескольких узлах", "多节点", "跨节点").
_NODE = re.compile(r"(?<!process )(?<!multi-)(?<!multi )\b(?:nodes?|racks?)\b|(?<!нескольких )(?<![а-яё])"
                   r"(?:узл\w*|узел|стойк\w*)|(?<!工艺)(?<!多)(?<!跨)节点|机柜|机架")
TOTAL = re.compile(r"\b(?:total|aggregate|combined|whole|entire)\b|суммарн\w*|в сумме|(?<![а-яё])всего(?![а-яё])|"
                    r"总(?!线|结|之|是)|合计|一共|整个")
# One chip asked of, not the node ("each GPU", "одного H100", "单个 H100", "每张卡"), unless the node is that one
_SINGLE = re.compile(r"(?:\b(?:one|single|each|per (?:gpu|chip|card))\b|(?<![а-яё])(?:одн(?:ого|ой|у|а)|кажд\w*)(?![а-яё])|"
                     r"单个|单张|单卡|每张|每卡|每个?\s*(?:gpu|卡|芯片))(?!\s+(?:[\w.-]+\s+){0,2}(?:nodes?|racks?|узл|узел|节点))")
_WHOLE = ("per_node", "per_instance", "per_system")  # the scopes of a figure of many chips together
# One GPU of a system asked of ("per-GPU", "a single GPU", "одного GPU", "单卡", "每块 GPU"), not one system
_PARTS_PER = ("gpu", "chip", "link")  # what one part's figure is said per: never a system's total
_PER_NODE = re.compile(r"\bper node\b|на (?:один |каждый )?узел|每个?\s*节点")
NEAR_TOTAL = 60  # characters between a word of total and the node it is the total of
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
    line: tuple[str, ...] = ()  # a ranking within a product line or maker ("which TPU"): see ``kb.specs.lines``
    bare: bool = False  # nothing but a ranking of the attribute ("which option is cheaper?"): see ``_bare``
    announced: bool = False  # a ranking that takes in products announced but not yet shipping (``_ANNOUNCED``)


def understand(question: str, lang: str | None, table: FactTable, known_words: frozenset[str] = frozenset(),
               unlisted: tuple[str, ...] = ()) -> SpecQuery | None:
    """The spec reading of a question, or None when it asks about no attribute. ``known_words`` (the
    corpus's) are never taken for misspellings of attribute words; ``unlisted`` are the names of things the
    corpus writes that are no table entity (``kb.coverage.unlisted_names``): asked about with no entity
    named, or compared with one ("h800 和 h100 哪个…"), the question asks their attribute, and the table has none."""
    lang = lang or "en"
    text = normalize_for_matching(question)
    vocabulary = table.vocabulary
    low = vocabulary.mend_spelling(text.lower(), known_words)
    found = vocabulary.mentions(text)  # "H100 NVL" is no H100, "Vera Rubin NVL72" no GB200 NVL72
    entities = tuple(dict.fromkeys(m.entity for m in clauses.asked_of(text, found) if not unlisted_variant(vocabulary, text, m)
                                   and not of_another_chip(text, m, found, vocabulary)))
    dtype_match = DTYPE.search(text)
    dtype = dtype_match.group(1).upper() if dtype_match else \
        next((d for d, pattern in _PRECISION_WORDS.items() if pattern.search(low)), None)
    # a cue inside a product's name ("PCIe" of "A100 PCIe") is part of the name, not a question about it
    low_mentions = vocabulary.mentions(low)
    names = [(m.start, m.end) for m in low_mentions if vocabulary.entities[m.entity].kind in SUBJECT_KINDS]

    every_cue = vocabulary.cue_spans(low, lang)

    def outside(names: list[tuple[int, int]]) -> dict[str, list[tuple[int, int]]]:
        return {a: kept for a, found in every_cue.items()
                if (kept := [(s, e) for s, e in found if not any(ns <= s and e <= ne for ns, ne in names)])}
    # with no chip or system named, a link's name is the product too: "nvlink" of "NVLink 4.0" asks no attribute
    # where another cue does ("NVLink 4.0 和 5.0 的链接带宽"), and only where none does
    spans = (not names and outside([(m.start, m.end) for m in low_mentions])) or outside(names)
    # beside another cue, one that only names a part ("compute engine") is not what is asked; alone, it is
    heads = {a: kept for a, found in spans.items() if (kept := [(s, e) for s, e in found if not _PART_HEAD.match(low, e)])}
    spans = heads or spans
    cue_spans = [span for found in spans.values() for span in found]
    if WHY.search(low) or DEFINES.search(low) and not FIGURE_ASKED.search(low) or \
            _NOT_A_FIGURE.search(low) and not FIGURE_ASKED.search(low) and not _asked_apart(low, cue_spans):
        return None  # a reason, a definition or a thing to do is asked, not a figure: the passage that gives it answers
    cues = vocabulary.attribute_cues(low, lang, spans) or unit_cue(low, table)
    fast = (word := _FAST_WORDS.search(low)) and not (_FAST_COMPARATIVES.fullmatch(word.group(0)) and len(entities) < 2)
    compare = re.search(_COMPARE.get(lang, _COMPARE["en"]), low) or re.search(_COMPARE["en"], low)
    ratio = bool(_RATIO.search(low))
    # a precision is what two things are compared in ("a B300 or a B200 for FP64?"); compute, as faster or stronger
    if not cues and PER_PRECISION in vocabulary.attributes and (dtype and (fast or len(entities) >= 2 and compare and not
            _SUPPORT.search(low)) or fast and clauses.two_sides(text, found, entities) and all(table.about(e, PER_PRECISION) for e in entities)
            and clauses.only_which(low, low_mentions, word, vocabulary)
            or fast and not entities and re.search(_SUPERLATIVE.get(lang, _SUPERLATIVE["en"]), low) and  # "the fastest chip"
            re.search(_KIND_WORDS["chip"], low) and not re.search(r"\bgpus?\b|显卡", low) and not _CONSUMER.search(low)):
        cues = [(0, PER_PRECISION)]
    # "H100 比 A100 快几倍？": how much faster one is than the other, where the corpus states it of their compute
    # (a word of speed, not of size: "H100 比 A100 大几倍", "加速卡 ... 大几倍" ask no compute)
    if not cues and len(entities) >= 2 and (fast or ratio and _SPEEDUP.search(low)) and \
            table.relation_between(entities[0], entities[1], PER_PRECISION) is not None:
        cues = [(0, PER_PRECISION)]
    if not cues:
        return None
    cued = tuple(a for _, a in cues)

    def has_facts(attribute: str) -> bool:
        pool = entities or tuple(table.entities_with(attribute))
        return any(table.about(e, attribute) or any(table.about(r, attribute) for r in table.related(e))
                   for e in pool)

    attribute = choose_attribute(cues, low, vocabulary, has_facts, spans, lang)
    if attribute is not None and lang == "zh" and _COUNTED.search(low) and not counted(vocabulary.attributes[attribute].unit):
        attribute = next((a for a in cued if counted(vocabulary.attributes[a].unit) and any(  # "几条 ICI 链路": links
            not _COUNTED.fullmatch(low, s, e) for s, e in spans.get(a, []))), None)  # (not "几颗 HBM": no chips)
    if attribute is None or counted_per_one(low, vocabulary.attributes[attribute], spans.get(attribute)) or \
            counted_per_part(low, vocabulary.attributes[attribute], spans, vocabulary):
        return None  # none, or "一个 SM 能调度多少个 warp" ("how many warps can one SM schedule"): per SM, not SMs
    if attribute == PER_PRECISION and _PRACTICE.search(low) and MEASURED_COMPUTE in vocabulary.attributes:
        attribute = MEASURED_COMPUTE  # "на реальном bf16 matmul": what is achieved, not the peak
    # a memory type or a link beside a product ("the 80GB HBM2e A100", "GH200 с 96 ГБ HBM3") is the product's make-up,
    # not a second thing asked about, unless it has a value of what is asked ("NVLink 4 on the H100, per link")
    if any(vocabulary.entities[e].kind in SUBJECT_KINDS for e in entities):
        entities = tuple(e for e in entities if vocabulary.entities[e].kind in SUBJECT_KINDS or table.about(e, attribute))
    superlative = re.search(_SUPERLATIVE.get(lang, _SUPERLATIVE["en"]), low)
    better = vocabulary.attributes[attribute].better
    lower = _nearer_lower(low, lang, spans.get(attribute, []), cue_spans)
    # faster or stronger is the better way of the attribute ("faster to train GPT-3": fewer instances)
    direction = "lower" if lower else (better if fast else "higher" if superlative or compare else better)
    kind_filter = None if _CONSUMER.search(low) else \
        next((k for k, pattern in _KIND_WORDS.items() if re.search(pattern, low)), None)
    sparse = bool(re.search(r"sparse|稀疏|разрежен", low))
    basis = next((b for b, pattern in _BASIS_WORDS.items() if re.search(pattern, low)), None)
    if attribute == dates.ATTRIBUTE:
        basis = dates.asked_event(low)  # the shipping date for "when will it ship", not the announcement
    ranks = superlative or re.search(_HIGHER.get(lang, _HIGHER["en"]), low) or lower or fast
    line: tuple[str, ...] = ()
    if superlative and len(entities) <= 1 and not _CONSUMER.search(low):  # "which Google phone" is no TPU
        line, only_named = asked_line(low, low_mentions, vocabulary, cue_spans)
        entities = tuple(e for e in entities if e not in {m.entity for m in only_named})
        line = line if not entities else ()
    # "compare the Trainium generations": each one, not the first; "which NVLink generation is fastest" ranks them
    generations = () if (superlative and (line or entities)) or len(entities) > 1 else \
        line_generations(low, vocabulary, ranked=bool(superlative))
    # generations none of which has a figure of the attribute read ("the HBM generations' bandwidth", read as
    # memory bandwidth, which HBM types have none of): the passages answer
    if generations and not any(table.about(e, attribute) for e in generations):
        return None
    entities = generations or entities
    if len(_things(entities, vocabulary)) >= 3 and ranks and not ratio and \
            vocabulary.attributes[attribute].unit in UNITS:
        # "which of V100, A100, H100 and B200 has the most L2": a ranking of those named; a plain list of them
        # ("Какой объём памяти у H100, A100 и MI300X?") asks each one's value
        kind: Kind = "superlative"
    elif len(entities) >= 2 and (compare or ratio) and len(_things(entities, vocabulary)) <= 2:  # of three: each one's
        kind = "comparison"
    elif not entities and (_ALTERNATIVES.search(low) or offers_classes(low)):
        return None  # classes compared ("TPU or GPU"): no ranking over whichever instances have a value
    elif not entities and superlative and not lists_parts(text, lang, vocabulary):  # "HBM, ICI or DCN: which is slowest?": passages
        kind = "superlative"
    elif not entities and not unlisted:
        return None
    else:
        kind = "lookup"
    scopes = tuple(s for s, pattern in _SCOPE_WORDS.items()
                   if any(not _COUNT_BEFORE.search(low, 0, m.start()) for m in re.finditer(pattern, low)))
    node = _node_total(low)
    # a system's total ("the total of a GB200 NVL72"), not one GPU's ("NVLink 3.0 每个 GPU 的总带宽")
    whole = any(vocabulary.entities[e].kind in ("instance", "system") for e in entities) and TOTAL.search(low) and \
        not asked_attribute.ONE_GPU.search(low)
    if whole and "per_chip" not in scopes and \
            defined_per(vocabulary.attributes[attribute].labels.get("en", "")) in _PARTS_PER:
        return None  # a system's total, and the attribute is one chip's or link's ("bandwidth per GPU"): passages answer
    if (node or whole) and "per_chip" not in scopes:
        if node and not vocabulary.attributes[attribute].whole and \
                not any(f.scope in _WHOLE for e in entities for f in table.about(e, attribute)):
            return None  # a node's total, and the table has only chips' own figures: the passages answer it
        scopes += ("per_node",)  # and a system's total never falls back to its chip's figure
    return SpecQuery(kind=kind, attribute=attribute, entities=entities, dtype=dtype, direction=direction,
                     sparse=sparse, basis=basis, kind_filter=kind_filter, scopes=scopes, cued=cued,
                     ratio=(("times" if _TIMES.search(low) else "share") if ratio and kind == "comparison" else None),
                     unlisted=unlisted if kind == "lookup" and (not entities or compare) else (),
                     line=line if kind == "superlative" else (),
                     bare=kind == "superlative" and not entities and _bare(low, lang, spans),
                     announced=bool(_ANNOUNCED.search(low)))


def _node_total(low: str) -> bool:
    """Whether the question asks a figure of a whole node or rack: "per node", or a word of total near a node's
    word, and no single chip asked of."""
    if _PER_NODE.search(low):
        return True
    return not _SINGLE.search(low) and any(TOTAL.search(low, max(0, m.start() - NEAR_TOTAL), m.end() + NEAR_TOTAL)
                                           for m in _NODE.finditer(low))


def _things(entities: tuple[str, ...], vocabulary) -> tuple[str, ...]:
    """The chips, instances and systems named (not a memory or link named beside them: "the H100 (HBM3)"), a
    chip named beside the instance or system built of it being part of that one ("a dl1 (gaudi) instance or a
    p4d" names two); where none is named, the links or memories named ("NVLink 3.0、4.0、5.0")."""
    chips = {vocabulary.entities[e].parts.chip for e in entities if vocabulary.entities[e].parts}
    return tuple(e for e in entities if e not in chips and vocabulary.entities[e].kind in SUBJECT_KINDS) or entities


# A ranking weighs shipping products only, unless the question takes in the announced ones too
_ANNOUNCED = re.compile(r"\b(?:including|incl\.?|even|counting)\s+(?:the\s+)?(?:announced|unreleased|upcoming|"
                        r"future|not[- ]yet[- ](?:released|available|shipping))|"
                        r"(?<![а-яё])(?:включая|в том числе|с учётом|с учетом)\s+(?:ещё |еще )?(?:анонсированн|невыпущенн|"
                        r"будущ|не вышедш|не выпущенн)\w*|包括(?:已经?|还)?(?:发布|宣布|公布|未上市|没上市|未发布|即将)|"
                        r"含(?:未上市|已发布)")
# What a question that only ranks is made of besides its attribute's cue: a word for the alternatives and the
# words of ranking and asking ("which option is cheaper?", "какой вариант дешевле всего в час?", "哪个选项最便宜")
_OPTION_WORDS = re.compile(r"\b(?:options?|choices?|alternatives?|one)\b|(?<![а-яё])(?:вариант\w*|опци\w*|всего)"
                           r"(?![а-яё])|选项|方案|选择|的|是|呢|吗")


def _asked_apart(low: str, cue_spans: list[tuple[int, int]]) -> bool:
    """Whether a cue stands in a clause that asks a question of its own, without words that ask no figure
    ("what is the memory bandwidth" of "..., and what is its main drawback?")."""
    bounds = [0] + [m.end() for m in CLAUSE_BREAK.finditer(low)] + [len(low)]
    for left, right in zip(bounds, bounds[1:], strict=False):
        clause = low[left:right]
        if any(left <= s < right for s, _ in cue_spans) and ASKS.search(clause) and \
                not _NOT_A_FIGURE.search(clause):
            return True
    return False


def _bare(low: str, lang: str, spans: dict[str, list[tuple[int, int]]]) -> bool:
    """Whether the question is nothing but a ranking of the cued attribute: with no other word, the
    alternatives it ranks are the ones the service is about, not things the domain gate must judge."""
    rest = list(low)
    for found in spans.values():
        for s, e in found:
            rest[s:e] = " " * (e - s)
    patterns = [re.compile(p) for p in (_SUPERLATIVE.get(lang, _SUPERLATIVE["en"]), _HIGHER.get(lang, _HIGHER["en"]),
                                        _LOWER.get(lang, _LOWER["en"]), _COMPARE.get(lang, _COMPARE["en"]),
                                        _OPTION_WORDS.pattern)]
    # word by word, so that no pattern reaches over a noun ("which phone has more", "самолет" of "сам...")
    for word in re.finditer(rf"[a-z0-9а-яё-]{{2,}}|[{HAN}]+", "".join(rest)):
        text = word.group(0)
        if not re.match(f"[{HAN}]", text):
            if text not in STOPWORDS and not any(p.fullmatch(text) for p in patterns):
                return False
        else:  # Chinese runs into its words: take the ranking's out and see what is left
            for p in patterns:
                text = p.sub(" ", text)
            if [t for t in tokenize(text) if t not in STOPWORDS]:
                return False
    return True


def _nearer_lower(low: str, lang: str, cued: list[tuple[int, int]], names: list[tuple[int, int]] = ()) -> bool:
    """Whether the question asks for less of the attribute cued at the spans ``cued``: a word of _LOWER, unless
    a word of _HIGHER stands nearer a cue (with no cue span, any word of _LOWER). A word of _HIGHER inside a
    cue's span (``names``) is part of an attribute's name ("maximum achievable matmul FLOPS"), not a direction;
    a word of _LOWER there asks for less ("дешевле в час" cues the price and its direction)."""
    def nearest(pattern: str, skip: list[tuple[int, int]] = ()) -> int | None:
        return min((max(s - m.end(), m.start() - e, 0) for m in re.finditer(pattern, low) for s, e in cued or [(0, 0)]
                    if not any(a <= m.start() and m.end() <= b for a, b in skip)), default=None)
    lower = nearest(_LOWER.get(lang, _LOWER["en"]))
    if lower is None:
        return False
    higher = nearest(_HIGHER.get(lang, _HIGHER["en"]), names) if cued else None
    return higher is None or lower <= higher
