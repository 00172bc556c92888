"""``create_app(settings)``: the Litestar application.

The model and the index are loaded once, when the app starts, and kept on
``app.state.runtime``; handlers only read them. Nothing is rebuilt here.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field

from litestar import Litestar, Request
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.openapi import OpenAPIConfig
from litestar.plugins.pydantic import PydanticPlugin

from kb import __version__
from kb.answer_cache import AnswerCache
from kb.embedding.batching import BatchingEncoder
from kb.embedding.encoder import Encoder, load_encoder
from kb.index import load_index
from kb.params import AnswerPolicy
from kb.retrieval import Retriever
from kb.settings import Settings
from service.feedback import FeedbackStore
from service.guard import Guard
from service.problems import EXCEPTION_HANDLERS
from service.routes.ask import ask_question
from service.routes.feedback import give_feedback
from service.routes.health import healthz, readyz
from service.routes.pages import article_page, demo_page, embed_page, widget_js
from service.routes.specs import compare_specs, entity_specs, list_specs

RATE_LIMITED_PATHS = ("/v1/ask", "/v1/feedback")
SETTINGS_ENV = "KB_SERVE_SETTINGS"  # how `kb serve --workers N` hands its settings to each worker process

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
    index = load_index(settings.index_dir, encoder)
    log.info("loaded index %s (%s chunks, model %s)", index.manifest["build_id"],
             index.manifest["counts"]["chunks"], index.manifest["model"]["id"])
    batcher = BatchingEncoder(encoder, settings.batch_window_ms, settings.batch_max) \
        if settings.batch_window_ms > 0 else None
    return Runtime(settings=settings, retriever=Retriever.from_settings(index, batcher or encoder, settings),
                   policy=AnswerPolicy.from_settings(settings), manifest=index.manifest,
                   cache=AnswerCache(settings.answer_cache_size), batcher=batcher)


def create_app_from_environment() -> Litestar:
    """The app of one worker process of `kb serve --workers N` (uvicorn calls this in each)."""
    raw = os.environ.get(SETTINGS_ENV)
    return create_app(Settings.model_validate(json.loads(raw)) if raw else Settings())


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> Litestar:
    """Build the app; the runtime loads at start-up unless one is given (tests share one)."""
    settings = settings or Settings()
    state = State({"runtime": runtime} if runtime else {})

    def startup(app: Litestar) -> None:
        if getattr(app.state, "runtime", None) is None:
            app.state.runtime = load_runtime(settings)
            app.state.owns_runtime = True
        app.state.feedback = FeedbackStore(settings.feedback_db, settings.feedback_busy_timeout_s)
        if app.state.feedback.last_error:
            log.warning("feedback is unavailable (questions are still answered): %s", app.state.feedback.last_error)

    def shutdown(app: Litestar) -> None:
        # A runtime handed in (tests share one between apps) belongs to whoever made it.
        batcher = app.state.runtime.batcher if getattr(app.state, "owns_runtime", False) else None
        if batcher is not None:
            batcher.close()

    def throttled(request: Request) -> bool:
        return request.url.path in RATE_LIMITED_PATHS and request.method == "POST"

    # No CORS headers at all unless origins are configured: the default is closed, never "*".
    cors = CORSConfig(allow_origins=list(settings.cors_allow_origins), allow_methods=["GET", "POST"],
                      allow_headers=["Content-Type"], expose_headers=["Retry-After"]) \
        if settings.cors_allow_origins else None
    app = Litestar(
        route_handlers=[ask_question, give_feedback, healthz, readyz, list_specs, compare_specs, entity_specs,
                        demo_page, embed_page, widget_js, article_page],
        on_startup=[startup],
        on_shutdown=[shutdown],
        state=state,
        cors_config=cors,
        middleware=[RateLimitConfig(rate_limit=("minute", settings.rate_limit_per_minute),
                                    check_throttle_handler=throttled).middleware],
        exception_handlers=EXCEPTION_HANDLERS,
        # Strict request types: lax parsing read top_k "5" as 5 and true as 1.
        plugins=[PydanticPlugin(validate_strict=True)],
        request_max_body_size=settings.request_max_bytes,
        openapi_config=OpenAPIConfig(title="AI hardware knowledge base", version=__version__, path="/schema"),
    )
    # Outermost, before routing: a bad Host must not reach the code that parses URLs (404s included).
    app.asgi_handler = Guard(app.asgi_handler)
    return app
