"""The HTTP API through Litestar's test client: the contract and every kind of bad input."""

from __future__ import annotations

import pytest

CITATION_FIELDS = {"n", "chunk_id", "article_id", "title", "lang", "section", "anchor", "text", "score", "url",
                   "char_start", "char_end", "role", "quote_start", "quote_end"}


def test_ask_returns_the_documented_body(client, runtime):
    response = client.post("/v1/ask", json={"question": "How much memory does a Trainium2 chip have?", "top_k": 3})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"question", "lang", "mode", "answerable", "abstain_reason", "unknown_names", "evidence_score",
                         "domain_score", "domain_judged", "answer", "citations", "specs", "spec_answer", "took_ms", "cached"}
    assert body["lang"] == "en" and body["answerable"] is True and body["mode"] == "hybrid"
    assert body["abstain_reason"] is None and body["unknown_names"] == []
    assert {(s["value"], s["unit"]) for s in body["specs"]} == {(96, "GiB"), (96, "GB")}
    assert body["spec_answer"]["kind"] == "lookup" and body["citations"]
    assert [c["n"] for c in body["citations"]] == [1, 2, 3]
    for citation in body["citations"]:
        assert set(citation) == CITATION_FIELDS
    # The passages holding the spec answer's facts come first; the rest follow by score.
    pinned = {s["citation_n"] for s in body["specs"]}
    assert pinned == set(range(1, len(pinned) + 1))
    scores = [c["score"] for c in body["citations"] if c["n"] not in pinned]
    margin = runtime.settings.diversify_margin  # close scores may be reordered to vary the articles
    assert all(a >= b - margin - 1e-4 for k, a in enumerate(scores) for b in scores[k + 1:])


def test_citation_offsets_point_into_the_article(client, project_settings):
    from kb.corpus import load_corpus

    bodies = {a.meta.id: a.body for a in load_corpus(project_settings.corpus_dir)}
    body = client.post("/v1/ask", json={"question": "Сколько памяти у Gaudi?"}).json()
    assert body["lang"] == "ru"
    for c in body["citations"]:
        assert bodies[c["article_id"]][c["char_start"]:c["char_end"]] == c["text"]


def _problem(response, status):
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    assert "Traceback" not in response.text
    return body


@pytest.mark.parametrize("kwargs, status, words", [
    ({"content": b'{"question": ', "headers": {"content-type": "application/json"}}, 400, "not valid JSON"),
    ({"content": b"", "headers": {"content-type": "application/json"}}, 400, "JSON object"),
    ({"content": b"question=hi", "headers": {"content-type": "text/plain"}}, 415, "application/json"),
    ({"content": b'{"question": "hi"}', "headers": {}}, 415, "application/json"),
    ({"json": {"question": "   \n\t"}}, 422, "empty"),
    ({"json": {"question": "x" * 1001}}, 422, "at most 1000"),
    ({"json": {"question": "hi", "top_k": 0}}, 422, "top_k: Input should be greater than or equal to 1"),
    ({"json": {"question": "hi", "top_k": 51}}, 422, "top_k: Input should be less than or equal to 50"),
    ({"json": {"question": "hi", "top_k": "many"}}, 422, "top_k"),
    ({"json": {"top_k": 3}}, 422, "question"),
    ({"json": ["question"]}, 422, "(body)"),
    ({"json": {"question": "hi", "mode": "x"}}, 422, "mode"),
    ({"json": {"question": "hi", "colour": "x"}}, 422, "colour"),
    ({"content": b'{"question": "' + b"a" * 200_000 + b'"}', "headers": {"content-type": "application/json"}}, 413, ""),
])
def test_bad_requests_get_problem_details(client, kwargs, status, words):
    body = _problem(client.post("/v1/ask", **kwargs), status)
    assert words in body["detail"]


@pytest.mark.parametrize("mode", ["dense", "lexical", "hybrid"])
def test_mode_is_chosen_per_request(client, mode):
    body = client.post("/v1/ask", json={"question": "Trn1 FP32 TFLOPS", "top_k": 3, "mode": mode}).json()
    assert body["mode"] == mode and len(body["citations"]) == 3


def test_answer_quotes_its_citations_exactly(client, project_settings):
    from kb.corpus import load_corpus

    bodies = {a.meta.id: a.body for a in load_corpus(project_settings.corpus_dir)}
    for question in ("How much device memory does a Trainium2 chip have?", "Сколько стоит час работы восьми процессоров Gaudi?",
                     "TPU有哪些局限性？"):
        body = client.post("/v1/ask", json={"question": question}).json()
        answer = body["answer"]
        assert body["answerable"] and answer and 1 <= len(answer["citations"]) <= 3
        text = answer["text"]
        for n in answer["citations"]:
            c = body["citations"][n - 1]
            quote = bodies[c["article_id"]][c["quote_start"]:c["quote_end"]]
            assert c["char_start"] <= c["quote_start"] < c["quote_end"] <= c["char_end"]
            assert f"{quote} [{n}]" in text  # character for character, then its marker
            text = text.replace(f"{quote} [{n}]", "", 1)
        assert not text.strip(), f"answer text not made of quoted sentences: {text!r}"


