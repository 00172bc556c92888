"""Choose the fusion settings by measurement: a grid over the lexical weight and the per-article cap,
then the dense window on both suites, and the abstention threshold."""

from __future__ import annotations

from pathlib import Path

from kb.evaluation.datasets import load_kb_questions
from kb.evaluation.kb_suite import run_kb_suite
from kb.retrieval import Retriever

WEIGHTS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
CAPS = (0, 2, 3)
WINDOWS = (None, 0.5, 1.0, 1.5, 2.0, 3.0)
MARGINS = (0.0, 0.1, 0.25, 0.5, 1.0)
NDCG_COST = 0.005  # diversity may cost at most this much nDCG@10, and no Recall@5


def _suite(settings, questions_path: Path):
    """The questions and the glossary every sweep runs with."""
    from kb.glossary import load_glossary

    glossary = load_glossary(settings.corpus_dir / "glossary.yaml") if settings.use_glossary else None
    return load_kb_questions(questions_path), glossary


def sweep_fusion(index, encoder, settings, questions_path: Path) -> list[dict]:
    questions, glossary = _suite(settings, questions_path)
    rows = []
    for cap in CAPS:
        for weight in WEIGHTS:
            retriever = Retriever(index, encoder, cap, "hybrid", weight, glossary, settings.fusion_dense_window,
                                  settings.diversify_margin)
            result = run_kb_suite(questions, retriever, settings.corpus_dir, float("-inf"), progress=False)
            overall = result["summary"]["overall"]
            worst = min(result["summary"]["by_pair"].items(), key=lambda kv: kv[1]["recall@5"]["mean"])
            rows.append({"max_chunks_per_article": cap, "fusion_lexical_weight": weight,
                         "ndcg@10": overall["ndcg@10"]["mean"], "recall@5": overall["recall@5"]["mean"],
                         "worst_pair": worst[0], "worst_pair_recall@5": worst[1]["recall@5"]["mean"]})
    return rows


def _declined_at(row: dict, threshold: float) -> bool:
    # Questions decided by a name the corpus lacks, a missing fact or a found fact do not depend
    # on the threshold; only the rest are declined by the score.
    decided = row.get("decided_by", "score")
    if decided in ("unknown_name", "no_fact"):
        return True
    if decided == "spec":
        return False
    return row["top_score"] is None or row["top_score"] < threshold


def sweep_window(index, encoder, settings, questions_path: Path, xquad, cache_dir: Path) -> list[dict]:
    """The dense window at the configured weight, on the project suite and on XQuAD-R's hybrid settings."""
    from kb.evaluation.xquad import run_xquad

    questions, glossary = _suite(settings, questions_path)
    rows = []
    for window in WINDOWS:
        retriever = Retriever(index, encoder, settings.max_chunks_per_article, "hybrid", settings.fusion_lexical_weight,
                              glossary, window, settings.diversify_margin)
        kb = run_kb_suite(questions, retriever, settings.corpus_dir, float("-inf"), progress=False)["summary"]
        xq = run_xquad(xquad, encoder, cache_dir, False, (settings.fusion_lexical_weight, window, glossary))["settings"]
        rows.append({"fusion_dense_window": window, "ndcg@10": kb["overall"]["ndcg@10"]["mean"],
                     "recall@5": kb["overall"]["recall@5"]["mean"],
                     "xquad_pool": xq["pool_hybrid"]["overall"]["ndcg@10"]["mean"],
                     "xquad_pool_no_own": xq["pool_no_own_hybrid"]["overall"]["ndcg@10"]["mean"],
                     "xquad_x2y": xq["x2y_hybrid"]["x2y_mean_ndcg@10"],
                     "xquad_mono": [xq["mono_hybrid"]["by_pair"][f"{lang}->{lang}"]["ndcg@10"]["mean"]
                                    for lang in ("en", "ru", "zh")],
                     "dense_pool": xq.get("pool_calibrated", xq["pool"])["overall"]["ndcg@10"]["mean"],
                     "dense_pool_no_own": xq.get("pool_no_own_calibrated", xq["pool_no_own"])["overall"]["ndcg@10"]["mean"]})
    return rows


