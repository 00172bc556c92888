"""The project's question set meets its own rules: needs, a locked split, coverage, wording, quotes."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from kb.corpus import load_corpus
from kb.evaluation.datasets import KbQuestion, assign_splits, load_kb_questions, quote_spans, tuning_questions
from kb.evaluation.kb_suite import evidence_spans
from kb.evaluation.runner import KB_QUESTIONS
from kb.evaluation.wording import COPY_THRESHOLD, copy_score, names_the_source
from kb.models import LANGS

SHORT_SCRAPES = ("elecfans-ai-training-chips-2021", "gpu-vs-tpu-transformer-training")


@pytest.fixture(scope="module")
def questions():
    return load_kb_questions(KB_QUESTIONS)


@pytest.fixture(scope="module")
def articles(project_settings):
    return {a.meta.id: a for a in load_corpus(project_settings.corpus_dir)}


def test_no_need_straddles_the_split(questions):
    splits: dict[str, set[str]] = {}
    for q in questions:
        splits.setdefault(q.need, set()).add(q.split)
    assert all(len(s) == 1 for s in splits.values())
    needs = Counter(next(iter(s)) for s in splits.values())
    assert 0.55 <= needs["dev"] / sum(needs.values()) <= 0.65  # about 60% of needs are dev


def test_a_need_in_both_splits_is_refused(tmp_path, questions):
    a, b = (q.model_dump(mode="json", exclude_defaults=True) for q in questions[:2])
    b = {**b, "need": a["need"], "split": "test" if a["split"] == "dev" else "dev"}
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(a) + "\n" + json.dumps(b) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="needs in both dev and test"):
        load_kb_questions(path)


def test_tuning_refuses_the_test_split(questions):
    dev = [q for q in questions if q.split == "dev"]
    assert tuning_questions(dev) == dev
    with pytest.raises(ValueError, match="dev split only"):
        tuning_questions(questions)


def test_splits_are_stratified_and_deterministic():
    needs = [(f"need-{i}", f"kind-{i % 5}") for i in range(50)]
    first, again = assign_splits(needs), assign_splits(list(reversed(needs)))
    assert first == again
    for stratum in {s for _, s in needs}:
        members = [first[n] for n, s in needs if s == stratum]
        assert members.count("dev") == 6 and members.count("test") == 4


def test_coverage(questions, articles):
    answerable = [q for q in questions if q.answerable]
    lang_of = {aid: a.meta.lang for aid, a in articles.items()}
    per_article = Counter(e.article for q in answerable for e in q.evidence[:1])
    assert set(per_article) == set(articles) and min(per_article.values()) >= 8, per_article
    short = sum(per_article[a] for a in SHORT_SCRAPES)
    assert short <= 0.25 * len(questions)
    cross = [q for q in answerable if q.lang not in {lang_of[e.article] for e in q.evidence}]
    assert len(cross) >= 0.6 * len(answerable)
    pairs = Counter((q.lang, lang_of[q.evidence[0].article]) for q in answerable)
    assert all(pairs[(a, b)] >= 15 for a in LANGS for b in LANGS), pairs
    assert sum(q.source == "blind" for q in questions) >= 120


def test_unanswerable_and_hard_kinds(questions):
    unanswerable = [q for q in questions if not q.answerable]
    assert len(unanswerable) >= 45 and len({q.need for q in unanswerable}) >= 30
    off_topic = Counter(q.lang for q in unanswerable if q.category == "off_topic")
    assert all(off_topic[lang] >= 15 for lang in LANGS), off_topic
    assert sum(q.category in ("unknown_entity", "missing_attribute") for q in unanswerable) >= 15
    tags = Counter(t for q in questions for t in q.tags)
    assert tags["incidental_name"] >= 15 and tags["relative_fact"] >= 4 and tags["class_comparison"] >= 4
    assert sum(1 for q in questions if "new_attribute" in q.tags and q.kind == "spec") >= 20
    assert sum(1 for q in questions if q.expected is not None and q.expected.form == "comparison") >= 25


def test_near_misses_name_what_the_corpus_lacks(questions, articles):
    bodies = "\n".join(a.body for a in articles.values()).casefold()
    for q in questions:
        for name in q.absent:
            assert name.casefold() in q.question.casefold(), (q.id, name)
            assert name.casefold() not in bodies, f"{q.id}: {name!r} does occur in the corpus"


def test_questions_do_not_copy_their_articles(questions):
    copied = {q.id: round(s, 2) for q in questions if (s := copy_score(q)) is not None and s >= COPY_THRESHOLD}
    assert not copied, f"questions whose wording copies their evidence or a heading: {copied}"
    assert not [q.id for q in questions if names_the_source(q)]


def test_the_copy_score_catches_a_copied_heading(questions):
    q = next(q for q in questions if q.id == "ru-001")
    copied = q.model_copy(update={"question": "Каковы основные ограничения TPU?"})  # the article's own heading
    assert copy_score(copied) >= COPY_THRESHOLD and copy_score(q) < COPY_THRESHOLD


def test_every_quote_exists_in_its_article(questions, project_settings):
    spans = evidence_spans([q for q in questions if q.answerable], project_settings.corpus_dir)
    assert all(spans[q.id] for q in questions if q.answerable)


def test_a_wrong_quote_is_reported(project_settings):
    bad = KbQuestion(id="x-1", lang="en", need="x", split="dev", source="blind", kind="factual", question="What?",
                     evidence=[{"article": "aws-trainium-architecture", "quote": "this sentence is not there"}])
    with pytest.raises(ValueError, match="quote not found"):
        evidence_spans([bad], project_settings.corpus_dir)


def test_quote_matching_ignores_only_whitespace_differences():
    body = "| NVIDIA H100 SXM       |  67.0 |\nnext line"
    assert quote_spans(body, "| NVIDIA H100 SXM | 67.0 |") == [(0, 33)]
    assert quote_spans(body, "| NVIDIA H100 SXM | 67.1 |") == []
