"""Shared fixtures. The real model and the real index are built once per session.

A test that needs the real model (directly or through the index, the runtime or
the HTTP client) or a browser is marked ``slow`` here, so ``pytest -m "not slow"``
is the quick loop; ``make test`` runs everything.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

SLOW_FIXTURES = {"e5_encoder", "default_encoder", "built_index_dir", "test_settings", "runtime", "client", "browser"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def project_settings():
    from kb.settings import Settings

    return Settings()


@pytest.fixture(scope="session")
def e5_encoder(project_settings):
    """multilingual-e5-small itself, for the converter tests."""
    from kb.embedding.encoder import SentenceTransformerEncoder
    from kb.settings import MODEL_FOLDERS, EmbeddingBackend

    return SentenceTransformerEncoder(project_settings.models_dir / MODEL_FOLDERS[EmbeddingBackend.E5_SMALL],
                                      EmbeddingBackend.E5_SMALL)


@pytest.fixture(scope="session")
def default_encoder(project_settings):
    """The encoder of the default configuration: what the service runs with."""
    from kb.embedding.encoder import load_encoder

    return load_encoder(project_settings)


@pytest.fixture(scope="session")
def built_index_dir(tmp_path_factory, project_settings, default_encoder) -> Path:
    """The real corpus, embedded by the real default model, in a session-private folder."""
    from kb.build import build_index
    from kb.chunking import ChunkerSettings

    index_dir = tmp_path_factory.mktemp("index") / "index"
    chunker = ChunkerSettings(project_settings.chunk_target_tokens, project_settings.chunk_max_tokens)
    build_index(project_settings.corpus_dir, index_dir, default_encoder, chunker, progress=False)
    return index_dir


@pytest.fixture(scope="session")
def test_settings(project_settings, built_index_dir, tmp_path_factory):
    feedback = tmp_path_factory.mktemp("feedback") / "feedback.sqlite3"
    # No answer cache in the shared runtime (a test's answer must not depend on which tests ran before
    # it), and a rate limit the suite never spends (the limit's own test sets a small one).
    return project_settings.model_copy(update={"index_dir": built_index_dir, "feedback_db": feedback,
                                               "answer_cache_size": 0, "rate_limit_per_minute": 100_000})


@pytest.fixture(scope="session")
def runtime(test_settings, default_encoder):
    from service.app import load_runtime

    return load_runtime(test_settings, default_encoder)


@pytest.fixture(scope="session")
def client(test_settings, runtime):
    from litestar.testing import TestClient

    from service.app import create_app

    with TestClient(create_app(test_settings, runtime=runtime)) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def postgres_dsn():
    """A throwaway PostgreSQL cluster for the session (service.stack); fails, never skips, when it cannot start."""
    from service.stack import postgres

    with postgres() as dsn:
        yield dsn


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    from service.stack import redis

    with redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture()
def fresh_database(postgres_dsn):
    """An empty database of its own in the session's cluster; yields its DSN."""
    import uuid

    import psycopg

    name = f"kb_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_dsn, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    yield postgres_dsn.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(scope="session")
def vocabulary(project_settings):
    """The project's spec vocabulary (corpus/specs), read once."""
    from kb.specs.vocabulary import Vocabulary

    return Vocabulary.load(project_settings.corpus_dir / "specs")


@pytest.fixture(scope="session")
def table(project_settings):
    """The fact table built from the project's corpus, once (no test changes it)."""
    from kb.corpus import load_corpus
    from kb.specs.facts import FactTable

    return FactTable.build(project_settings.corpus_dir, load_corpus(project_settings.corpus_dir))

