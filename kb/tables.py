"""Markdown tables, parsed once: header, separator and body rows, each cell with its body offsets.

Everything that reads a table goes through here: chunking (a chunk holds whole
rows), answer quoting (a row, or each of its prose cells, is one sentence) and
the spec tables (a cell is a value). A table is its block's non-blank lines:
the first names the columns, the second is the ``| --- |`` separator, the rest
are rows. A cell is the text between two unescaped pipes, whitespace trimmed.
"""

from __future__ import annotations

from dataclasses import dataclass

PROSE_CELL_WORDS = 4  # a cell of this many words reads as a sentence, and is quoted on its own


@dataclass(frozen=True)
class Cell:
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Row:
    """One line of a table: its span in the body (trailing whitespace trimmed) and its cells."""

    start: int
    end: int
    cells: tuple[Cell, ...]

    def quotable(self) -> list[tuple[int, int]]:
        """What an answer may quote of this row: its prose cells when it has any, else the whole row;
        nothing for a row that says nothing (the separator, an empty row)."""
        if all(not c.text.strip("-: ") for c in self.cells):
            return []
        prose = [(c.start, c.end) for c in self.cells if len(c.text.split()) >= PROSE_CELL_WORDS]
        return prose or [(self.start, self.end)]


@dataclass(frozen=True)
class Table:
    header: Row
    separator: Row
    rows: tuple[Row, ...]

    @property
    def start(self) -> int:
        return self.header.start

    @property
    def end(self) -> int:
        return (self.rows[-1] if self.rows else self.separator).end

    @property
    def lines(self) -> tuple[Row, ...]:
        return (self.header, self.separator, *self.rows)


def _row(body: str, start: int, end: int) -> Row:
    line = body[start:end]
    bars = [i for i, ch in enumerate(line) if ch == "|" and (i == 0 or line[i - 1] != "\\")]
    cells = []
    for a, b in zip(bars, bars[1:], strict=False):
        raw = line[a + 1:b]
        stripped = raw.strip()
        offset = start + a + 1 + (len(raw) - len(raw.lstrip()))
        cells.append(Cell(stripped, offset, offset + len(stripped)))
    return Row(start, end, tuple(cells))


def parse_table(body: str, start: int, end: int) -> Table | None:
    """The table in ``body[start:end]``; None when it has no header and separator."""
    spans, pos = [], start
    for line in body[start:end].split("\n"):
        if line.strip():
            spans.append((pos, pos + len(line.rstrip())))
        pos += len(line) + 1
    if len(spans) < 2:
        return None
    header, separator, *rows = (_row(body, s, e) for s, e in spans)
    return Table(header, separator, tuple(rows))
