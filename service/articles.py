"""Curated articles as HTML pages, so a citation can link to its section.

Markdown is rendered with raw HTML disabled: whatever a source contains,
the page shows it as text. Heading ids are the same anchors the chunks carry.
"""

from __future__ import annotations

import html

from markdown_it import MarkdownIt

from kb.index import ArticleInfo
from kb.markdown import AnchorNamer

_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body{{font:16px/1.6 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1d232a}}
table{{border-collapse:collapse;display:block;overflow-x:auto}}td,th{{border:1px solid #d0d7de;padding:.25rem .5rem}}
:target{{background:#fff3bf}}.source{{color:#57606a;font-size:.9rem}}</style></head>
<body><p class="source">{source}</p>{body}</body></html>"""


def render_article(info: ArticleInfo) -> str:
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = parser.parse(info.body)
    name = AnchorNamer()
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.level == 0:
            token.attrSet("id", name(tokens[i + 1].content.strip()))
    source = html.escape(f"{info.publisher} · {info.license}")
    if info.url:
        source += f' · <a href="{html.escape(info.url, quote=True)}" rel="noopener">source</a>'
    return _PAGE.format(lang=html.escape(info.lang), title=html.escape(info.title), source=source,
                        body=parser.renderer.render(tokens, parser.options, {}))
