"""The figures of one split of the project suite, from its per-question rows.

Every interval is a cluster bootstrap over information needs (``need``): the
same question asked in three languages is one observation, not three.
"""

from __future__ import annotations

from collections import defaultdict

from kb.evaluation.metrics import KB_METRICS, mean_with_ci, ratio_with_ci
from kb.models import LANGS
from kb.response import AbstainReason

NEAR_MISS = ("unknown_entity", "missing_attribute")  # about hardware, but the corpus lacks the entity or the fact


def _mean(rows: list[dict], value) -> dict:
    return mean_with_ci([float(value(r)) for r in rows], [r["need"] for r in rows])


def _retrieval_block(rows: list[dict]) -> dict:
    return {m: _mean(rows, lambda r, m=m: r["metrics"][m]) for m in KB_METRICS}


def _grouped(rows: list[dict], key) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups[key(r)].append(r)
    return dict(sorted(groups.items()))


def _declined(r: dict) -> bool:
    return not r["answerable_predicted"]


def abstention(rows: list[dict]) -> dict:
    """Declining the unanswerable: precision, recall, F1 and the share of answerable questions lost,
    with off-topic questions and near misses apart."""
    unanswerable = [r for r in rows if not r["answerable_expected"]]
    answerable = [r for r in rows if r["answerable_expected"]]
    needs = [r["need"] for r in rows]
    tp = [_declined(r) and not r["answerable_expected"] for r in rows]
    fp = [_declined(r) and r["answerable_expected"] for r in rows]
    fn = [not _declined(r) and not r["answerable_expected"] for r in rows]
    off_topic = [r for r in unanswerable if r["category"] == "off_topic"]
    near = [r for r in unanswerable if r["category"] in NEAR_MISS]
    return {
        "unanswerable": len(unanswerable), "declined": sum(map(_declined, rows)),
        "precision": ratio_with_ci(tp, [a or b for a, b in zip(tp, fp, strict=True)], needs),
        "recall": _mean(unanswerable, _declined),
        "f1": ratio_with_ci([2 * t for t in tp], [2 * t + p + n for t, p, n in zip(tp, fp, fn, strict=True)], needs),
        "answerable_declined": _mean(answerable, _declined),
        "off_topic": {"recall": _mean(off_topic, _declined),
                      "by_lang": {lang: _mean([r for r in off_topic if r["lang"] == lang], _declined)
                                  for lang in LANGS}},
        "near_miss": {"recall": _mean(near, _declined),
                      "by_category": {c: _mean([r for r in near if r["category"] == c], _declined) for c in NEAR_MISS}},
        "by_reason": {reason.value: sum(r["abstain_reason"] == reason for r in unanswerable)
                      for reason in AbstainReason},
        "answerable_by_reason": {reason.value: sum(r["abstain_reason"] == reason for r in answerable)
                                 for reason in AbstainReason},
    }


def summarize_kb(rows: list[dict]) -> dict:
    ranked = [r for r in rows if "metrics" in r]
    pinned = [r for r in ranked if r["pinned"]]
    expected = [r for r in rows if "spec_match" in r]
    scored = [r for r in expected if r.get("answer_correct") is not None]
    supported = [r for r in rows if "answer_supported" in r]
    tagged = {tag: [r for r in rows if tag in r["tags"]] for tag in sorted({t for r in rows for t in r["tags"]})}
    return {
        "counts": {"questions": len(rows), "needs": len({r["need"] for r in rows}), "answerable": len(ranked),
                   "unanswerable": len(rows) - len(ranked), "blind": sum(r["source"] == "blind" for r in rows)},
        "retrieval": {
            "overall": _retrieval_block(ranked),
            "by_pair": {p: _retrieval_block(g) for p, g in _grouped(ranked, lambda r: f"{r['lang']}->{r['doc_lang']}").items()},
            "by_kind": {k: _retrieval_block(g) for k, g in _grouped(ranked, lambda r: r["kind"]).items()},
            "by_source": {s: _retrieval_block(g) for s, g in _grouped(ranked, lambda r: r["source"]).items()},
            # Spec-pinned passages lead the citations whatever their score: where that happens, the
            # model and the fusion decide nothing, so their figures are shown apart.
            "spec_pinned": {"questions": len(pinned), **_retrieval_block(pinned)} if pinned else {"questions": 0},
            "not_pinned": _retrieval_block([r for r in ranked if not r["pinned"]]),
        },
        "answer": {"overall": _mean(scored, lambda r: r["answer_correct"]),
                   "by_lang": {lang: _mean([r for r in scored if r["lang"] == lang], lambda r: r["answer_correct"])
                               for lang in LANGS},
                   "by_form": {f: _mean([r for r in scored if r["spec_expected"] == f], lambda r: r["answer_correct"])
                               for f in ("value", "comparison")},
                   "by_source": {s: _mean(g, lambda r: r["answer_correct"])
                                 for s, g in _grouped(scored, lambda r: r["source"]).items()}},
        "spec": {"overall": _mean(expected, lambda r: r["spec_match"]),
                 "by_form": {f: _mean([r for r in expected if r["spec_expected"] == f], lambda r: r["spec_match"])
                             for f in ("value", "comparison", "lost")},
                 "new_attribute": _mean([r for r in expected if "new_attribute" in r["tags"]], lambda r: r["spec_match"])},
        "abstention": abstention(rows),
        "answer_support": _mean(supported, lambda r: r["answer_supported"]),
        # of the answered questions whose answer read first is a quoted passage: quoted in the question's language
        "answer_in_question_lang": _mean([r for r in rows if r.get("answer_lang") and r["answerable_predicted"]
                                          and r["read_first"] == r["answer"]],
                                         lambda r: r["answer_lang"] == r["lang"]),
        "by_tag": {tag: {"questions": len(g),
                         "recall@5": _mean([r for r in g if "metrics" in r], lambda r: r["metrics"]["recall@5"]),
                         "answer": _mean([r for r in g if r.get("answer_correct") is not None],
                                         lambda r: r["answer_correct"]),
                         "declined": _mean(g, _declined)}
                   for tag, g in tagged.items()},
    }
