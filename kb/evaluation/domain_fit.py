"""Fitting the domain gate (``kb.domain``) on text that is neither ``dev`` nor ``test``.

In-domain examples come from the knowledge base itself: questions made from
the fact table's vocabulary (every entity asked for an attribute, in three
languages), the articles' section headings and their prose sentences.
General examples come from outside it: XQuAD-R's Wikipedia questions and
paragraph sentences (three languages) and the first lines of the Python
standard library's docstrings (general programming). A logistic regression
separates the two over the language-centered question vectors.
"""

from __future__ import annotations

import ast
import random
import sysconfig
from pathlib import Path

import numpy as np

from kb.domain import DomainGate
from kb.evaluation.datasets import XquadData
from kb.index import KnowledgeIndex
from kb.language import detect_language
from kb.textnorm import normalize_for_matching

TEMPLATES = {
    "en": ("What is the {a} of {e}?", "{e} {a}?", "How does the {e} do on {a}?", "tell me the {a} of {e}"),
    "ru": ("Какой {a} у {e}?", "{e}: {a}?", "Что с {a} у {e}?", "подскажи {a} у {e}"),
    "zh": ("{e}的{a}是多少？", "{e} {a}", "{e}的{a}怎么样？", "想知道{e}的{a}"),
}
PER_LANGUAGE = 500
SENTENCES = 800
GENERAL_SENTENCES = 1500
DOCSTRINGS = 1500


def domain_examples(index: KnowledgeIndex, seed: int = 0) -> list[str]:
    """In-domain texts: vocabulary questions, section headings and prose sentences of the corpus."""
    rng = random.Random(seed)
    vocabulary = index.facts.vocabulary
    entities, attributes = list(vocabulary.entities.values()), list(vocabulary.attributes.values())
    out = []
    for lang, templates in TEMPLATES.items():
        for _ in range(PER_LANGUAGE):
            e, a = rng.choice(entities), rng.choice(attributes)
            out.append(rng.choice(templates).format(e=e.display_name(lang), a=a.label(lang)))
    out += sorted({section for chunk in index.chunks for section in chunk.section[1:]})
    prose = [c.span_text(s, e) for c in index.chunks if c.kind == "prose" for s, e in c.sentences]
    out += rng.sample(prose, min(SENTENCES, len(prose)))
    return out


def docstrings() -> list[str]:
    """First lines of the standard library's docstrings: what general programming text says."""
    root = Path(sysconfig.get_paths()["stdlib"])
    lines = []
    for path in sorted(root.glob("*.py")) + sorted(root.glob("*/*.py")):
        if {"test", "tests", "idlelib", "lib2to3"} & set(path.parts):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node)
                first = doc.strip().split("\n\n")[0].replace("\n", " ").strip() if doc else ""
                if 20 < len(first) < 200:
                    lines.append(first)
    return lines


def general_examples(xquad: XquadData, seed: int = 0) -> list[str]:
    """General-domain texts: XQuAD-R questions and paragraph sentences, standard-library docstrings."""
    from kb.evaluation.xquad import paragraph_sentences

    rng = random.Random(seed)
    sentences, _ = paragraph_sentences(xquad)
    docs = docstrings()
    return list(xquad.query_texts) + rng.sample(sentences, min(GENERAL_SENTENCES, len(sentences))) + \
        rng.sample(docs, min(DOCSTRINGS, len(docs)))


def _embed(encoder, texts: list[str]) -> np.ndarray:
    langs = [detect_language(t) for t in texts]
    normed = [normalize_for_matching(t) for t in texts]
    return np.vstack([encoder.encode_queries(normed[i:i + 64], langs[i:i + 64]) for i in range(0, len(normed), 64)])


def fit_domain_gate(encoder, index: KnowledgeIndex, xquad: XquadData, seed: int = 0) -> tuple[DomainGate, dict]:
    """The gate and a note of what it was fitted on, with its accuracy on a fifth of that data held out."""
    from sklearn.linear_model import LogisticRegression

    inside, outside = domain_examples(index, seed), general_examples(xquad, seed)
    x = np.vstack([_embed(encoder, inside), _embed(encoder, outside)])
    y = np.r_[np.ones(len(inside)), np.zeros(len(outside))]
    order = np.random.default_rng(seed).permutation(len(y))
    held = order[: len(y) // 5]
    train = order[len(y) // 5:]
    probe = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced").fit(x[train], y[train])
    accuracy = float((probe.predict(x[held]) == y[held]).mean())
    model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced").fit(x, y)
    gate = DomainGate(model.coef_[0].astype(np.float32), float(model.intercept_[0]))
    note = {"fitted_by": "kb eval --calibrate", "in_domain": len(inside), "general": len(outside),
            "held_out_accuracy": round(accuracy, 4),
            "data": "in: vocabulary questions, headings and prose sentences of the corpus; general: XQuAD-R "
                    "questions and paragraph sentences, Python standard-library docstrings"}
    return gate, note
