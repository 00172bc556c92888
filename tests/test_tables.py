"""Markdown tables are parsed once, with exact offsets, for chunks, quotes and spec facts alike."""

from __future__ import annotations

from kb.tables import parse_table

BODY = """Intro line.

| Chip | Memory (GB) | Note |
| --- | ---: | --- |
| Gaudi2  | 96 | the second generation of the chip |
| A \\| B | 80 | x |

After."""


def _table():
    start = BODY.index("| Chip")
    end = BODY.index("\n\nAfter")
    return parse_table(BODY, start, end)


def test_header_separator_and_rows_with_offsets():
    table = _table()
    assert [c.text for c in table.header.cells] == ["Chip", "Memory (GB)", "Note"]
    assert BODY[table.separator.start:table.separator.end] == "| --- | ---: | --- |"
    assert len(table.rows) == 2
    for row in table.rows:
        for cell in row.cells:
            assert BODY[cell.start:cell.end] == cell.text  # every cell points into the body
    assert [c.text for c in table.rows[0].cells] == ["Gaudi2", "96", "the second generation of the chip"]
    assert table.start == BODY.index("| Chip") and BODY[:table.end].endswith("| x |")


def test_an_escaped_pipe_stays_inside_its_cell():
    assert [c.text for c in _table().rows[1].cells] == ["A \\| B", "80", "x"]


def test_a_row_is_quoted_whole_unless_it_holds_prose_cells():
    first, second = _table().rows
    assert [BODY[s:e] for s, e in first.quotable()] == ["the second generation of the chip"]
    assert [BODY[s:e] for s, e in second.quotable()] == ["| A \\| B | 80 | x |"]


def test_a_block_without_header_and_separator_is_no_table():
    assert parse_table("| only one line |", 0, 17) is None
    two = "| a | b |\n| - | - |"
    table = parse_table(two, 0, len(two))
    assert table is not None and table.rows == () and table.end == len(two)
