"""Questions that arrive together are embedded together.

The service answers each request on a worker thread, and each asks the
encoder for one vector. A forward pass over several questions costs little
more than over one, so ``BatchingEncoder`` holds the first question of a
burst for at most ``window_ms`` (or until ``max_batch`` are waiting), encodes
them in one call on its own thread, and hands each caller its own row.
A question that arrives alone waits the window once; under load the wait is
shared. Every other part of the ``Encoder`` protocol goes straight through.
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field

import numpy as np

from kb.embedding.encoder import Encoder, Langs


@dataclass
class _Request:
    texts: list[str]
    langs: list[str | None] | None
    future: Future = field(default_factory=Future)


class BatchingEncoder:
    """Wraps an encoder; ``encode_queries`` may be called from many threads at once."""

    def __init__(self, inner: Encoder, window_ms: float = 2.0, max_batch: int = 16) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dimension = inner.dimension
        self.max_tokens = inner.max_tokens
        self.window = window_ms / 1000.0
        self.max_batch = max_batch
        self.batches = 0  # forward passes made, and questions they carried: the mean batch size is visible
        self.questions = 0
        self._closed = False
        self._lock = threading.Lock()
        self._queue: queue.Queue[_Request | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="query-batcher", daemon=True)
        self._thread.start()

    def encode_queries(self, texts: list[str], langs: Langs = None) -> np.ndarray:
        request = _Request(list(texts), list(langs) if langs is not None else None)
        with self._lock:
            closed = self._closed or not self._thread.is_alive()
            if not closed:
                self._queue.put(request)
        if closed:  # after shutdown began, a late question is encoded on its own rather than lost
            return self.inner.encode_queries(texts, langs)
        return request.future.result()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._queue.put(None)
        self._thread.join(timeout=5)

    def _collect(self, first: _Request) -> list[_Request]:
        batch = [first]
        waiting = len(first.texts)
        deadline = time.perf_counter() + self.window
        while waiting < self.max_batch:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            try:
                more = self._queue.get(timeout=left)
            except queue.Empty:
                break
            if more is None:  # closing: finish this batch, then stop
                self._queue.put(None)
                break
            batch.append(more)
            waiting += len(more.texts)
        return batch

    def _run(self) -> None:
        while (first := self._queue.get()) is not None:
            batch = self._collect(first)
            # Centered (languages given) and raw requests cannot share one call.
            for group in ([r for r in batch if r.langs is not None], [r for r in batch if r.langs is None]):
                if group:
                    self._encode(group)
        while True:  # a question that slipped in as the batcher closed is still answered
            try:
                late = self._queue.get_nowait()
            except queue.Empty:
                return
            if late is not None:
                self._encode([late])

    def _encode(self, group: list[_Request]) -> None:
        texts = [t for r in group for t in r.texts]
        langs = None if group[0].langs is None else [lang for r in group for lang in r.langs]
        try:
            vectors = self.inner.encode_queries(texts, langs)
        except BaseException as exc:  # every caller learns of the failure; the batcher keeps running
            for r in group:
                r.future.set_exception(exc)
            return
        self.batches += 1
        self.questions += len(texts)
        start = 0
        for r in group:
            r.future.set_result(vectors[start:start + len(r.texts)])
            start += len(r.texts)

    def encode_documents(self, texts: list[str], langs: Langs = None, progress: bool = False) -> np.ndarray:
        return self.inner.encode_documents(texts, langs, progress)

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def weights_hash(self) -> str:
        return self.inner.weights_hash()

    def centering_digest(self) -> str | None:
        return self.inner.centering_digest()

    @property
    def centering(self):
        return getattr(self.inner, "centering", None)
