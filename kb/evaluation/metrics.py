"""Standard IR metrics (through ranx), cluster-bootstrap intervals and a cluster-level paired test.

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


def _cluster_sums(values, clusters, weights=None) -> tuple[np.ndarray, np.ndarray]:
    """Per cluster: the sum of the values and the sum of the weights (1 each unless given)."""
    data = np.asarray(values, dtype=float)
    weight = np.ones_like(data) if weights is None else np.asarray(weights, dtype=float)
    labels = np.arange(data.size) if clusters is None else np.unique(np.asarray(clusters), return_inverse=True)[1]
    k = int(labels.max()) + 1 if labels.size else 0
    return np.bincount(labels, weights=data, minlength=k), np.bincount(labels, weights=weight, minlength=k)


def ratio_with_ci(numerators, denominators, clusters=None, resamples: int = 2000, seed: int = 0) -> dict[str, float]:
    """Σ numerators / Σ denominators with a 95% percentile interval and the standard error from a
    cluster bootstrap: whole clusters (information needs; XQuAD-R question groups) are resampled, so
    questions that ask one thing in three languages count as the one observation they are. Without
    clusters every item is its own."""
    num, den = _cluster_sums(numerators, clusters, denominators)
    if not den.size or den.sum() == 0:
        return {"mean": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "se": float("nan"),
                "n": len(numerators), "clusters": int(num.size)}
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, num.size, size=(resamples, num.size))
    with np.errstate(invalid="ignore", divide="ignore"):
        replicates = num[pick].sum(axis=1) / den[pick].sum(axis=1)
    replicates = replicates[np.isfinite(replicates)]
    low, high = np.percentile(replicates, [2.5, 97.5])
    return {"mean": round(float(num.sum() / den.sum()), 4), "ci_low": round(float(low), 4),
            "ci_high": round(float(high), 4), "se": round(float(replicates.std()), 4), "n": len(numerators),
            "clusters": int(num.size)}


def mean_with_ci(values, clusters=None, resamples: int = 2000, seed: int = 0) -> dict[str, float]:
    """Mean with a 95% cluster-bootstrap interval and standard error (see :func:`ratio_with_ci`)."""
    return ratio_with_ci(values, np.ones(len(values)), clusters, resamples, seed)


def paired_randomization_test(a, b, clusters=None, permutations: int = 10000, seed: int = 0) -> float:
    """Two-sided p-value that paired scores ``a`` and ``b`` have the same mean: a sign-flip test in
    which the differences of one cluster (one information need) flip together."""
    diff, _ = _cluster_sums(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), clusters)
    if diff.size == 0 or not diff.any():
        return 1.0
    rng = np.random.default_rng(seed)
    signs = rng.choice([-1.0, 1.0], size=(permutations, diff.size))
    observed = abs(diff.sum())
    extreme = (np.abs((signs * diff).sum(axis=1)) >= observed - 1e-9).sum()
    return float((extreme + 1) / (permutations + 1))


def latency_summary(seconds: list[float]) -> dict[str, float]:
    data = np.asarray(seconds, dtype=float) * 1000
    if data.size == 0:
        return {"median_ms": float("nan"), "p95_ms": float("nan"), "n": 0}
    return {"median_ms": round(float(np.median(data)), 2), "p95_ms": round(float(np.percentile(data, 95)), 2),
            "n": int(data.size)}
