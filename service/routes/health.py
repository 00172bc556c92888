"""Liveness, readiness and the demo page."""

from __future__ import annotations

from pathlib import Path

from litestar import MediaType, get
from litestar.datastructures import State
from litestar.response import File

from service.schemas import ReadyResponse

WIDGET_DIR = Path(__file__).resolve().parent.parent / "widget"


@get("/healthz", summary="Liveness", media_type=MediaType.JSON)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@get("/readyz", summary="Readiness: the index is loaded")
async def readyz(state: State) -> ReadyResponse:
    manifest = state.runtime.manifest
    return ReadyResponse(status="ready", build_id=manifest["build_id"], built_at=manifest["built_at"],
                         model=manifest["model"], counts=manifest["counts"], corpus_hash=manifest["corpus_hash"])


@get("/", include_in_schema=False)
async def demo_page() -> File:
    return File(WIDGET_DIR / "index.html", content_disposition_type="inline", media_type=MediaType.HTML)
