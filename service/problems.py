"""One map from errors to RFC 9457 problem details (``application/problem+json``).

A client never sees a traceback: every error, expected or not, leaves as a
problem body with a status, a title and a detail that says what to change.
"""

from __future__ import annotations

import logging

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.status_codes import HTTP_422_UNPROCESSABLE_ENTITY, HTTP_500_INTERNAL_SERVER_ERROR

from kb.errors import IndexArtifactError, KnowledgeBaseError, QuestionError

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("kb.service")


class ProblemError(HTTPException):
    """An HTTP error raised by our own code, already phrased for the client."""

    def __init__(self, status_code: int, title: str, detail: str, headers: dict | None = None, **extra) -> None:
        super().__init__(status_code=status_code, detail=detail, headers=headers)
        self.title = title
        self.extra = extra


def problem(request: Request, status: int, title: str, detail: str, headers: dict | None = None, **extra) -> Response:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail,
            "instance": request.scope.get("path", ""), **extra}
    return Response(content=body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def _validation(request: Request, exc: ValidationException) -> Response:
    errors = exc.extra if isinstance(exc.extra, list) else []
    cleaned = [{"field": e.get("key") or "(body)", "message": str(e.get("message", "")).removeprefix("Value error, ")}
               for e in errors if isinstance(e, dict)]
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in cleaned) or str(exc.detail)
    return problem(request, HTTP_422_UNPROCESSABLE_ENTITY, "Invalid request", detail, errors=cleaned)


def _http(request: Request, exc: HTTPException) -> Response:
    if isinstance(exc, ProblemError):
        return problem(request, exc.status_code, exc.title, exc.detail, headers=exc.headers, **exc.extra)
    if exc.status_code == 400 and "JSON is malformed" in str(exc.detail):
        return problem(request, 400, "Malformed JSON", f"the request body is not valid JSON ({exc.detail})")
    titles = {400: "Bad request", 404: "Not found", 405: "Method not allowed", 413: "Request body too large",
              415: "Unsupported media type", 429: "Too many requests", 503: "Service unavailable"}
    # Keep the exception's headers (Allow on 405, RateLimit-* on 429) and give 429 a Retry-After.
    headers = dict(exc.headers or {})
    detail = str(exc.detail)
    if exc.status_code == 429:
        headers["Retry-After"] = str(max(1, int(headers.get("RateLimit-Reset", "60"))))
        detail = f"too many requests from this address; retry in {headers['Retry-After']} s"
    return problem(request, exc.status_code, titles.get(exc.status_code, "HTTP error"), detail, headers=headers)


def _knowledge_base(request: Request, exc: KnowledgeBaseError) -> Response:
    if isinstance(exc, QuestionError):
        return problem(request, HTTP_422_UNPROCESSABLE_ENTITY, "Invalid question", str(exc))
    if isinstance(exc, IndexArtifactError):
        return problem(request, 503, "Index unavailable", str(exc))
    return problem(request, HTTP_500_INTERNAL_SERVER_ERROR, "Internal error", str(exc))


def _unexpected(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s", request.scope.get("path", ""))
    return problem(request, HTTP_500_INTERNAL_SERVER_ERROR, "Internal error",
                   "the server failed to answer; the error was logged")


EXCEPTION_HANDLERS = {
    ValidationException: _validation,
    HTTPException: _http,
    KnowledgeBaseError: _knowledge_base,
    Exception: _unexpected,
}
__all__ = ["EXCEPTION_HANDLERS", "PROBLEM_JSON", "MediaType", "ProblemError", "problem"]
