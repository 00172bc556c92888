"""How spec answers are worded in the question's language: values, qualifiers, comparisons, rankings."""

from __future__ import annotations

import re

from kb.specs.dates import shown
from kb.specs.model import Fact
from kb.specs.units import format_count, format_number, unit_name

SCOPES = {
    "per_chip": {"en": "per chip", "ru": "на чип", "zh": "每芯片"},
    "per_processor": {"en": "per processor", "ru": "на процессор", "zh": "每个处理器"},
    "per_instance": {"en": "per instance", "ru": "на инстанс", "zh": "每实例"},
    "per_system": {"en": "per system", "ru": "на систему", "zh": "每系统"},
    "per_gcd": {"en": "per GCD", "ru": "на GCD", "zh": "每个 GCD"},
    "per_xcd": {"en": "per XCD", "ru": "на XCD", "zh": "每个 XCD"},
    "per_node": {"en": "per node", "ru": "на узел", "zh": "每节点"},
}
BASES = {
    "dense": {"en": "dense", "ru": "без разреженности", "zh": "稠密"},
    "sparse": {"en": "sparse", "ru": "с разреженностью", "zh": "稀疏"},
    "matrix": {"en": "matrix", "ru": "матричные", "zh": "矩阵"},
    "vector": {"en": "vector", "ru": "векторные", "zh": "向量"},
    "packed": {"en": "packed", "ru": "packed", "zh": "打包"},
    "measured": {"en": "measured", "ru": "измерено", "zh": "实测"},
    "planned": {"en": "planned", "ru": "заявлено", "zh": "计划"},
    "one-way": {"en": "one way", "ru": "в одну сторону", "zh": "单向"},
    "bidirectional": {"en": "both ways", "ru": "в обе стороны", "zh": "双向"},
    # the life event a date is of (kb.specs.dates)
    "announced": {"en": "announced", "ru": "анонс", "zh": "发布"},
    "shipping": {"en": "shipping", "ru": "начало поставок", "zh": "出货"},
    "released": {"en": "released", "ru": "выпуск", "zh": "上市"},
    "available": {"en": "available", "ru": "доступен", "zh": "可用"},
}
STATUS = {
    "unknown": {"en": "unknown", "ru": "неизвестно", "zh": "未知"},
    "unsupported": {"en": "not supported", "ru": "не поддерживается", "zh": "不支持"},
    "unpublished": {"en": "supported, no figure published", "ru": "поддерживается, цифра не опубликована",
                    "zh": "支持，未公布数值"},
}
BOUNDS = {"at_least": {"en": "more than ", "ru": "более ", "zh": "超过"},
          "at_most": {"en": "up to ", "ru": "до ", "zh": "最多"}}
SEP = {"en": ", ", "ru": ", ", "zh": "，"}


def tr(table: dict, key: str, lang: str) -> str:
    return table.get(key, {}).get(lang) or table.get(key, {}).get("en") or key


def value_display(fact: Fact, lang: str) -> str:
    if fact.status != "value":
        return tr(STATUS, fact.status, lang)
    if fact.text is not None:
        return shown(fact.text, lang)  # a date in the reader's words; a memory type as written
    if fact.unit == "transistors":
        number = format_count(fact.value, lang)
    else:
        number = format_number(fact.value, lang, fact.decimals if fact.decimals > 0 else None)
    if fact.value_max is not None:
        number += "–" + format_number(fact.value_max, lang)
    prefix = ("~" if fact.approx else "") + (tr(BOUNDS, fact.bound, lang) if fact.bound else "")
    # a count in Russian agrees with its last number; transistors are written with a scale word ("54,2 млрд
    # транзисторов"), which the noun follows
    last = fact.value_max if fact.value_max is not None else fact.value
    unit = unit_name(fact.unit, lang, None if fact.unit == "transistors" else last)
    joiner = "" if unit in ("%",) or (lang == "zh" and unit.startswith("个")) else " "
    return f"{prefix}{number}{joiner}{unit}".strip()


def variant(fact: Fact, lang: str) -> str:
    return fact.variant_labels.get(lang) or fact.variant or ""


def qualifier(fact: Fact, lang: str) -> str:
    parts = [fact.dtype or "", tr(BASES, fact.basis, lang) if fact.basis and fact.basis != "dense" else "",
             tr(SCOPES, fact.scope, lang) if fact.scope else "", variant(fact, lang)]
    return SEP[lang].join(p for p in parts if p)


def fmt_range(lo: float, hi: float, unit: str, lang: str) -> str:
    def one(v: float) -> str:
        return format_count(v, lang) if unit == "transistors" else format_number(round(v, 2), lang)
    shown = one(lo) if abs(hi - lo) < 1e-9 else f"{one(lo)}–{one(hi)}"
    name = unit_name(unit, lang, None if unit == "transistors" else round(hi, 2))
    return f"{shown}{'' if name == '%' else ' '}{name}"


