"""schemathesis against the service's own OpenAPI document, with every check: whatever it generates
(valid and invalid), each response is one the document declares, with the declared schema, never a 5xx."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from service.app import create_app


@pytest.fixture(scope="module")
def api_schema(test_settings, runtime, tmp_path_factory):
    import dataclasses

    app_settings = test_settings.model_copy(update={"feedback_db": tmp_path_factory.mktemp("st") / "f.db",
                                                    "rate_limit_per_minute": 100_000})
    app = create_app(app_settings, runtime=dataclasses.replace(runtime, settings=app_settings))
    from litestar.testing import TestClient

    with TestClient(app):  # runs the lifespan: the runtime, the feedback store, the index watcher
        yield schemathesis.openapi.from_asgi("/schema/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
def test_every_operation_keeps_its_contract(case):
    case.call_and_validate()
