"""Scraped plain text (the Russian explainer, the Chinese news article).

These files have no markup at all: headings are bare lines, the Chinese one
carries site chrome, pinyin annotations and lost characters. The steps below
are generic; what is particular to one page (its end marker, its captions)
comes from the catalog entry.
"""

from __future__ import annotations

import re

from kb.curate.catalog import CatalogEntry
from kb.errors import CurationError

# Pinyin the scraper put in ASCII parentheses after a character: 训(xùn)练.
_PINYIN = re.compile(r"\((?:[a-zü]|[\u00e0-\u01dc])+\)")
_SENTENCE_END = tuple(".!?;:…。！？；：")
_FAQ_ITEM = re.compile(r"^\d+\.\s+\S.*[?？]$")


def _is_heading(line: str) -> bool:
    return len(line) <= 60 and not line.endswith(_SENTENCE_END) and not _FAQ_ITEM.match(line)


def curate_scrape(text: str, entry: CatalogEntry) -> str:
    lang = entry.meta.lang
    if lang == "zh":
        text = _PINYIN.sub("", text)
    if entry.script == "zh-hans":
        from kb.textnorm import to_simplified

        text = to_simplified(text)
    lines = [line.strip() for line in text.splitlines()]
    title = entry.meta.title
    try:
        start = lines.index(title) + 1
    except ValueError:
        raise CurationError(f"{entry.raw_file}: title line {title!r} not found in the scrape") from None
    end = len(lines)
    if entry.end_marker:
        end = next((i for i in range(start, len(lines)) if lines[i].startswith(entry.end_marker)), None)
        if end is None:
            raise CurationError(f"{entry.raw_file}: end marker {entry.end_marker!r} not found")
    drop = [re.compile(p) for p in entry.drop_lines]
    blocks: list[str] = []
    for line in lines[start:end]:
        if not line or any(p.search(line) for p in drop):
            continue
        if lang == "zh":
            line = _mark_lost_characters(line)
        for caption in entry.captions:
            if line.startswith(caption):
                blocks.append(f"*{entry.missing_figure_label}{caption}*")
                line = line[len(caption):].strip()
        if not line:
            continue
        if _FAQ_ITEM.match(line):
            blocks.append("### " + line)
        elif _is_heading(line):
            blocks.append("## " + line)
        else:
            blocks.append(line)
    return "\n\n".join(blocks)


def _mark_lost_characters(line: str) -> str:
    # In the Chinese scrape an ASCII '?' is always a character the scraper
    # lost (questions use the full-width ？). Keep it visible, never guess.
    return re.sub(r"(?<!\[)\?(?!\])", "[?]", line)
