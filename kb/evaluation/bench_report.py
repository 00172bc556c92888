"""`kb bench` end to end: run every measurement, then write eval/results/bench.{json,md,png}."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
from pathlib import Path

from kb.evaluation.bench import bench_questions, in_process
from kb.evaluation.load import ask_bodies, rss_mb, run_wrk, serving, worker_rss_mb
from kb.settings import EncoderRuntime, Settings

CONCURRENCIES = (1, 4, 16, 32)
REPEATED_SET = 50  # distinct questions in the "cache on" traffic: a busy FAQ page's few favourites
TODAY = {"runtime": "torch", "workers": 1, "cache": False}  # the service as the issue found it (no batcher)


def http_configs(default_runtime: EncoderRuntime, window_ms: float) -> list[dict]:
    """Today's service first (the reference of every ratio), then the chosen runtime with each knob
    moved one at a time: workers, encoder threads per worker, the batch window, int8, the cache."""
    rt = str(default_runtime)
    chosen = {"runtime": rt, "workers": 2, "cache": False, "threads": 1, "window_ms": window_ms}
    return [{**TODAY, "threads": None, "window_ms": 0.0},
            {**chosen, "workers": 1, "threads": 1},
            {**chosen, "workers": 1, "threads": 2},
            {**chosen},
            {**chosen, "threads": 2},
            {**chosen, "window_ms": 0.0},
            {**chosen, "runtime": str(EncoderRuntime.ONNX_INT8)},
            {**chosen, "cache": True}]


def config_name(config: dict) -> str:
    threads = f", {config['threads']} thread{'s' if config['threads'] > 1 else ''}" if config.get("threads") else ""
    window = f", window {config['window_ms']:g} ms" if config.get("window_ms") else ", no batching"
    return f"{config['runtime']}, {config['workers']} worker{'s' if config['workers'] > 1 else ''}{threads}" \
           f"{window}, cache {'on' if config['cache'] else 'off'}"


def over_http(settings: Settings, seconds: float, progress=print) -> list[dict]:
    questions = [q for q, _ in bench_questions()]
    distinct = ask_bodies(questions)
    repeated = ask_bodies(questions[:REPEATED_SET])
    rows = []
    for config in http_configs(settings.encoder_runtime, settings.batch_window_ms):
        env = {"KB_ENCODER_RUNTIME": config["runtime"], "KB_ANSWER_CACHE_SIZE": "4096" if config["cache"] else "0",
               "KB_RATE_LIMIT_PER_MINUTE": "100000000", "KB_INDEX_DIR": str(settings.index_dir),
               "KB_ACCESS_LOG": "false", "KB_BATCH_WINDOW_MS": str(config["window_ms"])}
        if config["threads"]:
            env["KB_ENCODER_THREADS" if config["runtime"] != "torch" else "KB_TORCH_THREADS"] = str(config["threads"])
        progress(f"HTTP: {config_name(config)}")
        with serving(env, config["workers"]) as (port, pid):
            bodies = repeated if config["cache"] else distinct
            run_wrk(port, bodies, 4, 2.0)  # warm-up: first requests load lazily and fill the cache
            runs = [run_wrk(port, bodies, c, seconds) for c in CONCURRENCIES]
            rows.append({**config, "name": config_name(config), "rss_mb": rss_mb(pid),
                         "worker_rss_mb": worker_rss_mb(pid), "runs": runs})
    return rows


def ratios(result: dict) -> dict:
    by = {r["runtime"]: r for r in result["in_process"]["runtimes"]}
    plain = result["in_process"]["plain"]["ask"]["p50_ms"]
    out = {"in_process_p50_vs_plain": {k: round(plain / v["ask"]["p50_ms"], 2) for k, v in by.items()},
           "in_process_p50_vs_torch": {k: round(by["torch"]["ask"]["p50_ms"] / v["ask"]["p50_ms"], 2)
                                       for k, v in by.items()} if "torch" in by else {}}
    http = result.get("http") or []
    if http:
        base = {r["concurrency"]: r["rps"] for r in http[0]["runs"]}
        out["http_rps_vs_today"] = {r["name"]: {str(run["concurrency"]): round(run["rps"] / base[run["concurrency"]], 2)
                                                for run in r["runs"]} for r in http}
    return out


def run_bench(settings: Settings, results_dir: Path, seconds: float = 5.0, http: bool = True,
              runtimes: list[EncoderRuntime] | None = None, progress=print) -> dict:
    runtimes = runtimes or list(EncoderRuntime)
    result = {"run_at": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat(),
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "platform": platform.platform()},
              "default_runtime": str(settings.encoder_runtime), "seconds_per_run": seconds,
              "in_process": in_process(settings, runtimes, progress)}
    if http:
        result["http"] = over_http(settings, seconds, progress)
    result["ratios"] = ratios(result)
    results_dir.mkdir(parents=True, exist_ok=True)
    (results_dir / "bench.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (results_dir / "bench.md").write_text(bench_markdown(result), encoding="utf-8")
    if http:
        plot(result, results_dir / "bench.png")
    return result


def bench_markdown(result: dict) -> str:
    ip = result["in_process"]
    lines = ["# Benchmark", "",
             f"Run {result['run_at']} on {result['machine']['cpus']} CPUs (`kb bench`, one invocation); "
             f"{ip['questions']} distinct questions of the evaluation set; default runtime "
             f"`{result['default_runtime']}`. Ratios compare rows of this one run.", "",
             "## In process: one whole `ask`", "",
             "| runtime | p50 | p95 | p99 | encoder alone, p50 | plain pipeline p50 / this p50 |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in ip["runtimes"]:
        a = r["ask"]
        lines.append(f"| {r['runtime']} | {a['p50_ms']} ms | {a['p95_ms']} ms | {a['p99_ms']} ms | "
                     f"{r['encode']['p50_ms']} ms | {r['vs_plain_p50']}x |")
    p = ip["plain"]["ask"]
    lines += [f"| plain pipeline (600-character chunks, torch, FAISS flat, top 5; {ip['plain']['chunks']} chunks) | "
              f"{p['p50_ms']} ms | {p['p95_ms']} ms | {p['p99_ms']} ms | – | 1.00x |", ""]
    lines += profile_lines(ip["runtimes"])
    lines += target_lines(result)
    for http in result.get("http") or []:
        if http is (result.get("http") or [None])[0]:
            lines += ["## Over HTTP (`kb serve`, wrk on loopback, "
                      f"{result['seconds_per_run']} s a run)", "",
                      "| configuration | concurrency | req/s | p50 | p99 | errors | vs today's req/s |",
                      "| --- | --- | --- | --- | --- | --- | --- |"]
        vs = result["ratios"]["http_rps_vs_today"][http["name"]]
        for run in http["runs"]:
            lines.append(f"| {http['name']} | {run['concurrency']} | {run['rps']} | {run['p50_ms']} ms | "
                         f"{run['p99_ms']} ms | {run['errors']} | {vs[str(run['concurrency'])]}x |")
    if result.get("http"):
        lines += ["", "Memory (resident, all processes of one `kb serve`):", ""]
        lines += [f"- {h['name']}: {h['rss_mb']} MB" + (f" (workers {h['worker_rss_mb']} MB)" if h["workers"] > 1 else "")
                  for h in result["http"]]
        lines += ["", "![throughput against concurrency](bench.png)"]
    return "\n".join(lines) + "\n"


def profile_lines(runtimes: list[dict]) -> list[str]:
    """Where an in-process question's time goes, per runtime (p50 of each stage, from ``ask``'s observer)."""
    rows = [r for r in runtimes if "stages" in r]
    if not rows:
        return []
    lines = ["Where the time goes (p50 per stage; retrieve includes encoding, so search, BM25, calibration and "
             "ranking are retrieve minus encode):", "",
             "| runtime | encode | retrieve | of which not encoding | compose (answer, citations, spec lookup) |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        enc, ret, comp = r["encode"]["p50_ms"], r["stages"]["retrieve"]["p50_ms"], r["stages"]["compose"]["p50_ms"]
        lines.append(f"| {r['runtime']} | {enc} ms | {ret} ms | {round(ret - enc, 2)} ms | {comp} ms |")
    return lines + [""]


def _http_run(result: dict, name_has: str, concurrency: int) -> dict | None:
    for http in result.get("http") or []:
        if name_has in http["name"]:
            return next((r for r in http["runs"] if r["concurrency"] == concurrency), None)
    return None


def target_lines(result: dict) -> list[str]:
    """Issue 15's targets against this run's figures, met or not, and what bounds a missed one."""
    ip = result["in_process"]
    row = next(r for r in ip["runtimes"] if r["runtime"] == result["default_runtime"])
    a, enc = row["ask"], row["encode"]["p50_ms"]
    plain = ip["plain"]["ask"]["p50_ms"]
    ok = {True: "met", False: "missed"}
    lines = ["## Targets (2 cores)", "", "| target | measured | |", "| --- | --- | --- |",
             f"| in-process p50 <= 5 ms, p99 <= 15 ms | p50 {a['p50_ms']} ms, p99 {a['p99_ms']} ms | "
             f"{ok[a['p50_ms'] <= 5 and a['p99_ms'] <= 15]} |",
             f"| >= 3x faster than the plain pipeline | {round(plain / a['p50_ms'], 2)}x | {ok[plain / a['p50_ms'] >= 3]} |"]
    off16, off4 = _http_run(result, "2 workers, 1 thread, window", 16), _http_run(result, "2 workers, 1 thread, window", 4)
    on16 = _http_run(result, "cache on", 16)
    if off16 and off4 and on16:
        lines += [f"| cache off, c16, 2 workers: >= 250 req/s, p99 <= 150 ms, 0 errors | {off16['rps']} req/s, p99 "
                  f"{off16['p99_ms']} ms, {off16['errors']} errors | "
                  f"{ok[off16['rps'] >= 250 and off16['p99_ms'] <= 150 and not off16['errors']]} |",
                  f"| no collapse: c16 >= 90% of c4 | {round(100 * off16['rps'] / off4['rps'])}% | "
                  f"{ok[off16['rps'] >= 0.9 * off4['rps']]} |",
                  f"| cache on, c16: >= 1,500 req/s, 0 errors | {on16['rps']} req/s, {on16['errors']} errors | "
                  f"{ok[on16['rps'] >= 1500 and not on16['errors']]} |"]
    # The bound: two cores can answer at most 2000 / (CPU ms per question) a second, before any HTTP cost.
    cpu_bound = round(2000 / a["p50_ms"])
    lines += ["", f"What bounds the misses: encoding the question is {enc} ms of the {a['p50_ms']} ms in-process "
              f"p50 (the e5-small forward pass in fp32 ONNX; int8 is faster but moves the vectors past the agreement "
              f"bound), so 5 ms is out of reach without a smaller model. With about {a['p50_ms']} ms of CPU per "
              f"question, two cores answer at most about {cpu_bound} distinct questions a second before any HTTP, "
              "JSON or scheduling cost, which is why cache-off throughput stops short of 250 req/s. Cache-on "
              "throughput is bound by the HTTP stack itself (uvicorn + Litestar on two cores, shared with wrk).", ""]
    return lines


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for http in result["http"]:
        xs = [r["concurrency"] for r in http["runs"]]
        ax.plot(xs, [r["rps"] for r in http["runs"]], marker="o", label=http["name"])
    plain = result["in_process"]["plain"]["ask"]["p50_ms"]
    ax.axhline(1000.0 / plain, color="grey", linestyle="--",
               label=f"plain pipeline, in process, one at a time ({1000.0 / plain:.0f}/s)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("concurrent connections")
    ax.set_ylabel("answers per second")
    ax.set_title("kb serve throughput (loopback, 2 cores)")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def summary_lines(result: dict) -> list[str]:
    ip = result["in_process"]
    lines = [f"{row['runtime']:24s} ask p50 {row['ask']['p50_ms']:6.2f} ms  p99 {row['ask']['p99_ms']:6.2f} ms"
             for row in ip["runtimes"] + [ip["plain"]]]
    lines += [http["name"] + ": " + ", ".join(f"c{r['concurrency']} {r['rps']:.0f}/s" for r in http["runs"])
              for http in result.get("http", [])]
    return lines
