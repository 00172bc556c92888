"""Hits to the answer body that the CLI, the HTTP API and the evaluation share.

The answer is extractive: one to three sentences (or table cells) of the
top passages, each copied character for character, each followed by an
``[n]`` marker of the citation it comes from, whose ``quote_start`` /
``quote_end`` locate it in the article. Below ``min_score`` the question is
unanswerable: ``answer`` is null and the passages are returned as related.
Two more signals decline a question whatever its score (``abstain_reason``):
it names something the corpus never mentions ("unknown_name"), or it asks a
known entity for an attribute the fact table has no value of ("no_fact").

Spec questions ("how much HBM does Gaudi have?") also get ``specs``, entries of
the fact table with value, unit and source sentence, and ``spec_answer``, the
lookup, comparison or ranking stated in the question's language. A spec answer
never replaces the passages: they are the evidence a reader checks it against.

The field names are a public contract (the widget and outside clients read
them); ``service/schemas.py`` declares the same shape for the OpenAPI schema.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np

from kb.coverage import unknown_names
from kb.index import KnowledgeIndex
from kb.lexical import tokenize
from kb.models import Hit
from kb.retrieval import Mode, QueryScores, Retriever
from kb.specs import lookup

ANSWER_FROM_TOP = 3  # passages the answer may quote
SENTENCE_MARGIN = 1.0  # a further sentence joins when it scores within this of the best (calibrated units)


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
    role: str  # "evidence" when it supports the answer, "related" when the question is unanswerable
    quote_start: int | None = None
    quote_end: int | None = None


def citation_for(hit: Hit, n: int, index: KnowledgeIndex, role: str) -> Citation:
    chunk = hit.chunk
    article = index.articles[chunk.article_id]
    section = " > ".join(p for p in chunk.section if p != article.title) or article.title
    return Citation(n=n, chunk_id=chunk.chunk_id, article_id=chunk.article_id, title=article.title,
                    lang=chunk.lang, section=section, anchor=chunk.anchor, text=chunk.text,
                    score=round(hit.score, 4), url=article.url, char_start=chunk.char_start,
                    char_end=chunk.char_end, role=role)


def choose_sentences(retriever: Retriever, scores: QueryScores, hits: list[Hit], limit: int) -> list[tuple[int, int, int]]:
    """(hit position, body start, body end) of the sentences to quote, in reading order."""
    index = retriever.index
    top = {index.chunk_position[h.chunk.chunk_id]: pos for pos, h in enumerate(hits[:ANSWER_FROM_TOP])}
    rows = np.flatnonzero(np.isin(index.sentence_spans[:, 0], list(top)))
    if rows.size == 0:
        return []
    dense = scores.sentence_dense[rows]
    question = set(tokenize(scores.question))
    overlap = np.zeros(rows.size, dtype=np.float32)
    if question:
        for k, r in enumerate(rows):
            c, s, e = index.sentence_spans[r]
            chunk = index.chunks[c]
            words = set(tokenize(chunk.text[s - chunk.char_start:e - chunk.char_start]))
            wanted = question if chunk.lang == scores.lang else question & index.lexical.anchors
            overlap[k] = len(words & wanted) / len(question)
    value = dense + retriever.lexical_weight * overlap
    chosen, used_chunks = [], set()
    best = float(value.max())
    for k in np.argsort(-value, kind="stable"):
        c, s, e = (int(x) for x in index.sentence_spans[rows[k]])
        if value[k] < best - SENTENCE_MARGIN or len(chosen) == limit:
            break
        if c in used_chunks:  # one quote per citation
            continue
        used_chunks.add(c)
        chosen.append((top[c], s, e))
    return sorted(chosen)


def fact_sentences(index: KnowledgeIndex, hits: list[Hit], specs: list[dict], limit: int) -> list[tuple[int, int, int]]:
    """The sentences (table rows) that state a spec answer's facts, when their passages are cited."""
    chosen: list[tuple[int, int, int]] = []
    for spec in specs:
        if spec["citation_n"] is None or spec["status"] not in ("value", "unknown"):
            continue
        pos = spec["citation_n"] - 1
        if any(p == pos for p, _, _ in chosen):  # one quote per citation
            continue
        chunk = index.chunk_position[hits[pos].chunk.chunk_id]
        start = spec["citation"]["char_start"]
        spans = index.sentence_spans
        rows = np.flatnonzero((spans[:, 0] == chunk) & (spans[:, 1] <= start) & (spans[:, 2] > start))
        if rows.size:
            chosen.append((pos, int(spans[rows[0], 1]), int(spans[rows[0], 2])))
        if len(chosen) == limit:
            break
    return sorted(chosen)


