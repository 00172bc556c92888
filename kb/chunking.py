"""Sections to chunks: whole sentences (or whole table rows) sized in model tokens.

A chunk's ``text`` is exactly ``body[char_start:char_end]``, so a citation can
point into the article. What the model embeds (``embed_text``) adds context
in front: the article title, the section path and, for a table, its header
row, so a row of numbers still says what the numbers are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kb.markdown import Block, parse_article
from kb.models import Article, Chunk, Section
from kb.sentences import SENTENCE_RULES, sentence_spans
from kb.textnorm import normalize_for_matching

TokenCounter = Callable[[str], int]


@dataclass(frozen=True)
class ChunkerSettings:
    target_tokens: int = 200
    max_tokens: int = 320

    def as_dict(self) -> dict[str, int]:
        # The rules version is in the manifest so that an index cut by older rules counts as stale.
        return {"target_tokens": self.target_tokens, "max_tokens": self.max_tokens, "sentence_rules": SENTENCE_RULES}


def _context(article: Article, section: Section) -> str:
    path = [p for p in section.heading_path if p != article.meta.title]
    return " > ".join([article.meta.title, *path])


def _make_chunk(article: Article, section: Section, start: int, end: int, kind: str, header: str = "") -> Chunk:
    body = article.body
    text = body[start:end]
    embed = _context(article, section) + "\n" + (header + "\n" if header else "") + text
    return Chunk(
        chunk_id=f"{article.meta.id}:{start}-{end}", article_id=article.meta.id, lang=article.meta.lang,
        section=section.heading_path, anchor=section.anchor, char_start=start, char_end=end,
        text=text, embed_text=normalize_for_matching(embed), kind=kind,
    )


def _split_long(body: str, start: int, end: int, fits: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """Cut one over-long sentence at spaces (or anywhere, for unspaced text) so each piece fits."""
    pieces, begin = [], start
    while begin < end:
        lo, hi = begin + 1, end
        while lo < hi:  # largest cut that still fits
            mid = (lo + hi + 1) // 2
            if fits(begin, mid):
                lo = mid
            else:
                hi = mid - 1
        cut = lo
        space = body.rfind(" ", begin + 1, cut)
        if cut < end and space > begin:
            cut = space
        pieces.append((begin, cut))
        begin = cut
        while begin < end and body[begin].isspace():
            begin += 1
    return pieces


def chunk_article(article: Article, count_tokens: TokenCounter, settings: ChunkerSettings = ChunkerSettings()) -> list[Chunk]:
    sections, blocks = parse_article(article)
    body = article.body
    chunks: list[Chunk] = []

    def cost(section: Section, start: int, end: int, header: str = "") -> int:
        return count_tokens(_context(article, section) + "\n" + (header + "\n" if header else "") + body[start:end])

    # Consecutive prose blocks of one section are packed together; tables and
    # code stand alone so a chunk never mixes a table with prose.
    pending: list[tuple[int, int]] = []
    pending_section: Section | None = None

    def flush() -> None:
        nonlocal pending, pending_section
        if pending and pending_section is not None:
            chunks.extend(_pack(article, pending_section, pending, cost, settings))
        pending, pending_section = [], None

    for block in blocks:
        section = sections[block.section_index]
        if block.kind == "prose":
            if pending_section is not None and pending_section is not section:
                flush()
            pending_section = section
            pending.extend(sentence_spans(body, block.char_start, block.char_end))
            continue
        flush()
        if block.kind == "table":
            chunks.extend(_table_chunks(article, section, block, cost, settings))
        else:
            lines = _line_spans(body, block.char_start, block.char_end)
            chunks.extend(_pack(article, section, lines, cost, settings, kind="prose"))
    flush()
    return chunks


def _pack(article, section, spans, cost, settings, kind="prose", header=""):
    body = article.body
    out: list[Chunk] = []
    fits = lambda s, e: cost(section, s, e, header) <= settings.max_tokens  # noqa: E731
    units: list[tuple[int, int]] = []
    for s, e in spans:
        units.extend([(s, e)] if fits(s, e) else _split_long(body, s, e, fits))
    current: tuple[int, int] | None = None
    for s, e in units:
        if current is None:
            current = (s, e)
        elif cost(section, current[0], e, header) <= settings.target_tokens:
            current = (current[0], e)
        else:
            out.append(_make_chunk(article, section, *current, kind, header))
            current = (s, e)
    if current is not None:
        out.append(_make_chunk(article, section, *current, kind, header))
    return out


def _line_spans(body: str, start: int, end: int) -> list[tuple[int, int]]:
    spans, pos = [], start
    for line in body[start:end].split("\n"):
        if line.strip():
            spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def _table_chunks(article, section, block: Block, cost, settings) -> list[Chunk]:
    """Whole rows per chunk; the first chunk holds the header, later ones repeat it as context."""
    body = article.body
    rows = _line_spans(body, block.char_start, block.char_end)
    if len(rows) <= 3:
        return _pack(article, section, [(rows[0][0], rows[-1][1])], cost, settings, kind="table")
    header = body[rows[0][0]:rows[1][1]]
    chunks: list[Chunk] = []
    start, end = rows[0][0], rows[2][1]
    for row_start, row_end in rows[3:]:
        context = header if chunks else ""
        if cost(section, start, row_end, context) <= settings.target_tokens:
            end = row_end
            continue
        chunks.append(_make_chunk(article, section, start, end, "table", context))
        start, end = row_start, row_end
    chunks.append(_make_chunk(article, section, start, end, "table", header if chunks else ""))
    return chunks
