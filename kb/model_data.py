"""Measured per-model data kept in ``kb/data/*.json``: one entry per model id and exact weights,
so a statistic measured for one build of a model is never applied to another."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path


def _key(model_id: str, weights_hash: str) -> str:
    return f"{model_id}@{weights_hash}"


@lru_cache(maxsize=8)
def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def model_entry(path: Path, model_id: str, weights_hash: str) -> dict | None:
    return _read(path).get(_key(model_id, weights_hash))


def write_model_entry(path: Path, model_id: str, weights_hash: str, entry: dict) -> None:
    data = dict(_read(path))
    data[_key(model_id, weights_hash)] = entry
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    _read.cache_clear()
