"""Names in a question that the corpus never mentions (whether the question is about them: ``kb.asked_about``).

A question about "the Graphcore Bow IPU" or "寒武纪思元590" finds passages about
other accelerators that score like real answers; what tells it apart is that
the product is named nowhere in the corpus. A name is recognized in any
script: model numbers (letters with digits: "CS-3", "910B", "思元590"),
capitalized words after the first of a Latin or Cyrillic sentence
("Graphcore", "Эльбрус"), Chinese names (``kb.han_names``: "寒武纪", "昆仑芯" of
"昆仑芯二代"; not 张卡 of "多少张卡"), and in a question typed without capitals, Latin words
rare in general English ("graphcore", "groq lpu"). Amounts are not names: "40GB", "700W", "a 7B model",
"一个13B模型", "16x", "快2倍".

The corpus's own model numbers and spelled-out acronyms ("WSE-3", "bf16", "RDU") are its terms
(``known_terms``): a question naming one is about the corpus's subject whatever the domain gate says.

Names written side by side are one name ("Rubin Ultra"), known only if the
corpus writes those words side by side: a known family name with a new word
after it is a new product, and the question is about that product.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from kb.han_names import HAN_RUN, han_names, tagger
from kb.language import HAN, RUSSIAN_LOWER, rare_word, word_frequency
from kb.specs.quantities import NUMBER_WORDS

_MODEL_NUMBER = re.compile(r"(?<![A-Za-z0-9\-])(?=[A-Za-z0-9\-]*[A-Za-z])(?=[A-Za-z0-9\-]*\d)[A-Za-z0-9][A-Za-z0-9\-]*"
                           rf"|[{HAN}]{{1,6}}\d[A-Za-z0-9\-]*")  # Latin letters with digits, or Chinese ones: "思元590"
_CAPITALIZED = re.compile(r"(?<![A-Za-zА-Яа-яЁё0-9\-])(?:[A-Z][a-z]{2,}|[А-ЯЁ][а-яё]{2,})(?![A-Za-zА-Яа-яЁё0-9])")
_TOKEN = re.compile(rf"[a-z0-9{RUSSIAN_LOWER}]+(?:-[a-z0-9{RUSSIAN_LOWER}]+)*")
_SENTENCE_END = re.compile(r"[.!?…]\s+$")
# An amount is not a model number: a number with a unit ("40GB", "80G", "700W", "5nm"), or a count of
# parameters (B, M or T) next to a word for a model ("a 7B model", "модели 13B", "7B大模型", "1.8T-param").
# A name word right before the number makes it a name whatever follows ("Ascend 910B model", "Atlas 300T").
_UNIT = re.compile(r"\d+(?:\.\d+)?(?:[kmgtp]i?b|g|k?w|nm|[kmg]hz)", re.IGNORECASE)
_COUNT = re.compile(r"(?:\d+x)?\d+(?:\.\d+)?[bmt]", re.IGNORECASE)
# A factor or a grid is an amount too: "2x", "16x", "2.5x", "4x4x4"; a factor written onto a name
# counts that name ("8xA100" is eight A100s).
_FACTOR = re.compile(r"\d+(?:\.\d+)?[x×](?:\d+(?:[x×]\d+)*)?", re.IGNORECASE)
_FACTOR_PREFIX = re.compile(r"\d+[x×](?=[A-Za-z])|\d+-(?=(?-i:[A-Z]))", re.IGNORECASE)  # "8xA100", "8-Gaudi": a count
# A plain word hyphenated onto a model number describes it: "FP64-heavy", "H100-based", "Trn1-class".
_DESCRIBING_SUFFIX = re.compile(r"(?:(?<=\d)|(?<=\d[A-Za-z]))(?:-[a-z]{3,})+$")
# Words that stand before a number without naming it: "the B300", "eight A100s", "than 2 H100".
_NOT_A_NAME_WORD = {*NUMBER_WORDS["en"], "the", "and", "than", "with", "for", "per", "each", "every", "from",
                    "into", "over", "versus", "many", "more", "less", "about", "some", "all", "both", "any", "these",
                    "those", "our", "hundred", "hundreds", "dozen", "dozens", "thousand", "thousands", "twenty"}
# A bare number before a Chinese measure word counts ("256张卡", "4个"), and a small one before 卡 ("8卡"): no
# name's digits ("思元590卡" is a card of a product); not before a word those characters begin ("片上", "张量", "部署").
_MEASURE_AFTER = re.compile(r"[张个台块颗片套节组只部条路位](?!上|量|署|有|点|宽|件|由)")
_MODEL_AFTER = re.compile(r"\W{0,2}(?:的|大)?(?:param|models?\b|модел|парамет|模型|参数|llm)", re.IGNORECASE)
_MODEL_BEFORE = re.compile(r"(?:\bmodels?|модел\w*|模型)\W{0,2}$", re.IGNORECASE)
# A word and a number side by side names a product whatever its case ("maia 100", "dojo d1").
_WORD_NUMBER = re.compile(r"(?<![A-Za-z0-9\-])[A-Za-z]{3,}\s+[A-Za-z]?\d+[A-Za-z]?(?![A-Za-z0-9])")
# a year after a word that dates things is a date ("that 2021 comparison", "Since 2020"), not a product's number
_YEAR_AFTER_WORD = re.compile(r"(?:since|that|this|during|before|after|from|until|till|early|late|mid|year)\s+"
                              r"(?:19[5-9]\d|20[0-4]\d)", re.IGNORECASE)
# A question typed without capitals (no capitalized word after its first) names products in lower case ("the
# graphcore bow ipu"); one that capitalizes names writes jargon in lower case ("pretraining"). There a Latin word
# that is rare in general English (``kb.language.rare_word``) is read as a name where the question has two such
# words the corpus lacks; the corpus's own words ("tflops", "nvlink") are known names, and a near-spelling of one
# ("bandwith", "memroy") is a typo.
_LOWER_WORD = re.compile(r"(?<![A-Za-z0-9\-])[a-z]{3,}(?![A-Za-z0-9\-])")
_VERSION_REST = re.compile(r"v?\d[\w.]*")
_UPPER_WORD = re.compile(r"(?<![A-Za-z0-9\-])[A-Z]{3,6}(?![A-Za-z0-9\-])")
_TYPO_SIMILARITY = 0.8
_TYPO_LENGTH = 5
_CAPITAL = re.compile(r"(?<![A-Za-z0-9])[A-Z][a-z0-9]")  # "Graphcore", "Gaudi2", "H100"; not an acronym ("FP16")
# An acronym (three letters or more: "AI" is everyone's) spelled out: "MAMF stands for Maximum ...",
# "Reconfigurable Dataflow Unit (RDU)", "GCD (Graphics ...)".
_WORDS = r"[A-Za-z][A-Za-z\-]*(?:\s+[A-Za-z][A-Za-z\-]*){1,7}"
_DEFINITION = re.compile(rf"\b(?P<a1>[A-Z]{{3,6}})s?\s+(?:stands for|is short for)\s+(?P<e1>{_WORDS})"
                         rf"|\b(?P<e2>{_WORDS})\s+\((?P<a2>[A-Z]{{3,6}})s?\)"
                         rf"|\b(?P<a3>[A-Z]{{3,6}})s?\s+\((?P<e3>{_WORDS})\)")
# The corpus's own terms in a question: a Latin model number (a letter first, or two letters) and an acronym.
_LATIN_MODEL = re.compile(r"[A-Za-z][A-Za-z0-9\-]*\d[A-Za-z0-9\-]*|\d[A-Za-z0-9\-]*[A-Za-z][A-Za-z0-9\-]*[A-Za-z][A-Za-z0-9\-]*")
_ACRONYM = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{3,6}(?![A-Za-z0-9])")
# two capitalized words written together: a product or project name ("Jaguar Shores", "Falcon Shores")
# capitalized only because they start a sentence or a title ("What Is", "And Google"): no part of a name
_FUNCTION_WORDS = frozenset("a an and are as at be but by can do does each for from how if in is it its key more most "
                            "new not of on or our so that the their there these this those to we what when where "
                            "which who why will with would you your".split())
_CAPITALIZED_PAIR = re.compile(r"(?<![A-Za-z0-9])(?=([A-Z][a-z]+ [A-Z][a-z]+)(?![A-Za-z0-9]))")  # overlapping


@dataclass(frozen=True)
class Name:
    text: str
    start: int
    end: int
    rare_word: bool = False  # a lower-case word taken for a name only because general English rarely uses it
    before_series: bool = False  # Chinese nouns before a generation or series ("昆仑芯" of 昆仑芯二代)


@dataclass(frozen=True)
class CorpusWords:
    """What the corpus mentions: Latin and Cyrillic tokens (with and without hyphens) and its Chinese text."""

    words: frozenset[str]
    han_text: str
    pairs: frozenset[str] = frozenset()  # words the corpus writes side by side: "blackwell ultra"
    defined: frozenset[str] = frozenset()  # acronyms the corpus spells out: "mamf", "rdu"
    names: frozenset[str] = frozenset()  # two capitalized words the corpus writes together: "Jaguar Shores"

    def mentions(self, name: str) -> bool:
        key = name.lower().strip("-")
        if HAN_RUN.search(key):
            return all(run in self.han_text for run in HAN_RUN.findall(key)) and \
                all(self._latin_known(part) for part in HAN_RUN.split(key) if part.strip("- "))
        return self._latin_known(key)

    def writes_part_of(self, name: str) -> bool:
        """Whether the corpus writes two or more of the name's characters side by side: "英伟达卡" of 英伟达卡系列 or
        "黄家安培" of 老黄家安培系列 describe what the corpus names (英伟达, 安培), however jieba cut the words."""
        return any(name[i:j] in self.han_text for i in range(len(name)) for j in range(i + 2, len(name) + 1))

    def near(self, word: str) -> bool:
        """Whether a word is a near-spelling of one the corpus writes (a typo of it); a short word is too close
        to too many ("groq" to "group") to tell."""
        import difflib

        if len(word) < _TYPO_LENGTH:
            return False
        # only words of about the same length can be that close
        alike = [w for size in range(len(word) - 2, len(word) + 3) for w in self._by_length.get(size, ())]
        return bool(difflib.get_close_matches(word.lower(), alike, n=1, cutoff=_TYPO_SIMILARITY))

    @cached_property
    def _by_length(self) -> dict[int, list[str]]:
        """The corpus's plain words (no hyphen joins, no digits) by length, built once."""
        out: dict[int, list[str]] = {}
        for w in sorted(self.words):
            if w.isalpha():
                out.setdefault(len(w), []).append(w)
        return out

    def _latin_known(self, key: str) -> bool:
        key = key.strip("- ")
        if key in self.words or key.replace("-", "").replace(" ", "") in self.words:
            return True
        # a plural of a model number or of a name: "A100s", "MI300Xs", "8 Gaudis"
        if re.fullmatch(r"\S*\d[a-z]?s|[a-z]{4,}s", key):
            return self._latin_known(key[:-1])
        # a name of several words is known when every word is ("TPU v5e"), and a word of three
        # letters or more with a generation number when both are ("NVLink4" for "NVLink 4.0")
        parts = key.split()
        if len(parts) > 1:
            # words alone ("Rubin Ultra") name a product only together: the corpus must write them so
            together = not any(c.isdigit() for c in key)
            return all(self._latin_known(p) for p in parts) and (not together or all(
                f"{a} {b}" in self.pairs for a, b in zip(parts, parts[1:], strict=False)))
        split = re.fullmatch(r"([a-z]{3,})-?(\d+)", key)
        return bool(split) and split.group(1) in self.words and split.group(2) in self.words


