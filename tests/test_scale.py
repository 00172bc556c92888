"""The scale benchmark's parts on a small synthetic corpus (no model): vectors, measurements, the report."""

from __future__ import annotations

import numpy as np

from kb.evaluation.scale import measure_bm25, measure_path, measure_vectors, synthetic_lexical, synthetic_vectors
from kb.evaluation.scale_report import write_scale_report


def test_the_scale_benchmark_measures_and_reports(tmp_path):
    rng = np.random.default_rng(3)
    sample = rng.normal(size=(50, 32)).astype(np.float32)
    sample /= np.linalg.norm(sample, axis=1, keepdims=True)
    vectors = synthetic_vectors(sample, 4000)
    assert vectors.shape == (4000, 32) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert len({tuple(np.round(v, 4)) for v in vectors[:200]}) == 200  # blends, not copies
    queries = synthetic_vectors(sample, 20, seed=9)
    rows = measure_vectors(vectors, queries, progress=lambda _: None)
    assert rows[0]["variant"] == "flat (exact)" and rows[0]["recall_at_10"] == 1.0
    assert all(0 <= r["recall_at_10"] <= 1 and r["p50_ms"] > 0 and r["bytes_per_vector"] > 0 for r in rows)
    tokens = [["gpu", "memory", f"t{i}"] for i in range(30)]
    lexical, vocabulary, build_s = synthetic_lexical(tokens, 4000)
    bm25 = measure_bm25(lexical, vocabulary, build_s, [["gpu", "memory"]] * 20, 4000)
    path = measure_path(vectors, queries, lexical, [["gpu"]] * 20)
    assert path["index"]["kind"] == "flat" and path["p50_ms"] > 0  # 4,000 chunks are searched exactly
    result = {"sample_vectors": 50, "queries": 20, "noise": 0.01, "vectors": rows, "bm25": [bm25], "path": [path]}
    report = write_scale_report(result, tmp_path).read_text()
    assert "| 4,000 | flat (exact) | 1.000 |" in report and (tmp_path / "scale.png").stat().st_size > 1000
