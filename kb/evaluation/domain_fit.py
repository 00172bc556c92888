"""Fitting the domain gate (``kb.domain``) on questions that are neither ``dev`` nor ``test``.

The gate judges questions that name nothing the corpus knows, so it is fitted on
questions of that shape: ``eval/datasets/domain-questions.jsonl``, user questions
written for the gate alone by writers who saw neither the suite, the code nor a
result, in three batches from three independent briefs. In-domain ones ask about
AI training hardware, most without naming a product; the others are everyday,
general-knowledge and general-programming questions, a share of them close to
the subject (gaming graphics cards, phone chips, crypto mining; the third batch
adds homonyms such as TPU filament, and training-method questions). An earlier gate
was fitted on the corpus's own sentences and headings against XQuAD-R's Wikipedia
text: statements, not questions, and on questions it judged it declined in-domain
ones far more often (``eval/README.md`` has the comparison).

A logistic regression separates the two over the language-centered question
vectors. ``cross_batch`` fits on all batches but one and scores that one, so the
note stored with the gate says how it does on questions from a brief it never saw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from kb.domain import DomainGate
from kb.evaluation.datasets import read_jsonl

REGULARIZATION = 1.0  # sklearn's default; C = 0.2 or 5 moved the cross-batch AUC by about 0.01 either way


class DomainQuestion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    lang: Literal["en", "ru", "zh"]
    domain: Literal["in", "out"]
    names_product: bool
    batch: Literal["a", "b", "c"]


def load_domain_questions(path: Path) -> list[DomainQuestion]:
    return read_jsonl(path, DomainQuestion)


def embed_questions(encoder, texts: list[str]) -> np.ndarray:
    """Question vectors exactly as the retriever makes them (``query_form``), centered by the encoder."""
    from kb.retrieval import query_form

    normed, langs = (list(column) for column in zip(*map(query_form, texts), strict=True))
    return np.vstack([encoder.encode_queries(normed[i:i + 64], langs[i:i + 64]) for i in range(0, len(normed), 64)])


def _fit(x: np.ndarray, y: np.ndarray) -> DomainGate:
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=REGULARIZATION, max_iter=4000, class_weight="balanced").fit(x, y)
    return DomainGate(model.coef_[0].astype(np.float32), float(model.intercept_[0]))


def cross_batch(x: np.ndarray, questions: list[DomainQuestion]) -> dict:
    """Leave one batch out: fit on the other batches, score the one left out (ROC AUC, and accuracy at
    log-odds 0), keyed "<fitted>-><scored>", e.g. "bc->a"."""
    from sklearn.metrics import roc_auc_score

    y = np.array([q.domain == "in" for q in questions])
    batch = np.array([q.batch for q in questions])
    out = {}
    for scored in sorted(set(batch)):
        fitted = batch != scored
        gate = _fit(x[fitted], y[fitted])
        scores = x[~fitted] @ gate.weights + gate.bias
        name = "".join(sorted(set(batch[fitted]))) + "->" + scored
        out[name] = {"auc": round(float(roc_auc_score(y[~fitted], scores)), 4),
                     "accuracy": round(float(((scores > 0) == y[~fitted]).mean()), 4)}
    return out


def fit_domain_gate(encoder, questions: list[DomainQuestion]) -> tuple[DomainGate, dict]:
    """The gate fitted on every question, and a note of what it was fitted on and how it does across batches."""
    x = embed_questions(encoder, [q.text for q in questions])
    y = np.array([q.domain == "in" for q in questions], dtype=float)
    note = {"fitted_by": "kb eval --calibrate", "in_domain": int(y.sum()), "general": int(len(y) - y.sum()),
            "cross_batch": cross_batch(x, questions),
            "data": "eval/datasets/domain-questions.jsonl: questions written blind for the gate, "
                    f"{len({q.batch for q in questions})} batches"}
    return _fit(x, y), note
