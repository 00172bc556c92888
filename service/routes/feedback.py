"""POST /v1/feedback: a thumbs up or down on one answer."""

from __future__ import annotations

from functools import partial

import anyio
from litestar import Request, post
from litestar.datastructures import State

from service.routes.ask import require_json
from service.schemas import FeedbackRequest, FeedbackResponse


@post("/v1/feedback", before_request=require_json, status_code=201, summary="Rate an answer")
async def give_feedback(data: FeedbackRequest, state: State, request: Request) -> FeedbackResponse:
    build = state.runtime.manifest["build_id"]
    client = request.client.host if request.client else None
    row = await anyio.to_thread.run_sync(partial(state.feedback.add, data.question, data.rating, data.chunk_ids,
                                                 data.answer, build, client))
    return FeedbackResponse(id=row, index_build=build)
