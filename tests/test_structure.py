"""The shape of the code: small modules, no import cycles, data flowing one way, one home per definition."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for package in ("kb", "service") for p in (ROOT / package).rglob("*.py"))
MAX_LINES = 400


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every project module this file imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in SOURCES}
    return {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}


def test_no_module_is_over_the_size_limit():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in SOURCES}
    assert not {p: n for p, n in sizes.items() if n > MAX_LINES}


def test_imports_have_no_cycle(graph):
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for child in sorted(graph[node]):
            if state.get(child) == 1:
                pytest.fail("import cycle: " + " -> ".join(path[path.index(child):] + [child]))
            if child not in state:
                visit(child, path + [child])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_the_answer_stage_composes_without_reaching_into_retrieval_internals(graph):
    assert not {m for m in graph["kb.answer"] if m.startswith(("kb.lexical", "kb.calibration", "kb.centering"))}
    # the library never depends on the service (only the CLI that starts it does)
    assert not [name for name, deps in graph.items()
                if name.startswith("kb") and name != "kb.cli" and any(d.startswith("service") for d in deps)]


@pytest.mark.parametrize("pattern, home", [
    (r'=\s*\(\s*"en",\s*"ru",\s*"zh"\s*\)', "kb/models.py"),  # LANGS
    (r'Literal\[\s*"dense",\s*"lexical",\s*"hybrid"\s*\]', "kb/params.py"),  # the retrieval mode
    (r'"(?:weak_evidence|unknown_name|no_fact)"', "kb/response.py"),  # abstain reasons
    (r"\\u4e00-\\u9fff", "kb/language.py"),  # the Han script
    (r"\\u0400-\\u04ff", "kb/language.py"),  # the Cyrillic script
])
def test_one_definition_of_each_identity(pattern, home):
    places = [str(p.relative_to(ROOT)) for p in SOURCES if re.search(pattern, p.read_text(encoding="utf-8"))]
    assert places == [home]
