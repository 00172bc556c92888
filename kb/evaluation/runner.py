"""Run a suite for a named configuration; compare two results."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from pathlib import Path

from kb.embedding.encoder import Encoder, load_encoder
from kb.evaluation.configs import CONFIGS, settings_for
from kb.evaluation.datasets import load_kb_questions, load_xquad
from kb.evaluation.metrics import paired_randomization_test
from kb.params import AnswerPolicy, RetrievalParams
from kb.settings import PROJECT_ROOT, Settings

EVAL_DIR = PROJECT_ROOT / "eval"
RESULTS_DIR = EVAL_DIR / "results"
KB_QUESTIONS = EVAL_DIR / "datasets" / "kb-questions.jsonl"
XQUAD_DIR = EVAL_DIR / "datasets" / "xquad-r"
WORK_DIR = PROJECT_ROOT / "var" / "eval"  # rebuildable: per-configuration indexes and embedding caches
CACHE_DIR = WORK_DIR / "cache"


def eval_index_dir(config: str) -> Path:
    return WORK_DIR / "indexes" / config


def _header(suite: str, config: str, settings: Settings, encoder: Encoder) -> dict:
    return {"suite": suite, "config": config, "overrides": CONFIGS.get(config, {}),
            "run_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "model": {"id": encoder.model_id, "weights_hash": encoder.weights_hash(), "dimension": encoder.dimension}}


def kb_index_for(settings: Settings, encoder: Encoder, work_dir: Path, progress: bool):
    """An index of the corpus for this configuration, rebuilt only when corpus, specs, model or chunker changed."""
    from kb.build import build_index
    from kb.chunking import ChunkerSettings
    from kb.corpus import corpus_hash, load_corpus
    from kb.errors import IndexArtifactError
    from kb.index import load_index
    from kb.specs.facts import specs_hash

    chunker = ChunkerSettings(settings.chunk_target_tokens, settings.chunk_max_tokens)
    try:
        index = load_index(work_dir, encoder)
        if index.manifest["corpus_hash"] == corpus_hash(load_corpus(settings.corpus_dir)) and \
                index.manifest.get("specs_hash") == specs_hash(settings.corpus_dir) and \
                index.manifest["chunker"] == chunker.as_dict():
            return index
    except IndexArtifactError:
        pass
    build_index(settings.corpus_dir, work_dir, encoder, chunker, progress=progress)
    return load_index(work_dir, encoder)


def run_kb(config: str, base: Settings, progress: bool = True, encoder: Encoder | None = None,
           index=None, questions_path: Path = KB_QUESTIONS) -> dict:
    from kb.evaluation.kb_suite import run_kb_suite
    from kb.retrieval import Retriever

    settings = settings_for(config, base) if config in CONFIGS else base
    encoder = encoder or load_encoder(settings)
    if index is None:
        index = kb_index_for(settings, encoder, eval_index_dir(config), progress)
    retriever = Retriever.from_settings(index, encoder, settings)
    result = _header("kb", config, settings, encoder)
    result["index"] = {"build_id": index.manifest["build_id"], "chunks": index.manifest["counts"]["chunks"],
                       "corpus_hash": index.manifest["corpus_hash"]}
    result.update(run_kb_suite(load_kb_questions(questions_path), retriever, settings.corpus_dir,
                               AnswerPolicy.from_settings(settings), progress))
    return result


def run_xquad_suite(config: str, base: Settings, progress: bool = True) -> dict:
    from kb.evaluation.xquad import run_xquad
    from kb.glossary import load_glossary

    settings = settings_for(config, base)
    encoder = load_encoder(settings)
    result = _header("xquad-r", config, settings, encoder)
    glossary = load_glossary(settings.corpus_dir / "glossary.yaml") if settings.use_glossary else None
    result.update(run_xquad(load_xquad(XQUAD_DIR), encoder, CACHE_DIR, RetrievalParams.from_settings(settings),
                            glossary, progress))
    return result


def calibrate(config: str, base: Settings, progress: bool = True) -> dict:
    """Measure and store the language centering of each model of a configuration and the score
    calibration of its centered vectors."""
    from kb.calibration import write_calibration
    from kb.centering import write_centering
    from kb.evaluation.xquad import measure_language_statistics, model_parts

    settings = settings_for(config, base)
    encoder = load_encoder(settings)
    centerings, calibrations = measure_language_statistics(load_xquad(XQUAD_DIR), encoder, CACHE_DIR, progress)
    for model, centering in zip(model_parts(encoder)[0], centerings, strict=True):
        write_centering(model.model_id, model.weights_hash(), centering,
                        source="kb eval --calibrate: XQuAD-R, mean of 3,570 questions and 720 paragraphs per language")
    write_calibration(encoder.model_id, encoder.weights_hash(), calibrations,
                      source="kb eval --calibrate: XQuAD-R, 3,570 questions x 720 paragraphs (passage) and their "
                             "sentences (sentence), unrelated pairs only, language-centered vectors")
    return calibrations["passage"].offsets


def run_sweep(base: Settings, progress: bool = True) -> tuple[str, str]:
    """The fusion sweep and the abstention threshold for the configured setup: (config name, Markdown report)."""
    from kb.evaluation.configs import default_config_name
    from kb.evaluation.kb_suite import run_kb_suite
    from kb.evaluation.sweep import (
        abstention_thresholds,
        choose_threshold,
        diversity_report,
        sentence_share_report,
        sweep_diversity,
        sweep_fusion,
        sweep_report,
        sweep_sentence_share,
        sweep_window,
        window_report,
    )
    from kb.retrieval import Retriever

    config = default_config_name(base)
    encoder = load_encoder(base)
    index = kb_index_for(base, encoder, eval_index_dir(config), progress)
    xquad = load_xquad(XQUAD_DIR)
    report = sentence_share_report(sweep_sentence_share(index, encoder, base, KB_QUESTIONS, xquad, CACHE_DIR),
                                   encoder.model_id)
    report += "\n" + sweep_report(sweep_fusion(index, encoder, base, KB_QUESTIONS))
    report += "\n" + window_report(sweep_window(index, encoder, base, KB_QUESTIONS, xquad, CACHE_DIR))
    report += "\n" + diversity_report(sweep_diversity(index, encoder, base, KB_QUESTIONS))
    every = replace(AnswerPolicy.from_settings(base), answer_min_score=float("-inf"))
    run = run_kb_suite(load_kb_questions(KB_QUESTIONS), Retriever.from_settings(index, encoder, base),
                       base.corpus_dir, every, progress=False)
    chosen = choose_threshold(abstention_thresholds(run))
    span = chosen.get("range")
    within = f"; every threshold above {span[0]:.2f} up to {span[1]:.2f} does as well, this is the middle" if span else ""
    report += (f"\n## Abstention threshold (current fusion settings)\n\nBest abstention F1 while losing no "
               f"answerable question: answer_min_score = {chosen['threshold']} (recall {chosen['recall']:.3f}, "
               f"precision {chosen['precision']:.3f}, answerable lost {chosen['lost']}{within}).\n")
    return config, report


def load_result(suite: str, config: str, results_dir: Path = RESULTS_DIR) -> dict:
    path = results_dir / f"{suite}-{config}.json"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: run `kb eval --suite {suite} --config {config}` first")
    return json.loads(path.read_text(encoding="utf-8"))


def compare(a: dict, b: dict, metrics=("ndcg@10", "recall@5")) -> dict:
    """Paired randomization test per language pair (and overall) on per-query scores."""
    tests = {}
    if a["suite"] == "kb":
        rows_a = {r["id"]: r for r in a["rows"] if "metrics" in r}
        rows_b = {r["id"]: r for r in b["rows"] if "metrics" in r}
        common = sorted(set(rows_a) & set(rows_b))
        groups = {"overall": common}
        for qid in common:
            groups.setdefault(f"{rows_a[qid]['lang']}->{rows_a[qid]['doc_lang']}", []).append(qid)
        for group, ids in groups.items():
            for m in metrics:
                xs = [rows_a[i]["metrics"][m] for i in ids]
                ys = [rows_b[i]["metrics"][m] for i in ids]
                tests[(group, m)] = (sum(xs) / len(xs), sum(ys) / len(ys), paired_randomization_test(xs, ys))
    else:
        columns = a["row_metrics"]
        for setting in a["rows"]:
            ra, rb = a["rows"][setting], b["rows"][setting]
            ids = sorted(k for k in set(ra) & set(rb) if "@" not in k) or sorted(set(ra) & set(rb))
            for m in metrics:
                col = columns.index(m)
                xs, ys = [ra[i][col] for i in ids], [rb[i][col] for i in ids]
                tests[(setting, m)] = (sum(xs) / len(xs), sum(ys) / len(ys), paired_randomization_test(xs, ys))
    return tests
