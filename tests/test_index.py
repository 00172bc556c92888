"""The index artifact: atomic builds, manifests, and refusing a mismatched model.

These tests are about the artifact, not the model, so they use the model-free
HashingEncoder; the real model's index is covered by test_end_to_end.
"""

from __future__ import annotations

import json
import shutil

import pytest

from kb.build import build_index
from kb.errors import IndexArtifactError
from kb.index import load_index
from tests.fakes import HashingEncoder


@pytest.fixture()
def small_corpus(project_settings, tmp_path):
    corpus = tmp_path / "corpus"
    for rel in ("en/aws-trainium-architecture.md", "ru/gpu-vs-tpu-transformer-training.md",
                "zh/elecfans-ai-training-chips-2021.md"):
        (corpus / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(project_settings.corpus_dir / rel, corpus / rel)
    return corpus


def test_build_writes_a_complete_manifest(small_corpus, tmp_path):
    index_dir = tmp_path / "var" / "index"
    manifest = build_index(small_corpus, index_dir, HashingEncoder(), progress=False)
    on_disk = json.loads((index_dir / "manifest.json").read_text())
    assert on_disk == manifest
    for key in ("format_version", "model", "corpus_hash", "chunker", "counts", "built_at", "project_version"):
        assert key in manifest
    assert manifest["model"] == {"id": "hashing-test", "weights_hash": "0000", "dimension": 64, "centering": None}
    assert manifest["counts"]["articles"] == 3
    assert set(manifest["counts"]["chunks_by_lang"]) == {"en", "ru", "zh"}
    index = load_index(index_dir, HashingEncoder())
    assert len(index.chunks) == manifest["counts"]["chunks"] == index.faiss_index.ntotal


def test_failed_build_leaves_previous_index_intact(small_corpus, tmp_path):
    index_dir = tmp_path / "index"
    first = build_index(small_corpus, index_dir, HashingEncoder(), progress=False)
    (small_corpus / "en" / "aws-trainium-architecture.md").unlink()
    with pytest.raises(RuntimeError, match="simulated failure"):
        build_index(small_corpus, index_dir, HashingEncoder(fail_after=1), progress=False)
    survivor = load_index(index_dir, HashingEncoder())
    assert survivor.manifest["build_id"] == first["build_id"]
    assert survivor.manifest["counts"]["articles"] == 3
    leftovers = [p.name for p in (tmp_path / "index.builds").iterdir() if p.name.endswith(".partial")]
    assert leftovers == []


def test_rebuild_replaces_and_prunes(small_corpus, tmp_path):
    index_dir = tmp_path / "index"
    builds = [build_index(small_corpus, index_dir, HashingEncoder(), progress=False)["build_id"] for _ in range(3)]
    assert load_index(index_dir).manifest["build_id"] == builds[-1]
    kept = sorted(p.name for p in (tmp_path / "index.builds").iterdir())
    assert kept == sorted(builds[-2:])


def test_index_of_another_model_is_refused(small_corpus, tmp_path):
    index_dir = tmp_path / "index"
    build_index(small_corpus, index_dir, HashingEncoder(), progress=False)

    class OtherModel(HashingEncoder):
        model_id = "other-model"

    with pytest.raises(IndexArtifactError, match="built with model hashing-test.*configured model is other-model"):
        load_index(index_dir, OtherModel())


def test_missing_index_says_how_to_build(tmp_path):
    with pytest.raises(IndexArtifactError, match="kb build"):
        load_index(tmp_path / "nothing-here")


def test_incomplete_index_is_refused(small_corpus, tmp_path):
    index_dir = tmp_path / "index"
    build_index(small_corpus, index_dir, HashingEncoder(), progress=False)
    (index_dir / "chunks.jsonl").unlink()
    with pytest.raises(IndexArtifactError, match="incomplete"):
        load_index(index_dir)


def test_kill_9_during_a_build_leaves_the_previous_index_serving(small_corpus, tmp_path, project_settings):
    """A real `kb build` killed with SIGKILL while it writes its new build folder."""
    import os
    import signal
    import subprocess
    import sys
    import time

    index_dir = tmp_path / "var" / "index"
    command = [sys.executable, "-m", "kb.cli", "--index-dir", str(index_dir), "build"]
    env = {**os.environ, "KB_CORPUS_DIR": str(small_corpus)}
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=300)
    first = load_index(index_dir).manifest["build_id"]
    (small_corpus / "en" / "aws-trainium-architecture.md").unlink()
    builder = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    builds = index_dir.parent / "index.builds"
    deadline = time.monotonic() + 120
    started = time.monotonic()
    # killed while it embeds (after the model has loaded), or while it writes, whichever comes first
    while time.monotonic() < deadline and builder.poll() is None:
        if any(p.name.endswith(".partial") for p in builds.iterdir()) or time.monotonic() - started > 4:
            break
        time.sleep(0.005)
    killed = builder.poll() is None
    builder.send_signal(signal.SIGKILL)
    builder.wait(30)
    assert killed, "the build finished before it could be killed"
    survivor = load_index(index_dir)
    assert survivor.manifest["build_id"] == first and survivor.manifest["counts"]["articles"] == 3


def test_the_vector_index_is_exact_until_the_corpus_is_large():
    from kb.vector_index import EXACT_MAX_CHUNKS, choose

    assert choose(372).exact and choose(EXACT_MAX_CHUNKS).exact and not choose(EXACT_MAX_CHUNKS + 1).exact
    large = choose(1_000_000)
    assert large.kind == "ivf" and large.factory == "IVF4000,Flat" and large.params == {"nprobe": 64}


def test_an_approximate_index_is_recorded_and_searched_as_built(small_corpus, tmp_path):
    """A corpus over the (lowered) exact limit: the manifest says IVF, and the nearest chunks score as
    exact search scores them, sentences included; the rest get the floor."""
    import numpy as np

    from kb.vector_index import every_score

    exact_dir, approx_dir = tmp_path / "exact" / "index", tmp_path / "approx" / "index"
    build_index(small_corpus, exact_dir, HashingEncoder(), progress=False)
    manifest = build_index(small_corpus, approx_dir, HashingEncoder(), progress=False, exact_max_chunks=10)
    assert manifest["vector_index"]["kind"] == "ivf"
    exact, approx = load_index(exact_dir, HashingEncoder()), load_index(approx_dir, HashingEncoder())
    assert not approx.vector_spec.exact and json.loads((approx_dir / "manifest.json").read_text())["vector_index"]
    query = HashingEncoder().encode_queries(["Trainium NeuronCore memory bandwidth"])[0]
    want_chunks, want_sentences = exact.dense_scores(query)
    got_chunks, got_sentences = approx.dense_scores(query, candidates=5)
    top = np.argsort(-want_chunks)[:5]
    assert np.allclose(got_chunks[top], want_chunks[top], atol=1e-5)  # the nearest are found, scored exactly
    rest = np.setdiff1d(np.arange(len(want_chunks)), top)
    floor = want_chunks[top].min()
    assert rest.size and np.allclose(got_chunks[rest], floor)  # every other chunk gets the lowest candidate score
    rows = np.flatnonzero(np.isin(approx.sentence_spans[:, 0], top))
    others = np.setdiff1d(np.arange(len(want_sentences)), rows)
    assert np.allclose(got_sentences[rows], want_sentences[rows], atol=1e-5)
    assert others.size and np.allclose(got_sentences[others], floor)
    assert np.allclose(want_chunks, every_score(exact.faiss_index, query))
