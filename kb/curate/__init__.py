"""Raw sources to curated articles: ``kb curate``.

Each raw file in ``corpus/sources/`` has a catalog entry (``catalog.yaml``)
that gives its front matter and its format; the matching converter turns
the file into clean Markdown, and the result is written as
``corpus/<lang>/<id>.md``. The output depends only on the raw file and its
entry, so regenerating the corpus reproduces the committed files exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kb.corpus import render_article
from kb.curate.catalog import CatalogEntry, load_catalog
from kb.errors import CurationError
from kb.models import Article

__all__ = ["CurationResult", "curate_corpus", "curate_entry"]

_LABELS = {
    "en": {"figure": "Figure (image not included): ", "answer": "Answer:"},
    "ru": {"figure": "Рисунок (изображение не включено): ", "answer": "Ответ:"},
    "zh": {"figure": "（图片缺失）", "answer": "答案："},
}


@dataclass(frozen=True)
class CurationResult:
    article: Article
    changed: bool  # the file on disk differs from (or lacks) this content


def _apply_repairs(text: str, entry: CatalogEntry) -> str:
    for repair in entry.repairs:
        if repair.find not in text:
            raise CurationError(f"{entry.raw_file}: repair {repair.find!r} matches nothing ({repair.note})")
        text = text.replace(repair.find, repair.replace)
    return text


def curate_entry(entry: CatalogEntry, sources_dir: Path) -> Article:
    """One catalog entry to one article (nothing is written)."""
    path = sources_dir / entry.raw_file
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CurationError(f"{path}: listed in the catalog but missing") from None
    raw = _apply_repairs(raw.replace("\r\n", "\n"), entry)
    if entry.format == "scrape-text":
        from kb.curate.scrape import curate_scrape

        body = curate_scrape(raw, entry)
    elif entry.format == "rst":
        from kb.curate.rst import curate_rst

        body = curate_rst(raw)
    else:
        from kb.curate.markdown_source import curate_markdown

        body = curate_markdown(raw, _LABELS[entry.meta.lang])
        if entry.script == "zh-hans":
            from kb.textnorm import to_simplified

            body = to_simplified(body)
    body = f"# {entry.meta.title}\n\n{body.strip()}\n"
    return Article(meta=entry.meta, body=body, path=f"{entry.meta.lang}/{entry.meta.id}.md")


def curate_corpus(sources_dir: Path, corpus_dir: Path, write: bool = True) -> list[CurationResult]:
    """Curate every catalogued source; write only files whose content changed."""
    entries = load_catalog(sources_dir)
    ids = [e.meta.id for e in entries]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise CurationError(f"{sources_dir / 'catalog.yaml'}: duplicate article ids {duplicates}")
    results = []
    for entry in entries:
        article = curate_entry(entry, sources_dir)
        target = corpus_dir / article.path
        text = render_article(article)
        changed = not target.exists() or target.read_text(encoding="utf-8") != text
        if write and changed:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(".md.tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(target)
        results.append(CurationResult(article=article, changed=changed))
    return results
