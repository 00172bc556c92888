"""POST /v1/ask: a question in, cited passages out."""

from __future__ import annotations

import json
import time

from litestar import Request, post
from litestar.datastructures import State

from kb.response import AskResponse
from service import metrics
from service.answers import answer
from service.problems import ProblemError
from service.schemas import AskRequest, problem_responses


async def require_json(request: Request) -> None:
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise ProblemError(415, "Unsupported media type",
                           f"send the question as application/json, not {media_type or 'no content type'}")
    body = await request.body()
    if not body.strip():
        raise ProblemError(400, "Empty body", 'send a JSON object such as {"question": "...", "top_k": 5}')
    try:
        json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProblemError(400, "Malformed JSON", f"the request body is not valid JSON: {exc}") from None
    except RecursionError:  # about a thousand nested arrays: the parser's own limit, once a 500
        raise ProblemError(400, "Malformed JSON", "the request body is nested too deeply") from None


@post("/v1/ask", before_request=require_json, status_code=200, responses=problem_responses(400, 413, 415, 422, 429), summary="Ask a question",
      description="Finds the passages that answer the question, in any of the corpus languages, with citations.")
async def ask_question(data: AskRequest, state: State) -> AskResponse:
    runtime = state.runtime
    settings = runtime.settings
    if len(data.question) > settings.question_max_chars:
        raise ProblemError(422, "Invalid request", f"question: at most {settings.question_max_chars} characters "
                           f"(got {len(data.question)})", errors=[{"field": "question", "message": "too long"}])
    if not 1 <= data.top_k <= settings.top_k_max:
        raise ProblemError(422, "Invalid request", f"top_k: must be between 1 and {settings.top_k_max} "
                           f"(got {data.top_k})", errors=[{"field": "top_k", "message": "out of range"}])
    started = time.perf_counter()
    response, source = await answer(runtime, state.shared_answers, data.question, data.top_k, data.mode)
    reason = response.abstain_reason
    metrics.ANSWERS.labels(source, str(reason.value) if reason is not None else "none").inc()
    if source == "computed":
        return response
    return response.model_copy(update={"question": data.question, "cached": True,
                                       "took_ms": round((time.perf_counter() - started) * 1000, 2)})
