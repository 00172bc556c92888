"""An article body to sections and blocks, with character offsets, via markdown-it-py.

A table block carries its parsed table (``kb.tables``), so nothing downstream
splits table text again.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from markdown_it import MarkdownIt

from kb.models import Article, Section
from kb.tables import Table, parse_table

_PARSER = MarkdownIt("commonmark").enable("table")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@dataclass(frozen=True)
class Block:
    """A top-level Markdown block inside a section: offsets into the body."""

    kind: Literal["prose", "table", "code"]
    char_start: int
    char_end: int
    section_index: int
    table: Table | None = None


def slugify(heading: str) -> str:
    """A GitHub-style anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFKC", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return re.sub(r"\s", "-", text) or "section"


class AnchorNamer:
    """Unique anchors in document order: "compute", then "compute-1" for a second "Compute"."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def __call__(self, heading: str) -> str:
        anchor = slugify(heading)
        count = self._seen.get(anchor, 0)
        self._seen[anchor] = count + 1
        return f"{anchor}-{count}" if count else anchor


def _line_offsets(body: str) -> list[int]:
    offsets = [0]
    for line in body.split("\n"):
        offsets.append(offsets[-1] + len(line) + 1)
    return offsets


def parse_article(article: Article) -> tuple[list[Section], list[Block]]:
    """Sections (heading path, anchor, span) and the blocks inside them."""
    body = article.body
    lines = _line_offsets(body)
    tokens = _PARSER.parse(body)
    sections: list[Section] = []
    blocks: list[Block] = []
    path: list[tuple[int, str]] = []
    name_anchor = AnchorNamer()
    heading_spans: list[tuple[int, int, tuple[str, ...], str]] = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.level == 0:
            level = int(token.tag[1])
            title = tokens[i + 1].content.strip()
            path = [(lvl, t) for lvl, t in path if lvl < level] + [(level, title)]
            anchor = name_anchor(title)
            heading_spans.append((lines[token.map[0]], lines[token.map[1]], tuple(t for _, t in path), anchor))
    if not heading_spans or heading_spans[0][0] > 0:
        heading_spans.insert(0, (0, 0, (article.meta.title,), "top"))
    for n, (_, content_start, heading_path, anchor) in enumerate(heading_spans):
        end = heading_spans[n + 1][0] if n + 1 < len(heading_spans) else len(body)
        sections.append(Section(article_id=article.meta.id, heading_path=heading_path, anchor=anchor,
                                char_start=content_start, char_end=max(content_start, end)))
    for token in tokens:
        if token.level != 0 or not token.map or token.nesting == -1 or token.type.startswith("heading"):
            continue
        if token.type in {"paragraph_open", "bullet_list_open", "ordered_list_open", "blockquote_open"}:
            kind = "prose"
        elif token.type == "table_open":
            kind = "table"
        elif token.type in {"fence", "code_block"}:
            kind = "code"
        elif token.type == "html_block" and _COMMENT.sub("", token.content).strip():
            kind = "prose"  # raw HTML with text in it; a comment is a note to the editors and says nothing
        else:
            continue
        start = lines[token.map[0]]
        end = min(lines[token.map[1]], len(body))
        while end > start and body[end - 1] in "\n ":
            end -= 1
        index = max(i for i, s in enumerate(sections) if s.char_start <= start or i == 0)
        table = parse_table(body, start, end) if kind == "table" else None
        blocks.append(Block(kind=kind, char_start=start, char_end=end, section_index=index, table=table))
    return sections, blocks