def _initials_match(acronym: str, expansion: str) -> bool:
    """Whether the words of ``expansion`` begin with the letters of ``acronym`` in order ("Maximum Achievable
    Matmul FLOPS" for MAMF, "inter-chip interconnect" for ICI); small words may be skipped."""
    letters = acronym.lower()
    initials = "".join(w[0] for w in re.split(r"[\s\-]+", expansion.lower()) if w)
    i = 0
    for ch in initials:
        if i < len(letters) and ch == letters[i]:
            i += 1
    return i == len(letters) and initials[:1] == letters[:1]


def _spelled_out(acronym: str, expansion: str, before: bool) -> bool:
    """An expansion written before its acronym starts where its words start matching ("the two Graphics
    Compute Die (GCD)"); one written after it starts at once."""
    words = expansion.split()
    tails = [" ".join(words[k:]) for k in range(len(words))] if before else [expansion]
    return any(_initials_match(acronym, t) for t in tails)


def defined_acronyms(text: str) -> set[str]:
    """Acronyms a text defines by spelling them out: "MAMF stands for ...", "... (RDU)", "RDU (...)"."""
    found = set()
    for m in _DEFINITION.finditer(text):
        acronym, expansion = (m.group("a1"), m.group("e1")) if m.group("a1") else \
            (m.group("a2"), m.group("e2")) if m.group("a2") else (m.group("a3"), m.group("e3"))
        if _spelled_out(acronym, expansion, before=bool(m.group("a2"))):
            found.add(acronym.lower())
    return found


