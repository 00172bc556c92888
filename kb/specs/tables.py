"""Facts from the Markdown tables of curated articles, read as ``corpus/specs/tables.yaml`` says.

A table is read along one axis for entities and the other for attributes;
labels become attributes through the vocabulary's header patterns, units
come from labels ("Memory (GB)") or cells ("32GB", "990T"), and cells that
hold no number say why: "?" unknown, "X" / "Not applicable" / "—"
unsupported, "V" supported but unpublished. Each fact quotes its whole
table row, with the row's offsets in the article body.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from kb.errors import SpecError
from kb.markdown import parse_article
from kb.models import Article
from kb.specs.model import Fact, FactSource
from kb.specs.relations import Relation
from kb.specs.units import DTYPE, UNITS, canonical_unit, dtype_name, numbers_in, rebase, topology_chips
from kb.specs.vocabulary import Vocabulary
from kb.specs.yaml_entries import load_yaml_items, validated
from kb.tables import Table

TABLES_FILE = "tables.yaml"
_VENDORS = re.compile(r"\b(?:NVIDIA|AMD|Intel|Google|AWS|Amazon|Huawei)\b")
_UNSUPPORTED = {"x", "not applicable", "n/a", "—", "-", "–"}
# A column that states how two entity columns relate ("Improvement factor": "3.6x"): a relation per row.
_FACTOR_HEADER = re.compile(r"^(?:improvement(?: factor)?|factor|speed-?up|ratio|提升(?:倍数)?|倍数|прирост|улучшение)$",
                            re.IGNORECASE)
_FACTOR_CELL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*$")


class Defaults(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    attribute: str | None = None  # one attribute for every value; per label, it overrides the reading's
    unit: str | None = None
    dtype: str | None = None
    basis: str | None = None
    scope: str | None = None
    note: str | None = None


class TableReading(Defaults):
    article: str
    after: tuple[str, ...] = ()
    read: Literal["rows", "columns", "fixed"]
    entity: str | None = None
    entity_prefix: str = ""
    value_column: str | None = None
    skip: tuple[str, ...] = ()
    labels: dict[str, Defaults] = {}
    as_of: dt.date | None = None


@dataclass(frozen=True)
class ArticleTable:
    """A parsed table of an article, with the anchor of its section."""

    table: Table
    anchor: str
    header_line: str  # the header row, whitespace runs collapsed: what a row's numbers mean


def tables_in(article: Article) -> list[ArticleTable]:
    sections, blocks = parse_article(article)
    body = article.body
    return [ArticleTable(b.table, sections[b.section_index].anchor,
                         " ".join(body[b.table.header.start:b.table.header.end].split()))
            for b in blocks if b.table is not None and b.table.rows]


def label_text(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("**", "").replace("`", "")).strip()


def label_unit(label: str) -> str | None:
    """A unit named in a label: "(GB)", "(TB/sec)", "FP8 PFLOPS", "(one-way, bytes/s)"."""
    pieces = re.findall(r"\(([^)]*)\)", label) + [label]
    for piece in pieces:
        for token in re.split(r"[,\s]+", piece):
            for candidate in (token, re.sub(r"/(?:chip|link|gpu)$", "", token, flags=re.IGNORECASE)):
                unit = canonical_unit(candidate) if candidate else None
                if unit and unit != "T":
                    return unit
    return None


@dataclass(frozen=True)
class CellValue:
    status: str
    value: float | None = None
    text: str | None = None
    unit: str | None = None
    decimals: int = 0
    approx: bool = False
    bound: str | None = None
    detail: str | None = None


_CELL = re.compile(r"^(?P<pre>~|≈|up to|>|<)?\s*(?P<num>\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?)\s*"
                   r"(?P<unit>[A-Za-z%²/]+(?:/[A-Za-z]+)*)?\s*(?P<rest>.*)$", re.IGNORECASE)


def parse_cell(text: str) -> CellValue | None:
    """What one cell says; None for an empty cell."""
    t = label_text(text)
    if not t:
        return None
    if "[?]" in t or t == "?":
        return CellValue("unknown", detail=t if t != "?" else None)
    if t.lower() in _UNSUPPORTED:
        return CellValue("unsupported")
    if t == "V":
        return CellValue("unpublished")
    if (chips := topology_chips(t)) is not None:  # "16x20x28": that many chips in a torus of that shape
        return CellValue("value", value=float(chips), unit="chips", detail=t)
    m = _CELL.match(t)
    if not m:
        return CellValue("value", text=t)
    number = numbers_in(m.group("num"))[0]
    pre = (m.group("pre") or "").lower()
    unit = canonical_unit(m.group("unit")) if m.group("unit") else None
    rest = m.group("rest").strip()
    if m.group("unit") and unit is None:  # "16K × 32位", "Row-major": a word, not a unit
        rest = (m.group("unit") + " " + rest).strip()
    return CellValue("value", value=number.value, unit=unit, decimals=number.decimals,
                     approx=pre in ("~", "≈"), bound={"up to": "at_most", "<": "at_most", ">": "at_least"}.get(pre),
                     detail=rest or None)


@lru_cache(maxsize=64)
def _body_first_line(path: Path, body_start: str) -> int:
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    head = text.find(body_start) if text and body_start else -1
    return text[:head].count("\n") if head >= 0 else 0


def file_line(corpus_dir: Path, article: Article, body_offset: int) -> str:
    """``corpus/en/x.md:57``: where a curator finds a body offset in the article's file."""
    first = _body_first_line(corpus_dir / article.path, article.body[:200])
    return f"{corpus_dir.name}/{article.path}:{first + article.body[:body_offset].count(chr(10)) + 1}"


