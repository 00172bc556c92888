"""Prometheus metrics (``GET /metrics``), one set per process or merged over ``kb serve --workers N``.

With several workers, ``kb serve`` points ``PROMETHEUS_MULTIPROC_DIR`` at a
fresh folder before they start; each worker writes its figures there and any
of them answers ``/metrics`` with the sum over all (prometheus-client's
multiprocess mode). Names are listed in the README ("Metrics").
"""

from __future__ import annotations

import os
import time

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from service.asgi import HttpLayer

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
MEDIA_TYPE = CONTENT_TYPE_LATEST.replace("; charset=utf-8", "")  # Litestar adds the charset to text types
_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter("kb_http_requests", "HTTP requests answered, by route template, method and status",
                   ["route", "method", "status"])
REQUEST_SECONDS = Histogram("kb_http_request_duration_seconds", "whole-request latency, by route template",
                            ["route"], buckets=_SECONDS)
STAGE_SECONDS = Histogram("kb_answer_stage_duration_seconds", "time per question in each stage: encode (the "
                          "question vector, batching wait included), retrieve (encode + search + ranking), compose "
                          "(the answer and its citations)", ["stage"], buckets=_SECONDS)
ANSWERS = Counter("kb_answers", "questions answered, by where the answer came from (computed, memory, redis) "
                  "and the abstention reason (none when answered)", ["source", "abstain_reason"])
RATE_LIMITED = Counter("kb_rate_limited", "requests refused with 429 by the rate limit")
FEEDBACK = Counter("kb_feedback", "feedback requests, by result (stored, unavailable)", ["result"])
INDEX_INFO = Gauge("kb_index_info", "the index build this worker serves (value 1)", ["build_id", "model"],
                   multiprocess_mode="liveall")
INDEX_BUILT = Gauge("kb_index_built_timestamp_seconds", "when the served build was made (Unix time)",
                    multiprocess_mode="liveall")
INDEX_RELOADS = Counter("kb_index_reloads", "published builds seen by the watcher, by result (loaded, refused)",
                        ["result"])
DEPENDENCY_UP = Gauge("kb_dependency_up", "1 when a dependency answered its last call (feedback store, redis)",
                      ["dependency"], multiprocess_mode="liveall")


def render() -> bytes:
    """The exposition text: this process's registry, or every worker's when they share a folder."""
    if os.environ.get(MULTIPROC_ENV):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest()


def observe_stage(stage: str, seconds: float) -> None:
    STAGE_SECONDS.labels(stage).observe(seconds)


_served: tuple[str, str] | None = None


def index_served(manifest: dict, built_at: float | None) -> None:
    # clear() does nothing in multiprocess mode: the old build's series is set to 0 instead
    global _served
    if _served is not None:
        INDEX_INFO.labels(*_served).set(0)
    _served = (manifest["build_id"], manifest["model"]["id"])
    INDEX_INFO.labels(*_served).set(1)
    if built_at is not None:
        INDEX_BUILT.set(built_at)


class TimedEncoder:
    """An encoder whose question encodings are timed into ``kb_answer_stage_duration_seconds{stage="encode"}``."""

    def __init__(self, inner) -> None:
        self._inner = inner

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def encode_queries(self, texts, langs=None):
        started = time.perf_counter()
        try:
            return self._inner.encode_queries(texts, langs)
        finally:
            STAGE_SECONDS.labels("encode").observe(time.perf_counter() - started)


class RequestMetrics(HttpLayer):
    """ASGI wrapper counting every HTTP response by its route template (never the raw path: unbounded labels)."""

    async def http(self, scope, receive, send) -> None:
        started = time.perf_counter()
        status = [500]

        async def send_status(message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route = scope.get("path_template") or ("(unmatched)" if status[0] != 429 else scope.get("path", ""))
            REQUESTS.labels(route, scope.get("method", ""), str(status[0])).inc()
            REQUEST_SECONDS.labels(route).observe(time.perf_counter() - started)
            if status[0] == 429:
                RATE_LIMITED.inc()