def corpus_words(texts) -> CorpusWords:
    words: set[str] = set()
    pairs: set[str] = set()
    defined: set[str] = set()
    han: list[str] = []
    names: set[str] = set()
    for text in texts:
        defined |= defined_acronyms(text)
        names.update(m.group(1) for m in _CAPITALIZED_PAIR.finditer(text)
                     if not _FUNCTION_WORDS & set(m.group(1).lower().split()))
        tokens = _TOKEN.findall(text.lower())
        for token in tokens:
            words.add(token)
            words.add(token.replace("-", ""))
            words.update(token.split("-"))
        pairs.update(f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False))
        han.extend(HAN_RUN.findall(text))
    return CorpusWords(frozenset(words), "\u3000".join(han), frozenset(pairs), frozenset(defined), frozenset(names))


def prepare() -> None:
    """Load the dictionaries names and misspellings are read with (jieba's tagger, wordfreq's lists) now, so the first
    question does not wait for them."""
    list(tagger().cut("预热"))  # a generator: the tagger loads on the first word
    rare_word("warm")
    word_frequency("тепло")


def _is_quantity(question: str, start: int, end: int) -> bool:
    """Whether a letters-with-digits match is an amount; in Chinese only a count with its classifier
    ("一个13B模型") is, since a product's name runs into its number there ("昇腾910B")."""
    text = question[start:end]
    han = HAN_RUN.match(text)
    tail = text[han.end():] if han else text
    if _FACTOR.fullmatch(tail) or (han and question[end:end + 1] in ("倍", "%", "％")):  # "快2倍", "高30%"
        return True
    if han and tail.isdigit() and (_MEASURE_AFTER.match(question, end) or
                                   len(tail) <= 2 and question[end:end + 1] == "卡"):  # "超过256张卡", "同一台8卡"
        return True
    if han and not han.group(0).endswith("个"):
        return False
    count = _COUNT.match(tail)
    return bool(_UNIT.fullmatch(tail) or (count and (_MODEL_AFTER.match(tail[count.end():] + question[end:])
                                                     or _MODEL_BEFORE.search(question[:start]))))


