"""Hot index updates: a published build goes live in running workers, without a restart.

``kb build`` publishes by swapping the ``index_dir`` symlink to a new build
folder. Each worker polls where the link points every ``index_poll_s``
seconds (polling, not SIGHUP: it needs no signal sent to every worker of
every replica, and it works where the artifact is copied onto a machine by
rsync or a deploy tool). A new target is loaded beside the old index on a
worker thread, checked like one at start-up (model, weights, format, files),
and swapped in by one assignment: a request reads ``app.state.runtime`` once,
so requests in flight finish on the build they started with. A refused build
is logged once and shown in ``/readyz``; the old index keeps serving.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from dataclasses import dataclass
from functools import partial

import anyio

from kb.index import load_index
from kb.retrieval import Retriever
from service import metrics
from service.runtime import Runtime

log = logging.getLogger("kb.service")


@dataclass
class ReloadStatus:
    serving: str  # the build folder now served
    checked_at: str | None = None
    loaded: int = 0
    refused_target: str | None = None
    refused_detail: str | None = None

    def as_dict(self) -> dict:
        return {"serving": self.serving, "checked_at": self.checked_at, "loaded": self.loaded,
                "refused": {"target": self.refused_target, "detail": self.refused_detail}
                if self.refused_target else None}


def published_target(index_dir) -> str:
    return os.path.realpath(index_dir)


def next_runtime(runtime, target: str):
    """A runtime over the build at ``target`` that keeps the old one's encoder, batcher and cache."""
    index = load_index(target, runtime.retriever.encoder)
    retriever = Retriever.from_settings(index, runtime.retriever.encoder, runtime.settings)
    return Runtime(settings=runtime.settings, retriever=retriever, policy=runtime.policy, manifest=index.manifest,
                   cache=runtime.cache, batcher=runtime.batcher)


class IndexWatcher:
    def __init__(self, state, interval_s: float) -> None:
        self.state = state
        self.interval_s = interval_s
        settings = state.runtime.settings
        self.index_dir = settings.index_dir
        # the folder the runtime was loaded from (a build published since then is picked up at the first check)
        self.status = ReloadStatus(serving=published_target(state.runtime.retriever.index.path))

    async def run(self) -> None:
        while True:
            await anyio.sleep(self.interval_s)
            await self.check()

    async def check(self) -> bool:
        """Load and swap in the published build if it changed; True when a new one went live."""
        self.status.checked_at = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        target = published_target(self.index_dir)
        if target in (self.status.serving, self.status.refused_target):
            return False
        try:
            new = await anyio.to_thread.run_sync(partial(next_runtime, self.state.runtime, target))
        except Exception as exc:  # any damage: the old index must keep serving
            self.status.refused_target, self.status.refused_detail = target, str(exc).splitlines()[0][:500]
            metrics.INDEX_RELOADS.labels("refused").inc()
            log.error("refused the published index %s, still serving %s: %s", target, self.status.serving,
                      self.status.refused_detail)
            return False
        self.state.runtime = new
        self.status.serving, self.status.loaded = target, self.status.loaded + 1
        self.status.refused_target = self.status.refused_detail = None
        metrics.INDEX_RELOADS.labels("loaded").inc()
        metrics.index_served(new.manifest, built_at(new.manifest))
        log.info("now serving index %s (%s chunks)", new.manifest["build_id"], new.manifest["counts"]["chunks"])
        return True


def built_at(manifest: dict) -> float | None:
    try:
        return dt.datetime.fromisoformat(manifest["built_at"]).timestamp()
    except (KeyError, ValueError):
        return None
