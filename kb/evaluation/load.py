"""HTTP load for `kb bench`: a real ``kb serve`` on a free loopback port, driven by ``wrk``.

``wrk`` (Debian's package; ``make bench`` installs it) holds a fixed number
of connections open for a fixed time and reports throughput and latency
percentiles; a small Lua script gives every request its own question from a
list, so "distinct questions" really are distinct until the list wraps.
Only loopback is ever addressed, and every run is bounded by its duration.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager, suppress
from pathlib import Path

LUA = r"""
local bodies = {}
local n = 0
for line in io.lines(os.getenv("KB_BENCH_BODIES")) do n = n + 1; bodies[n] = line end
local i = 0
request = function()
  i = i % n + 1
  return wrk.format("POST", "/v1/ask", {["Content-Type"] = "application/json"}, bodies[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'KB_BENCH {"requests": %d, "duration_us": %d, "non2xx": %d, "connect": %d, "read": %d, "write": %d, '
    .. '"timeout": %d, "p50_us": %d, "p95_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
"""


def require_wrk() -> str:
    path = shutil.which("wrk")
    if path is None:
        raise RuntimeError("the HTTP benchmark needs `wrk`: install it with `make bench-tools` "
                           "(Debian's package: apt-get install wrk)")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@contextmanager
def serving(env: dict[str, str], workers: int, start_timeout: float = 180.0, port: int | None = None,
            log_path: Path | None = None):
    """``kb serve`` in a child process; yields its port and pid, stops it (SIGTERM, then SIGKILL).
    Its output goes to ``log_path`` when given (to measure it), to a temporary file otherwise."""
    port = port or free_port()
    # INFO for uvicorn's start-up lines (each worker says when it is up); access lines stay off if asked.
    full = {**os.environ, **env, "KB_PORT": str(port), "KB_HOST": "127.0.0.1", "KB_WORKERS": str(workers),
            "KB_LOG_LEVEL": "info"}
    # O_APPEND: our reads never move where the child writes
    log = log_path.open("a+b") if log_path else tempfile.TemporaryFile(mode="a+b")
    child = subprocess.Popen([sys.executable, "-m", "kb.cli", "serve"], env=full, stdout=log, stderr=log,
                             start_new_session=True)
    try:
        deadline = time.monotonic() + start_timeout
        # Ready means every worker has loaded its index: the first one up would otherwise take all the load.
        while not (_ready(port) and _started(log) >= workers):
            if child.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError(f"kb serve did not become ready: {log.read()[-2000:].decode(errors='replace')}")
            time.sleep(0.25)
        yield port, child.pid
    finally:
        try:
            with suppress(ProcessLookupError):  # it may have exited already (a failed start)
                os.killpg(child.pid, signal.SIGTERM)
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
                child.wait()
        finally:
            log.close()


def _started(log) -> int:
    log.seek(0)
    return log.read().count(b"Application startup complete")


def worker_rss_mb(pid: int) -> list[float]:
    """Resident memory of a process's children (uvicorn's workers), in MB each."""
    out = subprocess.run(["ps", "-o", "rss=", "--ppid", str(pid)], capture_output=True, text=True).stdout.split()
    return [round(int(x) / 1024.0, 1) for x in out]


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children, in MB."""
    own = subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True).stdout.split()
    return round(sum(int(x) for x in own) / 1024.0 + sum(worker_rss_mb(pid)), 1)


def run_wrk(port: int, bodies: list[str], connections: int, seconds: float, timeout_s: float = 5.0) -> dict:
    """One bounded wrk run; returns throughput, latency percentiles and error counts."""
    wrk = require_wrk()
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "bench.lua"
        script.write_text(LUA, encoding="utf-8")
        body_file = Path(tmp) / "bodies.jsonl"
        body_file.write_text("\n".join(bodies) + "\n", encoding="utf-8")
        done = subprocess.run([wrk, "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", f"--timeout={max(1, round(timeout_s))}s",
                               "-s", str(script), f"http://127.0.0.1:{port}"],
                              env={**os.environ, "KB_BENCH_BODIES": str(body_file)},
                              capture_output=True, text=True, timeout=seconds + 60)
    line = next((x for x in done.stdout.splitlines() if x.startswith("KB_BENCH ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no summary: {done.stdout[-1000:]} {done.stderr[-1000:]}")
    raw = json.loads(line.removeprefix("KB_BENCH "))
    errors = raw["non2xx"] + raw["connect"] + raw["read"] + raw["write"] + raw["timeout"]
    return {"concurrency": connections, "requests": raw["requests"],
            "rps": round(raw["requests"] / (raw["duration_us"] / 1e6), 1), "errors": errors,
            "p50_ms": round(raw["p50_us"] / 1000, 2), "p95_ms": round(raw["p95_us"] / 1000, 2),
            "p99_ms": round(raw["p99_us"] / 1000, 2), "max_ms": round(raw["max_us"] / 1000, 2)}


def ask_bodies(questions: list[str], top_k: int = 5) -> list[str]:
    return [json.dumps({"question": q, "top_k": top_k}, ensure_ascii=False) for q in questions]
