"""Shared fixtures. The real model and the real index are built once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

ROOT = Path(__file__).resolve().parent.parent


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
    from kb.chunking import ChunkerSettings
    from kb.index import build_index

    index_dir = tmp_path_factory.mktemp("index") / "index"
    chunker = ChunkerSettings(project_settings.chunk_target_tokens, project_settings.chunk_max_tokens)
    build_index(project_settings.corpus_dir, index_dir, default_encoder, chunker, progress=False)
    return index_dir


@pytest.fixture(scope="session")
def test_settings(project_settings, built_index_dir, tmp_path_factory):
    feedback = tmp_path_factory.mktemp("feedback") / "feedback.sqlite3"
    return project_settings.model_copy(update={"index_dir": built_index_dir, "feedback_db": feedback})


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
