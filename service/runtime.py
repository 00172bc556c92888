"""What a worker serves from: the encoder, the loaded index build, the answer policy and the answer cache.

A ``Runtime`` is immutable; a new published build makes a new one
(service.reload), which keeps the encoder, the batcher and the cache.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from kb.answer_cache import AnswerCache
from kb.coverage import prepare as prepare_names
from kb.embedding.batching import BatchingEncoder
from kb.embedding.encoder import Encoder, load_encoder
from kb.index import load_index
from kb.params import AnswerPolicy
from kb.retrieval import Retriever
from kb.settings import Settings
from service.metrics import TimedEncoder

log = logging.getLogger("kb.service")


@dataclass(frozen=True)
class Runtime:
    settings: Settings
    retriever: Retriever
    policy: AnswerPolicy
    manifest: dict
    cache: AnswerCache = field(default_factory=lambda: AnswerCache(0))
    batcher: BatchingEncoder | None = None

    def stats(self) -> dict:
        out = {"pid": os.getpid(), "answer_cache": self.cache.stats()}
        if self.batcher is not None:
            out["batcher"] = {"window_ms": self.batcher.window * 1000, "max_batch": self.batcher.max_batch,
                              "batches": self.batcher.batches, "questions": self.batcher.questions}
        return out


def load_runtime(settings: Settings, encoder: Encoder | None = None) -> Runtime:
    """Load the model and the index, checking that the index was built by this model.

    Questions that arrive together share one encoder call (``batch_window_ms``), and whole answers
    are kept in an LRU keyed by the index build (``answer_cache_size``)."""
    encoder = encoder or load_encoder(settings, threads=settings.serving_threads())
    # the build the link points at now, read from its own folder: a publish during the load cannot mix two
    index = load_index(Path(os.path.realpath(settings.index_dir)), encoder)
    log.info("loaded index %s (%s chunks, model %s)", index.manifest["build_id"],
             index.manifest["counts"]["chunks"], index.manifest["model"]["id"])
    batcher = BatchingEncoder(encoder, settings.batch_window_ms, settings.batch_max) \
        if settings.batch_window_ms > 0 else None
    timed = TimedEncoder(batcher or encoder)
    prepare_names()
    retriever = Retriever.from_settings(index, timed, settings)
    retriever.sentence_entities  # noqa: B018 - found now, not by the first question that names two things
    return Runtime(settings=settings, retriever=retriever,
                   policy=AnswerPolicy.from_settings(settings), manifest=index.manifest,
                   cache=AnswerCache(settings.answer_cache_size), batcher=batcher)
