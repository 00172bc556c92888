"""Findings of the hostile-client probe, each reproduced: a bad Host, deep JSON, loose types, a locked
feedback database, spoofed X-Forwarded-For, missing security headers, a snippet built from Host."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request

import pytest
from litestar.testing import TestClient

from kb.settings import Settings
from service.guard import valid_host
from service.server import uvicorn_options

ASK = {"question": "Сколько памяти у Gaudi2?", "top_k": 3}


def _problem(response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert "Traceback" not in response.text
    return response.json()


def _client(test_settings, runtime, **overrides):
    from service.app import create_app

    settings = test_settings.model_copy(update=overrides)
    return TestClient(create_app(settings, runtime=dataclasses.replace(runtime, settings=settings)))


@pytest.mark.parametrize("host,ok", [(b"kb.example", True), (b"kb.example:8000", True), (b"127.0.0.1:8000", True),
                                     (b"[::1]:8000", True), (b"kb_api:8000", True), (b"kb.example.", True), (b"", True),
                                     (b"kb.example:abc", False), (b"kb.example:99999", False),
                                     (b"a b", False), (b"kb.example/x", False)])
def test_host_values(host, ok):
    assert valid_host(host) is ok


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/v1/specs", "/", "/no-such-page"])
def test_a_malformed_host_gets_a_400_problem_on_every_route(client, path):
    body = _problem(client.get(path, headers={"Host": "kb.example:abc"}), 400)
    assert "Host" in body["detail"]


@pytest.mark.parametrize("depth", [980, 5000])
@pytest.mark.parametrize("route", ["/v1/ask", "/v1/feedback"])
def test_deeply_nested_json_is_a_400_not_a_500(client, route, depth):
    body = '{"question": ' + "[" * depth + "]" * depth + "}"
    _problem(client.post(route, content=body, headers={"Content-Type": "application/json"}), 400)


@pytest.mark.parametrize("top_k", ["5", True, 5.5])
def test_top_k_must_be_a_json_integer(client, top_k):
    _problem(client.post("/v1/ask", json={**ASK, "top_k": top_k}), 422)


def test_an_integral_float_is_a_json_schema_integer(client):
    assert len(client.post("/v1/ask", json={**ASK, "top_k": 2.0}).json()["citations"]) == 2


def test_security_headers_on_pages_and_api(client):
    for response in (client.get("/"), client.post("/v1/ask", json=ASK), client.get("/no-such-page")):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert response.headers["referrer-policy"]
    assert client.get("/widget.js").headers["content-type"].count("charset") == 1
    docs = client.get("/schema")  # Litestar's docs page runs a script from a CDN: no CSP there, the rest stays
    assert "content-security-policy" not in docs.headers and docs.headers["x-content-type-options"] == "nosniff"


def test_the_snippet_names_the_configured_address_not_the_host_header(test_settings, runtime, tmp_path):
    with _client(test_settings, runtime, public_url="https://kb.example.org", feedback_db=tmp_path / "f.db") as c:
        page = c.get("/embed", headers={"Host": "evil.example"}).text
        demo = c.get("/", headers={"Host": "evil.example"}).text
    assert "https://kb.example.org/widget.js" in page and "evil.example" not in page + demo


def test_a_locked_feedback_database_delays_no_question(test_settings, runtime, tmp_path):
    """Another process holds the write lock: feedback gets 503 + Retry-After quickly, questions stay fast."""
    db = tmp_path / "feedback.sqlite3"
    with _client(test_settings, runtime, feedback_db=db, feedback_busy_timeout_s=0.5, rate_limit_per_minute=1000) as c:
        c.post("/v1/ask", json=ASK)  # warm
        started = time.perf_counter()
        c.post("/v1/ask", json=ASK)
        normal = time.perf_counter() - started
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            results: list = []

            def feedback():
                results.append(c.post("/v1/feedback", json={"question": "q", "rating": "up", "chunk_ids": ["x"]}))

            # more waiting writes than anyio's shared pool has threads (40): they once filled it
            writers = [threading.Thread(target=feedback) for _ in range(48)]
            for w in writers:
                w.start()
            started = time.perf_counter()
            asked = c.post("/v1/ask", json={**ASK, "top_k": 2})
            during = time.perf_counter() - started
            for w in writers:
                w.join(timeout=30)
            ready = c.get("/readyz").json()
        finally:
            holder.rollback()
            holder.close()
        assert asked.status_code == 200
        assert during < max(2 * normal, 0.5) + 0.5, (during, normal)  # not queued behind the waiting writes
        assert len(results) == 48
        for response in results:
            _problem(response, 503)
            assert int(response.headers["retry-after"]) > 0
        assert ready["feedback"]["status"] == "unavailable"
        assert c.post("/v1/feedback", json={"question": "q", "rating": "up", "chunk_ids": ["x"]}).status_code == 201
        assert c.get("/readyz").json()["feedback"]["status"] == "ok"


def test_an_uncreatable_feedback_database_leaves_questions_answered(test_settings, runtime, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with _client(test_settings, runtime, feedback_db=blocker / "feedback.sqlite3") as c:
        assert c.post("/v1/ask", json=ASK).status_code == 200
        _problem(c.post("/v1/feedback", json={"question": "q", "rating": "up", "chunk_ids": []}), 503)
        assert c.get("/readyz").json()["feedback"]["status"] == "unavailable"


def test_forwarded_headers_are_believed_only_from_listed_proxies():
    assert uvicorn_options(Settings())["proxy_headers"] is False
    trusted = uvicorn_options(Settings(trusted_proxies=["10.0.0.5"]))
    assert trusted["proxy_headers"] is True and trusted["forwarded_allow_ips"] == "10.0.0.5"
    options = uvicorn_options(Settings())
    assert options["timeout_keep_alive"] > 0 and options["limit_concurrency"] and options["timeout_graceful_shutdown"]


def test_a_rotating_x_forwarded_for_does_not_escape_the_rate_limit(built_index_dir, tmp_path):
    """A real `kb serve` on loopback: the limit counts the peer, whatever X-Forwarded-For says."""
    from kb.evaluation.load import serving

    env = {"KB_INDEX_DIR": str(built_index_dir), "KB_RATE_LIMIT_PER_MINUTE": "3", "KB_ACCESS_LOG": "false",
           "KB_FEEDBACK_DB": str(tmp_path / "feedback.sqlite3")}
    statuses = []
    with serving(env, workers=1) as (port, _):
        for i in range(6):
            request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/ask", method="POST",
                                             data=json.dumps(ASK).encode(),
                                             headers={"Content-Type": "application/json",
                                                      "X-Forwarded-For": f"203.0.113.{i}"})
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    statuses.append(response.status)
            except urllib.error.HTTPError as exc:
                statuses.append(exc.code)
    assert statuses == [200, 200, 200, 429, 429, 429]


def _truncate(path, keep: float = 0.5):
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


# Each kind of damage a copied or half-written index can have: the start-up must refuse it in one line.
DAMAGE = {
    "missing": None,
    "incomplete": lambda d: (d / "vectors.faiss").unlink(),
    "truncated vectors": lambda d: _truncate(d / "vectors.faiss"),
    "garbage vectors": lambda d: (d / "vectors.faiss").write_bytes(b"\x00not faiss" * 100),
    "a bad chunk line": lambda d: (d / "chunks.jsonl").write_text((d / "chunks.jsonl").read_text() + "{oops\n"),
    "truncated chunks": lambda d: _truncate(d / "chunks.jsonl", 0.3),
    "manifest not json": lambda d: (d / "manifest.json").write_text("{"),
    "manifest of another format": lambda d: (d / "manifest.json").write_text(
        (d / "manifest.json").read_text().replace('"format_version": ', '"format_version": 99, "old": ')),
    "truncated sentences": lambda d: _truncate(d / "sentences.npz"),
    "articles not json": lambda d: (d / "articles.json").write_text("[{]"),
    "facts not json": lambda d: (d / "facts.json").write_text("{\"vocabulary\": "),
    "lexical not json": lambda d: (d / "lexical.json").write_text("nope"),
    "bm25 arrays truncated": lambda d: _truncate(d / "bm25" / "data.csc.index.npy", 0.1),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_serve_refuses_a_bad_index_in_one_line_with_exit_2(built_index_dir, tmp_path, damage):
    import shutil
    import subprocess
    import sys

    index = tmp_path / "index"
    if DAMAGE[damage] is not None:
        shutil.copytree(built_index_dir, index)
        DAMAGE[damage](index)
    done = subprocess.run([sys.executable, "-m", "kb.cli", "--index-dir", str(index), "serve", "--port", "1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kb: error:") and "kb build" in lines[0], done.stderr[-2000:]


def _models_with(tmp_path, damage: str):
    """A models folder of links to the real ones, with one fault."""
    import os
    import shutil

    from kb.settings import Settings

    real, models = Settings().models_dir, tmp_path / "models"
    models.mkdir()
    for entry in real.iterdir():
        if damage == "no e5 folder" and entry.name == "multilingual-e5-small":
            continue
        if entry.name == "multilingual-e5-small.onnx" and damage != "no e5 folder":
            copy = models / entry.name
            copy.mkdir()
            shutil.copy(entry / "manifest.json", copy / "manifest.json")
            for f in ("model.onnx", "model-int8.onnx"):
                os.symlink(entry / f, copy / f)
            if damage == "onnx file damaged":
                (copy / "model.onnx").unlink()
                (copy / "model.onnx").write_bytes(b"not a graph")
            elif damage == "onnx manifest not json":
                (copy / "manifest.json").write_text("{")
            elif damage == "onnx file missing":
                (copy / "model.onnx").unlink()
            continue
        os.symlink(entry, models / entry.name)
    return models


@pytest.mark.parametrize("damage", ["no e5 folder", "onnx file damaged", "onnx manifest not json", "onnx file missing"])
def test_serve_refuses_a_model_fault_in_one_line_with_exit_2(built_index_dir, tmp_path, damage):
    import subprocess
    import sys

    models = _models_with(tmp_path, damage)
    done = subprocess.run([sys.executable, "-m", "kb.cli", "--index-dir", str(built_index_dir), "serve", "--port", "1"],
                          capture_output=True, text=True, timeout=120, env={**__import__("os").environ,
                                                                          "KB_MODELS_DIR": str(models)})
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kb: error:") and "kb model" in lines[0], done.stderr[-2000:]


def test_a_feedback_database_that_breaks_while_serving_gives_503(test_settings, runtime, tmp_path):
    db = tmp_path / "feedback.sqlite3"
    with _client(test_settings, runtime, feedback_db=db, feedback_busy_timeout_s=0.5) as c:
        assert c.post("/v1/feedback", json={"question": "q", "rating": "up", "chunk_ids": []}).status_code == 201
        db.unlink()
        db.mkdir()  # the file's place taken by a folder: SQLite cannot open it (root ignores permissions)
        _problem(c.post("/v1/feedback", json={"question": "q", "rating": "up", "chunk_ids": []}), 503)
        assert c.post("/v1/ask", json=ASK).status_code == 200
        assert c.get("/readyz").json()["feedback"]["status"] == "unavailable"