# A difference of two shares is in points of a percentage, not a percentage of either (96.9% against 80.3%)
POINTS = {"en": "percentage points", "ru": "п. п.", "zh": "个百分点"}


def fmt_difference(lo: float, hi: float, unit: str, lang: str) -> str:
    """A difference of two values in ``unit``: percentage points for two shares."""
    if unit != "%":
        return fmt_range(lo, hi, unit, lang)
    return f"{fmt_range(lo, hi, '', lang).strip()}{'' if lang == 'zh' else ' '}{POINTS[lang]}"


TEXTS = {
    "higher": {"en": "{a} is higher: {va} against {vb} for {b} ({diff} more, {ratio}×).",
               "ru": "У {a} больше: {va} против {vb} у {b} (на {diff} больше, в {ratio} раза).",
               "zh": "{a} 更高：{va}，{b} 为 {vb}（高出 {diff}，是其 {ratio} 倍）。"},
    "lower": {"en": "{a} is lower: {va} against {vb} for {b} ({diff} less).",
              "ru": "У {a} меньше: {va} против {vb} у {b} (на {diff} меньше).",
              "zh": "{a} 更低：{va}，{b} 为 {vb}（低 {diff}）。"},
    # asked by how much: the factor (or the share less) leads
    "ratio_higher": {"en": "{a} is {ratio}× {b} ({label}): {va} against {vb}.",
                     "ru": "У {a} в {ratio} раза больше, чем у {b} ({label}): {va} против {vb}.",
                     "zh": "{a} 是 {b} 的 {ratio} 倍（{label}）：{va}，{b} 为 {vb}。"},
    "ratio_lower": {"en": "{a} is {ratio} lower than {b} ({label}): {va} against {vb}.",
                    "ru": "У {a} на {ratio} меньше, чем у {b} ({label}): {va} против {vb}.",
                    "zh": "{a} 比 {b} 低 {ratio}（{label}）：{va}，{b} 为 {vb}。"},
    "ratio_lower_times": {"en": "{a} has {ratio}× less than {b} ({label}): {va} against {vb}.",
                          "ru": "У {a} в {ratio} раза меньше, чем у {b} ({label}): {va} против {vb}.",
                          "zh": "{b} 是 {a} 的 {ratio} 倍（{label}）：{a} 为 {va}，{b} 为 {vb}。"},
    "pair": {"en": ": {vs} against {vo}", "ru": ": {vs} против {vo}", "zh": "：{vs} 对 {vo}"},
    # a stated relation, the winner first: the subject of the relation, or the other side
    "relation_subject": {"en": "{s}: {factor} {word} than {o} ({label}){value}.",
                         "ru": "{s}: {factor} {word}, чем {o} ({label}){value}.",
                         "zh": "{s}：比 {o} {word}{factor}（{label}）{value}。"},
    # a multiple of the other side: Chinese says "是…的 N 倍" ("高 N 倍" may be read as N + 1 times)
    "relation_times": {"en": "{s}: {factor} {word} than {o} ({label}){value}.",
                       "ru": "{s}: {factor} {word}, чем {o} ({label}){value}.",
                       "zh": "{s}：是 {o} 的{factor}（{label}）{value}。"},
    # a relation to a class of products, the class as the source writes it
    "relation_class": {"en": "{s}: {factor} {word} than “{o}” ({label}), as the source states.",
                       "ru": "{s}: {factor} {word}, чем «{o}» ({label}), по словам источника.",
                       "zh": "{s}：比“{o}”{word}{factor}（{label}），据来源所述。"},
    "relation_object": {"en": "{o} is {other}: {s} is {factor} {word} ({label}){value}.",
                        "ru": "{o} — {other}: {s} {factor} {word} ({label}){value}.",
                        "zh": "{o} 更{other}：{s} 比它{word}{factor}（{label}）{value}。"},
    "equal": {"en": "{a} and {b} are equal: {va}.", "ru": "У {a} и {b} одинаково: {va}.",
              "zh": "{a} 与 {b} 相同：{va}。"},
    "overlap": {"en": "The sources disagree too much to tell: {a} {va}, {b} {vb}.",
                "ru": "Источники расходятся, сравнить нельзя: {a} {va}, {b} {vb}.",
                "zh": "来源数值不一致，无法判断：{a} {va}，{b} {vb}。"},
    "missing": {"en": "No {label} for {a} in the corpus, so it cannot be compared.",
                "ru": "В корпусе нет значения «{label}» для {a}, сравнить нельзя.",
                "zh": "语料中没有 {a} 的{label}，无法比较。"},
    "incomparable": {"en": "Not comparable: {a} is given {qa}, {b} {qb}.",
                     "ru": "Несравнимо: для {a} значение дано {qa}, для {b} — {qb}.",
                     "zh": "无法比较：{a} 的数值是{qa}，{b} 的是{qb}。"},
    # after "incomparable", where a machine's own chip can be set against the other chip
    "by_chip": {"en": "Chip against chip ({a} is built of {c}):", "ru": "Если сравнивать чипы ({a} построен на {c}):",
                "zh": "按芯片比较（{a} 由 {c} 构成）："},
    "conflict": {"en": " Sources disagree for {a}: {values}.", "ru": " Источники расходятся для {a}: {values}.",
                 "zh": " 关于 {a} 的来源不一致：{values}。"},
    # a ranking of two by a stated relation: no other entity has a value
    "ranked_two": {"en": "The corpus states no other comparable {label}.",
                   "ru": "Других сопоставимых значений «{label}» в корпусе нет.",
                   "zh": "语料中没有其他可比的{label}数据。"},
    "best_higher": {"en": "Highest {label}: {a} ({va}), among {n} with a value in the corpus.",
                    "ru": "Наибольшее значение «{label}»: {a} ({va}) среди {n} с данными в корпусе.",
                    "zh": "{label}最高：{a}（{va}），共 {n} 个有数据。"},
    "best_lower": {"en": "Lowest {label}: {a} ({va}), among {n} with a value in the corpus.",
                   "ru": "Наименьшее значение «{label}»: {a} ({va}) среди {n} с данными в корпусе.",
                   "zh": "{label}最低：{a}（{va}），共 {n} 个有数据。"},
    "best_higher_named": {"en": "Highest {label}: {a} ({va}), of the {n} asked about with a value in the corpus.",
                          "ru": "Наибольшее значение «{label}»: {a} ({va}) из {n} названных, для которых в корпусе есть данные.",
                          "zh": "{label}最高：{a}（{va}），在所问的有数据的 {n} 个中。"},
    "best_lower_named": {"en": "Lowest {label}: {a} ({va}), of the {n} asked about with a value in the corpus.",
                         "ru": "Наименьшее значение «{label}»: {a} ({va}) из {n} названных, для которых в корпусе есть данные.",
                         "zh": "{label}最低：{a}（{va}），在所问的有数据的 {n} 个中。"},
    "lookup_none": {"en": "The corpus has no {label} for {a}.", "ru": "В корпусе нет значения «{label}» для {a}.",
                    "zh": "语料中没有 {a} 的{label}。"},
    # a prose reading the table does not trust (a candidate): its sentence is quoted, the value not stated
    "lookup_unsure": {"en": "The fact table has no {label} for {a}; the quoted passage may state it.",
                      "ru": "В таблице фактов нет значения «{label}» для {a}; возможно, его называет цитируемый фрагмент.",
                      "zh": "事实表中没有 {a} 的{label}；引用的段落可能给出了它。"},
}


