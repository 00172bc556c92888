"""The quality gate: a fresh run may not fall more than a margin below the committed baseline."""

from __future__ import annotations

GATED = ("ndcg@10", "recall@5")
MARGIN = 0.03  # absolute; the bootstrap CIs of the overall figures are about +-0.04 wide


def gate_failures(result: dict, baseline: dict, margin: float = MARGIN) -> list[str]:
    """What fell too far: an empty list means the gate passes."""
    failures = []
    now, before = result["summary"]["overall"], baseline["summary"]["overall"]
    for metric in GATED:
        if now[metric]["mean"] < before[metric]["mean"] - margin:
            failures.append(f"{metric} {now[metric]['mean']:.3f} is more than {margin} below the baseline "
                            f"{before[metric]['mean']:.3f} ({baseline['config']}, {baseline['run_at']})")
    return failures
