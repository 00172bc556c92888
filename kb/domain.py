"""Whether a question is about this knowledge base's subject at all.

A linear classifier over the question's (language-centered) vector: positive
for AI hardware, negative for general knowledge and general programming. It
is fitted per model by ``kb eval --calibrate`` on text that is neither the
evaluation's ``dev`` nor its ``test`` split (``kb.evaluation.domain_fit``) and
stored, like the language statistics, per exact model weights in
``kb/data/domain_gate.json``. Its score is a log-odds; the threshold below
which a question is declined as off-topic is a setting chosen on ``dev``
(``answer_min_domain``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb.model_data import model_entry, write_model_entry

GATE_FILE = Path(__file__).parent / "data" / "domain_gate.json"


@dataclass(frozen=True)
class DomainGate:
    weights: np.ndarray
    bias: float

    def score(self, query_vector: np.ndarray) -> float:
        """Log-odds that the question is about the knowledge base's subject."""
        return float(np.dot(self.weights, query_vector) + self.bias)


def domain_gate_for(model_id: str, weights_hash: str, path: Path = GATE_FILE) -> DomainGate | None:
    """The gate fitted for this exact model, or None when it has none (then no question is declined by it)."""
    entry = model_entry(path, model_id, weights_hash)
    if not entry:
        return None
    return DomainGate(np.asarray(entry["weights"], dtype=np.float32), float(entry["bias"]))


def write_domain_gate(model_id: str, weights_hash: str, gate: DomainGate, source: dict, path: Path = GATE_FILE) -> None:
    write_model_entry(path, model_id, weights_hash, {"weights": [round(float(w), 6) for w in gate.weights],
                                                     "bias": round(gate.bias, 6), "source": source})
