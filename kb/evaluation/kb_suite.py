"""The project's own question set, run through the same ``ask`` the service uses."""

from __future__ import annotations

import time
from collections import defaultdict

from kb.answer import ask
from kb.corpus import load_corpus
from kb.evaluation.datasets import KbQuestion, quote_spans
from kb.evaluation.metrics import KB_METRICS, latency_summary, mean_with_ci, per_query_scores
from kb.index import KnowledgeIndex
from kb.params import AnswerPolicy
from kb.response import AbstainReason, AskResponse, SpecEntry
from kb.retrieval import Retriever

# Abstentions that no threshold decides: the question names something unknown, or asks for a missing fact.
SIGNALS = (AbstainReason.UNKNOWN_NAME, AbstainReason.NO_FACT)

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


def _has_value(specs: tuple[SpecEntry, ...], value: float, unit: str, entity: str | None = None) -> bool:
    return any(s.value is not None and abs(s.value - value) < 1e-6 and s.unit == unit
               and (entity is None or s.entity == entity) for s in specs)


def lost_value_safe(response: AskResponse) -> bool:
    """A value the source lost is reported as unknown, and no number stands in for it anywhere."""
    unknown = [s for s in response.specs if s.status == "unknown"]
    if not unknown:
        return False
    text = response.spec_answer.text if response.spec_answer else ""
    for s in unknown:
        if any(o.value is not None for o in response.specs if o.entity == s.entity and o.attribute == s.attribute):
            return False
        digits = s.value_text.replace("[?]", "")
        if digits and digits in text.replace(s.value_text, ""):
            return False
    return True


def spec_match(response: AskResponse, expected) -> bool:
    """Exact-value accuracy of one spec or comparison answer (see ``Expected``)."""
    if expected.lost:
        return lost_value_safe(response)
    if expected.higher is not None:
        summary = response.spec_answer
        return summary is not None and summary.kind == "comparison" and summary.higher == expected.higher and \
            all(_has_value(response.specs, v.value, v.unit, v.entity) for v in expected.values)
    return _has_value(response.specs, expected.value, expected.unit)


def run_kb_suite(questions: list[KbQuestion], retriever: Retriever, corpus_dir, policy: AnswerPolicy,
                 progress: bool = True) -> dict:
    """Per-query rows and summaries by language pair, kind, abstention and spec accuracy."""
    from tqdm import tqdm

    index = retriever.index
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
        row = {"id": q.id, "lang": q.lang, "kind": q.kind, "question": q.question,
               "answerable_expected": q.answerable, "answerable_predicted": response.answerable,
               "top_score": response.evidence_score,
               "abstain_reason": reason.value if reason else None,
               "decided_by": reason.value if reason in SIGNALS
               else ("spec" if response.specs and response.answerable else "score"),
               "answer": response.answer.text if response.answer else None,
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
            row["spec_match"] = spec_match(response, q.expected)
            row["spec_expected"] = "lost" if q.expected.lost else ("comparison" if q.expected.higher else "value")
            row["spec_answer"] = response.spec_answer.text if response.spec_answer else None
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
            "by_reason": {reason.value: sum(r.get("abstain_reason") == reason for r in true_abstentions)
                          for reason in AbstainReason},
        },
        "spec_exact_match": _share(spec_rows, "accuracy"),
        "spec_by_form": {form: _share([r for r in spec_rows if r["spec_expected"] == form], "accuracy")
                         for form in ("value", "comparison", "lost")},
        "answer_support": {"questions": len(supported),
                           "rate": round(sum(supported) / len(supported), 4) if supported else 0.0},
        "counts": {"questions": len(rows), "answerable": len(ranked), "unanswerable": len(unanswerable)},
    }
