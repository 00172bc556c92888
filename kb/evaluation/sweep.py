"""Choose the retrieval settings by measurement: the best sentence's share of the dense score on both
suites, a grid over the lexical weight and the per-article cap, then the dense window and lexical floor
on both suites, the diversification margin, and the abstention threshold.

Only the ``dev`` split of the project suite is read (``kb.evaluation.datasets.tuning_questions``
refuses anything else): ``test`` stays held out for reporting."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kb.evaluation.datasets import KbQuestion, tuning_questions
from kb.evaluation.kb_suite import SIGNALS, run_kb_suite
from kb.params import AnswerPolicy, RetrievalParams
from kb.retrieval import Retriever

SENTENCE_SHARES = (0.0, 0.25, 0.5, 0.75, 1.0)
WEIGHTS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
CAPS = (0, 2, 3)
WINDOWS = (None, 0.5, 1.0, 1.5, 2.0)
MIN_MATCHES = (0.0, 0.35, 0.5, 0.65)
NO_WORSE_SLACK = 0.005  # hybrid may trail dense-only by at most this much nDCG@10 in an XQuAD-R setting
MARGINS = (0.0, 0.1, 0.25, 0.5, 1.0)
NDCG_COST = 0.005  # diversity may cost at most this much nDCG@10, and no Recall@5


def _suite(settings, questions: list[KbQuestion]):
    """The questions (dev only) and the glossary every sweep runs with."""
    from kb.glossary import load_glossary

    glossary = load_glossary(settings.corpus_dir / "glossary.yaml") if settings.use_glossary else None
    return tuning_questions(questions), glossary


def _params(settings, **changes) -> RetrievalParams:
    """The configured retrieval, hybrid, with some knobs changed."""
    return replace(RetrievalParams.from_settings(settings), **{"retrieval_mode": "hybrid", **changes})


def _run(questions, index, encoder, settings, glossary, **changes) -> dict:
    """The project suite at a variant of the configured retrieval, every question answered (no threshold)."""
    every = replace(AnswerPolicy.from_settings(settings), answer_min_score=float("-inf"))
    retriever = Retriever(index, encoder, _params(settings, **changes), glossary)
    result = run_kb_suite(questions, retriever, settings.corpus_dir, every, progress=False)
    return {**result, "summary": result["summary"]["dev"]}


def _headline(kb: dict, xquad: dict) -> float:
    """The figures both sweeps over both suites maximize, equally: the project's nDCG@10 and Recall@5,
    XQuAD-R's pool and X->Y nDCG@10."""
    return (kb["ndcg@10"] + kb["recall@5"] + xquad["pool"] + xquad["x2y"]) / 4


def sweep_sentence_share(index, encoder, settings, questions: list[KbQuestion], xquad, cache_dir: Path) -> list[dict]:
    """Dense retrieval alone at each share of the best sentence's score, on the project suite and on
    XQuAD-R (the service's dense scores)."""
    from kb.evaluation.xquad import run_xquad

    questions, glossary = _suite(settings, questions)
    rows = []
    for share in SENTENCE_SHARES:
        changes = {"retrieval_mode": "dense", "dense_sentence_share": share}
        kb = _run(questions, index, encoder, settings, glossary, **changes)["summary"]
        xq = run_xquad(xquad, encoder, cache_dir, _params(settings, **changes), progress=False,
                       scorings=("calibrated",))["settings"]
        rows.append({"dense_sentence_share": share, **_figures(kb, xq, "calibrated", "dense")})
    return rows


