"""Render rows of cell text as a Markdown pipe table."""

from __future__ import annotations


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def pipe_table(header: list[str], rows: list[list[str]]) -> str:
    """A pipe table; short rows are padded so every row has the header's width."""
    width = max([len(header)] + [len(r) for r in rows])
    header = header + [""] * (width - len(header))
    lines = ["| " + " | ".join(_cell(c) for c in header) + " |",
             "| " + " | ".join("---" for _ in header) + " |"]
    for row in rows:
        row = row + [""] * (width - len(row))
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return "\n".join(lines)
