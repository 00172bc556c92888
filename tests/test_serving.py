"""Serving at speed: the answer cache over HTTP, and `kb serve --workers 2` as real processes."""

from __future__ import annotations

import dataclasses
import json
import re
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from litestar.testing import TestClient

from kb.answer_cache import AnswerCache

QUESTION = {"question": "Сколько памяти у Gaudi2?", "top_k": 5}


def _cache_stats(client) -> dict:
    return client.get("/readyz").json()["answer_cache"]


def test_a_repeated_question_is_served_from_the_cache(test_settings, runtime):
    from service.app import create_app

    with TestClient(create_app(test_settings, runtime=dataclasses.replace(runtime, cache=AnswerCache(16)))) as client:
        first = client.post("/v1/ask", json=QUESTION).json()
        again = client.post("/v1/ask", json=QUESTION).json()
        stats = _cache_stats(client)
        other = client.post("/v1/ask", json={**QUESTION, "top_k": 3}).json()
        respelled = client.post("/v1/ask", json={**QUESTION, "question": QUESTION["question"].lower()}).json()
    assert first["cached"] is False and again["cached"] is True
    assert [c["chunk_id"] for c in again["citations"]] == [c["chunk_id"] for c in first["citations"]]
    assert again["spec_answer"] == first["spec_answer"]
    assert stats["hits"] == 1 and stats["misses"] == 1 and stats["entries"] == 1
    assert other["cached"] is False and len(other["citations"]) <= 3
    assert respelled["cached"] is False


def test_a_new_index_build_never_serves_the_old_answer(test_settings, runtime):
    from service.app import create_app

    shared = AnswerCache(16)
    old = dataclasses.replace(runtime, cache=shared)
    new = dataclasses.replace(runtime, cache=shared, manifest={**runtime.manifest, "build_id": "a-newer-build"})
    with TestClient(create_app(test_settings, runtime=old)) as client:
        client.post("/v1/ask", json=QUESTION)
        assert client.post("/v1/ask", json=QUESTION).json()["cached"] is True
    with TestClient(create_app(test_settings, runtime=new)) as client:
        assert client.post("/v1/ask", json=QUESTION).json()["cached"] is False


def test_the_cache_can_be_turned_off(test_settings, runtime):
    from service.app import create_app

    off = dataclasses.replace(runtime, cache=AnswerCache(0))
    with TestClient(create_app(test_settings, runtime=off)) as client:
        client.post("/v1/ask", json=QUESTION)
        assert client.post("/v1/ask", json=QUESTION).json()["cached"] is False
        assert client.get("/readyz").json()["answer_cache"]["entries"] == 0


def test_two_worker_processes_serve_the_same_answers(built_index_dir, client, tmp_path):
    """Real `kb serve --workers 2` on a loopback port: both processes answer, and answer alike."""
    from kb.evaluation.load import serving

    expected = client.post("/v1/ask", json={**QUESTION, "top_k": 4}).json()
    env = {"KB_INDEX_DIR": str(built_index_dir), "KB_ANSWER_CACHE_SIZE": "0", "KB_ACCESS_LOG": "false",
           "KB_RATE_LIMIT_PER_MINUTE": "1000", "KB_FEEDBACK_DB": str(tmp_path / "feedback.sqlite3")}
    body = json.dumps({**QUESTION, "top_k": 4}).encode()

    def ask_and_probe(_):
        # Concurrent, one connection each: while one worker is busy the other accepts.
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/ask", method="POST", data=body,
                                         headers={"Content-Type": "application/json", "Connection": "close"})
        with urllib.request.urlopen(request, timeout=60) as response:
            answer = json.loads(response.read())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=30) as response:
            return answer, json.loads(response.read())["pid"]

    with serving(env, workers=2) as (port, _), ThreadPoolExecutor(8) as pool:
        pids, answers = set(), []
        for _ in range(10):  # bounded: rounds of 8 concurrent requests until both workers have answered
            for answer, pid in pool.map(ask_and_probe, range(8)):
                answers.append(answer)
                pids.add(pid)
            if len(pids) == 2:
                break
        # /metrics from either worker sums both (prometheus-client's multiprocess folder)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as response:
            text = response.read().decode()
    assert len(pids) == 2
    counted = re.search(r'^kb_http_requests_total\{method="POST",route="/v1/ask",status="200"\} ([0-9.]+)$', text, re.M)
    assert counted and float(counted.group(1)) == len(answers)
    for answer in answers:
        assert [c["chunk_id"] for c in answer["citations"]] == [c["chunk_id"] for c in expected["citations"]]
        assert answer["spec_answer"] == expected["spec_answer"]
