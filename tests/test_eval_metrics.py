"""Metrics through ranx, confidence intervals, the paired test and the XQuAD-R settings."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kb.evaluation.metrics import mean_with_ci, paired_randomization_test, per_query_scores


def test_metrics_on_a_hand_checked_run():
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}, "q3": {"d": 1}}
    run = {"q1": {"a": 0.9, "x": 0.8, "b": 0.7}, "q2": {"x": 0.9, "c": 0.5}, "q3": {}}
    scores = per_query_scores(qrels, run, ("recall@1", "recall@5", "mrr@10", "ndcg@10"))
    assert scores["q1"]["recall@1"] == 0.5 and scores["q1"]["recall@5"] == 1.0
    assert scores["q2"]["mrr@10"] == 0.5
    ideal = 1 + 1 / math.log2(3)
    assert scores["q1"]["ndcg@10"] == pytest.approx((1 + 1 / math.log2(4)) / ideal)
    assert scores["q3"] == {"recall@1": 0.0, "recall@5": 0.0, "mrr@10": 0.0, "ndcg@10": 0.0}  # no results: 0


def test_missing_query_in_run_counts_as_zero():
    scores = per_query_scores({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": {"a": 1.0}}, ("ndcg@10",))
    assert scores["q2"]["ndcg@10"] == 0.0 and scores["q1"]["ndcg@10"] == 1.0


def test_bootstrap_interval_brackets_the_mean():
    values = list(np.random.default_rng(1).random(200))
    cell = mean_with_ci(values)
    assert cell["ci_low"] < cell["mean"] < cell["ci_high"] and cell["n"] == 200
    assert cell["ci_high"] - cell["ci_low"] < 0.2


def test_paired_test_tells_a_real_difference_from_none():
    rng = np.random.default_rng(2)
    a = rng.random(100)
    assert paired_randomization_test(list(a), list(a)) == 1.0
    assert paired_randomization_test(list(a), list(a + 0.1)) < 0.01
    noisy = a + rng.normal(0, 0.01, size=100)
    assert paired_randomization_test(list(a), list(noisy)) > 0.01


def _xquad_slice(n_groups: int, n_queries: int):
    """The first paragraphs of XQuAD-R in all three languages, and questions about them."""
    from kb.evaluation.datasets import load_xquad
    from kb.evaluation.runner import XQUAD_DIR

    data = load_xquad(XQUAD_DIR)
    groups = sorted(set(data.doc_groups))[:n_groups]
    keep_docs = [i for i, g in enumerate(data.doc_groups) if g in groups]
    keep_queries = [i for i, g in enumerate(data.query_groups) if g in groups][:n_queries]
    small = data.model_copy(update={
        **{f: [getattr(data, f)[i] for i in keep_docs] for f in ("doc_ids", "doc_langs", "doc_groups", "doc_texts")},
        **{f: [getattr(data, f)[i] for i in keep_queries] for f in ("query_ids", "query_langs", "query_groups", "query_texts")},
    })
    return small, keep_queries


def test_xquad_settings_on_a_small_slice(tmp_path):
    from kb.evaluation.xquad import run_xquad
    from tests.fakes import HashingEncoder, plain_params

    small, keep_queries = _xquad_slice(12, 150)
    result = run_xquad(small, HashingEncoder(), tmp_path, plain_params(retrieval_mode="dense"), progress=False)
    base = {"pool", "mono", "x2y", "pool_no_own"}
    assert set(result["settings"]) == base | {f"{name}_calibrated" for name in base}
    assert set(result["settings"]["x2y"]["by_pair"]) == {"en->ru", "en->zh", "ru->en", "ru->zh", "zh->en", "zh->ru"}
    # lexical-ish hashing works within a language and fails across: the benchmark must show that
    mono = result["settings"]["mono"]["overall"]["ndcg@10"]["mean"]
    cross = result["settings"]["x2y"]["x2y_mean_ndcg@10"]
    assert mono > cross + 0.2
    # without the own-language copy, a lexical encoder has nothing left to find: the setting really removes it
    pool = result["settings"]["pool"]["overall"]["ndcg@10"]["mean"]
    no_own = result["settings"]["pool_no_own"]["overall"]["ndcg@10"]["mean"]
    assert pool > no_own + 0.2
    assert len(result["rows"]["pool_no_own"]) == len(keep_queries)
    assert "SQuAD" in result["note"]


def test_xquad_hybrid_settings_use_the_service_scoring(tmp_path):
    from kb.evaluation.xquad import run_xquad
    from tests.fakes import HashingEncoder, plain_params

    small, _ = _xquad_slice(10, 90)
    result = run_xquad(small, HashingEncoder(), tmp_path, plain_params(), progress=False)
    settings = result["settings"]
    assert {f"{s}_{kind}" for s in ("pool", "mono", "x2y", "pool_no_own") for kind in ("calibrated", "hybrid")} \
        <= set(settings)
    # BM25 within one language adds real evidence to the meaningless hashing vectors
    assert settings["mono_hybrid"]["overall"]["ndcg@10"]["mean"] > settings["mono"]["overall"]["ndcg@10"]["mean"]
    assert len(result["rows"]["x2y_hybrid"]) == len(result["rows"]["x2y"])


def test_service_dense_scores_are_cross_fitted():
    """A question is scored with language means and offsets fitted on the other half of the paragraphs:
    changing every other question of its own half leaves its scores exactly as they were."""
    from kb.evaluation.xquad import XquadVectors, service_dense_scores

    small, _ = _xquad_slice(12, 150)
    rng = np.random.default_rng(0)

    def unit(n):
        v = rng.normal(size=(n, 16)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    queries, passages = unit(len(small.query_ids)), unit(len(small.doc_ids))
    owner = np.repeat(np.arange(len(small.doc_ids)), 3)  # three sentences a paragraph
    sentences = unit(owner.size)

    def scored(q):
        return service_dense_scores(small, XquadVectors([q], [passages], (1.0,), [sentences], owner), 0.5)

    before = scored(queries)
    groups = sorted(set(small.doc_groups))
    own_half = set(groups[0::2]) if small.query_groups[0] in groups[0::2] else set(groups[1::2])
    changed = queries.copy()
    others = [i for i, g in enumerate(small.query_groups) if g in own_half and i != 0]
    changed[others] = unit(len(others))
    after = scored(changed)
    assert np.allclose(before[0], after[0])
    # while a question of the other half, scored with statistics from this half, does change
    other = next(i for i, g in enumerate(small.query_groups) if g not in own_half)
    assert not np.allclose(before[other], after[other])


def test_language_statistics_for_the_service_come_from_all_of_the_data(tmp_path):
    """What `kb eval --calibrate` stores: each language's mean vector per role, then the score
    calibration measured on the centered vectors."""
    from kb.evaluation.xquad import measure_language_statistics, xquad_vectors
    from tests.fakes import HashingEncoder

    small, _ = _xquad_slice(10, 90)
    encoder = HashingEncoder()
    (centering,), calibrations = measure_language_statistics(small, encoder, tmp_path, progress=False)
    offsets, scales = calibrations["passage"].offsets, calibrations["passage"].scales
    vectors = xquad_vectors(small, encoder, tmp_path, progress=False)
    zh_passages = vectors.passages[0][np.array(small.doc_langs) == "zh"]
    assert np.allclose(centering.means["passage"]["zh"], zh_passages.mean(axis=0), atol=1e-6)
    assert set(offsets) == set(scales) == {f"{x}->{y}" for x in ("en", "ru", "zh") for y in ("en", "ru", "zh")}
    assert all(abs(v) < 0.05 for v in offsets.values())  # centered vectors: unrelated pairs score about 0
    # sentences are calibrated apart, over every paragraph's sentences
    assert set(calibrations["sentence"].offsets) == set(offsets)
    assert calibrations["sentence"].scales != scales
    assert vectors.sentences[0].shape[0] == vectors.sentence_owner.size > len(small.doc_ids)


def test_paragraph_sentences_follow_the_index_split():
    from kb.evaluation.xquad import paragraph_sentences
    from kb.sentences import split_sentences
    from kb.textnorm import normalize_for_matching

    small, _ = _xquad_slice(3, 10)
    texts, owner = paragraph_sentences(small)
    assert (np.diff(owner) >= 0).all() and set(owner) == set(range(len(small.doc_ids)))
    first = [t for t, o in zip(texts, owner, strict=True) if o == 0]
    assert first == split_sentences(normalize_for_matching(small.doc_texts[0])) and len(first) > 1


def test_dense_scores_blend_the_paragraph_and_its_best_sentence():
    """With the whole share on sentences a paragraph scores as its best sentence; with none, as itself."""
    from kb.evaluation.xquad import XquadVectors, service_dense_scores

    small, _ = _xquad_slice(6, 60)
    rng = np.random.default_rng(1)

    def unit(n):
        v = rng.normal(size=(n, 16)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    owner = np.repeat(np.arange(len(small.doc_ids)), 2)
    vectors = XquadVectors([unit(len(small.query_ids))], [unit(len(small.doc_ids))], (1.0,), [unit(owner.size)], owner)
    whole, best = service_dense_scores(small, vectors, 0.0), service_dense_scores(small, vectors, 1.0)
    assert np.allclose(service_dense_scores(small, vectors, 0.25), 0.75 * whole + 0.25 * best, atol=1e-5)
    # a paragraph whose sentences are copies of it scores the same either way
    same = XquadVectors(vectors.queries, vectors.passages, (1.0,), [vectors.passages[0][owner]], owner)
    assert np.allclose(service_dense_scores(small, same, 1.0), whole, atol=1e-4)
