"""Operating the service: request read deadlines, refused-request log limits, Prometheus metrics,
and a shutdown that a stalled client cannot hold up."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import threading
import time

import pytest
import uvicorn

from kb.settings import Settings
from service import protocol
from service.logs import RefusalLogLimit


async def echo_app(scope, receive, send):
    if scope["type"] != "http":
        return
    body = b""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def echo_server():
    """uvicorn with the project's protocol and a 0.6 s read deadline, in a thread, on a free loopback port."""
    protocol.configure(Settings(request_read_timeout_s=0.6))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(echo_app, http=protocol.ReadTimeoutH11Protocol, log_level="warning", lifespan="off",
                            timeout_keep_alive=5)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield sock.getsockname()[1]
    server.should_exit = True
    thread.join(10)
    protocol.configure(Settings())


def _exchange(port: int, parts: list[bytes], pause_s: float = 0.0, wait_s: float = 3.0) -> tuple[bytes, float]:
    """Send the parts (pausing between them), then read until the server closes; returns what came back and when."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait_s) as conn:
        started = time.monotonic()
        for part in parts:
            conn.sendall(part)
            time.sleep(pause_s)
        received = b""
        try:
            while chunk := conn.recv(65536):
                received += chunk
        except TimeoutError:
            pass
        return received, time.monotonic() - started


def test_half_a_request_line_gets_408_and_the_connection_closes(echo_server):
    received, took = _exchange(echo_server, [b"POST /v1/ask HT"])
    assert received.startswith(b"HTTP/1.1 408") and b"application/problem+json" in received
    assert 0.5 < took < 2.0


def test_a_connection_that_sends_nothing_is_closed(echo_server):
    received, took = _exchange(echo_server, [])
    assert received.startswith(b"HTTP/1.1 408") and took < 2.0


def test_a_stalled_body_gets_408(echo_server):
    head = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"
    received, took = _exchange(echo_server, [head, b"x" * 10])
    assert received.startswith(b"HTTP/1.1 408") and took < 2.0


def test_a_slow_request_within_the_deadline_is_answered(echo_server):
    parts = [b"POST / HTTP/1.1\r\nHost: x\r\n", b"Content-Length: 4\r\nConnection: close\r\n\r\n", b"ab", b"cd"]
    received, _ = _exchange(echo_server, parts, pause_s=0.1)
    assert received.startswith(b"HTTP/1.1 200") and received.endswith(b"abcd")


def test_the_deadline_applies_again_to_each_kept_alive_request(echo_server):
    first = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok"
    received, took = _exchange(echo_server, [first, b"POST / HTTP/1.1\r\nHo"], pause_s=0.05)
    assert received.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 408" in received and took < 2.0


def test_a_pipelined_request_gets_its_own_deadline(echo_server):
    """Request 1 whole and request 2's headers with half its body in one packet: request 2 is cut off."""
    first = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok"
    second = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + b"y" * 10
    received, took = _exchange(echo_server, [first + second])
    assert received.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 408" in received and took < 2.0


def _access(status: int) -> logging.LogRecord:
    return logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
                             ("127.0.0.1:1", "POST", "/v1/ask", "1.1", status), None)


def test_refused_request_lines_are_limited_and_summarized(monkeypatch, caplog):
    clock = [1000.0]
    monkeypatch.setattr("service.logs.time.monotonic", lambda: clock[0])
    limit = RefusalLogLimit(per_minute=5)
    assert all(limit.filter(_access(200)) for _ in range(50))  # answered requests are never held back
    passed = [limit.filter(_access(429)) for _ in range(1000)]
    assert sum(passed) == 5 and limit.suppressed == 995
    invalid = logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, "Invalid HTTP request received.", (), None)
    assert limit.filter(invalid) is False
    clock[0] += 61
    later = _access(404)
    with caplog.at_level(logging.WARNING, logger="kb.service"):
        assert limit.filter(later)
    assert later.args[4] == 404  # the access record keeps its arguments: uvicorn's formatter unpacks them
    assert "996 refused-request log lines suppressed" in caplog.text
    logging.Formatter("%(message)s").format(later)


def test_metrics_count_requests_stages_answers_and_the_index(client):
    client.post("/v1/ask", json={"question": "How much memory does the A100 have?", "top_k": 2})
    client.post("/v1/ask", json={"question": "x" * 5000})
    client.get("/no-such-page")
    page = client.get("/metrics")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/plain")
    text = page.text
    assert 'kb_http_requests_total{method="POST",route="/v1/ask",status="200"}' in text
    assert 'kb_http_requests_total{method="POST",route="/v1/ask",status="422"}' in text
    assert 'route="(unmatched)",status="404"' in text  # never the raw path: labels stay bounded
    for stage in ("encode", "retrieve", "compose"):
        assert f'kb_answer_stage_duration_seconds_count{{stage="{stage}"}}' in text
    assert 'kb_answers_total{abstain_reason="none",source="computed"}' in text
    build = client.get("/readyz").json()["build_id"]
    assert f'kb_index_info{{build_id="{build}"' in text and "kb_index_built_timestamp_seconds" in text
    assert 'kb_dependency_up{dependency="feedback"} 1.0' in text


def test_sigterm_with_a_stalled_client_exits_within_the_grace_period(built_index_dir, tmp_path):
    """A real `kb serve`: one request in flight and one client stalled mid-body; SIGTERM ends both within
    the grace period, and the request in flight is answered."""
    from kb.evaluation.load import serving

    env = {"KB_INDEX_DIR": str(built_index_dir), "KB_SHUTDOWN_GRACE_S": "2", "KB_REQUEST_READ_TIMEOUT_S": "60",
           "KB_FEEDBACK_DB": str(tmp_path / "f.db"), "KB_ACCESS_LOG": "false"}
    with serving(env, workers=1) as (port, pid):
        stalled = socket.create_connection(("127.0.0.1", port))
        stalled.sendall(b"POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 500\r\n\r\n{\"question\": ")
        body = json.dumps({"question": "Какая пропускная способность памяти у A100?"}).encode()
        asking = socket.create_connection(("127.0.0.1", port), timeout=30)
        asking.sendall(b"POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                       b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        time.sleep(0.003)  # accepted and being answered (an answer takes about 10 ms)
        started = time.monotonic()
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    break
            except ChildProcessError:
                break
            time.sleep(0.05)
        took = time.monotonic() - started
        answered = b""
        while chunk := asking.recv(65536):
            answered += chunk
        asking.close()
        stalled.close()
    assert took < 2 + 2.5, took  # the grace period, and a margin for the process to exit
    assert answered.startswith(b"HTTP/1.1 200"), answered[:200]
