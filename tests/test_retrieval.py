"""Fusion: calibrated dense scores and lexical evidence, in the modes the API offers."""

from __future__ import annotations

import numpy as np
import pytest

from kb.calibration import LanguageCalibration, calibration_for
from tests.fakes import plain_params


def test_calibration_puts_languages_on_one_scale():
    cal = LanguageCalibration(offsets={f"{x}->{y}": (0.8 if x == y else 0.7) for x in "en ru zh".split() for y in "en ru zh".split()},
                              scales={f"{x}->{y}": 0.02 for x in "en ru zh".split() for y in "en ru zh".split()})
    raw = np.array([0.84, 0.78], dtype=np.float32)  # same-language passage, other-language passage
    calibrated = cal.apply(raw, "en", np.array(["en", "zh"]))
    assert calibrated[1] > calibrated[0]  # 4 sd above its pair's mean beats 2 sd above its own
    unknown = cal.apply(raw, None, np.array(["en", "zh"]))
    assert np.isfinite(unknown).all()


def test_the_default_model_has_a_measured_calibration(default_encoder):
    cal = calibration_for(default_encoder.model_id, default_encoder.weights_hash())
    assert cal is not None, "run `kb eval --calibrate` for the default model"
    # measured on centered vectors: the own-language pull is gone before calibration (raw e5 gives
    # unrelated same-language pairs ~0.05 more than cross-language ones), the spreads are what is left
    assert max(cal.offsets.values()) - min(cal.offsets.values()) < 0.01
    assert all(scale > 0 for scale in cal.scales.values())


def test_the_default_model_has_a_sentence_calibration(default_encoder, tmp_path):
    sentence = calibration_for(default_encoder.model_id, default_encoder.weights_hash(), "sentence")
    passage = calibration_for(default_encoder.model_id, default_encoder.weights_hash())
    assert sentence is not None and sentence.scales != passage.scales
    assert calibration_for(default_encoder.model_id, default_encoder.weights_hash(), "sentence",
                           path=tmp_path / "none.json") is None


def test_best_sentence_per_passage():
    from kb.retrieval import best_sentence

    owners = np.array([0, 0, 2, 2, 2])
    scores = np.array([[0.1, 0.5, 0.2, 0.9, 0.3], [1.0, 0.0, 0.0, 0.0, 0.4]], dtype=np.float32)
    fallback = np.full((2, 4), -1.0, dtype=np.float32)
    assert np.allclose(best_sentence(scores, owners, fallback), [[0.5, -1.0, 0.9, -1.0], [1.0, -1.0, 0.4, -1.0]])
    assert best_sentence(scores[0, :0], owners[:0], fallback[0]).tolist() == [-1.0] * 4


def test_dense_score_blends_the_passage_and_its_best_sentence(runtime, default_encoder):
    from kb.retrieval import Retriever

    index = runtime.retriever.index
    question = "Which interconnect links Gaudi accelerators to each other?"
    whole, best, half = (Retriever(index, default_encoder, plain_params(dense_sentence_share=share))
                         .score(question, "dense") for share in (0.0, 1.0, 0.5))
    assert np.allclose(half.dense, (whole.dense + best.dense) / 2, atol=1e-5)
    cal = calibration_for(default_encoder.model_id, default_encoder.weights_hash(), "sentence")
    raw = index.sentence_vectors @ whole.query_vector
    assert np.allclose(whole.sentence_dense, cal.apply(raw, whole.lang, index.sentence_langs), atol=1e-4)
    owners = index.sentence_spans[:, 0]
    for chunk in np.argsort(-best.dense)[:5]:
        assert np.isclose(best.dense[chunk], best.sentence_dense[owners == chunk].max(), atol=1e-5)
    assert not np.allclose(whole.dense, best.dense)


@pytest.mark.parametrize("mode", ["dense", "lexical", "hybrid"])
def test_modes_rank_differently_but_consistently(runtime, mode):
    retriever = runtime.retriever
    scores = retriever.score("How much device memory does a Trainium2 chip have?", mode)
    p = retriever.params
    near = scores.dense >= scores.dense.max() - p.fusion_dense_window
    if mode == "lexical":
        # ranked by the plain share of the question's words; fusion's evidence keeps only the part above the floor
        m, credited = p.lexical_min_match, scores.lexical > 0
        assert np.allclose(scores.fused[credited], scores.lexical[credited] * (1 - m) + m, atol=1e-5)
        assert (scores.fused[~credited] <= m + 1e-6).all() and scores.fused[~credited].max() > 0
    else:
        expected = {"dense": scores.dense, "hybrid": scores.dense + p.fusion_lexical_weight * scores.lexical * near}[mode]
        assert np.allclose(scores.fused, expected)
    hits = retriever.rank(scores, 5)
    assert [h.rank for h in hits] == [1, 2, 3, 4, 5]
    # score order, except that a passage may go ahead of one at most diversify_margin better
    assert all(a.score >= b.score - p.diversify_margin for k, a in enumerate(hits) for b in hits[k + 1:])


def test_close_scores_are_diversified_across_articles(runtime, default_encoder):
    from kb.retrieval import Retriever

    index = runtime.retriever.index
    question = "How much device memory does a Trainium2 chip have?"
    plain = Retriever(index, default_encoder, plain_params(fusion_dense_window=1.0))
    scores = plain.score(question)
    by_score = plain.rank(scores, 8)
    assert all(a.score >= b.score for a, b in zip(by_score, by_score[1:], strict=False))
    wide = Retriever(index, default_encoder, plain_params(fusion_dense_window=1.0, diversify_margin=5.0)).rank(scores, 8)
    assert len({h.chunk.article_id for h in wide[:5]}) > len({h.chunk.article_id for h in by_score[:5]})
    assert wide[0].chunk.chunk_id == by_score[0].chunk.chunk_id  # the best passage stays first


def test_lexical_evidence_counts_only_near_the_best_dense_score():
    from kb.retrieval import fuse

    dense = np.array([5.0, 4.5, 1.0])
    lexical = np.array([0.0, 1.0, 1.0])  # the third shares every word but the model finds it far off
    assert fuse(dense, lexical, 2.0, None).tolist() == [5.0, 6.5, 3.0]
    assert fuse(dense, lexical, 2.0, 1.0).tolist() == [5.0, 6.5, 1.0]


def test_lexical_leg_ignores_stray_words_across_languages(runtime):
    retriever = runtime.retriever
    scores = retriever.score("Which of them is the fastest overall, and why?", "lexical")
    other = retriever.index.chunk_langs != "en"
    assert not scores.lexical[other].any(), "English function words must not match Russian or Chinese text"
    anchored = retriever.score("Gaudi 13.11", "lexical")
    assert anchored.lexical[retriever.index.chunk_langs == "zh"].max() > 0  # names and numbers do cross


def test_hybrid_finds_the_chinese_price_for_a_russian_question(runtime):
    hits = runtime.retriever.search("Сколько стоит час работы восьми процессоров Gaudi?", 3)
    assert any(h.chunk.lang == "zh" and "13.11" in h.chunk.text for h in hits)


def test_near_duplicates_collapse(runtime):
    hits = runtime.retriever.search("Trainium FP32 TFLOPS", 20)
    texts = [" ".join(h.chunk.text.split()).casefold() for h in hits]
    assert len(texts) == len(set(texts))
