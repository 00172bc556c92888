"""The widget script, the demo page that embeds it, the snippet page and article pages."""

from __future__ import annotations

import hashlib
import html
from pathlib import Path

from litestar import MediaType, Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException

from service.articles import render_article

WIDGET_DIR = Path(__file__).resolve().parent.parent / "widget"
WIDGET_JS = (WIDGET_DIR / "widget.js").read_bytes()
WIDGET_ETAG = '"' + hashlib.sha256(WIDGET_JS).hexdigest()[:16] + '"'


def _base(state: State) -> str:
    # From settings, never from the request's Host header: a page must not name an address a client chose.
    settings = state.runtime.settings
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return (settings.public_url or f"http://{host}:{settings.port}").rstrip("/")


def snippet(base: str) -> str:
    return f'<script src="{base}/widget.js" data-endpoint="{base}" defer></script>'


@get("/widget.js", include_in_schema=False)
async def widget_js(request: Request) -> Response:
    headers = {"Cache-Control": "public, max-age=3600", "ETag": WIDGET_ETAG}
    if request.headers.get("if-none-match") == WIDGET_ETAG:
        return Response(content=b"", status_code=304, headers=headers)
    return Response(content=WIDGET_JS, media_type="text/javascript", headers=headers)


@get("/", include_in_schema=False, media_type=MediaType.HTML)
async def demo_page(state: State) -> str:
    # The demo embeds the widget exactly as a site owner would: the one-line snippet.
    template = (WIDGET_DIR / "demo.html").read_text(encoding="utf-8")
    # Same origin whatever address the page was opened at (localhost, a proxy): the script's own origin
    # is the widget's endpoint, and the page's CSP allows exactly that.
    return template.replace("{{SNIPPET}}", '<script src="/widget.js" defer></script>')


@get("/embed", include_in_schema=False, media_type=MediaType.HTML)
async def embed_page(state: State) -> str:
    template = (WIDGET_DIR / "embed.html").read_text(encoding="utf-8")
    return template.replace("{{SNIPPET_TEXT}}", html.escape(snippet(_base(state))))


@get("/articles/{article_id:str}", include_in_schema=False, media_type=MediaType.HTML)
async def article_page(article_id: str, state: State) -> str:
    info = state.runtime.retriever.index.articles.get(article_id)
    if info is None:
        raise NotFoundException(f"no article {article_id!r}")
    return render_article(info)
