"""Malformed front matter fails with the file, the field and what was expected."""

from __future__ import annotations

import pytest

from kb.corpus import load_corpus, parse_article
from kb.errors import ArticleError

GOOD = """---
id: sample-article
title: Sample
lang: en
source:
  url: https://example.org/sample
  raw_file: sample.txt
publisher: Example
published: 2024-01-02
license: MIT
---

# Sample

Body text.
"""


def test_good_article_parses():
    article = parse_article(GOOD, "en/sample-article.md")
    assert article.meta.id == "sample-article" and article.body.startswith("# Sample")


@pytest.mark.parametrize("broken, field, expected", [
    (GOOD.replace("lang: en\n", "lang: fr\n"), "lang", "'en', 'ru' or 'zh'"),
    (GOOD.replace("title: Sample\n", ""), "title", "Field required"),
    (GOOD.replace("published: 2024-01-02", "published: yesterday"), "published", "date"),
    (GOOD.replace("  url: https://example.org/sample\n", ""), "source", "url"),
    (GOOD.replace("id: sample-article", "id: Sample Article"), "id", "pattern"),
    (GOOD.replace("license: MIT\n", "license: MIT\nlicence: typo\n"), "licence", "Extra inputs"),
])
def test_bad_field_is_named(broken, field, expected):
    with pytest.raises(ArticleError) as excinfo:
        parse_article(broken, "en/sample-article.md")
    message = str(excinfo.value)
    assert "en/sample-article.md" in message and f"'{field}'" in message and expected in message, message


def test_unclosed_front_matter():
    with pytest.raises(ArticleError, match="no closing '---'"):
        parse_article(GOOD.replace("---\n\n# Sample", "\n# Sample"), "en/x.md")


def test_language_must_match_folder():
    with pytest.raises(ArticleError, match="lives under ru/"):
        parse_article(GOOD, "ru/sample-article.md")


def test_duplicate_ids_rejected(tmp_path):
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "a.md").write_text(GOOD, encoding="utf-8")
    (tmp_path / "en" / "b.md").write_text(GOOD, encoding="utf-8")
    with pytest.raises(ArticleError, match="already used"):
        load_corpus(tmp_path)