def _find_table(reading: TableReading, tables: list[ArticleTable], body: str, where: str) -> list[ArticleTable]:
    if not reading.after:
        return tables
    pos = 0
    for text in reading.after:
        found = body.find(text, pos)
        if found < 0:
            raise SpecError(where, f"text {text!r} not found in article {reading.article}")
        pos = found + len(text)
    following = [t for t in tables if t.table.start >= pos]
    if not following:
        raise SpecError(where, f"no table after {reading.after[-1]!r} in article {reading.article}")
    return following[:1]


def read_tables(folder: Path, articles: dict[str, Article], vocabulary: Vocabulary) -> tuple[list[Fact], list[Relation]]:
    """The facts of every table ``tables.yaml`` names, and the relations its improvement-factor columns state."""
    path = folder / TABLES_FILE
    facts: list[Fact] = []
    relations: list[Relation] = []
    for line, item in load_yaml_items(path):
        where = f"{path}:{line}"
        reading = validated(TableReading, where, item)
        article = articles.get(reading.article)
        if article is None:
            raise SpecError(where, f"unknown article '{reading.article}'")
        for name in (reading.attribute, *(d.attribute for d in reading.labels.values())):
            if name and name not in vocabulary.attributes:
                raise SpecError(where, f"unknown attribute '{name}'")
        if reading.entity and reading.entity not in vocabulary.entities:
            raise SpecError(where, f"unknown entity '{reading.entity}'")
        for table in _find_table(reading, tables_in(article), article.body, where):
            read = _read_table(reading, table, article, vocabulary, where, folder.parent)
            facts += read
            if reading.read == "columns":
                relations += factor_relations(table.table, read)
    return facts, relations


def factor_relations(table: Table, facts: list[Fact]) -> list[Relation]:
    """What an improvement-factor column states of a row whose two entity columns hold numbers: the entity with
    the higher value is that many times the other ("| HBM Bandwidth (TB/sec) | 0.8 | 2.9 | 3.6x |")."""
    header = [label_text(c.text) for c in table.header.cells]
    column = next((j for j, h in enumerate(header) if j > 0 and _FACTOR_HEADER.search(h)), None)
    if column is None:
        return []
    out = []
    for line in table.rows:
        cells = line.cells
        m = _FACTOR_CELL.match(cells[column].text) if column < len(cells) else None
        row = [f for f in facts if f.source.char_start == line.start and f.is_number]
        if m is None or len({f.entity for f in row}) != 2 or len({f.attribute for f in row}) != 1:
            continue
        one_each = list({f.entity: f for f in reversed(row)}.values())  # each entity's first figure of the row
        low, high = sorted(one_each, key=lambda f: f.value)
        if low.unit != high.unit or low.value == high.value:
            continue
        factor = float(m.group(1))
        out.append(Relation(subject=high.entity, object=low.entity, attribute=high.attribute, ratio=(factor, factor),
                            direction="higher", bound=None, factor=f"{m.group(1)}x", source=high.source,
                            dtype=high.dtype))
    return out


