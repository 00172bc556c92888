"""The reliability suite against a real ``kb serve`` on loopback: `kb bench --reliability` writes
eval/results/reliability.{md,json}; tests/test_reliability.py runs a shorter pass in `make test`.

Four checks, each bounded in requests and time: schemathesis with every
check against the service's own OpenAPI document; a wrk load at
concurrency 32 with a health probe answering throughout; 200 clients that
stall mid-request while others are served (and are then cut off); and
refused requests, whose log bytes per request are measured.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from kb.evaluation.bench import bench_questions
from kb.evaluation.load import ask_bodies, run_wrk, serving

STALLED_CLIENTS = 200
REFUSED_REQUESTS = 1000
READ_TIMEOUT_S = 3


def _probe(port: int, path: str = "/healthz", timeout: float = 5.0) -> float | None:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as response:
            response.read()
            return time.perf_counter() - started if response.status == 200 else None
    except OSError:
        return None


def schemathesis_check(port: int, examples: int) -> dict:
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    if st is None:
        raise RuntimeError("schemathesis is missing: `make install` installs it (the project's dev extra)")
    done = subprocess.run([st, "run", f"http://127.0.0.1:{port}/schema/openapi.json", "--checks", "all",
                           "--max-examples", str(examples), "--seed", "1", "--no-color"],
                          capture_output=True, text=True, timeout=600)
    found = re.search(r"(\d+) generated, (?:(\d+) found (\d+) unique failures?|(\d+) passed)", done.stdout)
    generated = int(found.group(1)) if found else 0
    failures = int(found.group(3)) if found and found.group(3) else (0 if found else -1)
    return {"generated": generated, "failures": failures, "exit_code": done.returncode,
            "tail": done.stdout[-3000:] if done.returncode else ""}


LOAD_CONNECTIONS = 32


def load_check(port: int, seconds: float) -> dict:
    probes: list[float | None] = []
    stop = threading.Event()

    def probe() -> None:
        while not stop.is_set() and len(probes) < 10_000:
            probes.append(_probe(port))
            time.sleep(0.1)

    prober = threading.Thread(target=probe)
    prober.start()
    try:
        result = run_wrk(port, ask_bodies([q for q, _ in bench_questions()]), LOAD_CONNECTIONS, seconds, timeout_s=10)
    finally:
        stop.set()
        prober.join(30)
    answered = [p for p in probes if p is not None]
    return {**result, "health_probes": len(probes), "health_failed": len(probes) - len(answered),
            "health_max_ms": round(max(answered) * 1000, 1) if answered else None}


def stalled_clients_check(port: int) -> dict:
    """Clients that send half a request and wait: others are still served, and each is cut off with a 408."""
    stalled = []
    for n in range(STALLED_CLIENTS):
        conn = socket.create_connection(("127.0.0.1", port), timeout=READ_TIMEOUT_S + 5)
        conn.sendall(b"POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n"
                     b"{\"question\": " if n % 2
                     else b"GET /healthz HTTP/1.1\r\nHo")
        stalled.append(conn)
    health = _probe(port)
    ask = urllib.request.Request(f"http://127.0.0.1:{port}/v1/ask", method="POST",
                                 data=json.dumps({"question": "Сколько памяти у Gaudi2?"}).encode(),
                                 headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(ask, timeout=10) as response:
        asked = response.status
    ask_s = time.perf_counter() - started
    cut_off = 0
    for conn in stalled:
        try:
            cut_off += conn.recv(64).startswith(b"HTTP/1.1 408")
        except OSError:
            pass
        finally:
            conn.close()
    return {"stalled": STALLED_CLIENTS, "cut_off_with_408": cut_off, "health_ms_while_stalled":
            round(health * 1000, 1) if health else None, "ask_status_while_stalled": asked,
            "ask_ms_while_stalled": round(ask_s * 1000, 1)}


def refused_check(port: int, log_path: Path) -> dict:
    """Refused requests of three kinds over one kept-alive connection; the log bytes they cost."""
    before = log_path.stat().st_size
    bad = [b"POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n{",
           b"GET /no-such-page HTTP/1.1\r\nHost: x\r\n\r\n", b"GET /healthz HTTP/1.1\r\nHost: x:abc\r\n\r\n"]
    statuses: dict[str, int] = {}
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        reader = conn.makefile("rb")
        for n in range(REFUSED_REQUESTS):
            conn.sendall(bad[n % 3])
            status = reader.readline().split()[1].decode()
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            reader.read(length)
            statuses[status] = statuses.get(status, 0) + 1
    time.sleep(0.5)
    logged = log_path.stat().st_size - before
    return {"requests": REFUSED_REQUESTS, "statuses": statuses, "log_bytes": logged,
            "log_bytes_per_request": round(logged / REFUSED_REQUESTS, 2)}


def run_reliability(index_dir: Path, seconds: float = 10.0, examples: int = 100) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "serve.log"
        env = {"KB_INDEX_DIR": str(index_dir), "KB_FEEDBACK_DB": str(Path(tmp) / "feedback.sqlite3"),
               "KB_RATE_LIMIT_PER_MINUTE": "1000000", "KB_ACCESS_LOG": "true",
               "KB_REQUEST_READ_TIMEOUT_S": str(READ_TIMEOUT_S), "KB_MAX_CONNECTIONS": "1024"}
        with serving(env, workers=1, log_path=log_path) as (port, _):
            # refused requests first: later checks also send some, and the log budget is per minute
            refused = refused_check(port, log_path)
            result = {"schemathesis": schemathesis_check(port, examples), "load": load_check(port, seconds),
                      "stalled_clients": stalled_clients_check(port), "refused": refused}
            result["server_errors_logged"] = log_path.read_bytes().count(b"Traceback")
    result["failures"] = failures(result)
    return result


def failures(result: dict) -> list[str]:
    """What a reliability run got wrong; empty when it held."""
    out = []
    if result["schemathesis"]["failures"] != 0 or result["schemathesis"]["exit_code"] != 0:
        out.append(f"schemathesis: {result['schemathesis']['failures']} failures")
    load = result["load"]
    if load["errors"] or load["health_failed"]:
        out.append(f"load: {load['errors']} errors, {load['health_failed']} failed health probes")
    stalled = result["stalled_clients"]
    if stalled["ask_status_while_stalled"] != 200 or stalled["health_ms_while_stalled"] is None \
            or stalled["cut_off_with_408"] != stalled["stalled"]:
        out.append(f"stalled clients: {stalled}")
    refused = result["refused"]
    if set(refused["statuses"]) - {"400", "404"} or refused["log_bytes_per_request"] > 10:
        out.append(f"refused requests: {refused}")
    if result["server_errors_logged"]:
        out.append(f"{result['server_errors_logged']} tracebacks in the server log")
    return out


def write_report(result: dict, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "reliability.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    st, load, stalled, refused = result["schemathesis"], result["load"], result["stalled_clients"], result["refused"]
    lines = [
        "# Reliability", "",
        "`kb bench --reliability` (kb/evaluation/reliability.py): one real `kb serve` on loopback, default "
        "settings (the answer cache on) except the read deadline (3 s) and the rate limit (off: the load comes from one "
        "address). Refused requests are logged up to 20 lines a minute, then summarized.", "",
        f"**Failures: {len(result['failures'])}**" + ("" if not result["failures"] else
                                                      ": " + "; ".join(result["failures"])), "",
        "| check | requests | result |", "| --- | --- | --- |",
        f"| schemathesis, all checks, seed 1 | {st['generated']} | {st['failures']} failures |",
        f"| wrk, concurrency {LOAD_CONNECTIONS}, {load['requests']} questions | {load['requests']} | {load['errors']} errors or "
        f"non-2xx; {load['rps']} req/s, p50 {load['p50_ms']} ms, p99 {load['p99_ms']} ms |",
        f"| health probe during that load | {load['health_probes']} | {load['health_failed']} failed, slowest "
        f"{load['health_max_ms']} ms |",
        f"| {stalled['stalled']} clients stalled mid-request | {stalled['stalled'] + 2} | a question answered in "
        f"{stalled['ask_ms_while_stalled']} ms and /healthz in {stalled['health_ms_while_stalled']} ms meanwhile; "
        f"{stalled['cut_off_with_408']} cut off with 408 |",
        f"| refused requests (malformed JSON, unknown path, bad Host) | {refused['requests']} | statuses "
        f"{refused['statuses']}; {refused['log_bytes']} log bytes, {refused['log_bytes_per_request']} per request |",
        f"| tracebacks in the server log | | {result['server_errors_logged']} |", "",
        "The fault tests (`make test`): kill -9 during `kb build` leaves the old index serving "
        "(tests/test_index.py); 13 kinds of index damage each refused in one line with exit code 2 "
        "(tests/test_hardening.py); a write-locked and an unwritable feedback database while questions are asked; "
        "SIGTERM with a stalled client (tests/test_operations.py); a replica killed with SIGKILL behind nginx "
        "(tests/test_replicas.py); Redis hanging and PostgreSQL down (tests/test_shared_state.py).", ""]
    path = folder / "reliability.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