def ask(retriever: Retriever, question: str, top_k: int, min_score: float = float("-inf"),
        max_sentences: int = 3, mode: Mode | None = None) -> dict:
    """The answer body for one question."""
    started = time.perf_counter()
    index = retriever.index
    scores = retriever.score(question, mode)
    _, spec = lookup(index.facts, question, scores.lang)
    # The passages holding a spec answer's facts are its evidence: they lead the citations.
    entries = spec.entries if spec else []
    sources = [index.chunk_at(e["citation"]["article_id"], e["citation"]["char_start"]) for e in entries]
    repeats = [index.chunk_at(e["citation"]["article_id"], a["char_start"]) for e in entries for a in e["also"]]
    pinned = list(dict.fromkeys(i for i in sources + repeats if i is not None))[:top_k]
    hits = retriever.rank(scores, top_k, pinned)
    # The evidence strength is the hybrid score whatever the ranking mode, so one calibrated
    # threshold serves dense, lexical and hybrid requests alike.
    strength = float((scores.dense + retriever.lexical_weight * scores.lexical).max()) if hits else float("-inf")
    unknown = unknown_names(question, retriever.index.words, scores.lang)
    reason = None if hits and strength >= min_score else "weak_evidence"
    if unknown:
        reason = "unknown_name"  # the question is about something the corpus never names
    elif spec is not None and spec.found:
        reason = None if hits else reason  # the fact table holds the answer, with its source sentence
    elif spec is not None and spec.missing:
        # A chip the corpus knows, an attribute it knows, and no such fact anywhere: passages
        # about that chip would answer a different question, so say the corpus lacks it.
        reason = "no_fact"
    answerable = reason is None
    role = "evidence" if answerable else "related"
    citations = [citation_for(h, n, index, role) for n, h in enumerate(hits, start=1)]
    cited = {index.chunk_position[h.chunk.chunk_id]: n for n, h in enumerate(hits, start=1)}
    specs = [{**e, "citation_n": cited.get(i) if i is not None else None}
             for e, i in zip(entries, sources, strict=True)]
    answer = None
    if answerable:
        parts, cited = [], []
        chosen = fact_sentences(index, hits, specs, max_sentences) or \
            choose_sentences(retriever, scores, hits, max_sentences)
        for pos, start, end in chosen:
            c = citations[pos]
            citations[pos] = Citation(**{**asdict(c), "quote_start": start, "quote_end": end})
            parts.append(f"{c.text[start - c.char_start:end - c.char_start]} [{c.n}]")
            cited.append(c.n)
        if parts:
            answer = {"text": " ".join(parts), "lang": citations[cited[0] - 1].lang, "citations": cited}
    return {
        "question": question,
        "lang": scores.lang,
        "mode": mode or retriever.mode,
        "answerable": answerable,
        "abstain_reason": reason,
        "unknown_names": unknown,
        "evidence_score": round(strength, 4) if hits else None,
        "answer": answer,
        "citations": [asdict(c) for c in citations],
        "specs": specs,
        "spec_answer": spec.summary if spec else None,
        "took_ms": round((time.perf_counter() - started) * 1000, 1),
    }
