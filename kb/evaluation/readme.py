"""Evaluation figures in README.md and eval/README.md, rendered from ``eval/results/*.json``.

A document marks a generated block with ``<!-- eval:NAME -->`` ... ``<!-- /eval:NAME -->``;
``kb eval --readme`` rewrites every block from the committed results, and a test fails when a block
differs from what the results say, so no figure is ever typed by hand.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from kb.evaluation.kb_report import SPLITS, fmt, headline
from kb.settings import PROJECT_ROOT

DOCUMENTS = (PROJECT_ROOT / "README.md", PROJECT_ROOT / "eval" / "README.md")
BLOCK = re.compile(r"(<!-- eval:(?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /eval:(?P=name) -->)", re.S)
DEFAULT = "e5-small"
KB_CONFIGS = {"e5-small": "e5-small, hybrid (default)", "e5-small-dense": "e5-small, dense only",
              "e5-small-lexical": "e5-small, lexical only", "use-m3": "use-m3, hybrid",
              "e5-use-concat": "e5-use-concat, hybrid", "e5-small-torch": "e5-small, questions on torch",
              "e5-small-int8": "e5-small, questions on onnx-int8"}
XQUAD_CONFIGS = {"e5-small": "e5-small (default: questions on onnx)", "e5-small-torch": "e5-small, questions on torch",
                 "e5-small-int8": "e5-small, questions on onnx-int8", "use-m3": "use-m3", "e5-use-concat": "e5-use-concat"}


def _load(results: Path, name: str) -> dict:
    return json.loads((results / f"{name}.json").read_text(encoding="utf-8"))


def _mean(cell: dict) -> str:
    return f"{cell['mean']:.3f}" if cell.get("n") else "–"


def headline_block(results: Path) -> str:
    r = _load(results, f"kb-{DEFAULT}")
    s = r["summary"]
    figures = {split: headline(s[split]) for split in SPLITS}
    lines = [f"| figure | {SPLITS['test']} | {SPLITS['dev']} |", "| --- | --- | --- |"]
    lines += [f"| {name} | {fmt(figures['test'][name])} | {fmt(figures['dev'][name])} |" for name in figures["test"]]
    t, d = s["test"]["counts"], s["dev"]["counts"]
    x = _load(results, f"xquad-r-{DEFAULT}")["settings"]
    mono = " / ".join(_mean(x["mono_hybrid"]["by_pair"][f"{lang}->{lang}"]["ndcg@10"]) for lang in ("en", "ru", "zh"))
    lines += ["", f"Default configuration (`{DEFAULT}`, hybrid), {r['run_at'][:10]}; 95% intervals from a cluster "
              f"bootstrap over information needs. `test`: {t['questions']} questions ({t['needs']} needs, "
              f"{t['blind']} written blind, {t['unanswerable']} unanswerable), never read by the sweep or the "
              f"calibration (a test miss may show a kind of failure to fix in general, measured on dev and blind "
              f"sets first); `dev`: "
              f"{d['questions']} questions ({d['needs']} needs), which the sweep and every curation step read, so "
              f"its figures are in-sample. Median latency of a whole `ask` in process: {r['latency']['median_ms']} ms.",
              "", f"XQuAD-R (nDCG@10, the service's hybrid scoring): pool {_mean(x['pool_hybrid']['overall']['ndcg@10'])}, "
              f"X->Y mean {x['x2y_hybrid']['x2y_mean_ndcg@10']:.3f}, mono en / ru / zh {mono}."]
    return "\n".join(lines)


def configs_block(results: Path) -> str:
    lines = ["| configuration | test nDCG@10 | test Recall@5 | test answer | test spec | test abstention F1 | "
             "dev nDCG@10 | latency (median) |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, label in KB_CONFIGS.items():
        if not (results / f"kb-{name}.json").exists():
            continue
        r = _load(results, f"kb-{name}")
        t, d = r["summary"]["test"], r["summary"]["dev"]
        lines.append(f"| {label} | {fmt(t['retrieval']['overall']['ndcg@10'])} | {fmt(t['retrieval']['overall']['recall@5'])} "
                     f"| {fmt(t['answer']['overall'])} | {fmt(t['spec']['overall'])} | {fmt(t['abstention']['f1'])} | "
                     f"{_mean(d['retrieval']['overall']['ndcg@10'])} | {r['latency']['median_ms']} ms |")
    return "\n".join(lines)


def pairs_block(results: Path) -> str:
    r = _load(results, f"kb-{DEFAULT}")
    pairs = r["summary"]["test"]["retrieval"]["by_pair"]
    lines = ["| pair (test) | questions | needs | nDCG@10 | Recall@5 |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {p} | {b['ndcg@10']['n']} | {b['ndcg@10']['clusters']} | {fmt(b['ndcg@10'])} | {fmt(b['recall@5'])} |"
              for p, b in pairs.items()]
    return "\n".join(lines)


def comparisons_block(results: Path) -> str:
    from kb.evaluation.runner import compare

    base = _load(results, f"kb-{DEFAULT}")
    lines = ["| against the default | test nDCG@10: other / default | p (paired, needs flip together) | "
             "test Recall@5: other / default | p |", "| --- | --- | --- | --- | --- |"]
    for name, label in KB_CONFIGS.items():
        if name == DEFAULT or not (results / f"kb-{name}.json").exists():
            continue
        tests = compare(_load(results, f"kb-{name}"), base)
        nd, r5 = tests[("test overall", "ndcg@10")], tests[("test overall", "recall@5")]
        lines.append(f"| {label} | {nd[0]:.3f} / {nd[1]:.3f} | {nd[2]:.4f} | {r5[0]:.3f} / {r5[1]:.3f} | {r5[2]:.4f} |")
    return "\n".join(lines)


def xquad_block(results: Path) -> str:
    lines = ["| XQuAD-R nDCG@10 | pool: raw / dense / hybrid | pool without own-language copy: raw / dense / hybrid | "
             "X->Y mean: raw / dense / hybrid | mono en / ru / zh, hybrid |", "| --- | --- | --- | --- | --- |"]
    for name, label in XQUAD_CONFIGS.items():
        if not (results / f"xquad-r-{name}.json").exists():
            continue
        x = _load(results, f"xquad-r-{name}")["settings"]

        def three(setting: str, x=x) -> str:
            if setting == "x2y":
                return " / ".join(f"{x[s]['x2y_mean_ndcg@10']:.3f}" for s in ("x2y", "x2y_calibrated", "x2y_hybrid"))
            return " / ".join(_mean(x[s]["overall"]["ndcg@10"]) for s in (setting, f"{setting}_calibrated", f"{setting}_hybrid"))
        mono = " / ".join(_mean(x["mono_hybrid"]["by_pair"][f"{lang}->{lang}"]["ndcg@10"]) for lang in ("en", "ru", "zh"))
        lines.append(f"| {label} | {three('pool')} | {three('pool_no_own')} | {three('x2y')} | {mono} |")
    return "\n".join(lines)


def sweep_block(results: Path) -> str:
    path = results / f"sweep-fusion-{DEFAULT}.json"
    if not path.exists():
        return "(no sweep result yet: run `kb eval --sweep`)"
    data = json.loads(path.read_text(encoding="utf-8"))
    chosen = data["threshold"]
    share = max(data["sentence_share"], key=lambda r: (r["ndcg@10"] + r["recall@5"] + r["dense"]["pool"] + r["dense"]["x2y"]))
    fusion = max(data["fusion"], key=lambda r: (r["ndcg@10"] + r["recall@5"]) / 2)
    lines = [f"The sweep read the `dev` split only ({data['questions']} questions, {data['needs']} needs) and XQuAD-R. "
             f"Its choices: sentence share {share['dense_sentence_share']}, lexical weight "
             f"{fusion['fusion_lexical_weight']}, per-article cap {fusion['max_chunks_per_article']}; the threshold with "
             f"the best abstention F1 that loses no answerable dev question is {chosen['threshold']} "
             f"(recall {chosen['recall']:.3f}, precision {chosen['precision']:.3f})."]
    if chosen.get("range"):
        lines[0] += f" Every threshold in ({chosen['range'][0]:.2f}, {chosen['range'][1]:.2f}] does as well."
    if "domain" in data:
        lines[0] += (f" The domain gate's threshold is {data['domain']['threshold']} (off-topic dev questions declined "
                     f"{data['domain']['off_topic_recall']:.3f}); the bonus for sentences in the question's language is "
                     f"{data['lang_bonus_chosen']['bonus']}.")
    knobs = _load(results, f"kb-{DEFAULT}")["knobs"]
    names = ("dense_sentence_share", "fusion_lexical_weight", "max_chunks_per_article", "fusion_dense_window",
             "lexical_min_match", "diversify_margin", "answer_min_score", "answer_min_domain", "answer_lang_bonus")
    lines.append("The values the default configuration runs with (and every committed result was made with): "
                 + ", ".join(f"{n} {knobs[n]}" for n in names if n in knobs) + f". The full grids are in "
                 f"`eval/results/sweep-fusion-{DEFAULT}.md`.")
    return "\n".join(lines)


def dataset_block(results: Path) -> str:
    from kb.evaluation.datasets import load_kb_questions
    from kb.evaluation.runner import KB_QUESTIONS
    from kb.evaluation.wording import overlap_distribution

    questions = load_kb_questions(KB_QUESTIONS)
    by = Counter((q.split, q.kind) for q in questions)
    kinds = sorted({q.kind for q in questions})
    lines = ["| kind | " + " | ".join(kinds) + " | all | needs |", "| --- | " + " | ".join("---" for _ in kinds) + " | --- | --- |"]
    for split in ("test", "dev"):
        qs = [q for q in questions if q.split == split]
        lines.append(f"| {split} | " + " | ".join(str(by[(split, k)]) for k in kinds) + f" | {len(qs)} | "
                     f"{len({q.need for q in qs})} |")
    langs = Counter(q.lang for q in questions)
    sources = Counter(q.source for q in questions)
    categories = Counter(q.category for q in questions if q.category)
    tags = Counter(t for q in questions for t in q.tags)
    dist = overlap_distribution(questions)
    lines += ["", f"{len(questions)} questions ({', '.join(f'{n} {lang}' for lang, n in sorted(langs.items()))}), "
              f"{len({q.need for q in questions})} information needs; {sources['curated']} curated with the system in "
              f"view, {sources['blind']} written blind. Unanswerable: "
              + ", ".join(f"{n} {c.replace('_', ' ')}" for c, n in sorted(categories.items())) + ". Tags: "
              + ", ".join(f"{t.replace('_', ' ')} {n}" for t, n in sorted(tags.items())) + ".",
              "", f"Word-pair overlap of a question with its evidence or a heading of its article (the share of the "
              f"question's consecutive token pairs found there; {dist['questions']} answerable questions with two or "
              f"more pairs): median {dist['median']:.2f}, 90th percentile {dist['p90']:.2f}, maximum {dist['max']:.2f}; "
              f"a test fails any question at {dist['threshold']:.2f} or more."]
    return "\n".join(lines)


def _cell(block: dict | None) -> str:
    return fmt(block) if block and block.get("n") else "–"


def answers_block(results: Path) -> str:
    """What a user sees, by language, on both splits: the answer read first, spec lookups, abstention."""
    s = _load(results, f"kb-{DEFAULT}")["summary"]
    rows = [("answer read first is right", lambda x, lang: x["answer"]["by_lang"].get(lang)),
            ("off-topic declined", lambda x, lang: x["abstention"]["off_topic"]["by_lang"].get(lang))]
    lines = ["| figure | split | all | en | ru | zh |", "| --- | --- | --- | --- | --- | --- |"]
    for name, get in rows:
        for split in ("test", "dev"):
            overall = s[split]["answer"]["overall"] if name.startswith("answer") else \
                s[split]["abstention"]["off_topic"]["recall"]
            lines.append(f"| {name} | {split} | {_cell(overall)} | "
                         + " | ".join(_cell(get(s[split], lang)) for lang in ("en", "ru", "zh")) + " |")
    lines += ["", "| figure | test (held out) | dev |", "| --- | --- | --- |"]
    single = [("spec: right entity, value and unit", lambda x: x["spec"]["overall"]),
              ("spec, attributes added by the readers (tag new_attribute)", lambda x: x["spec"]["new_attribute"]),
              ("near misses declined", lambda x: x["abstention"]["near_miss"]["recall"]),
              ("answerable wrongly declined", lambda x: x["abstention"]["answerable_declined"]),
              ("answers quoted in the question's language", lambda x: x.get("answer_in_question_lang"))]
    lines += [f"| {name} | {_cell(get(s['test']))} | {_cell(get(s['dev']))} |" for name, get in single]
    return "\n".join(lines)


def coverage_block(results: Path) -> str:
    r = _load(results, "spec-coverage")
    k = r["kinds"]
    return (f"{r['statements']} number-with-unit statements about named entities (tables "
            f"{sum(r['by_origin']['table'].values())}, prose {sum(r['by_origin']['prose'].values())}): "
            f"{k.get('fact', 0)} facts, {k.get('candidate', 0)} candidates for curators, {k.get('judged', 0)} skipped "
            f"as not a specification, {k.get('unresolved', 0)} unresolved; facts, candidates or judged skips "
            f"{r['accounted']:.1%} (target {r['target']:.0%}). Details: `eval/results/spec-coverage.md`.")


def bench_block(results: Path) -> str:
    r = _load(results, "bench")
    ip = r["in_process"]
    by = {row["runtime"]: row for row in ip["runtimes"]}
    plain = ip["plain"]["ask"]
    lines = [f"Measured by `kb bench` ({r['run_at'][:10]}, {r['machine']['cpus']} CPUs; `eval/results/bench.md`). "
             f"In process, one whole `ask`: plain pipeline p50 {plain['p50_ms']} ms; "
             + "; ".join(f"{k} p50 {v['ask']['p50_ms']} ms, p99 {v['ask']['p99_ms']} ms ({v['vs_plain_p50']}x the plain "
                         f"pipeline)" for k, v in by.items()) + ".", "",
             "| over HTTP (wrk, loopback) | c=1 | c=4 | c=16 | c=32 | errors |", "| --- | --- | --- | --- | --- | --- |"]
    for http in r.get("http", []):
        runs = {run["concurrency"]: run for run in http["runs"]}
        cells = " | ".join(f"{runs[c]['rps']:.0f}/s" if c in runs else "–" for c in (1, 4, 16, 32))
        lines.append(f"| {http['name']} | {cells} | {sum(run['errors'] for run in http['runs'])} |")
    return "\n".join(lines)


RENDERERS = {"bench": bench_block, "headline": headline_block, "answers": answers_block, "coverage": coverage_block, "configs": configs_block, "pairs": pairs_block,
             "comparisons": comparisons_block, "xquad": xquad_block, "sweep": sweep_block, "dataset": dataset_block}


def render(text: str, results: Path) -> str:
    def block(match: re.Match) -> str:
        name = match.group("name")
        if name not in RENDERERS:
            raise ValueError(f"unknown generated block eval:{name}; known: {', '.join(RENDERERS)}")
        return f"{match.group(1)}{RENDERERS[name](results).rstrip()}\n{match.group(4)}"
    return BLOCK.sub(block, text)


def render_documents(results: Path, check: bool = False, documents=DOCUMENTS) -> list[tuple[Path, bool]]:
    """Rewrite every generated block (with ``check``, only compare); (document, whether it changed)."""
    out = []
    for path in documents:
        text = path.read_text(encoding="utf-8")
        new = render(text, results)
        if new != text and not check:
            path.write_text(new, encoding="utf-8")
        out.append((path, new != text))
    return out