def window_report(rows: list[dict]) -> str:
    def score(r):  # the three headline figures, equally
        return (r["ndcg@10"] + r["recall@5"] + r["xquad_pool"]) / 3
    best = max(rows, key=score)
    lines = ["## Dense window (lexical evidence counts only near the best dense score)", "",
             f"At the lexical weight above. Calibrated dense alone on XQuAD-R: pool {rows[0]['dense_pool']:.3f}, "
             f"pool without own-language copy {rows[0]['dense_pool_no_own']:.3f}. The best row maximizes the mean of "
             "the project's nDCG@10 and Recall@5 and XQuAD-R's pool nDCG@10.", "",
             "| window | nDCG@10 | Recall@5 | XQuAD-R pool | pool, no own copy | X->Y mean | mono en / ru / zh |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        mark = " **best**" if r is best else ""
        window = "none" if r["fusion_dense_window"] is None else f"{r['fusion_dense_window']:.1f}"
        mono = " / ".join(f"{m:.3f}" for m in r["xquad_mono"])
        lines.append(f"| {window} | {r['ndcg@10']:.3f}{mark} | {r['recall@5']:.3f} | {r['xquad_pool']:.3f} | "
                     f"{r['xquad_pool_no_own']:.3f} | {r['xquad_x2y']:.3f} | {mono} |")
    lines += ["", f"Chosen: fusion_dense_window = {best['fusion_dense_window']}.", ""]
    return "\n".join(lines)


def sweep_diversity(index, encoder, settings, questions_path: Path) -> list[dict]:
    """The diversification margin at the configured fusion: quality and articles among the top five."""
    questions, glossary = _suite(settings, questions_path)
    rows = []
    for margin in MARGINS:
        retriever = Retriever(index, encoder, settings.max_chunks_per_article, "hybrid", settings.fusion_lexical_weight,
                              glossary, settings.fusion_dense_window, margin)
        result = run_kb_suite(questions, retriever, settings.corpus_dir, float("-inf"), progress=False)
        answered = [r for r in result["rows"] if r["answerable_expected"]]
        articles = [len({c.split(":")[0] for c in r["retrieved"][:5]}) for r in answered]
        overall = result["summary"]["overall"]
        rows.append({"diversify_margin": margin, "ndcg@10": overall["ndcg@10"]["mean"],
                     "recall@5": overall["recall@5"]["mean"], "articles_in_top5": sum(articles) / len(articles)})
    return rows


def diversity_report(rows: list[dict]) -> str:
    plain = rows[0]
    allowed = [r for r in rows if r["recall@5"] >= plain["recall@5"] and r["ndcg@10"] >= plain["ndcg@10"] - NDCG_COST]
    best = max(allowed, key=lambda r: r["diversify_margin"])
    lines = ["## Diversification across articles", "",
             f"The largest margin that keeps Recall@5 and costs at most {NDCG_COST} nDCG@10.", "",
             "| margin | nDCG@10 | Recall@5 | distinct articles in the top 5 |", "| --- | --- | --- | --- |"]
    for r in rows:
        mark = " **chosen**" if r is best else ""
        lines.append(f"| {r['diversify_margin']:.2f} | {r['ndcg@10']:.3f}{mark} | {r['recall@5']:.3f} | "
                     f"{r['articles_in_top5']:.2f} |")
    lines += ["", f"Chosen: diversify_margin = {best['diversify_margin']}.", ""]
    return "\n".join(lines)


def abstention_thresholds(result: dict, max_lost: float = 0.0) -> list[dict]:
    """Abstention at candidate thresholds on the top fused score, from one run's rows."""
    rows = result["rows"]
    answerable = [r for r in rows if r["answerable_expected"]]
    unanswerable = [r for r in rows if not r["answerable_expected"]]
    scores = {round(r["top_score"], 2) for r in rows if r["top_score"] is not None}
    out = []
    for t in sorted(scores | {float("-inf")}):
        caught = sum(_declined_at(r, t) for r in unanswerable)
        lost = sum(_declined_at(r, t) for r in answerable)
        out.append({"threshold": t, "recall": caught / len(unanswerable), "precision": caught / max(caught + lost, 1),
                    "lost": lost, "allowed": lost <= max_lost * len(answerable)})
    return out


def choose_threshold(candidates: list[dict]) -> dict:
    """The threshold with the best abstention F1 among those that lose no answerable question."""
    def f1(c):
        return 2 * c["precision"] * c["recall"] / (c["precision"] + c["recall"]) if c["precision"] + c["recall"] else 0.0
    return max((c for c in candidates if c["allowed"]), key=lambda c: (f1(c), -c["threshold"]))


def sweep_report(rows: list[dict], model: str) -> str:
    best = max(rows, key=lambda r: (r["ndcg@10"] + r["recall@5"]) / 2)  # the two gated metrics, equally
    lines = [f"# Fusion sweep, project suite, model `{model}`", "",
             "Hybrid score = calibrated dense + weight x BM25 (scaled to [0, 1]), BM25 counting only within the "
             "configured dense window (see below); cap = passages per article (0: none).",
             "The best row maximizes the mean of nDCG@10 and Recall@5, the two metrics the CI gate guards.", "",
             "| cap | lexical weight | nDCG@10 | Recall@5 | worst pair (Recall@5) |", "| --- | --- | --- | --- | --- |"]
    for r in rows:
        mark = " **best**" if r is best else ""
        lines.append(f"| {r['max_chunks_per_article']} | {r['fusion_lexical_weight']} | {r['ndcg@10']:.3f}{mark} | "
                     f"{r['recall@5']:.3f} | {r['worst_pair']} {r['worst_pair_recall@5']:.3f} |")
    lines += ["", f"Chosen: cap {best['max_chunks_per_article']}, lexical weight {best['fusion_lexical_weight']}.", ""]
    return "\n".join(lines)
