"""The project's question set meets its own rules, and every quote exists in its article."""

from __future__ import annotations

from collections import Counter

import pytest

from kb.corpus import load_corpus
from kb.evaluation.datasets import KbQuestion, load_kb_questions, quote_spans
from kb.evaluation.kb_suite import evidence_spans
from kb.evaluation.runner import KB_QUESTIONS


@pytest.fixture(scope="module")
def questions():
    return load_kb_questions(KB_QUESTIONS)


@pytest.fixture(scope="module")
def article_langs(project_settings):
    return {a.meta.id: a.meta.lang for a in load_corpus(project_settings.corpus_dir)}


def test_size_and_languages(questions):
    assert len(questions) >= 150
    per_lang = Counter(q.lang for q in questions)
    assert all(per_lang[lang] >= 50 for lang in ("en", "ru", "zh")), per_lang


def test_kinds_and_unanswerable(questions):
    kinds = Counter(q.kind for q in questions)
    assert set(kinds) == {"factual", "spec", "comparison", "faq", "unanswerable"}
    assert kinds["unanswerable"] >= 20
    assert all(q.expected is not None for q in questions if q.kind == "spec")


def test_every_article_is_touched(questions, article_langs):
    touched = {e.article for q in questions for e in q.evidence}
    assert touched == set(article_langs)


def test_cross_lingual_share_and_pairs(questions, article_langs):
    answerable = [q for q in questions if q.answerable]
    cross = [q for q in answerable if q.lang not in {article_langs[e.article] for e in q.evidence}]
    assert len(cross) >= len(questions) / 2
    pairs = Counter((q.lang, article_langs[q.evidence[0].article]) for q in answerable)
    for qlang in ("en", "ru", "zh"):
        for dlang in ("en", "ru", "zh"):
            assert pairs[(qlang, dlang)] >= 10, (qlang, dlang, pairs)


def test_every_quote_exists_in_its_article(questions, project_settings):
    spans = evidence_spans([q for q in questions if q.answerable], project_settings.corpus_dir)
    assert all(spans[q.id] for q in questions if q.answerable)


def test_a_wrong_quote_is_reported(project_settings):
    bad = KbQuestion(id="x-1", lang="en", kind="factual", question="What?",
                     evidence=[{"article": "aws-trainium-architecture", "quote": "this sentence is not there"}])
    with pytest.raises(ValueError, match="quote not found"):
        evidence_spans([bad], project_settings.corpus_dir)


def test_quote_matching_ignores_only_whitespace_differences():
    body = "| NVIDIA H100 SXM       |  67.0 |\nnext line"
    assert quote_spans(body, "| NVIDIA H100 SXM | 67.0 |") == [(0, 33)]
    assert quote_spans(body, "| NVIDIA H100 SXM | 67.1 |") == []