def _read_table(reading: TableReading, located: ArticleTable, article: Article, vocabulary: Vocabulary,
                where: str, corpus_dir: Path) -> list[Fact]:
    table = located.table
    header = [label_text(c.text) for c in table.header.cells]
    skip = {label_text(s) for s in reading.skip}
    triples = []  # (entity label, attribute label, value cell, row index)
    for r, line in enumerate(table.rows):
        row = line.cells
        if reading.read == "rows":
            triples += [(row[0].text, header[j], row[j], r) for j in range(1, min(len(row), len(header)))]
        elif reading.read == "columns":
            triples += [(header[j], row[0].text, row[j], r) for j in range(1, min(len(row), len(header)))]
        else:
            if reading.value_column not in header:
                raise SpecError(where, f"no column {reading.value_column!r} in the table (columns: {header})")
            j = header.index(reading.value_column)
            triples.append((None, row[0].text, row[j], r))
    facts = []
    for entity_label, attribute_label, cell, r in triples:
        label = label_text(attribute_label)
        if label in skip or (entity_label and label_text(entity_label) in skip):
            continue
        if reading.entity:
            entity, variant = reading.entity, None
        else:
            found = vocabulary.entity_in(reading.entity_prefix + label_text(entity_label))
            if found is None:
                continue
            entity, rest = found
            # What is left of the label beside the name ("(2)" of "GH200 SXM (2)") tells the variant.
            rest = re.sub(r"\(\s*\)|（\s*）|\b(?:GPU|TPU)\b", "", _VENDORS.sub("", rest))
            variant = rest.strip(" /") or None
        defaults = reading.labels.get(label, Defaults())
        attribute = defaults.attribute or reading.attribute or vocabulary.header_attribute(label)
        if attribute is None:
            continue
        parsed = parse_cell(cell.text)
        if parsed is None:
            continue
        spec = vocabulary.attributes[attribute]
        if parsed.status == "value" and parsed.value is None and spec.unit != "":
            continue  # words in a numeric column ("Row-major"): not a value of this attribute
        unit = parsed.unit or label_unit(label) or defaults.unit or reading.unit or spec.unit
        value, decimals = parsed.value, parsed.decimals
        if value is not None:
            value, decimals, unit = rebase(value, decimals, unit, spec.unit)
        if parsed.text is not None:
            unit = ""
        if unit not in UNITS or UNITS[unit].dimension != UNITS[spec.unit].dimension:
            raise SpecError(file_line(corpus_dir, article, table.rows[r].start),
                            f"{label!r} reads as {attribute}, measured in {spec.unit or 'text'}, but the unit "
                            f"here is {unit!r}; fix the label mapping in {where}")
        dtype_found = DTYPE.findall(label) if reading.attribute or spec.unit in ("TFLOPS",) else []
        basis = defaults.basis or reading.basis
        low = label.lower()
        if "sparse" in low:
            basis = "sparse"
        elif reading.read == "fixed" and low.split(" ")[0] in ("matrix", "vector", "packed"):
            basis = low.split(" ")[0]
        start, end = table.rows[r].start, table.rows[r].end
        quote = article.body[start:end]
        facts.append(Fact(
            entity=entity, attribute=attribute, status=parsed.status, value=value, text=parsed.text,
            unit=unit if parsed.status == "value" or parsed.unit or spec.unit else "",
            decimals=decimals, value_text=cell.text, approx=parsed.approx, bound=parsed.bound,
            dtype="/".join(dtype_name(d) for d in dtype_found) or defaults.dtype or reading.dtype,
            scope=(defaults.scope or reading.scope) if spec.scoped else None, basis=basis, variant=variant,
            note=defaults.note or reading.note or parsed.detail,
            as_of=reading.as_of or article.meta.as_of or article.meta.published,
            source=FactSource(article_id=article.meta.id, title=article.meta.title, url=article.meta.source.link(),
                              anchor=located.anchor, char_start=start, char_end=end, quote=quote, origin="table",
                              context=located.header_line,
                              location=file_line(corpus_dir, article, start)),
        ))
    return facts
