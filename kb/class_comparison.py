"""Comparisons of two classes of product ("TPU or GPU, which is cheaper to wire together?").

No ranking over whichever instances have a value answers such a question:
the corpus answers it in a sentence that says which class is better at the
asked aspect ("TPUs are dramatically cheaper and simpler to wire together",
"TPU превосходят GPU в обработке больших партий данных"). A question names
both classes as alternatives and an aspect (cheaper, faster, better, ...); a
sentence of the top passages states that aspect of one class, in any of the
three languages. The class named before the comparative word, and not as
the other side ("than GPUs", "比 GPU", "Compared to TPUs, GPUs ..."), wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from kb.language import HAN, detect_language, word_frequency
from kb.lexical import tokenize
from kb.response import ComparisonAnswer
from kb.specs.clauses import compared

# Classes of product, as users and the corpus write them; a class word inside a product name ("TPU v5p") is
# the product, not the class, and the caller drops those.
CLASSES = {
    "tpu": re.compile(r"(?<![a-z0-9])tpus?(?![a-z0-9])|(?<![а-яё])тпу(?![а-яё])|tensor processing units?"),
    "gpu": re.compile(r"(?<![a-z0-9])gpus?(?![a-z0-9])|(?<![а-яё])гпу(?![а-яё])|видеокарт\w*|видюх\w*|"
                      r"графическ\w* (?:процессор|ускорител)\w*|显卡|图形处理器"),
}
NAMES = {"tpu": "TPU", "gpu": "GPU"}
# The question offers the two as alternatives ("TPU or GPU", "TPU или GPU", "TPU 还是 GPU", "TPU 和 GPU 谁")
_ALTERNATIVES = re.compile(r"\b(?:or|vs\.?|versus)\b|(?<![а-яё])(?:или|либо)(?![а-яё])|\s[—–-]\s|还是")
# "GPU 和 TPU 哪个更…" offers the two; "GPU 和 TPU 中，哪款芯片…最…" ranks what both hold, as "among GPUs and TPUs" does
_JOINED = re.compile(r"[跟和与]|谁|哪")
_RANKING = re.compile(r"最")
# one set against the other by a comparative also compares the two ("Дешевле ли TPU, чем GPU?", "TPU 比 GPU 便宜吗？")
_THAN = re.compile(r"\bthan\b|(?<![а-яё])чем(?![а-яё])|比")


@dataclass(frozen=True)
class Aspect:
    name: str
    direction: str  # "lower": the winner has less of it (cost); "higher": more (speed, ...)
    pattern: re.Pattern
    words: dict[str, str]  # the comparative in each language, for the answer's text
    # the opposite comparative ("more expensive", "дороже", "更贵"): the class it names is the loser
    inverse: re.Pattern | None = None
    inverse_words: dict[str, str] | None = None


def _aspect(name: str, direction: str, pattern: str, en: str, ru: str, zh: str,
            inverse: tuple[str, str, str, str] | None = None) -> Aspect:
    return Aspect(name, direction, re.compile(pattern), {"en": en, "ru": ru, "zh": zh},
                  re.compile(inverse[0]) if inverse else None,
                  dict(zip(("en", "ru", "zh"), inverse[1:], strict=True)) if inverse else None)


# Comparatives in all three languages, by what they compare; a question and a sentence match when they share one.
ASPECTS = (
    _aspect("cost", "lower", r"cheaper|less expensive|lower (?:total )?costs?|costs? less|more (?:cost-effective|"
            r"affordable)|дешевл|дешёвл|низк\w* (?:общ\w* )?(?:затрат|стоимост|цен)|экономичне|便宜|成本更?低|"
            r"更低的?成本|省钱|更划算|更实惠|"
            # better by price ("по цене лучше", "price-wise", "价格上更好"): cost, as "better" beside it says
            r"(?<![а-яё])по (?:цене|стоимости|деньгам)|price[- ]wise|in (?:price|cost)\b|价格上|价钱上",
            "cheaper", "дешевле", "更便宜",
            (r"more expensive|costlier|costs? more|higher (?:total )?costs?(?![- ]?(?:efficien|saving|effective))|"
             r"дороже|более высок\w* (?:(?!отдач)\w+ ){0,3}затрат|更贵|成本更高|更高的?成本(?!效益)",
             "more expensive", "дороже", "更贵")),
    _aspect("speed", "higher", r"faster|quicker|быстрее|更快|快于", "faster", "быстрее", "更快",
            (r"slower|медленнее|更慢|慢于", "slower", "медленнее", "更慢")),
    _aspect("simplicity", "higher", r"simpler|easier|проще|легче|更简单|更容易|更易", "simpler", "проще", "更简单",
            (r"harder|more (?:complex|complicated|difficult)|сложнее|труднее|更复杂|更难", "harder", "сложнее", "更难")),
    _aspect("flexibility", "higher", r"more flexible|flexibility|гибче|более гибк|гибкост|更灵活|灵活性",
            "more flexible", "гибче", "更灵活"),
    _aspect("efficiency", "higher", r"more (?:energy[- ]|power[- ])?efficient|per watt|эффективне|на ватт|энергоэффектив\w*|"
            r"能效|更高效|效率更高|省电|节能|功耗更低", "more efficient", "эффективнее", "更高效",
            # more power drawn is less efficiency: the class said to draw it loses ("GPU ... обычно имеют более
            # высокое потребление энергии")
            (r"less (?:energy[- ]|power[- ])?efficient|(?:higher|more) (?:power|energy) (?:consumption|draw|use)|"
             r"(?:power|energy)[- ]hungr\w*|(?:consumes?|draws?|uses?) more (?:power|energy)|"
             r"(?:более )?высок\w* (?:потреблени\w* энерги\w*|энергопотреблени\w*)|выше (?:энергопотреблени|потреблени)\w*|"
             r"(?:энергопотреблени|потреблени\w* энерги)\w* выше|менее (?:энерго)?эффективн\w*|"
             r"功耗更高|更高的?功耗|更耗电|能效更低", "less efficient", "менее эффективны", "能效更低")),
    _aspect("scale", "higher", r"scales? (?:to|better)|larger topolog|more scalable|лучше масштаб|"
            r"масштабиру\w* лучше|扩展性更|更易扩展", "more scalable", "лучше масштабируется", "更易扩展"),
    _aspect("support", "higher", r"(?:broader|wider|more) (?:\w+ )?support|supports? more|more frameworks|"
            r"(?:шире|более широк\w*) (?:\w+ )?поддержк\w*|поддержк\w* (?:\w+ )?шире|"
            r"支持(?:的)?(?:\w{0,8})?更(?:多|广)|更广泛的支持|"
            # supported better ("better supported by PyTorch", "лучше поддерживается", "支持得更好"): support, not
            # better in general
            r"better[- ]supported|supported better|лучше поддерж\w*|поддерж\w* лучше|支持(?:得)?更好|更好的支持",
            "more widely supported", "поддерживаются шире", "支持更广",
            # support said to be limited ("limited support for PyTorch", "ограниченной поддержкой PyTorch"): that
            # class loses
            (r"(?:limited|narrower|less|poorer|weaker) (?:\w+ )?support|ограниченн\w* (?:\w+ )?поддержк\w*|"
             r"(?:уже|слабее) поддержк\w*|支持(?:\w{0,8})?有限|有限的支持", "less widely supported",
             "поддерживаются уже", "支持较少")),
    _aspect("better", "higher", r"\bbetter\b|outperform\w*|superior|\bexcels?\b|advantage|\bpreferred\b|(?<![а-яё])лучш\w+|"
            r"превосход\w*|обгоня\w*|выигрыва\w*|преимуществ\w*|предпочита\w*|предпочтительн\w*|更好|优势|更强|胜过|优于|"
            r"占优|首选", "better", "лучше", "更好"),
)
# a negation right before the comparative, or one word before it ("not always cheaper", "не всегда дешевле"); in
# Chinese a few characters, the other side between ("不一定更便宜", "不一定比 GPU 便宜"), but "不仅"/"不但" (not only) affirm
_NEGATED = re.compile(r"(?:\b(?:not|no|never)\b|(?<![а-яё])(?:не|нет)(?![а-яё]))\s*(?:\w+\s+)?$|"
                      rf"(?:不(?![仅但只光])|没有|并非)[{HAN}]{{0,3}}(?:比\s*\w+\s*[{HAN}]{{0,2}})?$")
_NEAR = 80  # characters between the winning class and its comparative word
_PHRASE = 32  # characters between "better" and the aspect that says what is better ("能效更好": efficiency)
_CLAUSE_MARK = re.compile(r"[,，、;；]|\s(?:and|but|и|но|а)\s")


# A question asking in which cases one is the better pick ("В каких случаях лучше взять GPU, а не TPU?", "什么场景下选
# GPU 更合适") asks for the scenarios, which the passages give: no verdict answers it.
_SCENARIOS = re.compile(r"\bin (?:which|what) (?:cases?|situations?|scenarios?)\b|\bwhen (?:is|are|should|would|does|do)\b.*"
                        r"\b(?:better|prefer\w*|pick|choose)\b|(?<![а-яё])в как\w+ (?:случа\w+|ситуаци\w+|сценари\w+)|"
                        r"(?<![а-яё])когда (?:лучше|стоит|имеет смысл)|什么(?:场景|情况|时候)|哪些(?:场景|情况)")
# The purpose a comparative is said for ("для быстрых экспериментов", "for PyTorch", "用于推理"): a general "better"
# holds only for it
_PURPOSE = re.compile(r"\bfor\s+([^,.;?!]{2,60})|(?<![а-яё])для\s+([^,.;?!]{2,60})|(?:用于|用来|适合)([^，。,？?！]{1,20})")


# support of one named thing, worded so ("TPU is better supported than GPU" for TensorFlow)
_SUPPORTED_BY = replace(next(a for a in ASPECTS if a.name == "support"),
                        words={"en": "better supported", "ru": "поддерживаются лучше", "zh": "支持更好"},
                        inverse_words={"en": "less well supported", "ru": "поддерживаются хуже", "zh": "支持较差"})
_NAME_ZIPF = 3.5  # a Latin word rarer than this in English names a thing ("pytorch", "tensorflow", "jax")


def _names_in(low: str) -> frozenset[str]:
    """The Latin words of a text that name things rather than say something, without the class words."""
    return frozenset(t for t in tokenize(low) if re.fullmatch(r"[a-z][a-z0-9+-]*", t) and word_frequency(t) < _NAME_ZIPF
                     and not any(p.fullmatch(t) for p in CLASSES.values()))


def _clause_at(low: str, at: int) -> str:
    start = max((m.end() for m in _CLAUSE_MARK.finditer(low, 0, at)), default=0)
    stop = _CLAUSE_MARK.search(low, at)
    return low[start:stop.start() if stop else len(low)]


def _without_comparatives(low: str) -> str:
    """The text without its comparative words: "быстрее" shares its stem with the "быстрых" of a purpose."""
    for aspect in ASPECTS:
        for pattern in (aspect.pattern, aspect.inverse):
            low = pattern.sub(" ", low) if pattern else low
    return low


def _purpose_words(low: str) -> frozenset[str]:
    """The words of the purposes a text names, without the class words."""
    words = {t for m in _PURPOSE.finditer(low) for t in tokenize(next(g for g in m.groups() if g))}
    return frozenset(w for w in words if not any(p.fullmatch(w) for p in CLASSES.values()))


@dataclass(frozen=True)
class ClassQuestion:
    classes: tuple[str, str]
    aspects: tuple[str, ...]  # asked, in the question's order
    # the aspects asked by the opposite comparative ("Which is more expensive, TPU or GPU?")
    inverted: frozenset[str] = frozenset()
    standing: str | None = None  # the class a product named stands for: a sentence must then name both classes
    purpose: frozenset[str] = frozenset()  # the words of the purpose the question asks about ("для экспериментов")
    supported: frozenset[str] = frozenset()  # the names support is asked of ("better supported by PyTorch")
    lang: str | None = None


@dataclass(frozen=True)
class ClassStatement:
    aspect: Aspect
    winner: str
    loser: str


def class_words(low: str, names: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """Where each class word stands, and its class, outside the spans of product names ("TPU" of "TPU v5p" is none)."""
    found = [(m.start(), cls) for cls, pattern in CLASSES.items() for m in pattern.finditer(low)
             if not any(s <= m.start() < e for s, e in names)]
    return sorted(found)


def _aspects_in(low: str) -> list[tuple[int, Aspect, bool]]:
    """Each comparative of the text: where it stands, its aspect, and whether it is the opposite one ("дороже")."""
    found, taken = [], []
    for aspect in ASPECTS:  # a more telling aspect first: "лучше масштабируется" is scale, not better
        for pattern, inverted in ((aspect.pattern, False), (aspect.inverse, True)):
            for m in pattern.finditer(low) if pattern else ():
                # two telling aspects may share words ("более высокое потребление энергии и затраты": efficiency
                # and cost); "better" never shares a telling one's
                if not any(s < m.end() and m.start() < e and "better" in (name, aspect.name) or name == aspect.name
                           and s < m.end() and m.start() < e for s, e, name in taken) and \
                        not _NEGATED.search(low[:m.start()]):
                    found.append((m.start(), aspect, inverted))
                    taken.append((*m.span(), aspect.name))
    # "better" that a telling aspect follows in its phrase says that aspect ("лучшую производительность на ватт",
    # "better performance per watt" is efficiency), no better in general
    told = [at for at, a, _ in found if a.name != "better"]
    return sorted(((at, a, inv) for at, a, inv in found
                   if a.name != "better" or not any(0 < abs(t - at) <= _PHRASE and not _CLAUSE_MARK.search(
                       low[min(t, at):max(t, at)]) for t in told)), key=lambda x: x[0])


def _offered(low: str) -> bool:
    return bool(_ALTERNATIVES.search(low) or (_JOINED.search(low) and not _RANKING.search(low)) or _THAN.search(low))


def offers_classes(text: str) -> bool:
    """Whether a question names both classes and offers them as alternatives ("GPU 和 TPU 哪个缓存更大？",
    "TPU or GPU?"), whatever it asks of them: no ranking over instances answers it."""
    low = text.lower()
    return _offered(low) and len({cls for _, cls in class_words(low, [])}) == 2


def class_of(entities: dict, entity: str) -> str | None:
    """The class of product an entity of the fact table is ("gpu", "tpu"), an instance or system its chips'; None
    for other accelerators."""
    e = entities[entity]
    return e.category or (entities[e.parts.chip].category if e.parts else None)


def offered_between(text: str) -> bool:
    """Whether the word that offers the classes stands between them ("Is TPU or GPU cheaper, and why?", "TPU 和
    GPU 哪个更划算？为什么？"): a question asking why then asks which too. "为啥 TPU 比 GPU 更划算？是因为省电还是别的原因"
    offers reasons, and "为什么 TPU 跟 GPU 相比更省钱？" joins the two without asking which."""
    low = text.lower()
    spans = class_words(low, [])
    second = next((at for at, cls in spans if cls != spans[0][1]), None) if spans else None
    if second is None:
        return False
    between = low[spans[0][0]:second]
    return bool(_ALTERNATIVES.search(between) or re.search(r"[跟和与]", between) and re.search(r"谁|哪(?!里|儿)", low))


def as_plain(text: str, lang: str | None) -> str:
    """The question with each opposite comparative as the plain one of its aspect ("Что дороже" -> "Что дешевле"):
    the corpus states most comparisons of classes the plain way, and a passage is retrieved by the words it uses."""
    for aspect in ASPECTS:
        if aspect.inverse is not None:
            text = aspect.inverse.sub(aspect.words.get(lang or "en", aspect.words["en"]), text)
    return text


def class_spans(text: str) -> list[tuple[int, int]]:
    """Where a question names the two classes it offers as alternatives, or nothing when it offers none."""
    low = text.lower()
    if not offers_classes(low):
        return []
    return sorted(m.span() for pattern in CLASSES.values() for m in pattern.finditer(low))


def class_question(text: str, names: list[tuple[int, int]], premise: bool = False,
                   standing: str | None = None) -> ClassQuestion | None:
    """The two classes a question offers as alternatives and the aspects it asks about, or None. ``names``
    are the spans of the products it names: a question that names one compares products, not classes, unless
    that product stands for its class ``standing`` (the caller's judgement: one product of a class, set against
    the other, with nothing of its own to answer). With ``premise`` (a question asking why: "почему TPU дешевле и
    проще объединять, чем GPU?"), naming both is enough: the comparison is what it asks the reason for."""
    low = text.lower()
    named = class_words(low, names)
    if standing and (not names or any(cls == standing for _, cls in named)):
        return None  # "other GPUs and TPUs": the product's own class is asked of too
    found = sorted(named + [(names[0][0], standing)]) if standing else class_words(low, [])
    classes = tuple(dict.fromkeys(cls for _, cls in found))
    if (names and not standing) or len(classes) != 2 or not (_offered(low) or premise):
        return None
    asked = _aspects_in(low)
    if not asked or _SCENARIOS.search(low):
        return None
    return ClassQuestion(classes, tuple(dict.fromkeys(a.name for _, a, _ in asked)),  # type: ignore[arg-type]
                         inverted=frozenset(a.name for _, a, inv in asked if inv), standing=standing,
                         purpose=_purpose_words(low), lang=detect_language(text),
                         supported=_names_in(low) if any(a.name == "support" for _, a, _ in asked) else frozenset())


def statements(text: str, names: list[tuple[int, int]], question: ClassQuestion) -> list[ClassStatement]:
    """What a sentence states of the asked classes on the asked aspects: each asked comparative with the
    class named nearest before it, not as the other side ("than GPUs") nor inside a product's name."""
    low = text.lower()
    named = class_words(low, names)
    if question.standing and len({cls for _, cls in named} & set(question.classes)) < 2:
        return []  # a product stands for its class only where the sentence sets the two classes side by side
    classes = [(at, cls) for at, cls in named if cls in question.classes and not compared(low, at)]
    # asked what is better for a purpose ("для быстрых экспериментов"), a sentence in the question's language that
    # names none of its words ("TPU лучше подходят для TensorFlow", "обгоняют GPU ... в крупных нагрузках") states no
    # verdict on it (across languages the words cannot be matched, and the verdict stands)
    other_purpose = bool(question.purpose) and detect_language(text) == question.lang and \
        not question.purpose & set(tokenize(_without_comparatives(low)))
    # support asked of a named thing ("better supported by PyTorch", "TensorFlow 在 TPU 还是 GPU 上支持得更好"): a clause
    # naming it decides, "better" too ("TPU лучше подходят для TensorFlow"); one naming only another thing says nothing
    # of it, and support in general ("GPU имеют более широкую поддержку") answers where no clause names it
    support = question.supported if "support" in question.aspects else frozenset()
    found, specific = [], []
    for at, aspect, inverted in _aspects_in(low):
        before = [cls for start, cls in classes if start < at and at - start <= _NEAR]
        if aspect.name == "better" and other_purpose:
            continue
        told = _names_in(_clause_at(low, at)) if support else frozenset()
        if support and (told and not told & support or aspect.name == "better" and not told):
            continue
        if (aspect.name in question.aspects or support and aspect.name == "better") and before:
            aspect = _SUPPORTED_BY if support else aspect
            named, other = before[-1], next(c for c in question.classes if c != before[-1])
            # "GPU ... дороже": the class named with the opposite comparative loses
            found.append(ClassStatement(aspect, other, named) if inverted else ClassStatement(aspect, named, other))
            specific.append(bool(told))
    found = [st for st, sure in zip(found, specific, strict=True) if sure] or found
    # one aspect stated both ways ("a simpler communication model and a more complicated programming model"): neither
    split = {st.aspect.name for st in found if any(o.aspect.name == st.aspect.name and o.winner != st.winner
                                                  for o in found)}
    found = [st for st in found if st.aspect.name not in split]
    return found


def comparison_answer(statement: ClassStatement, quote: str, lang: str, product: tuple | None = None,
                      inverted: frozenset[str] = frozenset()) -> ComparisonAnswer:
    """The spec answer a class comparison reads first: the winner, in the question's language, resting on the
    quoted sentence; asked by the opposite comparative (its aspect in ``inverted``: "Which is more expensive?"), the loser first
    in those words ("GPU is more expensive than TPU"). Where a ``product`` (its name, its class, and whether it is
    a machine built of such chips) stood for its class, the answer says so first."""
    a, w, lo = statement.aspect, NAMES[statement.winner], NAMES[statement.loser]
    word = a.words.get(lang, a.words["en"])
    if a.name in inverted and a.inverse_words:
        w, lo, word = lo, w, a.inverse_words.get(lang, a.inverse_words["en"])
    text = {"en": f"{w} is {word} than {lo}, as the sentence quoted below states.",
            "ru": f"{w} {word}, чем {lo}: так сказано в приведённой ниже цитате.",
            "zh": f"{w} 比 {lo} {word}（见下方引文）。"}.get(lang, f"{w} is {word} than {lo}.")
    if product:  # the classes compared, not the product: nothing of its own answers
        name, cls, built = product[0], NAMES[product[1]], product[2] if len(product) > 2 else False
        of = {"en": f"{name} is built of {cls}s", "ru": f"{name} построен на {cls}", "zh": f"{name} 由 {cls} 构成"} \
            if built else {"en": f"{name} is a {cls}", "ru": f"{name} — это {cls}", "zh": f"{name} 属于 {cls}"}
        text = {"en": f"The corpus compares the classes, not {name} itself ({of['en']}): {text}",
                "ru": f"В корпусе сравниваются классы, а не сам {name} ({of['ru']}): {text}",
                "zh": f"语料比较的是两类芯片，而非 {name} 本身（{of['zh']}）：{text}"}.get(lang, text)
    higher, lower = (statement.loser, statement.winner) if a.direction == "lower" else (statement.winner,
                                                                                       statement.loser)
    return ComparisonAnswer(kind="comparison", attribute=a.name, entities=(statement.winner, statement.loser), lang=lang, higher=higher,
                            lower=lower, comparable=False, difference=None, ratio=None, unit=None, text=text,
                            relation=quote)
