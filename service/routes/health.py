"""Liveness and readiness."""

from __future__ import annotations

from litestar import MediaType, get
from litestar.datastructures import State

from service.schemas import ReadyResponse


@get("/healthz", summary="Liveness", media_type=MediaType.JSON)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@get("/readyz", summary="Readiness: the index is loaded")
async def readyz(state: State) -> ReadyResponse:
    runtime = state.runtime
    manifest = runtime.manifest
    return ReadyResponse(status="ready", build_id=manifest["build_id"], built_at=manifest["built_at"],
                         model=manifest["model"], counts=manifest["counts"], corpus_hash=manifest["corpus_hash"],
                         encoder_runtime=str(runtime.settings.encoder_runtime), feedback=state.feedback.status(),
                         **runtime.stats())
