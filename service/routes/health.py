"""Liveness, readiness (with each dependency) and Prometheus metrics."""

from __future__ import annotations

from litestar import MediaType, Response, get
from litestar.datastructures import State

from service import metrics
from service.schemas import ReadyResponse


@get("/healthz", summary="Liveness", media_type=MediaType.JSON)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


def dependencies(state: State) -> dict[str, dict]:
    """Each thing the service uses besides its own index: ok or unavailable, and why."""
    out = {"feedback": state.feedback.status()}
    if state.redis is not None:
        out["redis"] = state.redis.status()
    for name, found in out.items():
        metrics.DEPENDENCY_UP.labels(name).set(1 if found["status"] == "ok" else 0)
    return out


@get("/readyz", summary="Readiness: the index is loaded; and the state of each dependency")
async def readyz(state: State) -> ReadyResponse:
    runtime = state.runtime
    manifest = runtime.manifest
    deps = dependencies(state)
    return ReadyResponse(status="ready", build_id=manifest["build_id"], built_at=manifest["built_at"],
                         model=manifest["model"], counts=manifest["counts"], corpus_hash=manifest["corpus_hash"],
                         encoder_runtime=str(runtime.settings.encoder_runtime), feedback=deps["feedback"],
                         dependencies=deps, index_reload=state.watcher.status.as_dict(),
                         rate_limit={"per_minute": state.limiter.limit, "backend": "redis" if state.redis else "memory",
                                     "refused": state.limiter.refused},
                         shared_answer_cache=state.shared_answers.stats() if state.shared_answers else None,
                         **runtime.stats())


@get("/metrics", summary="Prometheus metrics (text exposition format)", media_type=metrics.MEDIA_TYPE)
async def metrics_page(state: State) -> Response[bytes]:
    dependencies(state)  # refresh the dependency gauges at scrape time
    return Response(content=metrics.render(), media_type=metrics.MEDIA_TYPE)
