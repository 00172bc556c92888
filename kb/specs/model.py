"""The fact table's vocabulary and records: entities, attributes, facts and their sources."""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kb.language import HAN

Status = Literal["value", "unknown", "unsupported", "unpublished"]
# What a table cell or a curated fact says beside a number:
#   value        a number (or a text value such as a memory type)
#   unknown      the source has no number ("?"), or lost it (the scraped "[?]963")
#   unsupported  the part cannot do it ("X", "Not applicable", "—")
#   unpublished  supported, but no number published ("V")
Bound = Literal["at_least", "at_most"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Parts(Frozen):
    chip: str
    count: int = Field(ge=1)


class Entity(Frozen):
    id: str = Field(pattern=r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
    name: str
    kind: Literal["chip", "instance", "system", "interconnect", "memory"]
    vendor: str = ""
    aliases: tuple[str, ...] = ()
    names: dict[str, str] = {}
    parts: Parts | None = None
    # the series a chip belongs to ("MI300X" of "MI300 series"): what the corpus says of the series as a whole
    # (its XCD, per-part figures) answers for the member where the member has no figure of its own
    family: str | None = None
    # the class of product users set it against ("Is TPU v5e cheaper than GPUs?"): what the corpus says of the
    # classes answers for a product that has no figure of its own; an instance or system is of its chips' class
    category: Literal["gpu", "tpu"] | None = None
    # the chip-to-chip link generation a chip's node is built with ("NVLink 4.0" for the H100, the row "Hopper" of
    # the NVLink tables): the link's figures per GPU answer for the chip where it has none of its own
    interconnect: str | None = None

    def display_name(self, lang: str) -> str:
        return self.names.get(lang, self.name)


_PREFIX_WORDS = ("on", "in", "off", "per", "non", "co")  # "on chip memory" is no "on-chip memory"


def loose_measure_words(pattern: str) -> str:
    """A cue pattern in which Chinese 每 ("each") also matches it with a measure word: "每 SM" and "每个 SM",
    "每堆栈" and "每个堆栈", "每张 GPU" (cards take 张) alike. One already followed by a measure word is left as
    written; an optional one ("每个?") stands for any."""
    pattern = pattern.replace("每个?", "每")  # "each" with its optional measure word: any of them
    return re.sub(r"每(?![个条颗块台张一(\[])", "每(?:一?[个条颗块台张])?", pattern)


# A letter or digit of a Latin or Cyrillic word: Chinese writes such words against Han characters with no space
# ("多少个CU"), where Python's "\b" sees no boundary (Han characters are word characters to it).
_WORD_CHAR = rf"[^\W{HAN}]"
_BOUNDARY = rf"(?:(?<={_WORD_CHAR})(?!{_WORD_CHAR})|(?<!{_WORD_CHAR})(?={_WORD_CHAR}))"


def han_boundaries(pattern: str) -> str:
    """A cue pattern whose word boundaries ("\b") also fall between a Latin or Cyrillic word and a Han character."""
    return re.sub(r"(?<!\\)\\b", lambda _: _BOUNDARY, pattern)


def loose_hyphens(pattern: str) -> str:
    """A cue pattern in which a hyphen between two words also matches a space or nothing: people write
    "chip-to-chip" and "chip to chip" alike. Left as written: hyphens in character classes or lookbehinds
    (which must keep a fixed width), escaped or already optional ones ("inter-?chip"), and one after a
    preposition that starts the compound ("on-chip": "depends on chip memory" is not about on-chip memory)."""
    out, i, in_class, behind = [], 0, False, 0  # behind: the bracket depth of an open lookbehind, else 0
    depth = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
            if pattern.startswith(("(?<=", "(?<!"), i) and not behind:
                behind = depth
        elif ch == ")":
            behind = 0 if behind == depth else behind
            depth -= 1
        word = re.search(r"(?:^|[^A-Za-z\\-]|\\[bB])([A-Za-z]+)$", pattern[:i])  # the word before, as a compound's first
        loose = (ch == "-" and not in_class and not behind and 0 < i < len(pattern) - 1 and pattern[i - 1].isalnum()
                 and pattern[i + 1].isalnum() and not (word and word.group(1).lower() in _PREFIX_WORDS))
        out.append(r"[-\s]?" if loose else ch)
        i += 1
    return "".join(out)


class Attribute(Frozen):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    unit: str
    better: Literal["higher", "lower"] = "higher"
    scoped: bool = True  # False where "per chip" means nothing (instances needed to train a model)
    whole: bool = False  # a figure of a node, host or pod by definition (node egress): it answers for a node's total
    labels: dict[str, str]
    headers: tuple[str, ...] = ()
    cues: dict[str, tuple[str, ...]] = {}
    # kinds of entity whose name beside a number in this unit names this attribute in prose ("HBM3 at 3.35TBps")
    named_by: tuple[str, ...] = ()
    needs_cue: bool = False  # prose gives it only with its cue beside the number (a memory clock, not a bare MHz)
    # the attribute of the same figure for a whole chip, all its links together: asked "per chip", it answers
    per_chip: str | None = None
    # the broader attribute this one is a kind of (a Trainium's SBUF is its fast on-chip memory): asked the broader
    # one of entities that have only this one, this one answers
    kind_of: str | None = None
    # a figure of the machine chips sit in (local storage, vCPUs): a sentence naming one instance or system beside
    # its chips states it of the machine
    of_machine: bool = False

    def label(self, lang: str) -> str:
        return self.labels.get(lang, self.labels["en"])

    def cue_patterns(self, *langs: str) -> tuple[str, ...]:
        """The cues of these languages as they are matched (hyphens loosened), in the order written."""
        return tuple(han_boundaries(loose_measure_words(loose_hyphens(c)))
                     for lang in dict.fromkeys(langs) for c in self.cues.get(lang, ()))


class FactSource(Frozen):
    article_id: str
    title: str
    url: str | None
    anchor: str = ""
    char_start: int
    char_end: int
    quote: str  # the article body between char_start and char_end, character for character
    origin: Literal["table", "curated", "prose"]
    context: str | None = None  # for a table row: the table's header row, which names its columns
    location: str  # file:line a curator opens to fix the fact
    value_start: int | None = None  # where the value is written, when the quote starts sentences before it


class Fact(Frozen):
    """One statement of one source about one entity's attribute."""

    entity: str
    attribute: str
    status: Status = "value"
    value: float | None = None
    value_max: float | None = None  # a range "a-b" keeps both ends
    approx: bool = False  # "~5.5TB/s"
    bound: Bound | None = None  # "more than 3400"
    text: str | None = None  # a text value ("HBM3e") instead of a number
    unit: str = ""
    decimals: int = 0  # precision as written: 2.90 has 2, 990 has -1 (see kb.specs.units)
    value_text: str = ""  # the value as the source writes it
    dtype: str | None = None  # FP16/BF16/cFP8/TF32 ...
    scope: str | None = None  # per_chip, per_instance, per_gcd, ... (see kb.specs.present)
    basis: str | None = None  # dense, sparse, matrix, vector, measured, one-way, ...
    variant: str | None = None  # which version of the part: "(2)", "900W 141GiB HBM3e version"
    variant_labels: dict[str, str] = {}  # the variant in other languages, for display
    note: str | None = None  # a quality note ("the leading digit was lost in the scrape")
    as_of: dt.date | None = None
    source: FactSource
    conflict: bool = False  # another source gives a different value for the same thing
    confidence: float = 1.0  # of the reading: 1 for tables and curated entries, lower for prose (kb.specs.prose)

    @property
    def is_number(self) -> bool:
        return self.status == "value" and self.value is not None

    @property
    def dtypes(self) -> frozenset[str]:
        return frozenset(d.lower() for d in (self.dtype or "").split("/") if d)

    @property
    def plain_basis(self) -> str:
        """The basis, "dense" when unsaid: a plain figure; sparse, matrix, measured ... are other quantities."""
        return self.basis or "dense"

    def same_subject(self, other: Fact) -> bool:
        """Whether two facts describe the same quantity, so that different values are a disagreement."""
        return (self.entity, self.attribute, self.scope, self.variant, self.plain_basis) == \
            (other.entity, other.attribute, other.scope, other.variant, other.plain_basis) and \
            (self.dtypes == other.dtypes or bool(self.dtypes & other.dtypes))
