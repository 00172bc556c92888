"""Entities and attributes from ``corpus/specs/``, and finding their names in text.

A name matches whole: not inside a longer identifier ("Trainium" is not in
"Trainium2", "v4" is not in "NeuronCore-v4"). Between letters and digits and
at spaces a separator is optional, so "Gaudi2", "Gaudi 2" and "Gaudi-2" are
one name. Russian names match inflected in any word ("Гауди2", "Трейниума 2").
Where names overlap, the longest wins ("GB200 NVL72" over "GB200").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kb.errors import SpecError
from kb.language import COMMON_WORD, has_cyrillic, word_frequency
from kb.specs.model import Attribute, Entity
from kb.specs.yaml_entries import load_yaml_items, validated
from kb.textnorm import normalize_for_matching, plain_words

ENTITIES_FILE = "entities.yaml"
ATTRIBUTES_FILE = "attributes.yaml"
_WORD = "A-Za-z0-9А-Яа-яЁё_"
# The cost of doing something (migrating, porting, communicating, powering) is not the hardware's price.
WORK_COST = re.compile(
    r"\b(?:migration|migrating|porting|engineering|development|switching|learning|communication|all-?reduce|"
    r"collective|networking|energy|power|electricity|maintenance|software|labou?r|opportunity)[- ]costs?\b|"
    r"\bcosts? of (?:migrating|moving|porting|switching|rewriting|learning|communication|maintaining)\b|"
    r"(?:стоимост\w*|затрат\w*|издержк\w*)\s+(?:на\s+)?(?:миграци\w*|перенос\w*|переход\w*|разработк\w*|"
    r"коммуникаци\w*|обмен\w*|поддержк\w*|электроэнерги\w*|энерги\w*|времени)|"
    r"(?:迁移|移植|开发|学习|切换|通信|维护|人力|时间|软件|能耗|电力|电费)(?:的)?成本")
# a version written alone after a name and a listing or opposing word: "TPU v3 和 v4", "TPU v3、v4", "NVLink 3.0, 4.0"
LISTING = r"\s*(?:,|、|/|&|\band\b|\bor\b|\bvs\.?|\bversus\b|\bи\b|\bили\b|和|与|及|或|跟|还是|对比)\s*"
ELIDED = re.compile(LISTING + r"([A-Za-z]?\d+(?:\.\d+)?[A-Za-z]?)(?![A-Za-z0-9А-Яа-яЁё_\-]|\.\d)")
_COUNT_ONTO_NAME = re.compile(r"(?<![\w.])(\d+[x×])(?=[A-Za-z])(?!large)")  # "8xH100": eight of the H100
_ELIDED_BEFORE = re.compile(r"(?<![\w.\-])([A-Za-z]\d+[A-Za-z]?)" + LISTING + r"$")
# a variant word made a product by the word beside it ("the PCIe one", "PCIe-версия", "版本"): "the PCIe
# bandwidth" names no product, "the PCIe version" does
_VARIANT_NOUN = r"(?:one|version|variant|model|card|board|верси\w*|вариант\w*|модел\w*|карт\w*)"
_VARIANT_ZH = r"(?:版本?|款|型号)"
_ASKED_BEFORE = re.compile(r"(?:\bwhich|\bwhat|(?<![а-яё])как\w+(?:\s+[а-яё]+){0,2}|哪个|哪种|什么|支持的?)\s*$", re.I)
_GENERATION_AFTER = re.compile(r"\s*(?:\d|gen\b|поколени|代|是多少|是什么|是几)", re.IGNORECASE)
_VARIANT_WORD = re.compile(LISTING + r"([A-Za-z][A-Za-z0-9]*)(?![\w-])")  # "PCIe" of "H100 SXM or PCIe"
# what may follow a short name that is a bare number: an end of clause, a dash, or (in Chinese) a question word
AFTER_SHORT_NAME = re.compile(r"\s*(?:[?!.,;:)\-—–]|$|[？！，。、：；）]|吗|哪|谁|的|呢|和|与|或|跟)")
_AMOUNT_AFTER = re.compile(r"\s*(?:[kmgtp]i?b(?:ps|/s)?\b|[kmgtp]?flops|[kmg]?hz\b|w\b|nm\b|x\b|×|%|раз(?:а|ов)?(?![а-яё])|倍(?!数)|[гт]б)", re.I)
STEM = re.compile(r"([a-z]*)(.*)", re.DOTALL)  # a one-word name's letters before its first digit, and the rest
VERSION = re.compile(r"(?:(?<![A-Za-z])[A-Za-z])?(?<![\d.])\d+(?:\.\d+)?[A-Za-z]?$")  # "v3", "2", "3.0" ending a name


def name_pattern(name: str) -> str:
    """A regular expression for one name, tolerant of separators and Russian endings."""
    name = normalize_for_matching(name).strip()
    parts = re.findall(r"[A-Za-zА-Яа-яЁё]+|\d+(?:\.\d+)?|[^\sA-Za-zА-Яа-яЁё\d]+", name)
    pattern = ""
    for i, part in enumerate(parts):
        if i:
            prev = parts[i - 1]
            joinable = (prev[-1].isalnum() and part[0].isalnum())
            pattern += r"[\s\-]?" if joinable else r"\s*"
        # a Russian word of a name declines wherever it stands ("Трейниума 2"), its final vowel too ("Инферентии")
        stem = part[:-1] if has_cyrillic(part) and len(part) > 4 and part[-1].lower() in "аяьйо" else part
        pattern += re.escape(stem) + (r"[а-яё]{0,3}" if has_cyrillic(part) else "")
    # Boundaries are Latin, Cyrillic and digits only: Chinese text runs straight into names ("Trn1的").
    return rf"(?<![{_WORD}\-.]){pattern}(?![{_WORD}\-]|\.\d)"


def first_generation_names(names: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A product whose later generations carry a number ("Trainium2", "Gaudi 3") is also named with a
    1 for its first ("Trainium1", "Gaudi 1"), as people write it when they tell the generations apart."""
    known = {normalize_for_matching(n).lower().replace(" ", "") for n, _ in names}
    out = []
    for name, eid in names:
        flat = normalize_for_matching(name).lower().replace(" ", "")
        if flat[-1:].isalpha() and f"{flat}2" in known and f"{flat}1" not in known:
            out.append((f"{name}1", eid))
    return out


