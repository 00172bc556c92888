"""A bounded cache of whole answers: FAQ traffic repeats, and a repeat need not be recomputed.

An entry is keyed by the exact question text (the answer stage reads case
and spacing: names are found by their capitals and the spaces between
their words), ``top_k``, the mode and the id of the index build that
answered it, so a newly published index never
serves an answer of the old one. Least recently used entries go first.
``size`` 0 turns the cache off. Thread-safe: the service answers on worker
threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from kb.response import AskResponse


def question_key(question: str) -> str:
    return question


@dataclass(frozen=True)
class CacheKey:
    question: str
    top_k: int
    mode: str | None
    build_id: str

    @classmethod
    def of(cls, question: str, top_k: int, mode: str | None, build_id: str) -> CacheKey:
        return cls(question_key(question), top_k, str(mode) if mode is not None else None, build_id)


class AnswerCache:
    def __init__(self, size: int) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[CacheKey, AskResponse] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.size > 0

    def get(self, key: CacheKey) -> AskResponse | None:
        if not self.enabled:
            return None
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: CacheKey, response: AskResponse) -> None:
        if not self.enabled:
            return
        with self._lock:
            self._entries[key] = response
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {"size": self.size, "entries": len(self._entries), "hits": self.hits, "misses": self.misses}