def _without_factor(name: Name) -> Name:
    """The name without a count written onto it ("8xA100", "8-Gaudi") or a describing word after it
    ("FP64-heavy")."""
    factor = _FACTOR_PREFIX.match(name.text)
    if factor:
        name = Name(name.text[factor.end():], name.start + factor.end(), name.end)
    suffix = _DESCRIBING_SUFFIX.search(name.text)
    if suffix and re.search(r"[A-Za-z]", name.text[:suffix.start()]):  # "8-bit" is an amount, not "8"
        return Name(name.text[:suffix.start()], name.start, name.end - len(suffix.group(0)))
    return name


def names_in(question: str, lang: str | None = "en") -> list[Name]:
    """Product and company names in a question, in question order."""
    # A Latin or Cyrillic sentence capitalizes its first word whatever it is; a Russian one does not make a
    # Latin word of it ("Graphcore IPU сколько SRAM"), nor an English one a Cyrillic word.
    first = re.match(r"\s*\S+", question) if lang in (None, "en", "ru") else None
    foreign = first is not None and lang is not None and \
        bool(re.search(r"[A-Za-z]", first.group(0)) if lang == "ru" else re.search(r"[А-Яа-яЁё]", first.group(0)))
    skip_to = first.end() if first and not foreign else 0
    found = [_without_factor(Name(m.group(0).strip("-"), m.start(), m.end())) for m in _MODEL_NUMBER.finditer(question)
             if not _is_quantity(question, m.start(), m.end())]
    words = [Name(m.group(0), m.start(), m.end()) for m in _CAPITALIZED.finditer(question) if m.start() >= skip_to
             and not _SENTENCE_END.search(question[:m.start()])]  # "... Training? Какие результаты?"
    for a, b in zip(words, words[1:], strict=False):  # capitalized words one space apart are one name ("Rubin Ultra")
        if question[a.end:b.start] == " ":
            found.append(Name(f"{a.text} {b.text}", a.start, b.end))
    found += words
    found += [Name(m.group(0), m.start(), m.end()) for m in _WORD_NUMBER.finditer(question)
              if m.group(0).split()[0].lower() not in _NOT_A_NAME_WORD and not _YEAR_AFTER_WORD.fullmatch(m.group(0)) and
              (m.group(0)[0].isupper() or not _is_quantity(question, m.end() - len(m.group(0).split()[-1]), m.end()))]
    if not _CAPITAL.search(question, skip_to):  # a question that capitalizes no name may write one in lower case
        # (and its product in capitals: "groq LPU")
        found += [Name(m.group(0), m.start(), m.end(), rare_word=True) for m in _LOWER_WORD.finditer(question)
                  if rare_word(m.group(0))]
        found += [Name(m.group(0), m.start(), m.end(), rare_word=True) for m in _UPPER_WORD.finditer(question)
                  if rare_word(m.group(0).lower())]
    found += [Name(text, start, end, before_series=series) for text, start, end, series in han_names(question)]
    # one name per place: the longest of those that overlap
    out: list[Name] = []
    for name in sorted(found, key=lambda n: (n.start, -(n.end - n.start))):
        if name.text and not any(name.start < o.end and o.start < name.end for o in out):
            out.append(name)
    return out


