"""Curated articles on disk: ``corpus/<lang>/<id>.md`` with YAML front matter.

Loading validates the front matter with :class:`kb.models.ArticleMeta` and
names the file, the field and what was expected when it is wrong.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import yaml
from pydantic import ValidationError

from kb.errors import ArticleError
from kb.models import LANGS, Article, ArticleMeta

FENCE = "---\n"


def render_article(article: Article) -> str:
    """Front matter and body as they are written to disk."""
    meta = article.meta.model_dump(mode="json", exclude_none=True)
    meta["tags"] = list(meta.get("tags", []))
    meta["quality_notes"] = list(meta.get("quality_notes", []))
    front = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False, width=100)
    return FENCE + front + FENCE + "\n" + article.body


def parse_article(text: str, path: str) -> Article:
    """Parse one article file's text; ``path`` is relative to the corpus folder."""
    if not text.startswith(FENCE):
        raise ArticleError(path, "(front matter)", "the file must start with a '---' line")
    end = text.find("\n" + FENCE, len(FENCE) - 1)
    if end < 0:
        raise ArticleError(path, "(front matter)", "no closing '---' line")
    try:
        data = yaml.safe_load(text[len(FENCE) : end + 1])
    except yaml.YAMLError as exc:
        raise ArticleError(path, "(front matter)", f"not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ArticleError(path, "(front matter)", "expected a mapping of fields")
    try:
        meta = ArticleMeta.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(front matter)"
        raise ArticleError(path, field, f"{first['msg']} (got {first.get('input')!r})") from None
    expected_lang = path.split("/", 1)[0]
    if expected_lang in LANGS and meta.lang != expected_lang:
        raise ArticleError(path, "lang", f"is '{meta.lang}' but the file lives under {expected_lang}/")
    body = text[end + 1 + len(FENCE) :].lstrip("\n")
    return Article(meta=meta, body=body, path=path)


def article_files(corpus_dir: Path) -> list[Path]:
    return sorted(p for lang in LANGS for p in (corpus_dir / lang).glob("*.md"))


def load_corpus(corpus_dir: Path) -> list[Article]:
    """Every curated article, sorted by path; ids must be unique."""
    articles = []
    seen: dict[str, str] = {}
    for file in article_files(corpus_dir):
        rel = file.relative_to(corpus_dir).as_posix()
        article = parse_article(file.read_text(encoding="utf-8"), rel)
        if article.meta.id in seen:
            raise ArticleError(rel, "id", f"'{article.meta.id}' is already used by {seen[article.meta.id]}")
        seen[article.meta.id] = rel
        articles.append(article)
    if not articles:
        raise ArticleError(str(corpus_dir), "(corpus)", "no articles found under en/, ru/ or zh/; run `make corpus`")
    return articles


def corpus_hash(articles: list[Article]) -> str:
    digest = hashlib.sha256()
    for article in articles:
        digest.update(article.path.encode())
        digest.update(render_article(article).encode())
    return digest.hexdigest()[:16]
