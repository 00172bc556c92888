"""The ONNX question encoder gives torch's vectors, and says clearly when its export is missing or stale."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from kb.embedding.onnx_encoder import OnnxEncoder
from kb.embedding.onnx_export import onnx_folder
from kb.errors import ModelNotInstalledError

QUESTIONS = [("How much memory does the Gaudi have?", "en"), ("What are the limits of TPUs?", "en"),
             ("сколько памяти у Gaudi?", "ru"), ("Какой вариант дешевле в час?", "ru"),
             ("Trn1的FP32算力是多少？", "zh"), ("TPU 和 GPU 哪个便宜", "zh")]


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(axis=1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


@pytest.mark.parametrize("centered", [False, True])
def test_fp32_onnx_gives_torchs_question_vectors(e5_encoder, centered):
    onnx = OnnxEncoder(e5_encoder.folder, e5_encoder.model_id, e5_encoder.weights_hash(), "onnx")
    texts = [q for q, _ in QUESTIONS]
    langs = [lang for _, lang in QUESTIONS] if centered else None
    cosines = _cosines(e5_encoder.encode_queries(texts, langs), onnx.encode_queries(texts, langs))
    assert cosines.min() > 0.9999, cosines


def test_int8_onnx_stays_close_to_torch(e5_encoder):
    onnx = OnnxEncoder(e5_encoder.folder, e5_encoder.model_id, e5_encoder.weights_hash(), "onnx-int8")
    texts = [q for q, _ in QUESTIONS]
    cosines = _cosines(e5_encoder.encode_queries(texts), onnx.encode_queries(texts))
    # Quantized weights move vectors a little (eval/results/bench.md measures how much that costs).
    assert 0.95 < cosines.min() < 1.0, cosines


def test_documents_and_token_counts_match_torch(e5_encoder):
    onnx = OnnxEncoder(e5_encoder.folder, e5_encoder.model_id, e5_encoder.weights_hash(), "onnx-int8")
    passage = "Gaudi2 has 96 GB of HBM2E memory and 24 Tensor Processor Cores. " * 3
    assert onnx.count_tokens(passage) == e5_encoder.count_tokens(passage)
    # Passages go through the fp32 graph whatever the question runtime, so one index serves every runtime.
    assert _cosines(e5_encoder.encode_documents([passage]), onnx.encode_documents([passage])).min() > 0.9999


def test_a_batch_gives_each_question_its_single_vector(e5_encoder):
    onnx = OnnxEncoder(e5_encoder.folder, e5_encoder.model_id, e5_encoder.weights_hash(), "onnx")
    texts = [q for q, _ in QUESTIONS]
    alone = np.vstack([onnx.encode_queries([t]) for t in texts])
    assert _cosines(alone, onnx.encode_queries(texts)).min() > 0.99999


def test_missing_export_names_the_command(e5_encoder, tmp_path):
    folder = tmp_path / e5_encoder.folder.name
    folder.mkdir()
    with pytest.raises(ModelNotInstalledError, match="make model"):
        OnnxEncoder(folder, e5_encoder.model_id, e5_encoder.weights_hash(), "onnx")


def test_an_export_of_other_weights_is_refused(e5_encoder, tmp_path):
    folder = tmp_path / e5_encoder.folder.name
    folder.mkdir()
    shutil.copytree(onnx_folder(e5_encoder.folder), onnx_folder(folder),
                    ignore=shutil.ignore_patterns("model.onnx"))
    with pytest.raises(ModelNotInstalledError, match="exported from other weights"):
        OnnxEncoder(folder, e5_encoder.model_id, "0" * 16, "onnx-int8")


def test_a_damaged_export_is_refused(e5_encoder, tmp_path):
    folder = tmp_path / e5_encoder.folder.name
    folder.mkdir()
    shutil.copytree(onnx_folder(e5_encoder.folder), onnx_folder(folder),
                    ignore=shutil.ignore_patterns("model.onnx"))
    target = onnx_folder(folder) / "model-int8.onnx"
    target.write_bytes(target.read_bytes()[:-10])
    with pytest.raises(ModelNotInstalledError, match="does not match its manifest"):
        OnnxEncoder(folder, e5_encoder.model_id, e5_encoder.weights_hash(), "onnx-int8")
