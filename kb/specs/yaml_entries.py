"""Reading the YAML lists of ``corpus/specs/``: each entry with its line, and validated with the file, line
and field named when it is wrong."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from kb.errors import SpecError


def load_yaml_items(path: Path) -> list[tuple[int, dict]]:
    """The mappings of a YAML list file, each with the line it starts on (for error messages)."""
    try:
        text = path.read_text(encoding="utf-8")
        root = yaml.compose(text)
        data = yaml.safe_load(text)
    except FileNotFoundError:
        raise SpecError(str(path), "file is missing") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise SpecError(where, f"not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if data is None:
        return []
    if not isinstance(data, list) or root is None:
        raise SpecError(f"{path}:1", "expected a list of entries")
    items = []
    for node, item in zip(root.value, data, strict=True):
        line = node.start_mark.line + 1
        if not isinstance(item, dict):
            raise SpecError(f"{path}:{line}", "expected a mapping")
        items.append((line, item))
    return items


def validated(model, where: str, item: dict):
    """``model`` from a YAML entry, or a SpecError naming the file, line and first bad field."""
    try:
        return model.model_validate(item)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "entry"
        raise SpecError(where, f"field '{field}': {first['msg']}") from None
