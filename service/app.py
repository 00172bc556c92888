"""``create_app(settings)``: the Litestar application.

The model and the index are loaded once, when the app starts, and kept on
``app.state.runtime``; handlers read it once per request, and the index
watcher (service.reload) replaces it whole when a new build is published.
State shared between replicas (feedback, rate limits, cached answers) lives
in PostgreSQL and Redis when configured, in this process otherwise.
"""

from __future__ import annotations

import json
import logging
import os
from contextlib import asynccontextmanager

import anyio
from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.plugins.pydantic import PydanticPlugin

from kb import __version__
from kb.settings import Settings
from service import metrics
from service.answers import RedisAnswers, answering_digest
from service.feedback import FeedbackStore
from service.guard import Guard
from service.logs import limit_refusal_logs
from service.problems import EXCEPTION_HANDLERS
from service.ratelimit import RateLimit, RateLimiter
from service.redis_link import RedisLink
from service.reload import IndexWatcher, built_at
from service.routes.ask import ask_question
from service.routes.feedback import give_feedback
from service.routes.health import healthz, metrics_page, readyz
from service.routes.pages import article_page, demo_page, embed_page, widget_js
from service.routes.specs import compare_specs, entity_specs, list_specs
from service.runtime import Runtime, load_runtime
from service.schemas import declare_closed_bodies

RATE_LIMITED_PATHS = ("/v1/ask", "/v1/feedback")
SETTINGS_ENV = "KB_SERVE_SETTINGS"  # how `kb serve --workers N` hands its settings to each worker process

log = logging.getLogger("kb.service")
__all__ = ["Runtime", "create_app", "create_app_from_environment", "load_runtime"]


def open_feedback_store(settings: Settings):
    """PostgreSQL when ``feedback_dsn`` is set (several replicas), the SQLite file otherwise."""
    if settings.feedback_dsn:
        from service.feedback_pg import PostgresFeedbackStore  # psycopg only where PostgreSQL is used

        return PostgresFeedbackStore(settings.feedback_dsn, settings.feedback_busy_timeout_s)
    return FeedbackStore(settings.feedback_db, settings.feedback_busy_timeout_s)


def create_app_from_environment() -> Litestar:
    """The app of one worker process of `kb serve --workers N` (uvicorn calls this in each)."""
    from service.protocol import configure

    raw = os.environ.get(SETTINGS_ENV)
    settings = Settings.model_validate(json.loads(raw)) if raw else Settings()
    configure(settings)
    return create_app(settings)


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> Litestar:
    """Build the app; the runtime loads at start-up unless one is given (tests share one)."""
    settings = settings or Settings()
    state = State({"runtime": runtime} if runtime else {})
    redis = RedisLink(settings.redis_url, settings.redis_timeout_s, settings.redis_retry_s) \
        if settings.redis_url else None
    limiter = RateLimiter(settings.rate_limit_per_minute, redis)
    state.redis = redis
    state.limiter = limiter
    state.shared_answers = RedisAnswers(redis, answering_digest(settings)) if redis else None

    @asynccontextmanager
    async def lifespan(app: Litestar):
        if getattr(app.state, "runtime", None) is None:
            app.state.runtime = load_runtime(settings)
            app.state.owns_runtime = True
        limit_refusal_logs(settings.refused_log_lines_per_minute)
        metrics.index_served(app.state.runtime.manifest, built_at(app.state.runtime.manifest))
        app.state.feedback = open_feedback_store(settings)
        if app.state.feedback.last_error:
            log.warning("feedback is unavailable (questions are still answered): %s", app.state.feedback.last_error)
        app.state.watcher = IndexWatcher(app.state, settings.index_poll_s)
        async with anyio.create_task_group() as tasks:
            if settings.index_poll_s > 0:
                tasks.start_soon(app.state.watcher.run)
            try:
                yield
            finally:
                tasks.cancel_scope.cancel()
        # A runtime handed in (tests share one between apps) belongs to whoever made it.
        batcher = app.state.runtime.batcher if getattr(app.state, "owns_runtime", False) else None
        if batcher is not None:
            batcher.close()
        if redis is not None:
            await redis.close()

    # No CORS headers at all unless origins are configured: the default is closed, never "*".
    cors = CORSConfig(allow_origins=list(settings.cors_allow_origins), allow_methods=["GET", "POST"],
                      allow_headers=["Content-Type"], expose_headers=["Retry-After"]) \
        if settings.cors_allow_origins else None
    app = Litestar(
        route_handlers=[ask_question, give_feedback, healthz, readyz, metrics_page, list_specs, compare_specs,
                        entity_specs, demo_page, embed_page, widget_js, article_page],
        lifespan=[lifespan],
        state=state,
        cors_config=cors,
        exception_handlers=EXCEPTION_HANDLERS,
        # Strict request types: lax parsing read top_k "5" as 5 and true as 1.
        plugins=[PydanticPlugin(validate_strict=True)],
        request_max_body_size=settings.request_max_bytes,
        openapi_config=OpenAPIConfig(title="AI hardware knowledge base", version=__version__, path="/schema"),
    )
    declare_closed_bodies(app)
    # Outermost, before routing: a bad Host must not reach the code that parses URLs (404s included);
    # then every response is counted, then the rate limit refuses before any body is read.
    app.asgi_handler = Guard(metrics.RequestMetrics(RateLimit(app.asgi_handler, limiter, RATE_LIMITED_PATHS)))
    return app