def one_edit(a: str, b: str) -> bool:
    """Whether two different words are one insertion, deletion, substitution or swap of neighbours apart."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    if len(a) == len(b):
        return a[i + 1:] == b[i + 1:] or (a[i + 2:] == b[i + 2:] and a[i:i + 2] == b[i:i + 2][::-1])
    return (a[i + 1:] == b[i:]) if len(a) > len(b) else (a[i:] == b[i + 1:])


@dataclass(frozen=True)
class Mention:
    entity: str
    start: int
    end: int
    text: str


def _overlaps(mention: Mention, taken: list[Mention]) -> bool:
    return any(mention.start < t.end and t.start < mention.end for t in taken)


def _model_stem(name: str) -> str:
    """The letters a model number is written with before its first digit, lowercased, spaces dropped: "tpuv"
    of "TPU v5e"; nothing for a name without a digit."""
    m = re.match(r"([^\d]*)\d", name)
    return re.sub(r"[\s\-]+", "", m.group(1)).lower() if m and m.group(1).strip() else ""


def _model_stems(name: str) -> set[str]:
    """The stems of a name's model number with and without the words before it ("tpuv" and "v" of "TPU v5e");
    the model number is its last word with a digit ("Trn1" of "AWS EC2 Trn1", never "EC2")."""
    words = name.split()
    numbered = [i for i, w in enumerate(words) if re.search(r"\d", w)] or [-1]
    first = numbered[-2] + 1 if len(numbered) > 1 else 0
    return {_model_stem(" ".join(words[i:])) for i in range(first, numbered[-1] + 1)} - {""}


@lru_cache(maxsize=256)
def _variant_patterns(variants: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    """For a product's variant words: two of them as alternatives ("PCIe or SXM"), and one made a product by a
    noun beside it ("the PCIe one", "версия PCIe", "SXM 版"). Compiled once per product."""
    words = "|".join(map(re.escape, sorted(variants, key=len, reverse=True)))
    pair = re.compile(rf"(?<![\w-])({words}){LISTING}({words})(?![\w-])", re.IGNORECASE)
    named = re.compile(rf"(?<![\w-])({words})(?:[\s-]+{_VARIANT_NOUN}\b|\s*{_VARIANT_ZH})|"
                       rf"(?<![\w-])(?:верси[яиюей]|вариант\w*|модел\w*)\s+({words})(?![\w-])", re.IGNORECASE)
    return pair, named


class Vocabulary:
    def __init__(self, entities: list[Entity], attributes: list[Attribute]) -> None:
        self.entities = {e.id: e for e in entities}
        self.attributes = {a.id: a for a in attributes}
        names = []
        for e in entities:
            for name in {e.name, *e.aliases}:
                names.append((name, e.id))
        names += first_generation_names(names)
        # Longest names first so that alternation prefers "GB200 NVL72" to "GB200".
        names.sort(key=lambda pair: -len(pair[0]))
        self._names = [(re.compile(name_pattern(n), re.IGNORECASE), eid) for n, eid in names]
        self.one_word_names = {n.lower(): n for n, _ in names if re.fullmatch(r"[A-Za-z]+\d[A-Za-z0-9]*", n)}  # "trainium2": "Trainium2"
        self._stems = {n: STEM.match(n).groups() for n in self.one_word_names}  # "trainium3": ("trainium", "3")
        self._letter_names = {n.lower(): n for n, _ in names if re.fullmatch(r"[A-Za-z]{6,}", n)}  # "Trainium"
        # the letters a product's model number starts with ("mi" of MI300X, "tpuv" of TPU v5e): a model number
        # the corpus writes with the same start is a product of that line ("MI300A", "TPU v2"), not a memory
        # type or a link ("HBM3e", "NVLink 4")
        self._product_stems = {stem for n, eid in names if self.entities[eid].kind in ("chip", "instance", "system")
                               for stem in _model_stems(n)}  # a word of a name ("EC2") is no product of its own
        self._name_words = {w.lower() for n, _ in names for w in n.split()}
        # a product's variants by the word that completes its name ("H100" + "PCIe" is the H100 PCIe)
        self.variants: dict[str, dict[str, str]] = {}
        for name, eid in names:
            base, _, word = name.rpartition(" ")
            if base and re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", word) and \
                    any(pattern.fullmatch(base) for pattern, _ in self._names):
                self.variants.setdefault(base.lower(), {})[word.lower()] = eid
        self._headers = [(re.compile(h, re.IGNORECASE), a.id) for a in attributes for h in a.headers]
        self._cues = {lang: [(re.compile(c, re.IGNORECASE), a.id) for a in attributes for c in a.cue_patterns(lang)]
                      for lang in ("en", "ru", "zh")}
        # The plain words of the cues ("clock", "bandwidth"): what a misspelled question word is mended to;
        # stems ("частот" of "частот\w*") only keep the words they begin from being mended.
        plain = [re.sub(r"\\[a-z](?:[*+?]|\{[\d,]+\})?", lambda m: "*" if m.group(0).endswith(("*", "+", "}")) else " ",
                        c.lower()) for a in attributes for cues in a.cues.values() for c in cues]
        words = [w for p in plain for w in re.findall(r"[a-zа-яё]+\*?", p)]
        self._cue_words = sorted({w for w in words if not w.endswith("*") and len(w) >= 5})
        self._cue_stems = sorted({w.rstrip("*") for w in words if w.endswith("*")} | set(self._cue_words))

    @classmethod
    def load(cls, folder: Path) -> Vocabulary:
        entities, attributes = [], []
        seen: dict[str, str] = {}
        for line, item in load_yaml_items(folder / ENTITIES_FILE):
            entity = validated(Entity, f"{folder / ENTITIES_FILE}:{line}", item)
            if entity.id in seen:
                raise SpecError(f"{folder / ENTITIES_FILE}:{line}", f"entity '{entity.id}' is defined twice")
            seen[entity.id] = entity.id
            entities.append(entity)
        for entity, field, named in ((e, f, n) for e in entities for f, n in (
                ("parts.chip", e.parts and e.parts.chip), ("family", e.family), ("interconnect", e.interconnect))):
            if named and named not in seen:
                raise SpecError(str(folder / ENTITIES_FILE), f"entity '{entity.id}': {field} '{named}' is not an entity")
        for line, item in load_yaml_items(folder / ATTRIBUTES_FILE):
            attribute = validated(Attribute, f"{folder / ATTRIBUTES_FILE}:{line}", item)
            for pattern in (*attribute.headers, *(c for cues in attribute.cues.values() for c in cues),
                            *attribute.cue_patterns(*attribute.cues)):  # as matched, too
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise SpecError(f"{folder / ATTRIBUTES_FILE}:{line}", f"bad pattern {pattern!r}: {exc}") from None
                if any(ord(ch) < 32 for ch in pattern):  # "\b" in double quotes is YAML's backspace, not a boundary
                    raise SpecError(f"{folder / ATTRIBUTES_FILE}:{line}", f"pattern {pattern!r} holds a control "
                                    "character: write regular expressions in single quotes")
            attributes.append(attribute)
        for attribute, field in ((a, f) for a in attributes for f in ("per_chip", "kind_of")):
            if (named := getattr(attribute, field)) is not None and named not in {a.id for a in attributes}:
                raise SpecError(str(folder / ATTRIBUTES_FILE), f"attribute '{attribute.id}': {field} '{named}' is "
                                "not an attribute")
        return cls(entities, attributes)

    def to_json(self) -> dict:
        return {"entities": [e.model_dump(mode="json") for e in self.entities.values()],
                "attributes": [a.model_dump(mode="json") for a in self.attributes.values()]}

    @classmethod
    def from_json(cls, data: dict) -> Vocabulary:
        return cls([Entity.model_validate(e) for e in data["entities"]],
                   [Attribute.model_validate(a) for a in data["attributes"]])

    def mentions(self, text: str) -> list[Mention]:
        """Entity names in ``text`` (already normalized), longest first where they overlap, in text order; and
        names written short after another of their series ("TPU v3 和 v4", "Trainium2 or 3")."""
        taken: list[Mention] = []
        for pattern, eid in self._names:
            for m in pattern.finditer(text):
                if not _overlaps(found := Mention(eid, m.start(), m.end(), m.group(0)), taken):
                    taken.append(found)
        taken.sort(key=lambda m: m.start)
        i = 0
        while i < len(taken):  # each elided name found is itself followed, so a list of them chains
            found = self._elided(text, taken[i])
            if found and not _overlaps(found, taken):
                taken.insert(i + 1, found)
            i += 1
        for m in list(taken):
            found = self._elided_before(text, m)
            if found and not _overlaps(found, taken):
                taken.append(found)
        for m in list(taken):
            for found in self._variant_pair(text, m) + self._variant_named(text, m):
                if not _overlaps(found, taken):
                    taken.append(found)
        return sorted(taken, key=lambda m: m.start)

    def _base(self, mention: Mention) -> tuple[str, str | None] | None:
        """The name a mention's variants complete, and the variant word it is written with: ("h100", None) for
        "H100", ("a100", "sxm") for "A100 SXM"."""
        low = mention.text.lower()
        if low in self.variants:
            return low, None
        base, _, word = low.rpartition(" ")
        return (base, word) if word in self.variants.get(base, {}) else None

    def _variant_pair(self, text: str, mention: Mention) -> list[Mention]:
        """Two variants of a product named after it by the word alone, as alternatives ("H100 — PCIe или SXM",
        "A100: SXM vs PCIe"). One variant word alone is not enough: "the PCIe bandwidth of the H100" names no
        H100 PCIe."""
        base = self._base(mention)
        if base is None or base[1] is not None:
            return []
        m = _variant_patterns(tuple(self.variants[base[0]]))[0].search(text, mention.end)
        if not m or m.group(1).lower() == m.group(2).lower() or \
                any(pattern.search(text, mention.end, m.start()) for pattern, _ in self._names):
            return []  # the same word twice, or another product named nearer: whose variants they are is unsure
        return [Mention(self.variants[base[0]][m.group(k).lower()], m.start(k), m.end(k), m.group(k)) for k in (1, 2)]

    def _variant_named(self, text: str, mention: Mention) -> list[Mention]:
        """Another variant of a product named after it by its word and a noun that makes it a product ("A100
        SXM ... the PCIe one", "A100 PCIe ... SXM-версия", "A100 ... PCIe 版"), with no other product between."""
        base = self._base(mention)
        if base is None:
            return []
        for m in _variant_patterns(tuple(self.variants[base[0]]))[1].finditer(text, mention.end):
            k = 1 if m.group(1) else 2
            eid = self.variants[base[0]][m.group(k).lower()]
            if any(pattern.search(text, mention.end, m.start()) for pattern, _ in self._names):
                return []  # another product named nearer: whose variant it is is unsure
            # "which PCIe version", "PCIe 版本是多少", "PCIe version 4": a generation of the bus, not a variant
            if eid == mention.entity or _ASKED_BEFORE.search(text[:m.start()]) or _GENERATION_AFTER.match(text, m.end()):
                continue
            return [Mention(eid, m.start(k), m.end(k), m.group(k))]
        return []

    def _elided(self, text: str, mention: Mention) -> Mention | None:
        """The name written as its version alone right after ``mention`` and a word that lists or opposes
        ("v4" of "TPU v3 and v4"), when the mention with that version is the name of another entity; likewise
        its variant word ("PCIe" of "H100 SXM or PCIe")."""
        m = ELIDED.match(text, mention.end)
        version = VERSION.search(mention.text)
        base = self._base(mention)
        if base and base[1] and (w := _VARIANT_WORD.match(text, mention.end)) and \
                w.group(1).lower() in self.variants[base[0]]:  # "H100 SXM or PCIe"
            eid = self.variants[base[0]][w.group(1).lower()]
            return Mention(eid, w.start(1), w.end(1), w.group(1)) if eid != mention.entity else None
        if not m or not version:
            return None
        if m.group(1).isdigit() and not AFTER_SHORT_NAME.match(text, m.end(1)) or _AMOUNT_AFTER.match(text, m.end(1)):
            return None  # a count or an amount ("Gaudi2 and 3 instances", "3 个节点", "4.0 TB/s"), not a name
        return self._sibling(mention, m.group(1), m.start(1))

    def _elided_before(self, text: str, mention: Mention) -> Mention | None:
        """The same written before ``mention`` ("v4" of "v4 или v5p"); a letter in the version, so no count."""
        m = _ELIDED_BEFORE.search(text, 0, mention.start)
        return self._sibling(mention, m.group(1), m.start(1)) if m and VERSION.search(mention.text) else None

    def _sibling(self, mention: Mention, version: str, at: int) -> Mention | None:
        """The entity named as ``mention``'s name (as written, or its full name: "v5p" is "Google TPU v5p") with
        its version replaced by ``version``; None when that names no other entity."""
        for name in (mention.text, self.entities[mention.entity].name):
            if own := VERSION.search(name):
                full = name[:own.start()] + version
                eid = next((eid for pattern, eid in self._names if pattern.fullmatch(full)), None)
                if eid is not None and eid != mention.entity:
                    return Mention(eid, at, at + len(version), version)
        return None

    def entity_in(self, text: str) -> tuple[str, str] | None:
        """The first entity named in a table cell, and what is left of the cell around it."""
        text = normalize_for_matching(text)  # the mentions' offsets are into the normalized text
        found = self.mentions(text)
        if not found:
            return None
        entity = found[0].entity
        rest, pos = "", 0
        for m in found:  # "trn2.48xlarge / trn2u.48xlarge": both names go, not just the first
            if m.entity == entity:
                rest += text[pos:m.start]
                pos = m.end
        return entity, (rest + text[pos:]).strip()

    def header_attribute(self, header: str) -> str | None:
        """The attribute whose header pattern matches most of the label ("memory pool size" is not "memory")."""
        text = header.strip().lower()
        best = max(((m.end() - m.start(), aid) for pattern, aid in self._headers if (m := pattern.search(text))),
                   default=None)
        return best[1] if best else None

    def mend_spelling(self, text: str, known: frozenset[str] = frozenset()) -> str:
        """``text`` (lower case) with each word of five letters or more that is neither a word of ``known``
        (the corpus's words: "lower" is no misspelling of "power") nor common in general usage ("wants" is
        no "watts") nor begins like a cue, but is a single
        edit from one cue word ("clcok", "bandwdith"), replaced by that cue word. Chinese is left as written: by sound
        ("现存" for "显存") or by swapped characters ("宽带"), ordinary words would become cue words ("适中" sounds
        like "时钟", "可能性" holds "能性")."""
        def mend(m: re.Match) -> str:
            word = m.group(0)
            if word in known or any(word.startswith(c) or c.startswith(word) for c in self._cue_stems):
                return word
            close = [c for c in self._cue_words if abs(len(c) - len(word)) <= 1 and one_edit(word, c)]
            if len(close) != 1 or word_frequency(word) >= COMMON_WORD:
                return word  # a common word is no misspelling ("wants" of "watts")
            return close[0]
        return re.sub(r"(?<![\w])[a-zа-яё]{5,}(?![\w])", mend, text)

    def mend_names(self, text: str, known: frozenset[str] = frozenset()) -> str:
        """``text`` with each word that is no word of ``known`` (the corpus's) and no name, but a single edit in
        the letters before its digits from one entity's one-word name ("trainum3", "Inferntia2"), written as
        that name, and a count written onto a name ("8xH100") apart from it. What follows the letters must agree
        exactly: "TPUv4i", "HBM4e", "Gaudi2D" and "trn1n.32xlarge" are other products, and stems under four letters
        ("MI300A") are model numbers, not words. A name of letters alone is mended from six letters on ("trainum")."""
        def mend(m: re.Match) -> str:
            word = m.group(0)
            low = word.lower()
            stem, rest = STEM.match(low).groups()
            if low in known or low in self.one_word_names or len(stem) < 4 or not rest:
                return word
            close = {name for name, (s, r) in self._stems.items() if r == rest and one_edit(stem, s)}
            return self.one_word_names[close.pop()] if len(close) == 1 else word

        def mend_word(m: re.Match) -> str:  # a name of letters only, six or more of them ("trainum")
            word = m.group(0)
            low = word.lower()
            if low in known or low in self._letter_names:
                return word
            close = {name for name in self._letter_names if one_edit(low, name)}
            return self._letter_names[close.pop()] if len(close) == 1 else word
        text = _COUNT_ONTO_NAME.sub(r"\1 ", text)
        text = re.sub(r"(?<![\w.-])[A-Za-z]+\d[A-Za-z0-9]*(?![\w-]|\.\w)", mend, text)
        return re.sub(r"(?<![\w.-])[A-Za-z]{6,}(?![\w-]|\.\w)", mend_word, text)

    def names_a_product_line(self, name: str) -> bool:
        """Whether a model number starts as the table's products do ("MI300A" as MI300X does); one letter
        before its digits needs two digits ("H800", not "P2P"); a word of a known name is none ("EC2")."""
        stem = _model_stem(name)
        return stem in self._product_stems and name.lower() not in self._name_words and \
            (len(stem) > 1 or len(re.findall(r"\d", name)) >= 2)

    def cue_spans(self, text: str, lang: str) -> dict[str, list[tuple[int, int]]]:
        """Where each cue of each attribute cued in a question stands, in the order written; none inside the cost
        of doing something ("all-reduce cost", "迁移成本", "стоимость миграции"), which is no hardware price."""
        work = [m.span() for m in WORK_COST.finditer(text)]
        plain, at = plain_words(text)
        spans: dict[str, list[tuple[int, int]]] = {}
        for source in {lang, "en"}:
            for pattern, aid in self._cues.get(source, []):
                found = [m.span() for m in pattern.finditer(text)]
                if plain != text:
                    found += [(at[m.start()], at[m.end() - 1] + 1) for m in pattern.finditer(plain) if m.end() > m.start()]
                spans.setdefault(aid, []).extend(
                    (s, e) for s, e in found if not any(ws <= s and e <= we for ws, we in work))
        return {aid: sorted(set(found)) for aid, found in spans.items() if found}

    def attribute_cues(self, text: str, lang: str,
                       spans: dict[str, list[tuple[int, int]]] | None = None) -> list[tuple[int, str]]:
        """(length of the longest matching cue, attribute) for every attribute cued in a question;
        ``spans`` are its ``cue_spans`` when the caller has them already."""
        spans = self.cue_spans(text, lang) if spans is None else spans
        return sorted(((max(e - s for s, e in found), a) for a, found in spans.items()),
                      key=lambda pair: (-pair[0], pair[1]))
