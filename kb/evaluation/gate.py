"""The quality gate of ``make test``: the held-out ``test`` split at the committed settings, against
the committed result. Three checks:

1. Quality. nDCG@10, Recall@5, the answer metric and abstention F1 are compared question by question
   with the committed run: the per-need differences are resampled (a paired cluster bootstrap, 2,000
   resamples) and a figure fails when the 95% interval of its difference lies wholly below zero,
   i.e. when it fell by more than resampling the information needs explains. (The committed figures'
   own intervals are about +-0.07 on 84 needs, far wider than any single mechanism's effect; the
   paired interval is what can tell a real loss on these few needs from chance.)
2. Inputs. A result made from other articles, spec files, glossary, questions or settings is stale.
3. Reproduction. At the committed settings the fresh run must give the test questions the same
   passages, the same answerable / declined decision and the same text read first; more than
   ``CHANGED_ALLOWED`` questions that differ mean the code changes answers and the committed figures
   (and the README rendered from them) are stale.

Either way the fix is the same: rerun ``make eval`` and commit ``eval/results/``.
"""

from __future__ import annotations

import numpy as np

SPLIT = "test"
GATED = ("ndcg@10", "recall@5", "answer", "abstention_f1")
CHANGED_ALLOWED = 2  # a near tie may flip on another CPU; more is a change of behaviour
RESAMPLES = 2000


def _terms(row: dict, figure: str) -> tuple[float, float] | None:
    """A question's (numerator, denominator) of a gated figure; None when it does not count there."""
    if figure in ("ndcg@10", "recall@5"):
        return (row["metrics"][figure], 1.0) if "metrics" in row else None
    if figure == "answer":
        return (float(row["answer_correct"]), 1.0) if row.get("answer_correct") is not None else None
    declined, unanswerable = not row["answerable_predicted"], not row["answerable_expected"]
    tp = declined and unanswerable  # F1 = 2TP / (2TP + FP + FN), summed over the questions
    return 2.0 * tp, 2.0 * tp + (declined and not unanswerable) + (not declined and unanswerable)


def paired_interval(rows: list[dict], baseline_rows: list[dict], figure: str, seed: int = 0) -> dict:
    """The change of a figure from the baseline rows to ``rows`` (same questions), with the 95% interval of
    a paired bootstrap that resamples whole information needs."""
    before = {r["id"]: r for r in baseline_rows}
    pairs = [(r, before[r["id"]]) for r in rows if r["id"] in before]
    pairs = [(r["need"], _terms(r, figure), _terms(b, figure)) for r, b in pairs]
    pairs = [(need, now, then) for need, now, then in pairs if now is not None and then is not None]
    if not pairs:
        return {"change": 0.0, "ci_low": 0.0, "ci_high": 0.0}
    labels = np.unique([p[0] for p in pairs], return_inverse=True)[1]

    def sums(index: int, part: int) -> np.ndarray:
        return np.bincount(labels, weights=[p[index][part] for p in pairs])
    num_now, den_now, num_then, den_then = sums(1, 0), sums(1, 1), sums(2, 0), sums(2, 1)
    pick = np.random.default_rng(seed).integers(0, num_now.size, size=(RESAMPLES, num_now.size))
    with np.errstate(invalid="ignore", divide="ignore"):
        change = num_now[pick].sum(1) / den_now[pick].sum(1) - num_then[pick].sum(1) / den_then[pick].sum(1)
    change = change[np.isfinite(change)]
    low, high = np.percentile(change, [2.5, 97.5])
    return {"change": round(float(num_now.sum() / den_now.sum() - num_then.sum() / den_then.sum()), 4),
            "ci_low": round(float(low), 4), "ci_high": round(float(high), 4)}


def gate_failures(result: dict, baseline: dict, split: str = SPLIT) -> list[str]:
    """Gated figures that fell by more than chance: an empty list means the quality check passes."""
    rows = [r for r in result["rows"] if r["split"] == split]
    before = [r for r in baseline["rows"] if r["split"] == split]
    failures = []
    for figure in GATED:
        cell = paired_interval(rows, before, figure)
        if cell["ci_high"] < 0:
            failures.append(f"{split} {figure} changed by {cell['change']:+.3f} against the committed run "
                            f"({baseline['config']}, {baseline['run_at']}); the paired 95% interval over needs is "
                            f"[{cell['ci_low']:+.3f}, {cell['ci_high']:+.3f}], wholly below zero")
    return failures


def stale_inputs(baseline: dict, current: dict[str, str]) -> list[str]:
    """The inputs the committed result was not made from."""
    made_from = baseline.get("inputs", {})
    return [f"{name} (committed {made_from.get(name)}, now {digest})" for name, digest in current.items()
            if made_from.get(name) != digest]


def changed_questions(result: dict, baseline: dict, split: str = SPLIT) -> list[str]:
    """Questions of the split that now get other passages, another decision or another text read first."""
    before = {r["id"]: r for r in baseline["rows"] if r["split"] == split}

    def seen(row: dict) -> tuple:
        return row["retrieved"], row["answerable_predicted"], row["read_first"]
    return [r["id"] for r in result["rows"] if r["split"] == split and r["id"] in before
            and seen(r) != seen(before[r["id"]])]
