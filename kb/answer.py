"""Hits to the answer body that the CLI, the HTTP API and the evaluation share.

The field names are a public contract (the widget and outside clients read
them); ``service/schemas.py`` declares the same shape for the OpenAPI schema.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from kb.index import KnowledgeIndex
from kb.language import detect_language
from kb.models import Hit
from kb.retrieval import Retriever


@dataclass(frozen=True)
class Citation:
    n: int
    chunk_id: str
    article_id: str
    title: str
    lang: str
    section: str
    anchor: str
    text: str
    score: float
    url: str | None
    char_start: int
    char_end: int


def citation_for(hit: Hit, n: int, index: KnowledgeIndex) -> Citation:
    chunk = hit.chunk
    article = index.articles[chunk.article_id]
    section = " > ".join(p for p in chunk.section if p != article.title) or article.title
    return Citation(n=n, chunk_id=chunk.chunk_id, article_id=chunk.article_id, title=article.title,
                    lang=chunk.lang, section=section, anchor=chunk.anchor, text=chunk.text,
                    score=round(hit.score, 4), url=article.url, char_start=chunk.char_start, char_end=chunk.char_end)


def ask(retriever: Retriever, question: str, top_k: int, min_score: float = 0.0) -> dict:
    """The answer body for one question: cited passages, best first."""
    started = time.perf_counter()
    hits = retriever.search(question, top_k)
    citations = [citation_for(h, n, retriever.index) for n, h in enumerate(hits, start=1)]
    answerable = bool(citations) and citations[0].score >= min_score
    return {
        "question": question,
        "lang": detect_language(question),
        "answerable": answerable,
        "citations": [c.__dict__ for c in citations],
        "specs": [],
        "took_ms": round((time.perf_counter() - started) * 1000, 1),
    }
