"""The project's own question set, run through the same ``ask`` the service uses.

Every question becomes one row of what the user got (the answer read first,
the abstention, the spec entries) and how the retrieval ranked its evidence;
``kb.evaluation.kb_summary`` turns the rows into figures per split.
"""

from __future__ import annotations

import time

from kb.answer import ask
from kb.corpus import load_corpus
from kb.evaluation.answers import answer_correct, read_first, spec_match
from kb.evaluation.datasets import KbQuestion, quote_spans
from kb.evaluation.kb_summary import summarize_kb
from kb.evaluation.metrics import KB_METRICS, latency_summary, per_query_scores
from kb.index import KnowledgeIndex
from kb.params import AnswerPolicy
from kb.response import AbstainReason
from kb.retrieval import Retriever

DEPTH = 10  # passages retrieved per question: enough for Recall@10 and nDCG@10
# Abstentions that no threshold decides: the question names something unknown, or asks for a missing fact.
SIGNALS = (AbstainReason.OFF_TOPIC, AbstainReason.UNKNOWN_NAME, AbstainReason.NO_FACT)


def evidence_spans(questions: list[KbQuestion], corpus_dir) -> dict[str, list[tuple[str, int, int]]]:
    """(article, start, end) of every quote of every answerable question; a missing quote is an error."""
    bodies = {a.meta.id: a.body for a in load_corpus(corpus_dir)}
    spans: dict[str, list[tuple[str, int, int]]] = {}
    for q in questions:
        found = []
        for ev in q.evidence:
            if ev.article not in bodies:
                raise ValueError(f"question {q.id}: unknown article {ev.article!r}")
            hits = quote_spans(bodies[ev.article], ev.quote)
            if not hits:
                raise ValueError(f"question {q.id}: quote not found in {ev.article}: {ev.quote[:60]!r}")
            found += [(ev.article, s, e) for s, e in hits]
        spans[q.id] = found
    return spans


def relevant_chunks(index: KnowledgeIndex, spans: list[tuple[str, int, int]]) -> dict[str, int]:
    """Chunks whose span overlaps any evidence span."""
    return {c.chunk_id: 1 for c in index.chunks
            if any(c.article_id == a and c.char_start < e and s < c.char_end for a, s, e in spans)}


def run_kb_suite(questions: list[KbQuestion], retriever: Retriever, corpus_dir, policy: AnswerPolicy,
                 progress: bool = True) -> dict:
    """Per-question rows, and summaries of each split present."""
    from tqdm import tqdm

    index = retriever.index
    vocabulary = index.facts.vocabulary
    spans = evidence_spans([q for q in questions if q.answerable], corpus_dir)
    langs = {aid: info.lang for aid, info in index.articles.items()}
    rows, qrels, run, latencies = [], {}, {}, []
    for q in tqdm(questions, desc="kb questions", disable=not progress, unit="q"):
        started = time.perf_counter()
        response = ask(retriever, q.question, DEPTH, policy)
        latencies.append(time.perf_counter() - started)
        citations = response.citations
        # The order the service returns is what is measured (spec-pinned passages lead it, whatever
        # their score), so ranx gets scores that reproduce that order.
        run[q.id] = {c.chunk_id: float(len(citations) - i) for i, c in enumerate(citations)}
        reason = response.abstain_reason
        row = {"id": q.id, "lang": q.lang, "need": q.need, "split": q.split, "source": q.source, "kind": q.kind,
               "category": q.category, "tags": list(q.tags), "question": q.question,
               "answerable_expected": q.answerable, "answerable_predicted": response.answerable,
               "top_score": response.evidence_score, "domain_score": response.domain_score,
               # whether the domain gate judged this question (it names nothing known, finds no fact)
               "gated": response.domain_judged,
               "abstain_reason": reason.value if reason else None,
               "decided_by": reason.value if reason in SIGNALS
               else ("spec" if response.specs and response.answerable else "score"),
               "answer": response.answer.text if response.answer else None,
               "answer_lang": response.answer.source_lang if response.answer else None,
               "read_first": read_first(response),
               "pinned": len({s.citation_n for s in response.specs if s.citation_n is not None}),
               "retrieved": [c.chunk_id for c in citations]}
        if q.answerable:
            qrels[q.id] = relevant_chunks(index, spans[q.id])
            quoted = [(c.article_id, c.quote_start, c.quote_end) for c in citations if c.quote_start is not None]
            # The answer is supported when one of its quoted sentences overlaps the labelled evidence.
            row["answer_supported"] = any(a == ea and s < ee and es < e
                                          for a, s, e in quoted for ea, es, ee in spans[q.id])
            row["doc_lang"] = langs[q.evidence[0].article]
            row["relevant"] = sorted(qrels[q.id])
        if q.expected is not None:
            row["spec_match"] = spec_match(response, q.expected, vocabulary)
            row["spec_expected"] = q.expected.form
            row["answer_correct"] = answer_correct(response, q.expected, vocabulary)
            row["spec_answer"] = response.spec_answer.text if response.spec_answer else None
        rows.append(row)
    scores = per_query_scores(qrels, run, KB_METRICS)
    for row in rows:
        if row["id"] in scores:
            row["metrics"] = scores[row["id"]]
    splits = sorted({r["split"] for r in rows}, key=("test", "dev").index)
    return {"rows": rows, "summary": {split: summarize_kb([r for r in rows if r["split"] == split])
                                      for split in splits},
            "latency": latency_summary(latencies)}
