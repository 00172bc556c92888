"""The quality gate of `make test`: the project's suite on the default configuration, against the baseline.

The quick run reuses the session's index (real model, real corpus); it takes
a few seconds. A deliberately degraded configuration must fail the same gate.
"""

from __future__ import annotations

import pytest

from kb.evaluation.configs import default_config_name
from kb.evaluation.gate import MARGIN, gate_failures
from kb.evaluation.runner import RESULTS_DIR, load_result, run_kb


@pytest.fixture(scope="module")
def quick_result(project_settings, runtime, default_encoder):
    config = default_config_name(project_settings)
    return run_kb(config, project_settings, progress=False, encoder=default_encoder,
                  index=runtime.retriever.index)


def test_default_configuration_holds_the_baseline(project_settings, quick_result):
    baseline = load_result("kb", default_config_name(project_settings))
    failures = gate_failures(quick_result, baseline)
    assert not failures, "retrieval quality fell below the committed baseline:\n" + "\n".join(failures)


def test_baseline_is_this_corpus_and_question_set(project_settings, quick_result):
    baseline = load_result("kb", default_config_name(project_settings))
    assert baseline["index"]["corpus_hash"] == quick_result["index"]["corpus_hash"], \
        "the corpus changed since the baseline: rerun `make eval` and commit eval/results/"
    assert [r["id"] for r in baseline["rows"]] == [r["id"] for r in quick_result["rows"]]


def test_gate_fails_on_a_degraded_configuration(project_settings, tmp_path):
    """A model-free hashing encoder stands for a broken model: the gate must catch it."""
    from kb.build import build_index
    from kb.index import load_index
    from tests.fakes import HashingEncoder

    encoder = HashingEncoder()
    build_index(project_settings.corpus_dir, tmp_path / "index", encoder, progress=False)
    degraded = run_kb("degraded", project_settings, progress=False, encoder=encoder,
                      index=load_index(tmp_path / "index", encoder))
    baseline = load_result("kb", default_config_name(project_settings))
    failures = gate_failures(degraded, baseline)
    assert any("ndcg@10" in f for f in failures) and any("recall@5" in f for f in failures)


def test_gate_margin_is_applied(quick_result):
    shifted = {"config": "x", "run_at": "now", "summary": {"overall": {
        m: {"mean": quick_result["summary"]["overall"][m]["mean"] + MARGIN * 0.5} for m in ("ndcg@10", "recall@5")}}}
    assert gate_failures(quick_result, shifted) == []
    shifted["summary"]["overall"]["ndcg@10"]["mean"] += MARGIN
    assert len(gate_failures(quick_result, shifted)) == 1


def test_reports_are_written(quick_result, tmp_path):
    from kb.evaluation.report import write_result

    paths = write_result(quick_result, tmp_path)
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = paths["md"].read_text(encoding="utf-8")
    assert "en->zh" in report and "95% bootstrap" in report and "Abstention" in report
    assert (RESULTS_DIR / "kb-e5-small.json").exists()
