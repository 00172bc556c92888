"""Standard IR metrics (through ranx), bootstrap intervals and a paired test.

A query with no retrieved documents scores 0 (ranx does this when the run
has the query with no documents).
"""

from __future__ import annotations

import warnings

import numpy as np

KB_METRICS = ("ndcg@10", "recall@1", "recall@5", "recall@10", "mrr@10")
XQUAD_METRICS = KB_METRICS + ("map@20",)


def per_query_scores(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]],
                     metrics: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """{query id: {metric: score}} for every query in ``qrels``."""
    from ranx import Qrels, Run, evaluate

    ids = sorted(qrels)
    full_run = {q: dict(run.get(q, {})) for q in ids}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's cast warnings
        scores = evaluate(Qrels({q: qrels[q] for q in ids}), Run(full_run), list(metrics),
                          return_mean=False, make_comparable=True)
    if len(metrics) == 1:
        scores = {metrics[0]: scores}
    return {q: {m: float(scores[m][i]) for m in metrics} for i, q in enumerate(ids)}


def mean_with_ci(values: list[float], resamples: int = 2000, seed: int = 0) -> dict[str, float]:
    """Mean and a 95% percentile-bootstrap confidence interval."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return {"mean": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "n": 0}
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return {"mean": round(float(data.mean()), 4), "ci_low": round(float(low), 4),
            "ci_high": round(float(high), 4), "n": int(data.size)}


def paired_randomization_test(a: list[float], b: list[float], permutations: int = 10000, seed: int = 0) -> float:
    """Two-sided p-value that paired scores ``a`` and ``b`` have the same mean (sign-flip test)."""
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if diff.size == 0 or not diff.any():
        return 1.0
    rng = np.random.default_rng(seed)
    signs = rng.choice([-1.0, 1.0], size=(permutations, diff.size))
    observed = abs(diff.mean())
    extreme = (np.abs((signs * diff).mean(axis=1)) >= observed - 1e-12).sum()
    return float((extreme + 1) / (permutations + 1))


def latency_summary(seconds: list[float]) -> dict[str, float]:
    data = np.asarray(seconds, dtype=float) * 1000
    if data.size == 0:
        return {"median_ms": float("nan"), "p95_ms": float("nan"), "n": 0}
    return {"median_ms": round(float(np.median(data)), 2), "p95_ms": round(float(np.percentile(data, 95)), 2),
            "n": int(data.size)}
