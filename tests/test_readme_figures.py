"""Every evaluation figure in README.md and eval/README.md is rendered from the committed results."""

from __future__ import annotations

from kb.evaluation.readme import BLOCK, DOCUMENTS, render_documents
from kb.evaluation.runner import RESULTS_DIR


def test_the_readmes_show_the_committed_results():
    stale = [str(path) for path, changed in render_documents(RESULTS_DIR, check=True) if changed]
    assert not stale, f"figures differ from eval/results/ in {stale}: run `kb eval --readme` (after `make eval`)"


def test_the_readme_states_what_is_held_out():
    readme = DOCUMENTS[0].read_text(encoding="utf-8")
    block = next(m.group("body") for m in BLOCK.finditer(readme) if m.group("name") == "headline")
    assert "test (held out)" in block and "in-sample" in block


def test_a_changed_figure_is_caught(tmp_path):
    readme = tmp_path / "README.md"
    text = DOCUMENTS[0].read_text(encoding="utf-8")
    body = next(m.group("body") for m in BLOCK.finditer(text) if m.group("name") == "headline")
    readme.write_text(text.replace(body, body.replace("0.", "0.9", 1)), encoding="utf-8")
    assert render_documents(RESULTS_DIR, check=True, documents=(readme,)) == [(readme, True)]


def test_the_default_answer_knobs_are_the_committed_sweeps_choices():
    # the sweep chooses them on dev; a default left behind after a rerun would run the service on stale ones
    import json

    from kb.evaluation.configs import default_config_name
    from kb.settings import Settings

    fields = Settings.model_fields
    sweep = json.loads((RESULTS_DIR / f"sweep-fusion-{default_config_name(Settings())}.json").read_text(encoding="utf-8"))
    chosen = {"answer_min_domain": sweep["domain"]["threshold"], "answer_min_score": sweep["threshold"]["threshold"],
              "answer_lang_bonus": sweep["lang_bonus_chosen"]["bonus"]}
    assert {name: fields[name].default for name in chosen} == chosen
