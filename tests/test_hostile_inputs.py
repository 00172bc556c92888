"""Hostile inputs as a client would send them: every one gets an answer or a problem-details 4xx, never a 500."""

from __future__ import annotations

import pytest

ASK = "/v1/ask"
JSON = {"Content-Type": "application/json"}

BODIES = {
    "invalid utf-8": b'{"question": "\xff\xfe bad"}',
    "NaN": b'{"question": "HBM?", "top_k": NaN}',
    "Infinity": b'{"question": "HBM?", "top_k": Infinity}',
    "huge number": b'{"question": "HBM?", "top_k": 1' + b"0" * 400 + b"}",
    "null byte": b'{"question": "HBM\\u0000?"}',
    "raw null byte": b'{"question": "HBM\x00?"}',
    "lone surrogate": b'{"question": "\\ud800 memory"}',
    "array": b'["question"]',
    "string": b'"question"',
    "null": b"null",
    "trailing garbage": b'{"question": "HBM?"} trailing',
    "duplicate keys": b'{"question": "HBM?", "question": ""}',
    "question not a string": b'{"question": {"$gt": ""}}',
}
QUESTIONS = {
    "10k characters": "memory " * 1500,
    "emoji only": "\U0001f914\U0001f680\U0001f4be",
    "right to left": "\u05db\u05de\u05d4 \u05d6\u05d9\u05db\u05e8\u05d5\u05df \u05d9\u05e9 \u05dc-Gaudi2?",
    "sql injection": "'; DROP TABLE feedback; --",
    "script injection": "<script>alert(1)</script> Gaudi2 memory",
    "template injection": "{{7*7}} ${7*7} TPU limits",
    "control characters": "TPU\u0007\u001b[31m limits",
    "whitespace": " \t\n ",
}


@pytest.fixture(scope="module")
def hostile(test_settings, runtime):
    """Its own app, with a rate limit no test reaches: these many requests must not spend the shared
    client's per-minute budget that later tests need."""
    from litestar.testing import TestClient

    from service.app import create_app

    with TestClient(create_app(test_settings.model_copy(update={"rate_limit_per_minute": 100_000}),
                               runtime=runtime)) as client:
        yield client


def _ok_or_problem(response) -> None:
    assert response.status_code < 500, response.text[:500]
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["status"] == response.status_code


@pytest.mark.parametrize("name", BODIES)
def test_hostile_bodies(hostile, name):
    response = hostile.post(ASK, content=BODIES[name], headers=JSON)
    _ok_or_problem(response)
    assert response.status_code in (400, 422) or name in ("null byte", "duplicate keys")


@pytest.mark.parametrize("name", QUESTIONS)
def test_hostile_questions(hostile, name):
    response = hostile.post(ASK, json={"question": QUESTIONS[name], "top_k": 3})
    _ok_or_problem(response)
    if response.status_code == 200:
        assert "<script>" not in "".join(c["text"] for c in response.json()["citations"])


@pytest.mark.parametrize("path", ["/articles/..%2F..%2Fetc%2Fpasswd", "/articles/../../pyproject.toml",
                                  "/v1/specs/..%2Fmanifest", "/v1/specs/%00", "/widget.js/../app.py",
                                  "/v1/specs/compare?entities=../../x,h100&attribute=..%2F"])
def test_traversal_in_path_parameters(hostile, path):
    response = hostile.get(path)
    _ok_or_problem(response)
    assert response.status_code in (400, 404, 422)
    assert "[project]" not in response.text and "root:" not in response.text


@pytest.mark.parametrize("method,path", [("GET", "/v1/ask"), ("PUT", "/v1/ask"), ("DELETE", "/v1/feedback"),
                                         ("POST", "/healthz"), ("PATCH", "/v1/specs")])
def test_wrong_methods(hostile, method, path):
    response = hostile.request(method, path)
    _ok_or_problem(response)
    assert response.status_code == 405


@pytest.mark.parametrize("headers", [{}, {"Content-Type": "text/plain"}, {"Content-Type": "application/x-www-form-urlencoded"}])
def test_missing_or_wrong_content_type(hostile, headers):
    response = hostile.post(ASK, content=b'{"question": "HBM?"}', headers=headers)
    _ok_or_problem(response)
    assert response.status_code == 415


def test_a_chunked_body_is_read_and_answered(hostile):
    def chunks():
        yield '{"question": "Сколько '.encode()
        yield 'памяти у Gaudi2?", "top_k": 2}'.encode()

    response = hostile.post(ASK, content=chunks(), headers=JSON)
    _ok_or_problem(response)
    assert response.status_code == 200 and response.json()["specs"]
