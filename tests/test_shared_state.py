"""Shared state for several replicas against real servers: feedback in PostgreSQL (and SQLite, the same tests),
rate limits and cached answers in Redis, and what a down or hanging server costs (nothing but its own feature)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time

import pytest
from litestar.testing import TestClient

from kb.answer_cache import AnswerCache
from service.feedback import FeedbackStore, FeedbackUnavailable
from service.feedback_pg import PostgresFeedbackStore
from service.ratelimit import MemoryWindow, RateLimiter
from service.redis_link import RedisLink

ASK = {"question": "How much memory does the Gaudi2 have?", "top_k": 3}
CLOSED_PORT_DSN = "postgresql://postgres@127.0.0.1:9/postgres"  # port 9 (discard) is never a PostgreSQL


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    if request.param == "sqlite":
        return FeedbackStore(tmp_path / "feedback.sqlite3", busy_timeout=0.5)
    return PostgresFeedbackStore(request.getfixturevalue("fresh_database"), busy_timeout=0.5)


def test_each_store_keeps_every_row_with_its_fields(store):
    ids = [store.add(f"q{i}", "up" if i % 2 else "down", [f"c{i}"], f"a{i}", "build-1", "10.0.0.1") for i in range(5)]
    assert ids == sorted(ids) and len(set(ids)) == 5
    rows = store.all()
    assert [r["question"] for r in rows] == [f"q{i}" for i in range(5)]
    assert {r["rating"] for r in rows} == {"up", "down"} and rows[0]["index_build"] == "build-1"
    assert rows[3]["chunk_ids"] == '["c3"]' and rows[3]["client"] == "10.0.0.1" and rows[0]["received_at"]
    assert store.status()["status"] == "ok"


def test_each_store_takes_concurrent_writes_without_losing_one(store):
    def write(n: int) -> None:
        for i in range(10):
            store.add(f"t{n}-{i}", "up", [], None, "b", None)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(store.all()) == 40


def test_an_unreachable_postgresql_fails_fast_and_says_so():
    started = time.perf_counter()
    store = PostgresFeedbackStore(CLOSED_PORT_DSN, busy_timeout=0.5)
    assert store.status()["status"] == "unavailable" and "127.0.0.1" in store.status()["detail"]
    with pytest.raises(FeedbackUnavailable):
        store.add("q", "up", [], None, "b", None)
    assert time.perf_counter() - started < 5


def test_migrations_apply_once_even_when_replicas_start_together(fresh_database):
    stores: list[PostgresFeedbackStore] = []
    threads = [threading.Thread(target=lambda: stores.append(PostgresFeedbackStore(fresh_database))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert [s.last_error for s in stores] == [None] * 4
    assert stores[0].migrate() == []  # nothing left to apply
    import psycopg

    with psycopg.connect(fresh_database) as db:
        assert [r[0] for r in db.execute("SELECT version FROM schema_migrations")] == ["0001_feedback"]


def test_the_window_slides_so_a_boundary_admits_no_second_burst():
    window = MemoryWindow(limit=60, window_s=60)
    assert all(window.hit("a", now=59.0 + i / 100).admitted for i in range(60))
    # A fixed window starting at 60 s would admit 60 more here; the sliding one admits none until 119 s.
    late = window.hit("a", now=60.5)
    assert not late.admitted and 58 < late.retry_after_s <= 59
    assert window.hit("a", now=119.01).admitted and window.hit("b", now=60.5).admitted


def test_redis_limits_are_exact_across_replicas(redis_server):
    async def run() -> list[bool]:
        # two links, as two replicas would have; 90 hits at once on one client address
        replicas = [RateLimiter(25, RedisLink(redis_server.url, 1.0, 5.0)) for _ in range(2)]
        verdicts = await asyncio.gather(*(replicas[i % 2].hit("198.51.100.7") for i in range(90)))
        for r in replicas:
            await r.link.close()
        return [v.admitted for v in verdicts]

    admitted = asyncio.run(run())
    assert sum(admitted) == 25


def test_a_hanging_redis_falls_back_to_this_process_and_costs_one_timeout(redis_server):
    async def run():
        limiter = RateLimiter(3, RedisLink(redis_server.url, 0.2, 30.0))
        await limiter.hit("warm")
        redis_server.pause()
        try:
            started = time.perf_counter()
            first = await limiter.hit("203.0.113.9")
            first_s = time.perf_counter() - started
            started = time.perf_counter()
            rest = [await limiter.hit("203.0.113.9") for _ in range(4)]
            rest_s = time.perf_counter() - started
            status = limiter.link.status()
        finally:
            redis_server.resume()
        limiter.link.client.connection_pool.reset()  # the connection that timed out is in an unknown state
        await limiter.link.close()
        return first, first_s, rest, rest_s, status

    first, first_s, rest, rest_s, status = asyncio.run(run())
    assert first.admitted and first_s < 1.0
    assert [v.admitted for v in rest] == [True, True, False, False]  # the per-process window, never no limit
    assert rest_s < 0.1 and status["status"] == "unavailable"


def _app(test_settings, runtime, **overrides):
    from service.app import create_app

    settings = test_settings.model_copy(update=overrides)
    return TestClient(create_app(settings, runtime=dataclasses.replace(runtime, settings=settings,
                                                                       cache=AnswerCache(16))))


def test_two_replicas_share_cached_answers_and_limits_through_redis(test_settings, runtime, redis_server, tmp_path):
    import redis

    redis.Redis.from_url(redis_server.url).delete("kb:ratelimit:testclient")  # no count left by an earlier test
    overrides = {"redis_url": redis_server.url, "rate_limit_per_minute": 4, "feedback_db": tmp_path / "f.db"}
    question = {**ASK, "question": f"{ASK['question']} ({time.time_ns()})"}  # not cached by an earlier run
    with _app(test_settings, runtime, **overrides) as one, _app(test_settings, runtime, **overrides) as two:
        first = one.post("/v1/ask", json=question)
        second = two.post("/v1/ask", json=question)
        assert first.status_code == second.status_code == 200
        assert first.json()["cached"] is False and second.json()["cached"] is True
        assert second.json()["answer"] == first.json()["answer"]
        ready = two.get("/readyz").json()
        assert ready["shared_answer_cache"]["hits"] == 1 and ready["dependencies"]["redis"]["status"] == "ok"
        assert ready["rate_limit"]["backend"] == "redis"
        # 2 requests were counted above; 2 more are admitted, by either replica, then none
        statuses = [c.post("/v1/ask", json=ASK).status_code for c in (one, two, one, two)]
        assert statuses == [200, 200, 429, 429]


def test_questions_are_answered_while_redis_hangs(test_settings, runtime, redis_server, tmp_path):
    with _app(test_settings, runtime, redis_url=redis_server.url, redis_timeout_s=0.2,
              feedback_db=tmp_path / "f.db") as c:
        assert c.post("/v1/ask", json=ASK).status_code == 200
        redis_server.pause()
        try:
            started = time.perf_counter()
            answered = [c.post("/v1/ask", json={**ASK, "top_k": k}).status_code for k in (1, 2, 3, 4)]
            took = time.perf_counter() - started
            ready = c.get("/readyz").json()
            feedback = c.post("/v1/feedback", json={"question": "q", "rating": "up", "chunk_ids": []}).status_code
        finally:
            redis_server.resume()
    assert answered == [200] * 4 and feedback == 201
    assert took < 3.0  # one Redis timeout, then the breaker skips it
    assert ready["dependencies"]["redis"]["status"] == "unavailable"


def test_feedback_in_postgresql_through_the_service(test_settings, runtime, fresh_database):
    with _app(test_settings, runtime, feedback_dsn=fresh_database) as c:
        stored = c.post("/v1/feedback", json={"question": "q", "rating": "down", "chunk_ids": ["x"]})
        assert stored.status_code == 201
        assert c.get("/readyz").json()["feedback"]["backend"] == "postgresql"
    rows = PostgresFeedbackStore(fresh_database).all()
    assert [(r["id"], r["rating"]) for r in rows] == [(stored.json()["id"], "down")]


def test_a_down_postgresql_gives_feedback_503_and_questions_200(test_settings, runtime):
    with _app(test_settings, runtime, feedback_dsn=CLOSED_PORT_DSN, feedback_busy_timeout_s=0.5) as c:
        assert c.post("/v1/ask", json=ASK).status_code == 200
        refused = c.post("/v1/feedback", json={"question": "q", "rating": "up", "chunk_ids": []})
        assert refused.status_code == 503 and int(refused.headers["retry-after"]) > 0
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert c.get("/readyz").json()["dependencies"]["feedback"]["status"] == "unavailable"


def test_a_trailing_slash_or_doubled_slash_counts_against_the_same_limit(test_settings, runtime, tmp_path):
    with _app(test_settings, runtime, rate_limit_per_minute=2, feedback_db=tmp_path / "f.db") as c:
        statuses = [c.post(path, json=ASK).status_code for path in ("/v1/ask", "/v1/ask/", "/v1//ask", "/v1/ask/")]
    assert statuses[:2] == [200, 200] and statuses[2:] == [429, 429]


def test_postgresql_that_starts_after_the_replica_is_migrated_on_the_first_write(tmp_path):
    from service.stack import postgres

    with postgres() as dsn:
        early = PostgresFeedbackStore(dsn.replace(dsn.rsplit(":", 1)[1].split("/")[0], "9"), busy_timeout=0.5)
        assert early.status()["status"] == "unavailable"
        early.dsn = dsn  # the same store once its server is up (as if it had come up late)
        assert early.add("q", "up", [], None, "b", None) == 1
        assert early.status()["status"] == "ok"