def unknown_names(question: str, words: CorpusWords, lang: str | None = "en",
                  names: list[Name] | None = None, entities: list[tuple[int, int]] = ()) -> list[Name]:
    """Names in the question that occur nowhere in the corpus; ``names`` are its ``names_in``, if known. A name
    that ends in a fact-table entity (``entities``: the spans of their mentions) after words the corpus writes,
    or that is such words right before one, is that entity under its maker's name ("Habana Gaudi", "Google TPU
    v5e", "Intel Habana" of "Intel Habana Gaudi"), not an unknown product; one with an unknown word after the
    entity ("NVIDIA Rubin Ultra") still is."""
    def maker_and_entity(n: Name) -> bool:
        return any(n.start < a and b == n.end and all(words.mentions(w) for w in question[n.start:a].split())
                   for a, b in entities) or \
            any(n.end <= a and not question[n.end:a].strip() and all(words.mentions(w) for w in n.text.split())
                for a, _ in entities)
    # an acronym the corpus writes with a version ("EFA" of "EFAv3") is the corpus's; a word of an entity's name is
    # that entity's ("Трейниума" of "у Трейниума 2")
    unknown = [n for n in (names_in(question, lang) if names is None else names)
               if not words.mentions(n.text) and not maker_and_entity(n) and
               not (n.before_series and words.writes_part_of(n.text)) and
               not any(a <= n.start and n.end <= b for a, b in entities) and
               not (n.rare_word and n.text.isupper() and any(
                   w.startswith(n.text.lower()) and _VERSION_REST.fullmatch(w[len(n.text):]) for w in words.words))]
    # one rare word alone is as likely jargon the corpus does not use ("finetuning", "dataloader"); a maker and
    # a product ("groq lpu", "graphcore bow ipu") are two, and a typo of a corpus word is neither
    if sum(n.rare_word for n in unknown) >= 2:
        unknown = [n for n in unknown if not (n.rare_word and words.near(n.text))]
    if sum(n.rare_word for n in unknown) < 2:
        unknown = [n for n in unknown if not n.rare_word]
    return unknown


def unlisted_names(words: CorpusWords, names: list[Name], taken: list[tuple[int, int]],
                   terms: list[tuple[int, int]], product_line) -> list[Name]:
    """Names in the question the corpus writes that are no fact-table entity: a model number of a product line
    the table holds (``product_line(text)``: "MI300A" beside the MI300X, "TPU v2" beside the TPU v5e) apart
    from every span of ``taken`` (entity mentions, attribute cues, precisions) and inside no domain term of
    ``terms`` ("TPU" of "TPU v2" is part of the name). Asked an attribute of, the table has none, whatever
    passages about its relatives say."""
    # two characters are a cache level or a version ("L2", "v5"), not a product
    return [n for n in names if len(n.text.replace(" ", "")) >= 3 and product_line(n.text) and words.mentions(n.text) and
            not any(n.start < b and a < n.end for a, b in taken) and
            not any(a <= n.start and n.end <= b for a, b in terms)]


def known_terms(question: str, words: CorpusWords, lang: str | None = "en",
                names: list[Name] | None = None) -> list[tuple[int, int]]:
    """Where the question names a thing the corpus itself names and which only a subject like the corpus's
    has: a Latin model number it mentions ("WSE-3", "trn1n", not "5k" nor "以2") or an acronym it spells
    out, written in capitals ("MAMF"; "ace" is a word), or a name of two capitalized words the corpus writes so
    ("Jaguar Shores"; "How Does" is no name the corpus writes capitalized). One capitalized word is no such sign: the corpus mentions Python and NVIDIA's stock too."""
    spans = [(n.start, n.end) for n in (names_in(question, lang) if names is None else names)
             if _LATIN_MODEL.fullmatch(n.text) and words.mentions(n.text)]
    spans += [m.span() for m in _ACRONYM.finditer(question) if m.group(0).isupper() and m.group(0).lower() in words.defined]
    spans += [m.span(1) for m in _CAPITALIZED_PAIR.finditer(question) if m.group(1) in words.names]
    return spans