def sentence_share_report(rows: list[dict], model: str, data: dict) -> str:
    best = max(rows, key=lambda r: _headline(r, r["dense"]))
    lines = [f"# Retrieval sweep, model `{model}`", "",
             f"Every figure of the project suite here is on its `dev` split ({data['questions']} questions, "
             f"{data['needs']} information needs): the sweep never reads `test`.", "",
             "## The best sentence's share of the dense score", "",
             "Dense retrieval alone. A passage's dense score is (1 - share) x its own calibrated score + share x "
             "that of its best sentence. The best row maximizes the mean of the project's nDCG@10 and Recall@5 and "
             "XQuAD-R's pool and X->Y nDCG@10.", "",
             "| share | nDCG@10 | Recall@5 | worst pair R@5 | XQuAD-R pool | pool, no own copy | X->Y mean | "
             "mono en / ru / zh |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        mark = " **best**" if r is best else ""
        d, mono = r["dense"], " / ".join(f"{m:.3f}" for m in r["xquad_mono"])
        lines.append(f"| {r['dense_sentence_share']:.2f} | {r['ndcg@10']:.3f}{mark} | {r['recall@5']:.3f} | "
                     f"{r['worst_pair_recall@5']:.3f} | {d['pool']:.3f} | {d['pool_no_own']:.3f} | {d['x2y']:.3f} | "
                     f"{mono} |")
    lines += ["", f"Chosen: dense_sentence_share = {best['dense_sentence_share']}.", ""]
    return "\n".join(lines)


def sweep_fusion(index, encoder, settings, questions: list[KbQuestion]) -> list[dict]:
    questions, glossary = _suite(settings, questions)
    rows = []
    for cap in CAPS:
        for weight in WEIGHTS:
            result = _run(questions, index, encoder, settings, glossary, max_chunks_per_article=cap,
                          fusion_lexical_weight=weight)
            overall = result["summary"]["retrieval"]["overall"]
            worst = min(result["summary"]["retrieval"]["by_pair"].items(), key=lambda kv: kv[1]["recall@5"]["mean"])
            rows.append({"max_chunks_per_article": cap, "fusion_lexical_weight": weight,
                         "ndcg@10": overall["ndcg@10"]["mean"], "recall@5": overall["recall@5"]["mean"],
                         "worst_pair": worst[0], "worst_pair_recall@5": worst[1]["recall@5"]["mean"]})
    return rows


def _declined_at(row: dict, threshold: float) -> bool:
    # Questions decided by a name the corpus lacks, a missing fact or a found fact do not depend
    # on the threshold; only the rest are declined by the score.
    decided = row.get("decided_by", "score")
    if decided in SIGNALS:
        return True
    if decided == "spec":
        return False
    return row["top_score"] is None or row["top_score"] < threshold


XQUAD_SETTINGS = ("pool", "mono", "x2y", "pool_no_own")


def _xquad_figure(settings: dict, name: str) -> float:
    block = settings[name]
    return block["x2y_mean_ndcg@10"] if name.startswith("x2y") else block["overall"]["ndcg@10"]["mean"]


def _figures(kb: dict, xquad: dict, scoring: str, key: str) -> dict:
    """A sweep row's figures: the project suite's overall and worst pair, and XQuAD-R's per setting
    (under ``key``) and mono per language, as ``scoring`` ("calibrated" or "hybrid") scored them."""
    retrieval = kb["retrieval"]
    worst = min(retrieval["by_pair"].values(), key=lambda v: v["recall@5"]["mean"])
    return {"ndcg@10": retrieval["overall"]["ndcg@10"]["mean"], "recall@5": retrieval["overall"]["recall@5"]["mean"],
            "worst_pair_recall@5": worst["recall@5"]["mean"],
            key: {s: _xquad_figure(xquad, f"{s}_{scoring}") for s in XQUAD_SETTINGS},
            "xquad_mono": [xquad[f"mono_{scoring}"]["by_pair"][f"{lang}->{lang}"]["ndcg@10"]["mean"]
                           for lang in ("en", "ru", "zh")]}


def sweep_window(index, encoder, settings, questions: list[KbQuestion], xquad, cache_dir: Path) -> list[dict]:
    """The dense window and the lexical match floor at the configured weight, on the project suite
    and on XQuAD-R's hybrid settings (each beside the service's dense-only score)."""
    from kb.evaluation.xquad import raw_lexical, run_xquad, service_dense_scores, xquad_vectors

    questions, glossary = _suite(settings, questions)
    lexical = raw_lexical(xquad, glossary, False)
    # the cross-fitted dense scores do not depend on the grid: computed once, not once a row
    dense_scores = service_dense_scores(xquad, xquad_vectors(xquad, encoder, cache_dir, False),
                                        settings.dense_sentence_share)
    dense_xq = run_xquad(xquad, encoder, cache_dir, _params(settings), progress=False, scorings=("calibrated",),
                         dense=dense_scores)["settings"]
    dense = {s: _xquad_figure(dense_xq, f"{s}_calibrated") for s in XQUAD_SETTINGS}
    rows = []
    for window in WINDOWS:
        for min_match in MIN_MATCHES:
            changes = {"fusion_dense_window": window, "lexical_min_match": min_match}
            kb = _run(questions, index, encoder, settings, glossary, **changes)["summary"]
            xq = run_xquad(xquad, encoder, cache_dir, _params(settings, **changes), glossary, False, lexical,
                           scorings=("hybrid",), dense=dense_scores)["settings"]
            rows.append({"fusion_dense_window": window, "lexical_min_match": min_match,
                         **_figures(kb, xq, "hybrid", "hybrid"), "dense": dense})
    return rows


def no_worse_than_dense(row: dict) -> bool:
    return all(row["hybrid"][s] >= row["dense"][s] - NO_WORSE_SLACK for s in XQUAD_SETTINGS)


def window_report(rows: list[dict]) -> str:
    allowed = [r for r in rows if no_worse_than_dense(r)] or rows
    best = max(allowed, key=lambda r: _headline(r, r["hybrid"]))
    dense = rows[0]["dense"]
    lines = ["## Dense window and lexical match floor", "",
             "Lexical evidence counts only for passages whose dense score is within the window of the best, and only "
             "for the part of the question's attainable BM25 above the floor. At the lexical weight above. The service's "
             f"dense scores alone on XQuAD-R: pool {dense['pool']:.3f}, mono {dense['mono']:.3f}, X->Y {dense['x2y']:.3f}, "
             f"pool without own-language copy {dense['pool_no_own']:.3f}. The best row maximizes the mean of the "
             "project's nDCG@10 and Recall@5 and XQuAD-R's pool and X->Y nDCG@10, among the rows no worse than dense "
             f"alone (by more than {NO_WORSE_SLACK}) in any XQuAD-R setting (marked ✓).", "",
             "| window | floor | nDCG@10 | Recall@5 | worst pair R@5 | XQuAD-R pool | pool, no own copy | X->Y mean | "
             "mono en / ru / zh | no worse |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        mark = " **best**" if r is best else ""
        window = "none" if r["fusion_dense_window"] is None else f"{r['fusion_dense_window']:.1f}"
        mono = " / ".join(f"{m:.3f}" for m in r["xquad_mono"])
        h = r["hybrid"]
        lines.append(f"| {window} | {r['lexical_min_match']:.2f} | {r['ndcg@10']:.3f}{mark} | {r['recall@5']:.3f} | "
                     f"{r['worst_pair_recall@5']:.3f} | {h['pool']:.3f} | {h['pool_no_own']:.3f} | {h['x2y']:.3f} | "
                     f"{mono} | {'✓' if no_worse_than_dense(r) else ''} |")
    lines += ["", f"Chosen: fusion_dense_window = {best['fusion_dense_window']}, "
              f"lexical_min_match = {best['lexical_min_match']}.", ""]
    return "\n".join(lines)


def sweep_diversity(index, encoder, settings, questions: list[KbQuestion]) -> list[dict]:
    """The diversification margin at the configured fusion: quality and articles among the top five."""
    questions, glossary = _suite(settings, questions)
    rows = []
    for margin in MARGINS:
        result = _run(questions, index, encoder, settings, glossary, diversify_margin=margin)
        answered = [r for r in result["rows"] if r["answerable_expected"]]
        articles = [len({c.split(":")[0] for c in r["retrieved"][:5]}) for r in answered]
        overall = result["summary"]["retrieval"]["overall"]
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
    """Abstention at candidate thresholds on the top fused score, from one run's rows. ``lost`` counts
    the answerable questions the threshold itself declines (those the other signals decline are lost
    at any threshold, and are the threshold's business no more than its choice can change them)."""
    rows = result["rows"]
    answerable = [r for r in rows if r["answerable_expected"]]
    unanswerable = [r for r in rows if not r["answerable_expected"]]
    exact = sorted(r["top_score"] for r in rows if r["top_score"] is not None)
    scores = {round(x, 2) for x in exact}
    always = sum(_declined_at(r, float("-inf")) for r in answerable)
    out = []
    for t in sorted(scores | {float("-inf")}):
        caught = sum(_declined_at(r, t) for r in unanswerable)
        declined = sum(_declined_at(r, t) for r in answerable)
        out.append({"threshold": t, "recall": caught / len(unanswerable),
                    "precision": caught / max(caught + declined, 1), "lost": declined - always,
                    "allowed": declined - always <= max_lost * len(answerable),
                    "score_below": max((x for x in exact if x < t), default=t)})
    return out


def choose_threshold(candidates: list[dict]) -> dict:
    """The threshold with the best abstention F1 among those that lose no answerable question: the
    middle of the range of thresholds that all do equally well, so that a small shift in scores
    neither declines an answerable question nor lets an unanswerable one through."""
    def f1(c):
        return 2 * c["precision"] * c["recall"] / (c["precision"] + c["recall"]) if c["precision"] + c["recall"] else 0.0
    allowed = [c for c in candidates if c["allowed"]]
    best_f1 = max(f1(c) for c in allowed)
    best = [c for c in allowed if f1(c) == best_f1 and c["threshold"] != float("-inf")]
    if not best:
        return max(allowed, key=f1)
    first, high = min(c["threshold"] for c in best), max(c["threshold"] for c in best)
    # the best score below the lowest of them already counts as declined: the equally good range is (low, high]
    low = next(c["score_below"] for c in best if c["threshold"] == first)
    return {**min(best, key=lambda c: c["threshold"]), "threshold": round((low + high) / 2, 2),
            "range": (low, high)}


def sweep_report(rows: list[dict]) -> str:
    best = max(rows, key=lambda r: (r["ndcg@10"] + r["recall@5"]) / 2)  # the two gated metrics, equally
    lines = ["## Fusion weight and cap, project suite", "",
             "Hybrid score = calibrated dense + weight x lexical match (in [0, 1]), counting only within the "
             "configured dense window and above the configured floor (see below); cap = passages per article (0: none).",
             "The best row maximizes the mean of nDCG@10 and Recall@5, the two metrics the CI gate guards.", "",
             "| cap | lexical weight | nDCG@10 | Recall@5 | worst pair (Recall@5) |", "| --- | --- | --- | --- | --- |"]
    for r in rows:
        mark = " **best**" if r is best else ""
        lines.append(f"| {r['max_chunks_per_article']} | {r['fusion_lexical_weight']} | {r['ndcg@10']:.3f}{mark} | "
                     f"{r['recall@5']:.3f} | {r['worst_pair']} {r['worst_pair_recall@5']:.3f} |")
    lines += ["", f"Chosen: cap {best['max_chunks_per_article']}, lexical weight {best['fusion_lexical_weight']}.", ""]
    return "\n".join(lines)


def threshold_report(chosen: dict) -> str:
    span = chosen.get("range")
    within = f"; every threshold above {span[0]:.2f} up to {span[1]:.2f} does as well, this is the middle" if span else ""
    return (f"## Abstention threshold (current fusion settings)\n\nBest abstention F1 while losing no "
            f"answerable question: answer_min_score = {chosen['threshold']} (recall {chosen['recall']:.3f}, "
            f"precision {chosen['precision']:.3f}, answerable lost {chosen['lost']}{within}).\n")


MAX_GATE_LOSS = 0.01  # the share of answerable questions the domain gate may decline: half the 2% target


def domain_thresholds(result: dict) -> list[dict]:
    """Off-topic questions declined and answerable ones lost at candidate domain-gate thresholds (rows
    of a run with the gate off); only the questions the gate judges count (``gated``)."""
    rows = result["rows"]
    off_topic = [r for r in rows if r["category"] == "off_topic"]
    answerable = [r for r in rows if r["answerable_expected"]]
    gated = [r for r in rows if r["gated"] and r["domain_score"] is not None]
    scores = sorted({round(r["domain_score"], 2) for r in gated})
    out = []
    for t in [float("-inf"), *scores, *(x + 0.01 for x in scores[-1:])]:
        caught = sum(1 for r in off_topic if r["gated"] and r["domain_score"] is not None and r["domain_score"] < t)
        lost = sum(1 for r in answerable if r["gated"] and r["domain_score"] is not None and r["domain_score"] < t)
        out.append({"threshold": t, "off_topic_recall": caught / max(len(off_topic), 1), "lost": lost,
                    "allowed": lost <= MAX_GATE_LOSS * len(answerable),
                    "score_below": max((x for x in scores if x < t), default=t)})
    return out


def choose_domain_threshold(candidates: list[dict]) -> dict:
    """Among the thresholds that decline the most off-topic questions while the gate loses at most
    ``MAX_GATE_LOSS`` of the answerable ones, the classifier's own boundary (log-odds 0: in and out of domain
    equally likely) where it lies in their range, else the middle of the range. Dev cannot tell thresholds in
    the range apart; where it is wide, its middle sits where the classifier already leans to "in domain" and
    declines answerable questions dev happens not to hold ("Why does memory bandwidth matter so much?" at 0.24)."""
    allowed = [c for c in candidates if c["allowed"]]
    best = max(c["off_topic_recall"] for c in allowed)
    tied = [c for c in allowed if c["off_topic_recall"] == best and c["threshold"] != float("-inf")]
    if not tied:
        return {**allowed[0], "threshold": float("-inf")}
    first = min(tied, key=lambda c: c["threshold"])
    low, high = first["score_below"], max(c["threshold"] for c in tied)
    threshold = 0.0 if low < 0.0 <= high else round((low + high) / 2, 2)
    return {**first, "threshold": threshold, "range": (low, high)}


def domain_report(chosen: dict, data: dict) -> str:
    span = chosen.get("range")
    where = "the classifier's own boundary" if span and chosen["threshold"] == 0.0 else "the middle"
    within = f"; every threshold above {span[0]:.2f} up to {span[1]:.2f} does as well, this is {where}" if span else ""
    return (f"## Domain gate threshold\n\nThe gate (kb/domain.py) judges only questions that name nothing the "
            f"corpus knows and find no fact. The threshold that declines the most off-topic dev questions while "
            f"declining at most {MAX_GATE_LOSS:.0%} of the answerable ones: answer_min_domain = {chosen['threshold']} "
            f"(off-topic declined {chosen['off_topic_recall']:.3f}, answerable declined by the gate "
            f"{chosen['lost']}{within}).\n")


LANG_BONUSES = (0.0, 0.25, 0.5, 1.0, 2.0)
MAX_SUPPORT_COST = 0.01  # the share of answers quoting the labelled evidence a language preference may cost


def sweep_lang_bonus(retriever, corpus_dir, policy, questions: list[KbQuestion]) -> list[dict]:
    """What the user reads at each bonus for sentences in the question's language: answers quoted in
    that language, answers that quote the labelled evidence, and answers read first that are right."""

    rows = []
    for bonus in LANG_BONUSES:
        summary = run_kb_suite(questions, retriever, corpus_dir, replace(policy, answer_lang_bonus=bonus),
                               progress=False)["summary"]["dev"]
        rows.append({"bonus": bonus, "in_question_lang": summary["answer_in_question_lang"]["mean"],
                     "support": summary["answer_support"]["mean"], "answer": summary["answer"]["overall"]["mean"]})
    return rows


def choose_lang_bonus(rows: list[dict]) -> dict:
    """The bonus that quotes most answers in the question's language while costing at most
    MAX_SUPPORT_COST of support and nothing of the answer metric: "nearly as well" made a number."""
    plain = rows[0]
    allowed = [r for r in rows if r["support"] >= plain["support"] - MAX_SUPPORT_COST and r["answer"] >= plain["answer"]]
    return max(allowed, key=lambda r: (r["in_question_lang"], -r["bonus"]))


def lang_bonus_report(rows: list[dict], chosen: dict) -> str:
    lines = ["## Answers in the question's language", "",
             "A sentence written in the question's language gains a bonus when the answer's sentences are chosen. "
             f"Chosen: the bonus that quotes the most answers in the question's language while costing at most "
             f"{MAX_SUPPORT_COST:.0%} of the answers that quote the labelled evidence and none of the answer metric.", "",
             "| bonus | quoted in the question's language | quotes the evidence | answer read first is right |",
             "| --- | --- | --- | --- |"]
    for r in rows:
        mark = " **chosen**" if r is chosen else ""
        lines.append(f"| {r['bonus']:.2f}{mark} | {r['in_question_lang']:.3f} | {r['support']:.3f} | {r['answer']:.3f} |")
    lines += ["", f"Chosen: answer_lang_bonus = {chosen['bonus']}.", ""]
    return "\n".join(lines)
