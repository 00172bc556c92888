"""Language centering: per-language mean vectors removed before search."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kb.centering import LanguageCentering, centering_for, write_centering
from kb.errors import IndexArtifactError


def _unit(v):
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _toy():
    """Two 'languages' whose vectors share a language direction (axis 2 for en, axis 3 for zh)
    on top of a content direction (axis 0 or 1): raw cosine prefers the same language."""
    content = {"a": [1, 0, 0, 0], "b": [0, 1, 0, 0]}
    lang_axis = {"en": [0, 0, 1.5, 0], "zh": [0, 0, 0, 1.5]}
    texts = [(c, lang) for c in "ab" for lang in ("en", "zh")]
    vectors = _unit([np.add(content[c], lang_axis[lang]) for c, lang in texts])
    return texts, vectors


def test_centering_lets_the_same_content_win_across_languages():
    texts, vectors = _toy()
    langs = [lang for _, lang in texts]
    centering = LanguageCentering.fit(vectors, langs, vectors, langs)
    query = vectors[0:1]  # content a, English
    zh = [i for i, (_, lang) in enumerate(texts) if lang == "zh"]  # a/zh, b/zh
    others = [1, 2, 3]  # a/zh, b/en, b/zh
    raw = (query @ vectors[others].T)[0]
    assert others[int(np.argmax(raw))] == 2  # raw: the English passage about b beats a in Chinese
    cq = centering.apply(query, ["en"], "query")
    cp = centering.apply(vectors, langs, "passage")
    centered = (cq @ cp[others].T)[0]
    assert others[int(np.argmax(centered))] == 1  # centered: a in Chinese
    assert np.allclose(np.linalg.norm(cp, axis=1), 1.0)
    assert zh == [1, 3]


def test_unknown_language_removes_the_shared_part_only():
    texts, vectors = _toy()
    langs = [lang for _, lang in texts]
    centering = LanguageCentering.fit(vectors, langs, vectors, langs)
    out = centering.apply(vectors[:1], [None], "query")
    shared = np.mean([centering.means["query"]["en"], centering.means["query"]["zh"]], axis=0)
    assert np.allclose(out[0], _unit(vectors[0] - shared), atol=1e-6)


def test_centering_round_trips_through_its_file_with_a_stable_digest(tmp_path):
    texts, vectors = _toy()
    langs = [lang for _, lang in texts]
    centering = LanguageCentering.fit(vectors, langs, vectors, langs)
    path = tmp_path / "centering.json"
    write_centering("toy", "abc", centering, source="test", path=path)
    loaded = centering_for("toy", "abc", path=path)
    assert loaded is not None and loaded.digest() == centering.digest()
    assert centering_for("toy", "other-weights", path=path) is None
    assert json.loads(path.read_text())["toy@abc"]["digest"] == centering.digest()


def test_the_default_model_has_a_measured_centering(default_encoder):
    from kb.evaluation.xquad import model_parts

    for model in model_parts(default_encoder)[0]:
        assert model.centering is not None, "run `kb eval --calibrate` for the default model"
    assert default_encoder.centering_digest() is not None


def test_centering_brings_a_translation_closer_than_same_language_text(e5_encoder):
    """The real model: an English question and its Chinese answer against an unrelated English passage.
    Raw cosine favors the English passage's language; centered vectors close most of that gap."""
    question = ["How much memory does the Gaudi 2 accelerator have?"]
    passages = ["Gaudi 2 加速器配备 96 GB HBM2E 内存。", "The stadium was built in 1923 and holds 50,000 people."]
    langs = ["zh", "en"]
    raw = (e5_encoder.encode_queries(question) @ e5_encoder.encode_documents(passages).T)[0]
    centered = (e5_encoder.encode_queries(question, ["en"]) @ e5_encoder.encode_documents(passages, langs).T)[0]
    assert centered[0] > centered[1]
    assert centered[0] - centered[1] > raw[0] - raw[1]


def test_an_index_centered_otherwise_is_refused(built_index_dir, default_encoder):
    from kb.index import check_model, read_manifest

    manifest = read_manifest(built_index_dir)
    assert manifest["model"]["centering"] == default_encoder.centering_digest()
    stale = {**manifest, "model": {**manifest["model"], "centering": "000000000000"}}
    with pytest.raises(IndexArtifactError, match="language centering"):
        check_model(stale, default_encoder, built_index_dir)


def test_concatenation_weights_each_model_by_its_share():
    """The joined inner product is the share-weighted sum of the parts' cosines."""
    from kb.embedding.encoder import ConcatenatedEncoder
    from tests.fakes import HashingEncoder

    class Reversed(HashingEncoder):  # a second, different "model"
        def _vector(self, text):
            return super()._vector(text[::-1])

    a, b = HashingEncoder(), Reversed()
    joined = ConcatenatedEncoder([a, b], "pair", (0.75, 0.25))
    texts = ["TPU v5e has 16GB of HBM", "Gaudi costs 13.11 USD"]
    q, p = joined.encode_queries(texts[:1]), joined.encode_documents(texts)
    expected = 0.75 * (a.encode_queries(texts[:1]) @ a.encode_documents(texts).T) + \
        0.25 * (b.encode_queries(texts[:1]) @ b.encode_documents(texts).T)
    assert np.allclose(q @ p.T, expected, atol=1e-6)
    assert joined.weights_hash() != ConcatenatedEncoder([a, b], "pair", (0.5, 0.5)).weights_hash()
    with pytest.raises(ValueError, match="shares"):
        ConcatenatedEncoder([a, b], "pair", (0.8, 0.8))
