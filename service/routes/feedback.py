"""POST /v1/feedback: a thumbs up or down on one answer."""

from __future__ import annotations

from functools import partial

import anyio
from litestar import Request, post
from litestar.datastructures import State

from service import metrics
from service.feedback import FeedbackUnavailable
from service.problems import ProblemError
from service.routes.ask import require_json
from service.schemas import FeedbackRequest, FeedbackResponse, problem_responses

# Feedback writes get their own two threads and a short queue: a locked database once filled the
# shared worker pool with waiting writes and every question waited behind them.
WRITER_THREADS = 2
MAX_WAITING = 16
_writers: anyio.CapacityLimiter | None = None


def writers() -> anyio.CapacityLimiter:
    global _writers  # made on first use: a limiter belongs to the running event loop's library
    if _writers is None:
        _writers = anyio.CapacityLimiter(WRITER_THREADS)
    return _writers
RETRY_AFTER_S = 5


def unavailable(detail: str) -> ProblemError:
    return ProblemError(503, "Feedback unavailable", f"feedback cannot be stored right now ({detail}); retry later",
                        headers={"Retry-After": str(RETRY_AFTER_S)})


@post("/v1/feedback", before_request=require_json, status_code=201, responses=problem_responses(400, 413, 415, 422, 429, 503), summary="Rate an answer")
async def give_feedback(data: FeedbackRequest, state: State, request: Request) -> FeedbackResponse:
    build = state.runtime.manifest["build_id"]
    client = request.client.host if request.client else None
    if writers().statistics().tasks_waiting >= MAX_WAITING:
        metrics.FEEDBACK.labels("unavailable").inc()
        raise unavailable("too many writes are waiting")
    try:
        row = await anyio.to_thread.run_sync(partial(state.feedback.add, data.question, data.rating, data.chunk_ids,
                                                     data.answer, build, client), limiter=writers())
    except FeedbackUnavailable as exc:
        metrics.FEEDBACK.labels("unavailable").inc()
        raise unavailable(str(exc)) from None
    metrics.FEEDBACK.labels("stored").inc()
    return FeedbackResponse(id=row, index_build=build)
