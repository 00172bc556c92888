"""The product line or maker a ranking is asked within ("which TPU has the most memory", "哪一代 Trainium").

A word the table's names are built on ("TPU" of "Google TPU v5e", "Trainium" of "AWS Trainium2") or a maker
("NVIDIA", "AMD") names a group of products: the chips so named and the instances and systems built of them.
Asked which of a group has the most of something ("which TPU", "which Google TPU", "У какого TPU", "哪款
TPU"), the ranking is over that group only: the most memory "of any TPU" is never an AMD GPU's. The word must
stand in the phrase that "which" asks about; a maker mentioned elsewhere ("We use NVIDIA now. Which chip ...",
"other than NVIDIA, which ...", "more memory than any TPU") restricts nothing. A product written with a word
of generation beside it ("which Trainium generation", "какое поколение Gaudi", "几代 Trainium", not "the
second-generation Trainium") or inside that phrase ("which Gaudi is fastest") asks about its line, not about
its first generation.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.language import HAN, word_frequency
from kb.specs.clauses import SUBJECT_KINDS
from kb.specs.transliteration import name_words
from kb.specs.units import DTYPE
from kb.specs.vocabulary import Mention, Vocabulary

_GENERATION = r"generations?|gens?|series|family|поколени\w*|сери\w*|семейств\w*|代|系列"
# The ordinals of the first five generations, one pattern each (a generation's product is named by them below)
_NTH = {1: r"first|1st|перв\w*", 2: r"second|2nd|втор\w*", 3: r"third|3rd|трет\w*", 4: r"fourth|4th|четв[её]рт\w*",
        5: r"fifth|5th|пят\w*"}
_NTH_ZH = {1: "一", 2: "二", 3: "三", 4: "四", 5: "五"}
# an ordinal before the word names one generation ("the second-generation Trainium", "第二代 Gaudi"); 哪一代
# (which), 每一代 (each) and the relative 上一代, 新一代, 这一代 name no particular one: a ranking stays in the line
_ORDINAL = rf"(?:{'|'.join(_NTH.values())}|\d+(?:st|nd|rd|th)|(?<![哪每这那新下上同])第?[一二三四五六七八九十\d]+)[\s-]*"
_WHICH_GENERATION_AFTER = re.compile(r"\s*(?:的\s*)?哪一?代")  # "TPU 哪一代显存最大", "Gaudi 哪一代"
_GENERATION_BESIDE = re.compile(rf"^\s*(?:{_GENERATION})(?![a-z])|(?:{_GENERATION})\s*(?:的\s*)?$")
_ORDINAL_GENERATION = re.compile(rf"{_ORDINAL}(?:{_GENERATION})\s*(?:的\s*)?$|^\s*{_ORDINAL}", re.IGNORECASE)
# the words that ask which one, and the phrase after them that names what is asked about (three words at most)
_WHICH = re.compile(r"\bwhich(?:\s+of\s+the)?\b|\bwhat\b|(?<![а-яё])как(?:ой|ая|ое|ие|ого|их|ому)(?![а-яё])|"
                    r"у какого|哪(?:款|个|一|种|家)?")
_PHRASE_WORD = re.compile(rf"\s*(?:[a-z0-9][\w-]*|[а-яё]+|[{HAN}]{{1,4}})")
_BEFORE_WHICH = re.compile(rf"(?<![a-z0-9-])([a-z]{{3,}})\s*[{HAN}\s]{{0,8}}$")
_JOINED_BEFORE = re.compile(r"[和与跟或、及同,]|还是|对比|\bvs\b|\bversus\b")  # "AMD、英伟达哪款": both makers
_EXCLUDED = re.compile(r"(?:\bnon|\bnot|\bexcept|\bexcluding|\bbesides|\bother than|кроме|не|除了|不是)[\s-]*$")


@lru_cache(maxsize=1024)
def _name_words(vocabulary: Vocabulary, entity: str) -> frozenset[str]:
    """The letter runs that start the words of an entity's names and its maker ("trainium" of "Trainium2",
    "tpu" of "TPU v5e", "nvidia")."""
    e = vocabulary.entities[entity]
    words = {m.group(0) for name in (e.name, *e.aliases) for w in name.lower().split()
             if (m := re.match(r"[a-z]+", w)) and len(m.group(0)) >= 3}
    return frozenset(words | ({e.vendor.lower()} if e.vendor else set()))


@lru_cache(maxsize=256)
def members(vocabulary: Vocabulary, words: tuple[str, ...]) -> frozenset[str]:
    """The products every one of ``words`` names ("google" and "tpu": Google's TPUs): chips, instances and
    systems whose names or maker are built on the word, and those built of such a chip (the DL1 of "Gaudi")."""
    def named(word: str) -> set[str]:
        chips = {eid for eid, e in vocabulary.entities.items()
                 if e.kind in SUBJECT_KINDS and word in _name_words(vocabulary, eid)}
        return chips | {eid for eid, e in vocabulary.entities.items() if e.parts and e.parts.chip in chips}
    groups = [named(w) for w in words]
    return frozenset(set.intersection(*groups)) if groups else frozenset()


def _singulars(word: str) -> list[str]:
    """The word and its singular ("tpus"), of three letters or more."""
    return [w for w in (word, word[:-1] if word.endswith("s") else "") if len(w) >= 3]


def _line_word(vocabulary: Vocabulary, word: str) -> str | None:
    """The word, or its singular ("tpus"), where it names two products or more."""
    return next((w for w in _singulars(word) if len(members(vocabulary, (w,))) >= 2), None)


def asked_line(low: str, mentions: list[Mention], vocabulary: Vocabulary,
               cued: list[tuple[int, int]] = ()) -> tuple[tuple[str, ...], tuple[Mention, ...]]:
    """The words of the line a ranking is asked within (none: every product), and the mentions that only named
    that line (to drop from the question's entities). A word inside an attribute's cue (``cued``: "the fastest
    PCIe bandwidth") or excluded ("non-NVIDIA") names no line."""
    counts_generations = bool(_AMONG.search(low))  # "三代 Trainium 里，哪一代": the number counts them
    for m in mentions:  # "which Trainium generation", "какое поколение Gaudi"
        word = re.fullmatch(r"[a-z]{3,}", m.text.lower())
        if word and _line_word(vocabulary, word.group(0)) and \
                (_GENERATION_BESIDE.search(low[:m.start]) or _GENERATION_BESIDE.search(low[m.end:]) or
                 _WHICH_GENERATION_AFTER.match(low, m.end)) and \
                (counts_generations or not _ORDINAL_GENERATION.search(low[:m.start]) and
                 not _ORDINAL_GENERATION.search(low[m.end:])):
            return (word.group(0),), (m,)
    for which in _WHICH.finditer(low):
        words: list[str] = []
        only_named: list[Mention] = []
        at = which.end()
        for _ in range(3):
            w = _PHRASE_WORD.match(low, at)
            if not w:
                break
            start, at = w.start() + len(w.group(0)) - len(w.group(0).lstrip()), w.end()
            text = low[start:at]
            if any(a <= start < b for a, b in cued) or _EXCLUDED.search(low, 0, start):
                continue
            mention = next((m for m in mentions if m.start <= start < m.end), None)
            if mention is not None and not re.fullmatch(r"[a-z]{3,}(?: [a-z]{3,})*", mention.text.lower()):
                break  # a product named by its model ("which H100 variant"): no line
            if (line := _line_word(vocabulary, text)) is not None:
                words.append(line)
                if mention is not None and mention not in only_named:
                    only_named.append(mention)
        # Chinese names the group before 哪 ("NVIDIA 的哪款 GPU", "NVIDIA 系列显卡里哪个"): the last Latin word before
        # it, in its clause, with nothing but Chinese between; two groups joined ("AMD 和 NVIDIA 哪个") are compared
        if not words and which.group(0).startswith("哪") and \
                (before := _BEFORE_WHICH.search(low, max(0, which.start() - 16), which.start())) and \
                not _JOINED_BEFORE.search(low, max(0, before.start() - 8), before.start()) and \
                (line := _line_word(vocabulary, before.group(1))) is not None:
            words = [line]
        if words and members(vocabulary, tuple(words)):
            return tuple(words), tuple(only_named)
    return (), ()


# Ordinal generations of a product line, written as that generation's name: "the second-generation Trainium",
# "второе поколение Gaudi", "第三代 Trainium" ask of Trainium2, Gaudi2, Trainium3, not of the line's first product.
_BARE = 4  # the alternative below of a Chinese number with no 第: "三代 Trainium" may count generations


def _nth(words: dict[int, str], k: int) -> str:
    return "|".join(f"(?P<n{n}_{k}>{w})" for n, w in words.items())


_LINE_NAME = r"(?P<w_{k}>[A-Za-z]{{3,}})(?![A-Za-z0-9-])"
# after the ordinal a line may be written in Cyrillic too ("второго поколения Трейниума"); before it, a Cyrillic word
# is any noun ("память второго поколения Trainium")
_ANY_LINE_NAME = r"(?P<w_{k}>[A-Za-z]{{3,}}|[А-Яа-яЁё]{{4,}})(?![A-Za-zА-Яа-яЁё0-9-])"
_NTH_GENERATION = re.compile("|".join(part.format(k=k, nth=_nth(_NTH, k), zh=_nth(_NTH_ZH, k), line=_LINE_NAME.format(k=k),
                                                  any_line=_ANY_LINE_NAME.format(k=k))
                                      for k, part in enumerate((
    r"\b(?:{nth})[\s-]*(?:generation|gen)\b\s*(?:of\s+(?:the\s+)?)?{line}",
    r"(?<![а-яё])(?:{nth})\s+поколени\w*\s+{any_line}",
    r"{line}\s+(?:{nth})\w*\s+поколени\w*",
    r"第(?:{zh}|(?P<d_{k}>[1-5]))代\s*(?:的\s*)?{line}",
    # not 新一代, 下一代, 这一代, 每一代: the newest, next, this, every generation
    r"(?<![第新下上这那每同哪前后本])(?:{zh})代\s*(?:的\s*)?{line}",
    r"{line}\s*(?:的\s*)?第(?:{zh}|(?P<d_{k}>[1-5]))代",
))), re.IGNORECASE)
# an ordinal alone on the far side of a comparison is that generation of the line named on the near side ("the
# second-generation Trainium ... than the first", "чем первое поколение", "比第一代")
_OTHER_GENERATION = re.compile(
    r"\b(?:than|vs\.?|versus|or|to|with)\s+(?:the\s+)?(?:(?P<en>first|second|third|fourth|fifth)|(?P<en_d>[1-5])(?:st|nd|rd|th))"
    r"\b(?:[- ]gen(?:eration)?\b|\s+one\b)?(?!\s*[-\w])|"
    r"(?<![а-яё])(?:чем|против|или|с)\s+(?:у\s+)?(?P<ru>перв|втор|трет|четв[её]рт|пят)\w*(?:\s+поколени\w*)?(?!\s*[А-Яа-яЁёA-Za-z])|"
    r"(?<=[比和与跟])\s*第(?P<zh>[一二三四五1-5])代(?!\s*[A-Za-z])", re.IGNORECASE)


def _ordinal(word: str) -> int:
    """The number an ordinal word stands for ("second", "втор", "二", "2"), by the ordinals above."""
    return int(word) if word.isdigit() else next(n for n in _NTH if re.fullmatch(_NTH[n], word) or _NTH_ZH[n] == word)


# words that compare or rank among the generations a bare number counts ("比较三代 Trainium", "三代 Trainium 里，哪一代")
_AMONG = re.compile(r"哪|最|比较|对比|之间|里")


def _written(vocabulary: Vocabulary, key: str) -> str | None:
    """The name of one word with digits that ``key`` spells ("tpuv3"), as the table writes it, spaced where it
    is ("TPU v3", not the alias "TPUv3")."""
    alias = vocabulary.one_word_names.get(key)
    entity = next((m.entity for m in vocabulary.mentions(alias)), None) if alias else None
    if entity is None:
        return alias
    e = vocabulary.entities[entity]
    forms = [n for n in (e.name, *e.aliases) if n.lower().replace(" ", "") == key]
    return max(forms, key=lambda n: " " in n, default=alias)


def name_generations(text: str, vocabulary: Vocabulary) -> str:
    """``text`` with each ordinal generation of a line written as the name of that generation's product, where
    the table has one of that name ("Trainium2", "Gaudi1", "TPU v3"). A Chinese number with no 第 in a question
    that compares or ranks counts the generations ("AWS 的三代 Trainium 里，哪一代"): it is left as it is."""
    counting = bool(_AMONG.search(text))
    lines: list[str] = []  # the lines a generation was named of

    def generation(low: str, nth: int) -> str | None:
        return next((f for key in (f"{low}{nth}", f"{low}v{nth}") if (f := _written(vocabulary, key))), None)

    def name(m: re.Match) -> str:
        found = {key: v for key, v in m.groupdict().items() if v}
        k = int(next(key for key in found if key.startswith("w_"))[2:])
        word = found[f"w_{k}"]
        nth = int(found[f"d_{k}"]) if f"d_{k}" in found else \
            int(next(key for key in found if key.startswith("n"))[1:].split("_")[0])
        low = _latin_line(word, vocabulary)
        written = generation(low, nth) if low else None
        if written is None or len(members(vocabulary, (low,))) < 2 or k == _BARE and counting:
            return m.group(0)
        lines.append(low)
        return written

    def other(m: re.Match) -> str:
        word = next(v for v in m.groupdict().values() if v).lower()
        nth = _ordinal(word)
        written = generation(lines[0], nth) if len(set(lines)) == 1 else None
        if written is None:
            return m.group(0)
        # the words before the ordinal stay ("than the ", "чем "); 第...代 goes whole
        return written if m.group("zh") else m.group(0)[:m.start(next(k for k, v in m.groupdict().items() if v))
                                                          - m.start()] + written
    named = _NTH_GENERATION.sub(name, text)
    return _OTHER_GENERATION.sub(other, named) if lines else named


def _latin_line(word: str, vocabulary: Vocabulary) -> str | None:
    """The Latin name of a product line, as its generations are written ("trainium" of "Трейниума")."""
    if word.isascii():
        return word.lower()
    entity = next((m.entity for m in vocabulary.mentions(word)), None)
    e = vocabulary.entities[entity] if entity else None
    return min((a.lower() for a in (e.name, *e.aliases) if a.isascii() and " " not in a), key=len, default=None) \
        if e else None


# The generations of a line asked together ("the Trainium generations", "поколений Gaudi", "比较三代 Trainium",
# "各代 Gaudi"): every chip of the line is asked, not its first product. Not "поколения" (one generation's, as
# often as several), not 第五代 (one generation, which the table may lack) nor 前两代 (some of them).
_GENERATIONS_BEFORE = re.compile(r"(?:\bgenerations|\bgens|(?<![а-яё])поколени(?:й|ях|ям|ями)|"
                                 r"(?<![第前后新上下])[各几历两二三四五]代|每一?代)\s*(?:of\s+(?:the\s+)?|的\s*)?$")
_GENERATIONS_AFTER = re.compile(r"^(?:\s+(?:chip\s+)?(?:generations|gens)\b|\s+across\s+(?:its\s+|the\s+|all\s+)?"
                                r"generations\b|\s*(?:各代|历代|几代|每一?代))")
# "each Trainium generation": a word of every one before the line's word, a generation after it
_EACH_BEFORE, _GENERATION_AFTER = re.compile(r"\b(?:each|every|all)\s+$"), re.compile(r"^\s+(?:chip\s+)?gen(?:eration)?s?\b")


def line_generations(low: str, vocabulary: Vocabulary, ranked: bool = False) -> tuple[str, ...]:
    """The products of a line whose generations the question asks about together, in the table's order, or ().
    The line's word is a product's name ("Trainium", "Gaudi") or a word only the names of its generations are
    built on ("TPU" of "TPU v3" .. "TPU7x", "NVLink" of "NVLink 3.0" .. "5.0"). A ranking (``ranked``) asks of
    them all with one word of generation beside the line's ("哪一代 NVLink", "TPU 哪一代", "which NVLink
    generation"), an ordinal excepted ("the second-generation Trainium")."""
    for m in re.finditer(r"(?<![a-z0-9-])[a-z]{3,}(?![a-z0-9-])", low):
        found = _generations(vocabulary, m.group(0))  # cached: most words name no line, so no context is read
        if not found:
            continue
        before, after = low[:m.start()], low[m.end():]
        if _GENERATIONS_BEFORE.search(before) or _GENERATIONS_AFTER.match(after) or \
                _EACH_BEFORE.search(before) and _GENERATION_AFTER.match(after) or \
                ranked and (_GENERATION_BESIDE.search(before) or _GENERATION_BESIDE.search(after) or
                            _WHICH_GENERATION_AFTER.match(after)) and \
                not _ORDINAL_GENERATION.search(before) and not _ORDINAL_GENERATION.search(after):
            return found
    return ()


@lru_cache(maxsize=256)
def _generations(vocabulary: Vocabulary, word: str) -> tuple[str, ...]:
    """The chips of a line named by ``word`` (or its plural), else the things of one other kind whose names are
    built on it (the NVLink generations), when there are two or more; none for a maker's name ("all NVIDIA
    generations" are of several lines) or a word of form ("PCIe" of "A100 PCIe" is a bus, not a line)."""
    makers = {(e.vendor or "").lower() for e in vocabulary.entities.values()}
    forms = {w for variants in vocabulary.variants.values() for w in variants}
    for w in _singulars(word):
        if w in makers or w in forms:
            continue
        chips = members(vocabulary, (w,))
        found = [e for e, entity in vocabulary.entities.items() if e in chips and entity.kind == "chip"] if chips else \
            [e for e in vocabulary.entities if w in _name_words(vocabulary, e)]  # links or memories ("nvlink")
        if len(found) >= 2 and len({vocabulary.entities[e].kind for e in found}) == 1:
            return tuple(found)
    return ()


# A product named by a listed name and a word of form the table has no variant of ("H100 NVL" beside the H100 SXM
# and PCIe) is another product: the listed one's figures are not its figures.
_FORM_WORD = re.compile(r"\s*([A-Za-z]+)(\d*)(?![\w-])")
_COMMON = 3.0  # Zipf frequency from which a word is ordinary English ("instance", "series"), no word of form


def _letters(word: str) -> str:
    """The letters a variant word starts with ("nvl" of "nvl72")."""
    return re.match(r"[a-z]*", word).group(0)


@lru_cache(maxsize=4)
def _form_words(vocabulary: Vocabulary) -> frozenset[str]:
    """The words that make a name a variant of a product ("sxm", "pcie", "nvl72" and its "nvl"), rare in general
    English."""
    words = {w for forms in vocabulary.variants.values() for v in forms for w in (v, _letters(v))}
    return frozenset(w for w in words if w and word_frequency(w) < _COMMON)


# a model number right before a machine's name ("Trn3 UltraServer", "Трн3 UltraServer"): letters, then a digit
_MODEL_BEFORE = re.compile(r"(?<![\w.-])([A-Za-zА-Яа-яЁё]+\d[A-Za-zА-Яа-яЁё0-9]*)\s+$")


_GENERATION_WORD = re.compile(r"(?:gen|v|mk)\d+", re.IGNORECASE)  # "Gen2 UltraServer" says a generation, no model


def _another_machine(vocabulary: Vocabulary, text: str, mention: Mention) -> tuple[int, int] | None:
    """The span of a machine's alias with a model number before it that the table lists nowhere ("Trn3
    UltraServer", "GB400 NVL72"): another machine of the same kind, not the listed one ("UltraServer" is the Trn2
    UltraServer's alias). A precision ("FP8 UltraServer"), a generation ("Gen2"), a name the table lists or a word
    of one ("EC2 UltraServer", "trn2u UltraServer") is no such number."""
    if vocabulary.entities[mention.entity].kind not in ("instance", "system"):
        return None
    m = _MODEL_BEFORE.search(text[:mention.start])
    if m is None or DTYPE.fullmatch(m.group(1)) or _GENERATION_WORD.fullmatch(m.group(1)) or \
            vocabulary.mentions(m.group(1)) or m.group(1).lower() in name_words(vocabulary):
        return None
    return m.start(1), mention.end


def unlisted_variant(vocabulary: Vocabulary, text: str, mention: Mention) -> tuple[int, int] | None:
    """The span of a listed product's name with a word of form after it that names none of its variants ("H100
    NVL", "h100 nvl"), or of a machine's alias with an unlisted model number before it ("Trn3 UltraServer"), or
    None."""
    if before := _another_machine(vocabulary, text, mention):
        return before
    own = vocabulary.variants.get(mention.text.lower().split()[-1]) if mention.text.strip() else None
    m = _FORM_WORD.match(text, mention.end) if own else None
    if m is None or not m.group(0)[:1].isspace():
        return None
    stem = m.group(1).lower()
    if stem + m.group(2) in own or stem in {_letters(v) for v in own} or \
            not {stem, stem + m.group(2)} & _form_words(vocabulary):
        return None
    return mention.start, m.end()


_NAME = r"(?<![A-Za-z0-9-])[A-Z][A-Za-z0-9-]*(?![A-Za-z0-9-])"
# three or more names listed ("HBM, ICI and DCN", "HBM、ICI、DCN")
_LISTED = re.compile(rf"{_NAME}(?:\s*[,、，]\s*{_NAME})+\s*(?:[,、，]\s*(?:and|or|и|или|和|与|或|还是|以及)?|"
                     rf"(?:and|or|и|или|和|与|或|还是|以及))\s*{_NAME}")


def lists_parts(text: str, lang: str, vocabulary: Vocabulary) -> bool:
    """Whether a question that ranks with no product named lists the parts it ranks ("out of HBM, ICI and DCN,
    which one is the slowest?", "TPU 的 HBM、ICI、DCN 哪个最慢？"): two or more of the names listed are words of an
    attribute, a memory type or a link. No ranking of every product in the table answers it. Listed makers,
    clouds, precisions or frameworks ("among NVIDIA, AMD and Intel", "for FP8, BF16 and FP16") are no parts."""
    for m in _LISTED.finditer(text):
        names = re.findall(_NAME, m.group(0))
        parts = [n for n in names if vocabulary.cue_spans(n.lower(), lang) or any(
            vocabulary.entities[x.entity].kind not in SUBJECT_KINDS for x in vocabulary.mentions(n))]
        if len(parts) >= 2:
            return True
    return False
