"""Sections to chunks: whole sentences (or whole table rows) sized in model tokens.

A chunk's ``text`` is exactly ``body[char_start:char_end]``, so a citation can
point into the article. What the model embeds (``embed_text``) adds context
in front: the article title, the section path and, for a table, its header
row, so a row of numbers still says what the numbers are. Labels alone
right before a table ("**内存容量**：") are no passage: they end the table's
section path. A chunk never ends on a question or a label whose answer the
section goes on to give: that opens the next chunk.

A chunk also lists its ``sentences``: the sentences (for a table, the rows,
or their prose cells) that an answer may quote and that are embedded on their
own to score the passage, each under the chunk's context line
(``sentence_context``): "it has 96 GB" means nothing without the chip it is about.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from kb.markdown import Block, parse_article
from kb.models import Article, Chunk, Section, Span
from kb.sentences import SENTENCE_RULES, is_label, leads_in, sentence_spans
from kb.tables import Table
from kb.textnorm import normalize_for_matching

TokenCounter = Callable[[str], int]
CHUNK_RULES = 4  # bump when the packing changes (2: a question or a label opens the chunk that answers it;
# 3, 4: labels alone before a table name it)
_MARKUP = re.compile(r"[*_`]+")


@dataclass(frozen=True)
class ChunkerSettings:
    target_tokens: int = 200
    max_tokens: int = 320

    def as_dict(self) -> dict[str, int]:
        # The rules version is in the manifest so that an index cut by older rules counts as stale.
        return {"target_tokens": self.target_tokens, "max_tokens": self.max_tokens, "sentence_rules": SENTENCE_RULES,
                "chunk_rules": CHUNK_RULES}


def _context(article: Article, section: Section) -> str:
    path = [p for p in section.heading_path if p != article.meta.title]
    return " > ".join([article.meta.title, *path])


def _make_chunk(article: Article, section: Section, start: int, end: int, table: Table | None = None,
                header: str = "") -> Chunk:
    body = article.body
    text = body[start:end]
    embed = normalize_for_matching(_context(article, section) + "\n" + (header + "\n" if header else "") + text)
    context = embed.split("\n")[0]
    if table is None:
        sentences = tuple((start + s, start + e) for s, e in sentence_spans(text))
        sentence_context = context
    else:
        lines = [r for r in table.lines if start <= r.start and r.end <= end]
        opens = bool(lines) and lines[0] is table.header  # the chunk starts with the header row
        sentences = tuple(span for row in lines[1 if opens else 0:] for span in row.quotable()) \
            if lines else ((start, end),)  # a piece of one over-long row
        # The column names: the chunk's own first line when it opens the table, else the repeated header.
        sentence_context = f"{context}\n{text.split(chr(10))[0] if opens else embed.split(chr(10))[1]}"
    return Chunk(
        chunk_id=f"{article.meta.id}:{start}-{end}", article_id=article.meta.id, lang=article.meta.lang,
        section=section.heading_path, anchor=section.anchor, char_start=start, char_end=end,
        text=text, embed_text=embed, kind="table" if table is not None else "prose", sentences=sentences,
        sentence_context=sentence_context,
    )


def sentence_texts(chunk: Chunk) -> list[str]:
    """What the model embeds for each sentence of a chunk, in order."""
    return [normalize_for_matching(f"{chunk.sentence_context}\n{chunk.span_text(s, e)}") for s, e in chunk.sentences]


def _split_long(body: str, start: int, end: int, fits: Callable[[int, int], bool]) -> list[Span]:
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
    pending: list[Span] = []
    pending_section: Section | None = None

    def flush() -> None:
        nonlocal pending, pending_section
        if pending and pending_section is not None:
            chunks.extend(_pack(article, pending_section, pending, cost, settings))
        pending, pending_section = [], None

    def captioned(section: Section) -> Section:
        """The section a table stands in, with the lead-ins right before it ("**内存容量**：") as the last step
        of its path: they name the table, and a passage of labels alone says nothing."""
        nonlocal pending, pending_section
        if not pending or pending_section is not section or not all(is_label(body[s:e]) for s, e in pending):
            return section
        caption = " ".join(_MARKUP.sub("", body[s:e]).strip().rstrip(":：").strip() for s, e in pending)
        pending, pending_section = [], None
        return section.model_copy(update={"heading_path": (*section.heading_path, caption)})

    for block in blocks:
        section = sections[block.section_index]
        if block.kind == "prose":
            if pending_section is not None and pending_section is not section:
                flush()
            pending_section = section
            pending.extend(sentence_spans(body, block.char_start, block.char_end))
            continue
        if block.table is not None:
            section = captioned(section)
        flush()
        if block.table is not None:
            chunks.extend(_table_chunks(article, section, block, cost, settings))
        else:
            lines = _line_spans(body, block.char_start, block.char_end)
            chunks.extend(_pack(article, section, lines, cost, settings))
    flush()
    return chunks


def _pack(article, section, spans, cost, settings, table: Table | None = None):
    body = article.body
    out: list[Chunk] = []
    fits = lambda s, e: cost(section, s, e) <= settings.max_tokens  # noqa: E731
    pieces: list[Span] = []
    for s, e in spans:
        pieces.extend([(s, e)] if fits(s, e) else _split_long(body, s, e, fits))
    current: list[Span] = []
    for s, e in pieces:
        if current and cost(section, current[0][0], e) > settings.target_tokens:
            kept, carried = _lead_ins_apart(body, current) if table is None else (current, [])
            if carried and cost(section, carried[0][0], e) > settings.max_tokens:
                kept, carried = current, []
            out.append(_make_chunk(article, section, kept[0][0], kept[-1][1], table))
            current = carried
        current.append((s, e))
    if current:
        out.append(_make_chunk(article, section, current[0][0], current[-1][1], table))
    return out


def _lead_ins_apart(body: str, spans: list[Span]) -> tuple[list[Span], list[Span]]:
    """The spans of a chunk about to close, and those at its end that lead into what follows (a question, whose
    answer follows, or a label, "**答案：**"): they open the next chunk instead, so that a question and its answer
    are one passage. A chunk of lead-ins alone keeps them."""
    k = len(spans)
    while k > 1 and leads_in(body[spans[k - 1][0]:spans[k - 1][1]]):
        k -= 1
    return spans[:k], spans[k:]


def _line_spans(body: str, start: int, end: int) -> list[Span]:
    spans, pos = [], start
    for line in body[start:end].split("\n"):
        if line.strip():
            spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def _table_chunks(article, section, block: Block, cost, settings) -> list[Chunk]:
    """Whole rows per chunk; the first chunk holds the header, later ones repeat it as context."""
    body = article.body
    table = block.table
    lines = table.lines
    if len(lines) <= 3:
        return _pack(article, section, [(table.start, table.end)], cost, settings, table)
    header = body[table.header.start:table.separator.end]
    chunks: list[Chunk] = []
    start, end = table.start, lines[2].end
    for row in lines[3:]:
        context = header if chunks else ""
        if cost(section, start, row.end, context) <= settings.target_tokens:
            end = row.end
            continue
        chunks.append(_make_chunk(article, section, start, end, table, context))
        start, end = row.start, row.end
    chunks.append(_make_chunk(article, section, start, end, table, header if chunks else ""))
    return chunks
