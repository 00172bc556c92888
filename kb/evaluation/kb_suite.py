"""The project's own question set, run through the same ``ask`` the service uses."""

from __future__ import annotations

import time
from collections import defaultdict

from kb.answer import ask
from kb.corpus import load_corpus
from kb.evaluation.datasets import KbQuestion, quote_spans
from kb.evaluation.metrics import KB_METRICS, latency_summary, mean_with_ci, per_query_scores
from kb.index import KnowledgeIndex
from kb.retrieval import Retriever

DEPTH = 10  # passages retrieved per question: enough for Recall@10 and nDCG@10


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


def _has_value(specs: list[dict], value: float, unit: str, entity: str | None = None) -> bool:
    return any(s.get("value") is not None and abs(float(s["value"]) - value) < 1e-6 and s.get("unit") == unit
               and (entity is None or s.get("entity") == entity) for s in specs)


def lost_value_safe(body: dict) -> bool:
    """A value the source lost is reported as unknown, and no number stands in for it anywhere."""
    specs = body.get("specs", [])
    unknown = [s for s in specs if s.get("status") == "unknown"]
    if not unknown:
        return False
    text = (body.get("spec_answer") or {}).get("text", "")
    for s in unknown:
        if any(o.get("value") is not None for o in specs
               if o["entity"] == s["entity"] and o["attribute"] == s["attribute"]):
            return False
        digits = s.get("value_text", "").replace("[?]", "")
        if digits and digits in text.replace(s.get("value_text", ""), ""):
            return False
    return True


def spec_match(body: dict, expected) -> bool:
    """Exact-value accuracy of one spec or comparison answer (see ``Expected``)."""
    specs = body.get("specs", [])
    if expected.lost:
        return lost_value_safe(body)
    if expected.higher is not None:
        summary = body.get("spec_answer") or {}
        return summary.get("kind") == "comparison" and summary.get("higher") == expected.higher and \
            all(_has_value(specs, v.value, v.unit, v.entity) for v in expected.values)
    return _has_value(specs, expected.value, expected.unit)


def run_kb_suite(questions: list[KbQuestion], retriever: Retriever, corpus_dir, min_score: float,
                 progress: bool = True, max_sentences: int = 3) -> dict:
    """Per-query rows and summaries by language pair, kind, abstention and spec accuracy."""
    from tqdm import tqdm

    index = retriever.index
    spans = evidence_spans([q for q in questions if q.answerable], corpus_dir)
    langs = {aid: info.lang for aid, info in index.articles.items()}
    rows, qrels, run, latencies = [], {}, {}, []
    for q in tqdm(questions, desc="kb questions", disable=not progress, unit="q"):
        started = time.perf_counter()
        body = ask(retriever, q.question, DEPTH, min_score, max_sentences)
        latencies.append(time.perf_counter() - started)
        # The order the service returns is what is measured (spec-pinned passages lead it, whatever
        # their score), so ranx gets scores that reproduce that order.
        run[q.id] = {c["chunk_id"]: float(len(body["citations"]) - i) for i, c in enumerate(body["citations"])}
        row = {"id": q.id, "lang": q.lang, "kind": q.kind, "question": q.question,
               "answerable_expected": q.answerable, "answerable_predicted": body["answerable"],
               "top_score": body["evidence_score"],
               "abstain_reason": body["abstain_reason"],
               "decided_by": body["abstain_reason"] if body["abstain_reason"] in ("unknown_name", "no_fact")
               else ("spec" if body["specs"] and body["answerable"] else "score"),
               "answer": body["answer"]["text"] if body["answer"] else None,
               "retrieved": [c["chunk_id"] for c in body["citations"]]}
        if q.answerable:
            qrels[q.id] = relevant_chunks(index, spans[q.id])
            quoted = [(c["article_id"], c["quote_start"], c["quote_end"]) for c in body["citations"]
                      if c.get("quote_start") is not None]
            # The answer is supported when one of its quoted sentences overlaps the labelled evidence.
            row["answer_supported"] = any(a == ea and s < ee and es < e
                                          for a, s, e in quoted for ea, es, ee in spans[q.id])
            row["doc_lang"] = langs[q.evidence[0].article]
            row["relevant"] = sorted(qrels[q.id])
        if q.expected is not None:
            row["spec_match"] = spec_match(body, q.expected)
            row["spec_expected"] = "lost" if q.expected.lost else ("comparison" if q.expected.higher else "value")
            row["spec_answer"] = (body.get("spec_answer") or {}).get("text")
        rows.append(row)
    scores = per_query_scores(qrels, run, KB_METRICS)
    for row in rows:
        if row["id"] in scores:
            row["metrics"] = scores[row["id"]]
    return {"rows": rows, "summary": summarize_kb(rows), "latency": latency_summary(latencies)}


def _share(rows: list[dict], name: str) -> dict:
    return {"questions": len(rows), name: round(sum(r["spec_match"] for r in rows) / len(rows), 4) if rows else 0.0}


def summarize_kb(rows: list[dict]) -> dict:
    ranked = [r for r in rows if "metrics" in r]
    by_pair: dict[str, list[dict]] = defaultdict(list)
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in ranked:
        by_pair[f"{r['lang']}->{r['doc_lang']}"].append(r)
        by_kind[r["kind"]].append(r)

    def block(group: list[dict]) -> dict:
        return {m: mean_with_ci([r["metrics"][m] for r in group]) for m in KB_METRICS}

    unanswerable = [r for r in rows if not r["answerable_expected"]]
    abstained = [r for r in rows if not r["answerable_predicted"]]
    true_abstentions = [r for r in abstained if not r["answerable_expected"]]
    spec_rows = [r for r in rows if "spec_match" in r]
    supported = [r["answer_supported"] for r in rows if "answer_supported" in r]
    return {
        "overall": block(ranked),
        "by_pair": {pair: block(group) for pair, group in sorted(by_pair.items())},
        "by_kind": {kind: block(group) for kind, group in sorted(by_kind.items())},
        "abstention": {
            "unanswerable_questions": len(unanswerable),
            "abstained": len(abstained),
            "precision": round(len(true_abstentions) / len(abstained), 4) if abstained else 0.0,
            "recall": round(len(true_abstentions) / len(unanswerable), 4) if unanswerable else 0.0,
            "answerable_lost": len(abstained) - len(true_abstentions),
            "by_reason": {reason: sum(r.get("abstain_reason") == reason for r in true_abstentions)
                          for reason in ("weak_evidence", "unknown_name", "no_fact")},
        },
        "spec_exact_match": _share(spec_rows, "accuracy"),
        "spec_by_form": {form: _share([r for r in spec_rows if r["spec_expected"] == form], "accuracy")
                         for form in ("value", "comparison", "lost")},
        "answer_support": {"questions": len(supported),
                           "rate": round(sum(supported) / len(supported), 4) if supported else 0.0},
        "counts": {"questions": len(rows), "answerable": len(ranked), "unanswerable": len(unanswerable)},
    }
