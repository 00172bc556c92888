"""One Redis connection per worker, and what happens when Redis is slow or down.

Every call has a short timeout; a failed one opens a breaker for
``retry_s`` seconds, during which callers get ``None`` at once and use
their in-process fallback, so a dead Redis costs one timeout per period,
not one per request. ``status()`` is what ``/readyz`` and ``/metrics`` show.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import redis.asyncio as aioredis
from redis.exceptions import RedisError

T = TypeVar("T")
log = logging.getLogger("kb.service")


class RedisLink:
    def __init__(self, url: str, timeout_s: float, retry_s: float) -> None:
        self.url = url
        self.retry_s = retry_s
        self.client = aioredis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s,
                                              health_check_interval=30)
        self.failures = 0
        self.last_error: str | None = None
        self._closed_until = 0.0

    @property
    def up(self) -> bool:
        return self.last_error is None

    async def call(self, fn: Callable[[aioredis.Redis], Awaitable[T]]) -> T | None:
        """``fn(client)``, or ``None`` when Redis failed now or recently (the caller falls back)."""
        if time.monotonic() < self._closed_until:
            return None
        try:
            result = await fn(self.client)
        except (RedisError, OSError, TimeoutError) as exc:
            self.failures += 1
            if self.last_error is None:
                log.warning("redis %s is unavailable, falling back for %g s: %s", self.url, self.retry_s, exc)
            self.last_error = f"{type(exc).__name__}: {exc}"
            self._closed_until = time.monotonic() + self.retry_s
            return None
        if self.last_error is not None:
            log.info("redis %s is back", self.url)
            self.last_error = None
        return result

    def status(self) -> dict:
        return {"status": "ok" if self.up else "unavailable", "detail": self.last_error, "failures": self.failures}

    async def close(self) -> None:
        await self.client.aclose()