def test_off_topic_question_is_unanswerable_with_related_passages(client):
    body = client.post("/v1/ask", json={"question": "Какая погода будет завтра в Москве?"}).json()
    assert body["answerable"] is False and body["answer"] is None
    assert body["citations"] and all(c["role"] == "related" for c in body["citations"])


def test_unknown_route_and_method(client):
    _problem(client.get("/v1/nothing"), 404)
    _problem(client.get("/v1/ask"), 405)


def test_health_readiness_schema_and_demo(client, runtime):
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz").json()
    assert ready["status"] == "ready" and ready["build_id"] == runtime.manifest["build_id"]
    assert ready["model"]["id"] == "e5-small" and ready["counts"]["articles"] == 13
    schema = client.get("/schema/openapi.json").json()
    assert "/v1/ask" in schema["paths"] and "AskRequest" in str(schema)
    page = client.get("/")
    assert page.status_code == 200 and "widget.js" in page.text


def test_openapi_documents_every_field_with_a_type_and_a_description(client):
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    assert {"AskRequest", "AskResponse", "Citation", "SpecEntry", "ComparisonAnswer", "FeedbackRequest"} <= set(schemas)
    undocumented = [f"{name}.{field}" for name, schema in schemas.items()
                    for field, spec in schema.get("properties", {}).items()
                    if "description" not in spec or not ({"type", "oneOf", "anyOf", "allOf", "$ref", "const", "enum"} & set(spec))]
    assert not undocumented


def test_service_refuses_an_index_of_another_model(test_settings, tmp_path):
    from kb.embedding.encoder import load_encoder
    from kb.errors import IndexArtifactError
    from kb.settings import EmbeddingBackend
    from service.app import load_runtime

    settings = test_settings.model_copy(update={"embedding_backend": EmbeddingBackend.USE_M3})
    with pytest.raises(IndexArtifactError, match="built with model e5-small"):
        load_runtime(settings, load_encoder(settings))


def test_feedback_is_stored_with_the_index_version(client, runtime):
    response = client.post("/v1/feedback", json={"question": "How much HBM?", "rating": "down", "chunk_ids": ["a:1-2"]})
    assert response.status_code == 201
    body = response.json()
    assert body["index_build"] == runtime.manifest["build_id"]
    stored = client.app.state.feedback.all()
    assert any(r["id"] == body["id"] and r["rating"] == "down" and r["index_build"] == body["index_build"] for r in stored)


@pytest.mark.parametrize("payload, words", [
    ({"question": "q", "rating": "meh"}, "rating"),
    ({"rating": "up"}, "question"),
    ({"question": "q", "rating": "up", "chunk_ids": "a"}, "chunk_ids"),
])
def test_bad_feedback_gets_problem_details(client, payload, words):
    assert words in _problem(client.post("/v1/feedback", json=payload), 422)["detail"]


def _app_client(test_settings, runtime, **overrides):
    from litestar.testing import TestClient

    from service.app import create_app

    return TestClient(create_app(test_settings.model_copy(update=overrides), runtime=runtime))


def test_cors_allows_only_configured_origins(test_settings, runtime, tmp_path):
    with _app_client(test_settings, runtime, cors_allow_origins=["http://allowed.test"],
                     feedback_db=tmp_path / "f.sqlite3") as c:
        ok = c.post("/v1/ask", json={"question": "TPU v5e HBM"}, headers={"Origin": "http://allowed.test"})
        assert ok.headers.get("access-control-allow-origin") == "http://allowed.test"
        other = c.post("/v1/ask", json={"question": "TPU v5e HBM"}, headers={"Origin": "http://evil.test"})
        assert "access-control-allow-origin" not in other.headers
    with _app_client(test_settings, runtime, feedback_db=tmp_path / "g.sqlite3") as c:  # default: no origins at all
        closed = c.post("/v1/ask", json={"question": "TPU v5e HBM"}, headers={"Origin": "http://allowed.test"})
        assert "access-control-allow-origin" not in closed.headers


def test_rate_limit_returns_429_with_retry_after(test_settings, runtime, tmp_path):
    with _app_client(test_settings, runtime, rate_limit_per_minute=2, feedback_db=tmp_path / "f.sqlite3") as c:
        for _ in range(2):
            assert c.post("/v1/ask", json={"question": "TPU v5e HBM", "top_k": 1}).status_code == 200
        limited = c.post("/v1/ask", json={"question": "TPU v5e HBM", "top_k": 1})
        body = _problem(limited, 429)
        assert int(limited.headers["retry-after"]) > 0 and body["title"] == "Too many requests"
        assert c.get("/healthz").status_code == 200  # only /v1/ask and /v1/feedback are limited


def test_widget_script_is_cached_and_pages_exist(client):
    script = client.get("/widget.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "max-age" in script.headers["cache-control"] and script.headers["etag"]
    assert client.get("/widget.js", headers={"If-None-Match": script.headers["etag"]}).status_code == 304
    demo = client.get("/").text
    assert '<script src="/widget.js" defer></script>' in demo  # same origin wherever the page is opened
    assert "&lt;script src=&quot;http://127.0.0.1:8000/widget.js&quot;" in client.get("/embed").text
    article = client.get("/articles/aws-trainium2-architecture")
    assert article.status_code == 200 and 'id="trainium2-chip-components"' in article.text
    _problem(client.get("/articles/no-such-article"), 404)
