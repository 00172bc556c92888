"""Per-client rate limits over a sliding window: in this process, or in Redis for all replicas at once.

A fixed window (Litestar's middleware) admitted twice the limit across a
window boundary (120 requests in 4.3 s at 60 a minute). Here a request is
admitted when fewer than ``limit`` of the client's requests were admitted in
the ``window`` seconds before it, whenever that is. In Redis the check and
the admission are one Lua script (atomic), timed by Redis's own clock, so
replicas never race or disagree about the time; while Redis is unreachable
each process falls back to its own window (documented: the limit is then
per process, never off).
"""

from __future__ import annotations

import json
import math
import posixpath
import threading
import time
import uuid
from collections import OrderedDict, deque
from dataclasses import dataclass

from service.asgi import HttpLayer
from service.redis_link import RedisLink

WINDOW_S = 60.0
MAX_CLIENTS = 100_000  # addresses remembered per process; the least recently seen are forgotten first


@dataclass(frozen=True)
class Verdict:
    admitted: bool
    remaining: int
    retry_after_s: float  # 0 when admitted


class MemoryWindow:
    def __init__(self, limit: int, window_s: float = WINDOW_S) -> None:
        self.limit = limit
        self.window_s = window_s
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def hit(self, client: str, now: float | None = None) -> Verdict:
        now = time.monotonic() if now is None else now
        with self._lock:
            times = self._seen.pop(client, None) or deque()
            self._seen[client] = times
            while times and times[0] <= now - self.window_s:
                times.popleft()
            while len(self._seen) > MAX_CLIENTS:
                self._seen.popitem(last=False)
            if len(times) < self.limit:
                times.append(now)
                return Verdict(True, self.limit - len(times), 0.0)
            return Verdict(False, 0, times[0] + self.window_s - now)


# KEYS[1]: the client's sorted set of admission times (ms); ARGV: window ms, limit, a unique member.
_SLIDING_WINDOW_LUA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, limit - n - 1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, 0, tonumber(oldest[2]) + window - now}
"""


class RateLimiter:
    """The service's limiter: Redis when a link is given (falling back to memory), memory otherwise."""

    def __init__(self, limit: int, link: RedisLink | None = None, window_s: float = WINDOW_S) -> None:
        self.limit = limit
        self.window_s = window_s
        self.link = link
        self.local = MemoryWindow(limit, window_s)
        self.refused = 0
        self._script = link.client.register_script(_SLIDING_WINDOW_LUA) if link else None

    async def hit(self, client: str) -> Verdict:
        verdict = None
        if self.link is not None:
            reply = await self.link.call(lambda _: self._script(
                keys=[f"kb:ratelimit:{client}"], args=[int(self.window_s * 1000), self.limit, uuid.uuid4().hex]))
            if reply is not None:
                verdict = Verdict(bool(reply[0]), int(reply[1]), int(reply[2]) / 1000)
        verdict = verdict or self.local.hit(client)
        if not verdict.admitted:
            self.refused += 1
        return verdict


class RateLimit(HttpLayer):
    """ASGI wrapper: POSTs to the listed paths count against the client's address (after trusted proxies)."""

    def __init__(self, app, limiter: RateLimiter, paths: tuple[str, ...]) -> None:
        super().__init__(app)
        self.limiter = limiter
        self.paths = paths

    async def http(self, scope, receive, send) -> None:
        # the router reaches /v1/ask from /v1/ask/ and /v1//ask too: the limit must see them as one path
        path = posixpath.normpath(scope.get("path") or "/")
        if scope.get("method") != "POST" or path not in self.paths:
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("unknown", 0))[0]
        verdict = await self.limiter.hit(client)
        if verdict.admitted:
            await self.app(scope, receive, send)
            return
        retry = max(1, math.ceil(verdict.retry_after_s))
        body = json.dumps({"type": "about:blank", "title": "Too many requests", "status": 429,
                           "detail": f"more than {self.limiter.limit} requests from this address within "
                                     f"{self.limiter.window_s:g} s; retry in {retry} s",
                           "instance": scope.get("path", "")}).encode()
        await send({"type": "http.response.start", "status": 429,
                    "headers": [(b"content-type", b"application/problem+json"),
                                (b"content-length", str(len(body)).encode()), (b"retry-after", str(retry).encode()),
                                (b"ratelimit-limit", str(self.limiter.limit).encode()),
                                (b"ratelimit-remaining", b"0"), (b"ratelimit-reset", str(retry).encode())]})
        await send({"type": "http.response.body", "body": body})
