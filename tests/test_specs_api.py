"""Spec lookups through the real model, index and HTTP API, and `kb specs`."""

from __future__ import annotations

import json

import pytest

from kb.cli import main
from kb.evaluation.answers import lost_value_safe, spec_match
from kb.evaluation.datasets import Expected
from kb.response import AskResponse


@pytest.mark.parametrize("question, entity, value, unit, lang_word", [
    ("Trn1的FP32算力是多少？", "aws-trn1", 840, "TFLOPS", "每实例"),
    ("Сколько памяти у Gaudi в инстансе DL1?", "intel-gaudi", 32, "GB", "на процессор"),
    ("How much does an hour of eight Gaudi processors cost?", "aws-dl1", 13.11, "USD/h", "per instance"),
])
def test_ask_fills_specs_beside_the_passages(client, question, entity, value, unit, lang_word):
    body = client.post("/v1/ask", json={"question": question}).json()
    assert body["answerable"] and body["citations"], body  # a spec answer never replaces the passages
    spec = next(s for s in body["specs"] if s["entity"] == entity)
    assert (spec["value"], spec["unit"]) == (value, unit) and lang_word in spec["display"]
    assert spec["citation"]["article_id"] and spec["quote"] and body["spec_answer"]["text"]


def test_the_answer_quotes_the_sentence_that_states_the_fact(client):
    body = client.post("/v1/ask", json={"question": "Trn1的FP32算力是多少？"}).json()
    spec = body["specs"][0]
    cited = body["citations"][spec["citation_n"] - 1]
    assert cited["quote_start"] <= spec["citation"]["char_start"] < spec["citation"]["char_end"] <= cited["quote_end"]
    assert "FP32的算力为840TFLOPS" in body["answer"]["text"] and f"[{cited['n']}]" in body["answer"]["text"]
    assert not body["answer"]["text"].startswith("*")  # the figure caption before it is its own sentence


def test_comparison_answer_says_which_is_higher_and_by_how_much(client):
    body = client.post("/v1/ask", json={"question": "Which has higher memory bandwidth, Trainium2 or Trainium3?"}).json()
    summary = body["spec_answer"]
    assert summary["kind"] == "comparison" and summary["higher"] == "aws-trainium3"
    assert "2 TB/s more" in summary["text"]
    assert spec_match(AskResponse.model_validate(body), Expected(winner="aws-trainium3", loser="aws-trainium2", direction="higher", values=[
        {"entity": "aws-trainium3", "value": 4.9, "unit": "TB/s"}, {"entity": "aws-trainium2", "value": 2.9, "unit": "TB/s"}]))


def test_conflicting_sources_are_shown_side_by_side(client):
    body = client.post("/v1/ask", json={"question": "B200有多少HBM？"}).json()
    values = sorted(s["value"] for s in body["specs"] if s["attribute"] == "memory_capacity")
    assert values == [180, 192] and all(s["conflict"] for s in body["specs"])
    assert "来源不一致" in body["spec_answer"]["text"]


def test_lost_value_is_unknown_in_the_answer(client):
    body = client.post("/v1/ask", json={"question": "What ResNet-50 throughput does a single A100 reach?"}).json()
    assert lost_value_safe(AskResponse.model_validate(body))
    assert all(s["value"] is None for s in body["specs"] if s["attribute"] == "resnet50_throughput")


@pytest.mark.parametrize("question, reason", [
    ("How many transistors does the Intel Gaudi3 have?", "no_fact"),
    ("What is the memory capacity of the Graphcore Bow IPU?", "unknown_name"),
])
def test_questions_the_corpus_cannot_answer_are_declined(client, question, reason):
    body = client.post("/v1/ask", json={"question": question}).json()
    assert not body["answerable"] and body["answer"] is None and body["abstain_reason"] == reason
    assert all(c["role"] == "related" for c in body["citations"])


def test_specs_endpoints(client):
    listing = client.get("/v1/specs").json()
    assert listing["facts"] > 400 and listing["conflicts"] >= 4
    assert any(e["id"] == "intel-gaudi2" and "memory_capacity" in e["attributes"] for e in listing["entities"])
    gaudi2 = client.get("/v1/specs/Gaudi2", params={"lang": "ru"}).json()
    assert gaudi2["entity"] == "intel-gaudi2" and all(s["citation"]["char_end"] > s["citation"]["char_start"]
                                                      for s in gaudi2["specs"])
    assert any(s["label"] == "объём памяти" and s["value"] == 96 for s in gaudi2["specs"])
    compare = client.get("/v1/specs/compare", params={"entities": "mi300x,h100", "attribute": "memory_capacity"}).json()
    assert compare["comparison"]["higher"] == "amd-mi300x" and compare["comparison"]["difference"] == [112, 112]


@pytest.mark.parametrize("path, params, status, close", [
    ("/v1/specs/Gaudi4", {}, 404, "intel-gaudi"),
    ("/v1/specs/compare", {"entities": "h100,mi300x", "attribute": "memory_capacty"}, 404, "memory_capacity"),
    ("/v1/specs/compare", {"entities": "h100", "attribute": "memory_capacity"}, 422, None),
    ("/v1/specs", {"lang": "fr"}, 422, None),
])
def test_specs_errors_are_problem_details_with_close_matches(client, path, params, status, close):
    response = client.get(path, params=params)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    if close:
        assert close in body["close_matches"] and close in body["detail"]


def test_kb_specs_prints_a_table_and_json(built_index_dir, capsys):
    assert main(["--index-dir", str(built_index_dir), "specs", "B200", "--attribute", "memory_capacity"]) == 0
    out = capsys.readouterr().out
    assert "180 GB" in out and "192 GB" in out and "sources disagree" in out
    assert main(["--index-dir", str(built_index_dir), "specs", "trn1", "--json", "--lang", "zh"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert any(r["value"] == 840 and r["label"] == "峰值算力" for r in rows)
    assert main(["--index-dir", str(built_index_dir), "specs", "Gaudi4"]) == 2
    assert "did you mean intel-gaudi" in capsys.readouterr().err


def test_kb_ask_prints_the_spec_answer(built_index_dir, capsys):
    assert main(["--index-dir", str(built_index_dir), "ask", "Сколько транзисторов в A100?", "--k", "2"]) == 0
    out = capsys.readouterr().out
    assert "Spec:\n  - NVIDIA A100 SXM: 54,2 млрд транзисторов" in out and "542亿个晶体管" in out
