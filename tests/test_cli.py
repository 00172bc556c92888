"""The `kb` command: readable answers, --json equal to the HTTP body, clean errors."""

from __future__ import annotations

import json

from kb.cli import main


def test_ask_json_matches_http_body(built_index_dir, client, capsys):
    question = "What is the HBM capacity of TPU v5e?"
    assert main(["--index-dir", str(built_index_dir), "ask", question, "--k", "3", "--json"]) == 0
    cli_body = json.loads(capsys.readouterr().out)
    http_body = client.post("/v1/ask", json={"question": question, "top_k": 3}).json()
    cli_body.pop("took_ms"), http_body.pop("took_ms")
    assert cli_body == http_body


def test_ask_terminal_output_is_readable(built_index_dir, capsys):
    assert main(["--index-dir", str(built_index_dir), "ask", "Сколько памяти у Trainium?", "--k", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Q: Сколько памяти у Trainium?  [ru]")
    assert "[1] " in out and "[2] " in out and "§ " in out and "source: " in out


def test_missing_index_is_a_clear_error(tmp_path, capsys):
    assert main(["--index-dir", str(tmp_path / "none"), "ask", "hello"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kb: error:") and "kb build" in err and "Traceback" not in err


def test_bad_k_is_a_clear_error(built_index_dir, capsys):
    assert main(["--index-dir", str(built_index_dir), "ask", "hello", "--k", "0"]) == 2
    assert "--k must be between 1 and 50" in capsys.readouterr().err


def test_curate_check_passes_on_committed_corpus(capsys):
    assert main(["curate", "--check"]) == 0
    assert "STALE" not in capsys.readouterr().out


def test_index_of_another_model_is_refused_by_the_cli(built_index_dir, capsys):
    assert main(["--backend", "use-m3", "--index-dir", str(built_index_dir), "ask", "hello"]) == 2
    err = capsys.readouterr().err
    assert "built with model e5-small" in err and "kb build" in err
