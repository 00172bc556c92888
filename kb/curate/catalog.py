"""The catalog of raw sources: corpus/sources/catalog.yaml, validated."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kb.errors import CurationError
from kb.models import ArticleMeta

CATALOG_FILE = "catalog.yaml"


class Repair(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    find: str = Field(min_length=1)
    replace: str
    note: str = Field(min_length=1)


class CatalogEntry(BaseModel):
    """How one raw file becomes one curated article."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    raw_file: str
    format: Literal["scrape-text", "rst", "markdown"]
    script: Literal["zh-hans"] | None = None
    meta: ArticleMeta
    repairs: tuple[Repair, ...] = ()
    end_marker: str | None = None
    drop_lines: tuple[str, ...] = ()
    captions: tuple[str, ...] = ()
    missing_figure_label: str = "Figure (image not included): "


def load_catalog(sources_dir: Path) -> list[CatalogEntry]:
    path = sources_dir / CATALOG_FILE
    try:
        raw: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CurationError(f"{path} is missing: it lists how each raw source is curated") from None
    entries = []
    for number, item in enumerate(raw, start=1):
        item = dict(item)
        meta = dict(item.get("meta") or {})
        meta["source"] = {**(meta.get("source") or {}), "raw_file": item.get("raw_file")}
        item["meta"] = meta
        try:
            entries.append(CatalogEntry.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise CurationError(f"{path}: entry {number} ({item.get('raw_file')}): field '{where}': {first['msg']}") from None
    return entries