RELATION_WORDS = {  # (subject's word, the other side's), by direction; prices read as cheaper / dearer
    ("lower", True): {"en": ("cheaper", "more expensive"), "ru": ("дешевле", "дороже"), "zh": ("便宜", "贵")},
    ("higher", True): {"en": ("more expensive", "cheaper"), "ru": ("дороже", "дешевле"), "zh": ("贵", "便宜")},
    ("lower", False): {"en": ("lower", "higher"), "ru": ("ниже", "выше"), "zh": ("低", "高")},
    ("higher", False): {"en": ("higher", "lower"), "ru": ("выше", "ниже"), "zh": ("高", "低")},
}


def times_agreed(text: str, lang: str) -> str:
    """Russian "в N раз" agreeing with a whole N ("в 9 раз", "в 3 раза"); a fraction or a range keeps "раза"."""
    if lang != "ru":
        return text
    def agree(m: re.Match) -> str:
        n = int(m.group(1))
        return f"в {n} " + ("раза" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "раз")
    return re.sub(r"в (\d+) раза(?![а-яё])", agree, text)


def factor_text(factor: str, lang: str) -> str:
    """"60%" / "2-3x" as the language says it: "на 60%", "в 2-3 раза", "60%", "2-3倍"."""
    times = not factor.endswith("%")
    number = "–".join(format_number(float(n), lang) for n in factor.rstrip("x×%").split("-"))
    if lang == "ru":
        return times_agreed(f"в {number} раза", lang) if times else f"на {number}%"
    if lang == "zh":
        return f"{number}倍" if times else f"{number}%"
    return f"{number}×" if times else f"{number}%"
