"""Answers, cached: this worker's LRU first, then Redis (shared by all replicas), then the pipeline.

The key holds the index build id, so a new build never serves an old answer,
wherever the answer was cached. Redis entries expire after ``ttl_s``; a Redis
that fails is skipped (kb.service.redis_link) and the question is answered.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from functools import partial

import anyio

from kb import __version__
from kb.answer import ask
from kb.answer_cache import CacheKey
from kb.response import AskResponse
from service import metrics
from service.redis_link import RedisLink

TTL_S = 24 * 3600


def answering_digest(settings) -> str:
    """What besides the build makes an answer: the code version and every setting that changes one.
    Replicas that differ in either (a rolling upgrade, a changed knob) never share cached answers."""
    from kb.params import AnswerPolicy, RetrievalParams

    knobs = {"version": __version__, "retrieval": asdict(RetrievalParams.from_settings(settings)),
             "answer": asdict(AnswerPolicy.from_settings(settings)), "runtime": str(settings.encoder_runtime),
             "mode": str(settings.retrieval_mode), "backend": str(settings.embedding_backend)}
    return hashlib.sha256(json.dumps(knobs, sort_keys=True, default=str).encode()).hexdigest()[:12]


class RedisAnswers:
    def __init__(self, link: RedisLink, digest: str, ttl_s: int = TTL_S) -> None:
        self.link = link
        self.digest = digest
        self.ttl_s = ttl_s
        self.hits = 0
        self.misses = 0

    def redis_key(self, key: CacheKey) -> str:
        digest = hashlib.sha256(f"{key.question}\x00{key.top_k}\x00{key.mode}".encode()).hexdigest()[:32]
        return f"kb:answer:{key.build_id}:{self.digest}:{digest}"

    async def get(self, key: CacheKey) -> AskResponse | None:
        raw = await self.link.call(lambda r: r.get(self.redis_key(key)))
        found = None
        if raw is not None:
            try:
                found = AskResponse.model_validate_json(raw)
            except ValueError:  # an entry this code cannot read: a miss, recomputed and overwritten
                found = None
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        return found

    async def put(self, key: CacheKey, response: AskResponse) -> None:
        await self.link.call(lambda r: r.set(self.redis_key(key), response.model_dump_json(), ex=self.ttl_s))

    def stats(self) -> dict:
        return {"hits": self.hits, "misses": self.misses}


async def answer(runtime, shared: RedisAnswers | None, question: str, top_k: int, mode) -> tuple[AskResponse, str]:
    """The response and where it came from: ``memory``, ``redis`` or ``computed``."""
    key = CacheKey.of(question, top_k, mode, runtime.manifest["build_id"])
    if (found := runtime.cache.get(key)) is not None:
        return found, "memory"
    if shared is not None and runtime.cache.enabled and (found := await shared.get(key)) is not None:
        runtime.cache.put(key, found)
        return found, "redis"
    # Embedding is CPU-bound; running it in a worker thread keeps the event
    # loop free for other requests (health checks, other questions).
    response = await anyio.to_thread.run_sync(partial(ask, runtime.retriever, question, top_k, runtime.policy, mode, metrics.observe_stage))
    runtime.cache.put(key, response)
    if shared is not None and runtime.cache.enabled:
        await shared.put(key, response)
    return response, "computed"
