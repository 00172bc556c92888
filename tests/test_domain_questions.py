"""The domain gate's own questions (eval/datasets/domain-questions.jsonl) are valid, balanced and disjoint from
the suite: the gate is fitted on them, so a dev or test question among them would leak into what is measured."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from kb.evaluation.datasets import load_kb_questions
from kb.evaluation.domain_fit import DomainQuestion, cross_batch, load_domain_questions
from kb.evaluation.runner import DOMAIN_QUESTIONS, KB_QUESTIONS
from kb.models import LANGS
from kb.textnorm import normalize_for_matching


@pytest.fixture(scope="module")
def questions():
    return load_domain_questions(DOMAIN_QUESTIONS)


def _key(text: str) -> str:
    return "".join(ch for ch in normalize_for_matching(text).lower() if ch.isalnum() or ch == " ").strip()


def _trigrams(text: str) -> set[str]:
    key = " ".join(_key(text).split())
    return {key[i:i + 3] for i in range(max(1, len(key) - 2))}


def near_copy(a: str, b: str) -> bool:
    """Two questions share most of their character trigrams: one reworded, trimmed or padded from the other."""
    x, y = _trigrams(a), _trigrams(b)
    common = len(x & y)
    return common / len(x | y) > 0.45 or common / min(len(x), len(y)) > 0.75


def test_no_suite_question_nor_a_near_copy_is_among_the_gate_data(questions):
    suite = [q.question for q in load_kb_questions(KB_QUESTIONS)]
    leaked = [(q.text, s) for q in questions for s in suite if near_copy(q.text, s)]
    assert not leaked, leaked


def test_a_near_copy_is_one():
    assert near_copy("What's the capital of Australia?", "whats the capital of australia")
    assert near_copy("best running shoes for flat feet", "best budget running shoes for flat feet?")
    assert not near_copy("How much HBM does the MI300X have?", "What is the capital of Australia?")


def test_every_batch_covers_every_language_on_both_sides(questions):
    counts = Counter((q.batch, q.lang, q.domain) for q in questions)
    # the third batch lost its near copies of the first two and of the suite (about one in five)
    least = {"a": 90, "b": 90, "c": 40}
    assert all(counts[(b, lang, d)] >= least[b] for b in "abc" for lang in LANGS for d in ("in", "out")), counts
    # the gate judges questions that name nothing known: most in-domain ones must be of that shape
    unnamed = Counter(q.lang for q in questions if q.domain == "in" and not q.names_product)
    assert all(unnamed[lang] >= 120 for lang in LANGS), unnamed
    assert len({" ".join(_key(q.text).split()) for q in questions}) == len(questions)


def test_a_malformed_line_names_the_file_and_line(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text('{"text": "a", "lang": "en", "domain": "in", "names_product": false, "batch": "a"}\n'
                    '{"text": "b", "lang": "en", "domain": "maybe", "names_product": false, "batch": "a"}\n',
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"(?s)q\.jsonl:2:.*domain"):
        load_domain_questions(path)


def test_cross_batch_scores_each_batch_with_the_gate_fitted_on_the_others():
    # two separable clouds: a gate fitted on any two batches ranks the third perfectly
    rng = np.random.default_rng(0)
    questions = [DomainQuestion(text=str(i), lang="en", domain="in" if i % 2 else "out", names_product=False,
                                batch="abc"[i // 40]) for i in range(120)]
    x = np.array([[1.0 if i % 2 else -1.0, 0.0] for i in range(120)]) + rng.normal(0, 0.3, (120, 2))
    result = cross_batch(x, questions)
    assert set(result) == {"bc->a", "ac->b", "ab->c"} and all(r["auc"] == 1.0 for r in result.values())
    x[80:, 0] *= -1  # batch c labelled the other way round: a gate fitted on a and b ranks it backwards
    assert cross_batch(x, questions)["ab->c"]["auc"] < 0.1
