"""Two replicas behind nginx, sharing PostgreSQL and Redis, all real and on loopback: one replica is killed
with SIGKILL under load and started again; no client request fails, no feedback row is lost, and the
rate limit counts a client's requests across both replicas."""

from __future__ import annotations

import http.client
import json
import re
import threading
import time

import psycopg

QUESTIONS = ["How much memory does the Gaudi2 have?", "Сколько памяти у A100?", "Trn1的FP32算力是多少？",
             "What are the limits of TPUs?", "Which is cheaper for training, TPU or GPU?",
             "Какая пропускная способность у Trainium?", "What is the TDP of the MI250?", "Ponte Vecchio 有多少显存？"]


def _post(port: int, path: str, body: dict, source: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data.startswith(b"{") else {}
    except OSError as exc:
        return -1, {"error": str(exc)}
    finally:
        conn.close()


def _stored(port: int) -> float:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    found = re.search(r'^kb_feedback_total\{result="stored"\} ([0-9.]+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


def test_replicas_behind_nginx_survive_a_sigkill(built_index_dir, tmp_path):
    from service.stack import replicated

    env = {"KB_INDEX_DIR": str(built_index_dir), "KB_RATE_LIMIT_PER_MINUTE": "20", "KB_ACCESS_LOG": "false",
           "KB_ANSWER_CACHE_SIZE": "256"}
    results: list[tuple[str, int, dict]] = []
    lock = threading.Lock()

    with replicated(tmp_path, 2, env) as (port, fleet, shared):
        def client(n: int, rounds: int) -> None:
            for i in range(rounds):
                source = f"127.0.1.{(n * rounds + i) % 200 + 1}"  # many client addresses: under each one's limit
                question = QUESTIONS[(n + i) % len(QUESTIONS)]
                status, body = _post(port, "/v1/ask", {"question": question, "top_k": 3}, source)
                with lock:
                    results.append(("ask", status, body))
                if i % 2 == 0:
                    status, body = _post(port, "/v1/feedback", {"question": question, "rating": "up",
                                                                "chunk_ids": ["x"]}, source)
                    with lock:
                        results.append(("feedback", status, body))

        phase = [threading.Thread(target=client, args=(n, 15)) for n in range(4)]
        for t in phase:
            t.start()
        time.sleep(1.0)
        fleet[0].kill()  # mid-run, with requests in flight
        for t in phase:
            t.join(120)
        assert _stored(fleet[1].port) > 0
        fleet[0].start()
        again = [threading.Thread(target=client, args=(n, 10)) for n in range(4, 8)]
        for t in again:
            t.start()
        for t in again:
            t.join(120)
        stored_after_restart = _stored(fleet[0].port)

        # One client address, 30 requests through nginx, alternating replicas: 20 admitted in all.
        limited = [_post(port, "/v1/ask", {"question": QUESTIONS[0]}, "127.0.2.9")[0] for _ in range(30)]

        with psycopg.connect(shared["KB_FEEDBACK_DSN"]) as db:
            rows = {r[0] for r in db.execute("SELECT id FROM feedback")}

    failed = [(kind, status, body) for kind, status, body in results if status not in (200, 201)]
    assert failed == []
    assert len(results) == 4 * (15 + 8) + 4 * (10 + 5)
    ids = {body["id"] for kind, _, body in results if kind == "feedback"}
    assert ids <= rows and len(ids) == 4 * 8 + 4 * 5  # every stored row is there, from both replicas
    assert stored_after_restart > 0  # the restarted replica took its share
    assert limited.count(200) == 20 and limited.count(429) == 10
