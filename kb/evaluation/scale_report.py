"""The reports of `kb bench --scale` (scale.{md,json,png}) and `kb bench --reliability` (reliability.{md,json})."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def run_suite(kind: str, settings, folder: Path, seconds: float) -> int:
    if kind == "reliability":
        from kb.evaluation.reliability import run_reliability, write_report

        outcome = run_reliability(settings.index_dir, seconds=seconds, examples=100)
        print(write_report(outcome, folder).read_text(encoding="utf-8"))
        return 1 if outcome["failures"] else 0
    from kb.evaluation.scale import run_scale

    result = run_scale(settings, progress=lambda line: print(line, file=sys.stderr))
    print(write_scale_report(result, folder).read_text(encoding="utf-8"))
    return 0


def write_scale_report(result: dict, folder: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "scale.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    sizes = sorted({r["n"] for r in result["vectors"]})
    fig, axes = plt.subplots(1, len(sizes), figsize=(6 * len(sizes), 4.2), squeeze=False)
    for ax, n in zip(axes[0], sizes, strict=True):
        for r in (r for r in result["vectors"] if r["n"] == n):
            ax.scatter(r["p50_ms"], r["recall_at_10"], s=40)
            ax.annotate(r["variant"], (r["p50_ms"], r["recall_at_10"]), fontsize=7, xytext=(4, 2),
                        textcoords="offset points")
        ax.axhline(0.95, color="grey", lw=0.8, ls="--")
        ax.set_xscale("log")
        ax.set(title=f"{n:,} chunks", xlabel="search p50, ms (one thread, log scale)", ylabel="recall@10 vs exact")
    fig.tight_layout()
    fig.savefig(folder / "scale.png", dpi=110)
    plt.close(fig)
    lines = ["# Scale: FAISS variants and BM25 at 100k and 1M chunks", "",
             "`kb bench --scale` (kb/evaluation/scale.py). Synthetic vectors: blends of two of the index's "
             f"{result['sample_vectors']:,} real chunk and sentence vectors plus noise (sd {result['noise']} per "
             f"dimension), re-normalized; {result['queries']} evaluation questions embedded by the real encoder as "
             "queries. Latency is one query at a time on one thread, as a serving worker searches; recall@10 "
             "is against exact search on the same vectors.", "", "![recall against latency](scale.png)", "",
             "| chunks | index | recall@10 | p50 ms | p99 ms | bytes/vector | build s | load s |",
             "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    lines += [f"| {r['n']:,} | {r['variant']} | {r['recall_at_10']:.3f} | {r['p50_ms']} | {r['p99_ms']} | "
              f"{r['bytes_per_vector']:.0f} | {r['build_s']} | {r['load_s']} |" for r in result["vectors"]]
    lines += ["", "BM25 (bm25s) on documents sampled from the real chunks' tokens, each with a made-up name; a "
              "query scores the question's tokens three times, as the retriever does (its language, then the "
              "other two):", "", "| chunks | vocabulary | build s | query p50 ms | query p99 ms |",
              "| ---: | ---: | ---: | ---: | ---: |"]
    lines += [f"| {b['n']:,} | {b['vocabulary']:,} | {b['build_s']} | {b['p50_ms']} | {b['p99_ms']} |"
              for b in result["bm25"]]
    lines += ["", "Retrieval without encoding, with the index `kb build` chooses at that size (kb/vector_index.py): "
              "the dense candidates (all chunks when exact), BM25 three times and the whole-corpus array work "
              "(floors, the calibration's affine map, fusion, the top 50), one query at a time:", "",
              "| chunks | chosen index | build s | p50 ms | p99 ms |", "| ---: | --- | ---: | ---: | ---: |"]
    lines += [f"| {p['n']:,} | {p['index']['factory']} {p['index']['params'] or ''} | {p['build_s']} | "
              f"{p['p50_ms']} | {p['p99_ms']} |" for p in result["path"]]
    path = folder / "scale.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
