"""Whether a question is worded as a user would ask it, or copies its article.

A question that repeats its evidence sentence or a heading of its article
("Каковы основные ограничения TPU?" under the heading of that name) measures
string matching, not understanding. The copy score is the share of the
question's consecutive token pairs (``kb.lexical`` tokens: stemmed, stop
words dropped) that occur as consecutive tokens of its evidence quote or of a
heading of its article; one shared pair in a two-pair question ("TPU v5e",
"HBM") is common and harmless, most of them is a copy.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from kb.evaluation.datasets import KbQuestion
from kb.lexical import tokenize

COPY_THRESHOLD = 0.75
MIN_PAIRS = 2  # a one-pair question cannot be told from a name followed by its attribute
# Phrases that name the source document instead of asking about the world.
SOURCE_NAMING = re.compile(
    r"according to|the (?:article|review|overview|spec table|table|paper|document)|"
    r"in the \w+ (?:comparison|table|article)|elecfans|scaling book|"
    r"в стать\w*|в обзор\w*|по мнению обзор\w*|в таблиц\w*|"
    r"文中|文章|这篇|该文|表格中|根据.{0,6}(?:文|表)", re.IGNORECASE)


def _pairs(text: str) -> set[tuple[str, str]]:
    tokens = tokenize(text)
    return set(zip(tokens, tokens[1:], strict=False))


@lru_cache(maxsize=1)
def _headings() -> dict[str, list[str]]:
    from kb.corpus import load_corpus
    from kb.markdown import parse_article
    from kb.settings import PROJECT_ROOT

    return {a.meta.id: [s.heading_path[-1] for s in parse_article(a)[0]]
            for a in load_corpus(PROJECT_ROOT / "corpus")}


def copy_score(question: KbQuestion) -> float | None:
    """The share of the question's token pairs found in its evidence or its articles' headings; None
    for an unanswerable question or one too short to tell."""
    asked = _pairs(question.question)
    if not question.evidence or len(asked) < MIN_PAIRS:
        return None
    texts = [e.quote for e in question.evidence] + [h for e in question.evidence for h in _headings()[e.article]]
    return max(len(asked & _pairs(t)) / len(asked) for t in texts)


def overlap_distribution(questions: list[KbQuestion]) -> dict:
    scores = np.array([s for s in map(copy_score, questions) if s is not None])
    return {"questions": int(scores.size), "median": float(np.median(scores)), "p90": float(np.quantile(scores, 0.9)),
            "max": float(scores.max()), "threshold": COPY_THRESHOLD}


def names_the_source(question: KbQuestion) -> bool:
    return SOURCE_NAMING.search(question.question) is not None
