"""Result files: ``<suite>-<config>.json`` (per-query rows), ``.md`` (report) and ``.png`` (chart)."""

from __future__ import annotations

import json
from pathlib import Path

from kb.evaluation.kb_report import kb_markdown
from kb.evaluation.xquad import SQUAD_NOTE

HEADLINE = ("ndcg@10", "recall@1", "recall@5", "recall@10", "mrr@10")


def _fmt(cell: dict) -> str:
    return f"{cell['mean']:.3f} [{cell['ci_low']:.3f}, {cell['ci_high']:.3f}]"


def _metric_table(blocks: dict[str, dict], metrics: tuple[str, ...], first: str) -> list[str]:
    lines = [f"| {first} | n | " + " | ".join(metrics) + " |", "| --- | --- | " + " | ".join("---" for _ in metrics) + " |"]
    for name, block in blocks.items():
        n = next(iter(block.values()))["n"]
        lines.append(f"| {name} | {n} | " + " | ".join(_fmt(block[m]) for m in metrics) + " |")
    return lines


def write_result(result: dict, results_dir: Path) -> dict[str, Path]:
    """Write the JSON, the Markdown report and the chart; return their paths."""
    results_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{result['suite']}-{result['config']}"
    paths = {"json": results_dir / f"{stem}.json", "md": results_dir / f"{stem}.md", "png": results_dir / f"{stem}.png"}
    # One per-query row per line: readable diffs without a multi-megabyte indented file.
    rows = result.get("rows")
    head = {k: v for k, v in result.items() if k != "rows"}
    text = json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "rows": ' + _rows_json(rows) + "\n}\n"
    paths["json"].write_text(text, encoding="utf-8")
    _chart(result, paths["png"])
    paths["md"].write_text(markdown_report(result, paths["png"].name), encoding="utf-8")
    return paths


def _rows_json(rows) -> str:
    if isinstance(rows, list):
        return "[\n" + ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in rows) + "\n ]"
    parts = []
    for setting, table in rows.items():
        inner = ",\n".join(f"   {json.dumps(k)}: {json.dumps(v)}" for k, v in table.items())
        parts.append(f"  {json.dumps(setting)}: {{\n{inner}\n  }}")
    return "{\n" + ",\n".join(parts) + "\n }"


def markdown_report(result: dict, chart_name: str) -> str:
    head = [f"# {result['suite']} suite, configuration `{result['config']}`", "",
            f"Run {result['run_at']}; model `{result['model']['id']}` (weights {result['model']['weights_hash']}); "
            f"settings overrides `{json.dumps(result['overrides'], default=str)}`.", "",
            "A query with no results scores 0.", ""]
    if result["suite"] == "kb":
        body = kb_markdown(result)
    else:
        body = [f"> {SQUAD_NOTE}", "", "Means with 95% confidence intervals from a cluster bootstrap over the 1,190 "
                "questions (each asked in three languages: the three rows of one question resample together).", ""]
        for name, block in result["settings"].items():
            body += [f"## {name}", "", *_metric_table({"overall": block["overall"]}, HEADLINE + ("map@20",), "queries"), "",
                     *_metric_table(block["by_pair"], ("ndcg@10", "recall@10", "map@20"), "pair"), ""]
            if "x2y_mean_ndcg@10" in block:
                body += [f"Mean nDCG@10 over the six X->Y pairs: {block['x2y_mean_ndcg@10']:.3f}", ""]
        own = result["own_language_first_in_pool"]
        lat = result["latency"]
        body += ["## Language bias", "", "Share of questions whose top pool result is in the question's own language: " +
                 ", ".join(f"{k} {v:.1%}" for k, v in own.items()) + ".", "",
                 "## Latency", "", f"One question at a time (embed + exact search over 720): median {lat['median_ms']} ms, "
                 f"p95 {lat['p95_ms']} ms over {lat['n']} questions.", ""]
    return "\n".join(head + body + [f"![per language pair]({chart_name})", ""])


def _chart(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if result["suite"] == "kb":
        groups = {split: result["summary"][split]["retrieval"]["by_pair"] for split in ("test", "dev")
                  if split in result["summary"]}
    else:
        groups = {name: block["by_pair"] for name, block in result["settings"].items()}
    labels, values, lows, highs, colors = [], [], [], [], []
    palette = ["#3b6ea8", "#d08c2b", "#4c9a5b", "#a84e4e"]
    for g, (name, pairs) in enumerate(groups.items()):
        for pair, block in pairs.items():
            cell = block["ndcg@10"]
            labels.append(f"{name} {pair}".strip())
            values.append(cell["mean"])
            lows.append(cell["mean"] - cell["ci_low"])
            highs.append(cell["ci_high"] - cell["mean"])
            colors.append(palette[g % len(palette)])
    fig, ax = plt.subplots(figsize=(max(6, 0.45 * len(labels) + 2), 4.2), dpi=110)
    ax.bar(range(len(values)), values, yerr=[lows, highs], color=colors, capsize=3)
    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("nDCG@10 (95% CI)")
    ax.set_title(f"{result['suite']} / {result['config']}: nDCG@10 by question -> document language")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def comparison_table(a: dict, b: dict, tests: dict) -> str:
    """Markdown table of A vs B per language pair, with paired p-values."""
    lines = [f"| pair | metric | {a['config']} | {b['config']} | diff | p (paired) |", "| --- | --- | --- | --- | --- | --- |"]
    for (pair, metric), (mean_a, mean_b, p) in tests.items():
        lines.append(f"| {pair} | {metric} | {mean_a:.3f} | {mean_b:.3f} | {mean_b - mean_a:+.3f} | {p:.4f} |")
    return "\n".join(lines)
