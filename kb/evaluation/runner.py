"""Run a suite for a named configuration; compare two results."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import asdict, replace
from pathlib import Path

from kb.embedding.encoder import Encoder, load_encoder
from kb.errors import KnowledgeBaseError
from kb.evaluation.configs import CONFIGS, settings_for
from kb.evaluation.datasets import load_kb_questions, load_xquad
from kb.evaluation.metrics import paired_randomization_test
from kb.params import AnswerPolicy, RetrievalParams
from kb.settings import PROJECT_ROOT, Settings

EVAL_DIR = PROJECT_ROOT / "eval"
RESULTS_DIR = EVAL_DIR / "results"
KB_QUESTIONS = EVAL_DIR / "datasets" / "kb-questions.jsonl"
XQUAD_DIR = EVAL_DIR / "datasets" / "xquad-r"
DOMAIN_QUESTIONS = EVAL_DIR / "datasets" / "domain-questions.jsonl"  # the domain gate's own data (kb.evaluation.domain_fit)
WORK_DIR = PROJECT_ROOT / "var" / "eval"  # rebuildable: per-configuration indexes and embedding caches
CACHE_DIR = WORK_DIR / "cache"


def eval_index_dir(config: str) -> Path:
    return WORK_DIR / "indexes" / config


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part)
    return h.hexdigest()[:16]


def input_hashes(settings: Settings, questions_path: Path = KB_QUESTIONS) -> dict[str, str]:
    """What a result was made from: the articles, the spec files, the glossary, the question set, the
    statistics fitted per model and every setting that changes an answer. A committed result whose hashes differ is stale."""
    from kb.chunking import ChunkerSettings
    from kb.corpus import corpus_hash, load_corpus
    from kb.specs.facts import specs_hash

    glossary = settings.corpus_dir / "glossary.yaml"
    knobs = {"retrieval": asdict(RetrievalParams.from_settings(settings)),
             "answer": asdict(AnswerPolicy.from_settings(settings)),
             "chunker": ChunkerSettings(settings.chunk_target_tokens, settings.chunk_max_tokens).as_dict(),
             "embedding_backend": str(settings.embedding_backend), "concat_use_share": settings.concat_use_share,
             "encoder_runtime": str(settings.encoder_runtime),
             "use_glossary": settings.use_glossary}
    return {"corpus": corpus_hash(load_corpus(settings.corpus_dir)), "specs": specs_hash(settings.corpus_dir),
            "glossary": _digest(glossary.read_bytes() if glossary.exists() else b""),
            "questions": _digest(questions_path.read_bytes()),
            # the language statistics, score calibration and domain gate fitted per model
            "model_data": _digest(*(p.name.encode() + b"\0" + p.read_bytes() + b"\0"
                                    for p in sorted((PROJECT_ROOT / "kb" / "data").glob("*.json")))),
            "settings": _digest(json.dumps(knobs, sort_keys=True, default=str).encode())}


def _header(suite: str, config: str, settings: Settings, encoder: Encoder) -> dict:
    return {"suite": suite, "config": config, "overrides": CONFIGS.get(config, {}),
            "run_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "model": {"id": encoder.model_id, "weights_hash": encoder.weights_hash(), "dimension": encoder.dimension},
            "knobs": {**asdict(RetrievalParams.from_settings(settings)), **asdict(AnswerPolicy.from_settings(settings))}}


def kb_index_for(settings: Settings, encoder: Encoder, work_dir: Path, progress: bool):
    """An index of the corpus for this configuration, rebuilt only when corpus, specs, model, chunker or the
    code that builds it changed."""
    from kb.build import build_index, builder_digest
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
                index.manifest["chunker"] == chunker.as_dict() and index.manifest.get("builder") == builder_digest():
            return index
    except IndexArtifactError:
        pass
    build_index(settings.corpus_dir, work_dir, encoder, chunker, progress=progress)
    return load_index(work_dir, encoder)


def run_kb(config: str, base: Settings, progress: bool = True, encoder: Encoder | None = None,
           index=None, questions_path: Path = KB_QUESTIONS, split: str | None = None) -> dict:
    """The project suite for a named configuration (or ``base`` itself when the name is not one);
    ``split`` runs one split only (the gate runs ``test``)."""
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
    result["inputs"] = input_hashes(settings, questions_path)
    result.update(run_kb_suite(load_kb_questions(questions_path, split), retriever, settings.corpus_dir,
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


def calibrate(config: str, base: Settings, progress: bool = True, gate_only: bool = False) -> dict:
    """Measure and store the language centering of each model of a configuration, the score
    calibration of its centered vectors and its domain gate (``gate_only``: the gate alone)."""
    from kb.calibration import write_calibration
    from kb.centering import write_centering
    from kb.evaluation.xquad import measure_language_statistics, model_parts

    settings = settings_for(config, base)
    encoder = load_encoder(settings)
    if gate_only:
        return fit_gate(config, settings, encoder, progress)["cross_batch"]
    centerings, calibrations = measure_language_statistics(load_xquad(XQUAD_DIR), encoder, CACHE_DIR, progress)
    for model, centering in zip(model_parts(encoder)[0], centerings, strict=True):
        write_centering(model.model_id, model.weights_hash(), centering,
                        source="kb eval --calibrate: XQuAD-R, mean of 3,570 questions and 720 paragraphs per language")
    write_calibration(encoder.model_id, encoder.weights_hash(), calibrations,
                      source="kb eval --calibrate: XQuAD-R, 3,570 questions x 720 paragraphs (passage) and their "
                             "sentences (sentence), unrelated pairs only, language-centered vectors")
    fit_gate(config, settings, encoder, progress)
    return calibrations["passage"].offsets


def fit_gate(config: str, settings: Settings, encoder: Encoder, progress: bool = True) -> dict:
    """Fit and store the domain gate of a configuration's model (on centered vectors: after centering)."""
    from kb.domain import write_domain_gate
    from kb.evaluation.domain_fit import fit_domain_gate, load_domain_questions

    gate, note = fit_domain_gate(encoder, load_domain_questions(DOMAIN_QUESTIONS))
    write_domain_gate(encoder.model_id, encoder.weights_hash(), gate, note)
    return note


def run_sweep(base: Settings, progress: bool = True, answers_only: bool = False,
              results_dir: Path = RESULTS_DIR) -> tuple[str, str, dict]:
    """The fusion sweep and the abstention threshold for the configured setup, on the ``dev`` split
    only: (config name, Markdown report, the report's figures). ``answers_only`` re-chooses only what
    comes after retrieval (the domain gate's threshold, the abstention threshold, the language bonus),
    keeping the committed sweep's retrieval figures: what a refitted gate needs."""
    from kb.evaluation.configs import default_config_name
    from kb.evaluation.datasets import tuning_questions
    from kb.evaluation.sweep import sweep_diversity, sweep_fusion, sweep_sentence_share, sweep_window

    config = default_config_name(base)
    encoder = load_encoder(base)
    dev = tuning_questions(load_kb_questions(KB_QUESTIONS, "dev"))
    if answers_only:  # checked before the index is built: a refusal costs nothing
        previous = results_dir / f"sweep-fusion-{config}.json"
        if not previous.exists():
            raise KnowledgeBaseError(f"--gate-only keeps the retrieval part of {previous}, which does not exist: "
                                     "run the whole sweep (kb eval --sweep) first")
        data = json.loads(previous.read_text(encoding="utf-8"))
        if (data["questions"], data["model"]) != (len(dev), encoder.model_id):
            raise KnowledgeBaseError(f"{previous} was swept on {data['questions']} dev questions with {data['model']}; "
                                     f"now {len(dev)} with {encoder.model_id}: run the whole sweep")
    index = kb_index_for(base, encoder, eval_index_dir(config), progress)
    if not answers_only:
        xquad = load_xquad(XQUAD_DIR)
        data = {"split": "dev", "questions": len(dev), "needs": len({q.need for q in dev}), "model": encoder.model_id}
        data["sentence_share"] = sweep_sentence_share(index, encoder, base, dev, xquad, CACHE_DIR)
        data["fusion"] = sweep_fusion(index, encoder, base, dev)
        data["window"] = sweep_window(index, encoder, base, dev, xquad, CACHE_DIR)
        data["diversity"] = sweep_diversity(index, encoder, base, dev)
    data.update(_sweep_answers(base, encoder, index, dev))
    return config, _sweep_markdown(data, encoder.model_id), data


def _sweep_answers(base: Settings, encoder: Encoder, index, dev) -> dict:
    from kb.evaluation.kb_suite import run_kb_suite
    from kb.evaluation.sweep import (
        abstention_thresholds,
        choose_domain_threshold,
        choose_lang_bonus,
        choose_threshold,
        domain_thresholds,
        sweep_lang_bonus,
    )
    from kb.retrieval import Retriever

    retriever = Retriever.from_settings(index, encoder, base)
    ungated = replace(AnswerPolicy.from_settings(base), answer_min_score=float("-inf"), answer_min_domain=float("-inf"))
    data = {"domain": choose_domain_threshold(domain_thresholds(run_kb_suite(dev, retriever, base.corpus_dir, ungated,
                                                                             progress=False)))}
    every = replace(ungated, answer_min_domain=data["domain"]["threshold"])
    data["threshold"] = choose_threshold(abstention_thresholds(run_kb_suite(dev, retriever, base.corpus_dir, every,
                                                                            progress=False)))
    chosen = replace(AnswerPolicy.from_settings(base), answer_min_domain=data["domain"]["threshold"],
                     answer_min_score=data["threshold"]["threshold"])
    data["lang_bonus"] = sweep_lang_bonus(retriever, base.corpus_dir, chosen, dev)
    data["lang_bonus_chosen"] = choose_lang_bonus(data["lang_bonus"])
    return data


def _sweep_markdown(data: dict, model_id: str) -> str:
    from kb.evaluation.sweep import (
        diversity_report,
        domain_report,
        lang_bonus_report,
        sentence_share_report,
        sweep_report,
        threshold_report,
        window_report,
    )

    return (sentence_share_report(data["sentence_share"], model_id, data) + "\n"
            + sweep_report(data["fusion"]) + "\n" + window_report(data["window"]) + "\n"
            + diversity_report(data["diversity"]) + "\n" + domain_report(data["domain"], data) + "\n"
            + threshold_report(data["threshold"]) + "\n"
            + lang_bonus_report(data["lang_bonus"], data["lang_bonus_chosen"]))


def load_result(suite: str, config: str, results_dir: Path = RESULTS_DIR) -> dict:
    path = results_dir / f"{suite}-{config}.json"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: run `kb eval --suite {suite} --config {config}` first")
    return json.loads(path.read_text(encoding="utf-8"))


def compare(a: dict, b: dict, metrics=("ndcg@10", "recall@5")) -> dict:
    """Paired randomization tests on per-query scores, whole information needs (XQuAD-R: question
    groups) flipping together: for the project suite overall and per language pair of ``test``, and
    overall on ``dev``; for XQuAD-R per setting."""
    from kb.evaluation.xquad import question_group

    tests = {}

    def test(key, ids, score_a, score_b, clusters) -> None:
        xs, ys = [score_a(i) for i in ids], [score_b(i) for i in ids]
        tests[key] = (round(sum(xs) / len(xs), 4), round(sum(ys) / len(ys), 4), paired_randomization_test(xs, ys, clusters))

    if a["suite"] == "kb":
        rows_a = {r["id"]: r for r in a["rows"] if "metrics" in r}
        rows_b = {r["id"]: r for r in b["rows"] if "metrics" in r}
        common = sorted(set(rows_a) & set(rows_b))
        groups: dict[str, list[str]] = {}
        for qid in common:
            split = rows_a[qid]["split"]
            groups.setdefault(f"{split} overall", []).append(qid)
            if split == "test":
                groups.setdefault(f"test {rows_a[qid]['lang']}->{rows_a[qid]['doc_lang']}", []).append(qid)
        for group, ids in sorted(groups.items(), key=lambda kv: (not kv[0].startswith("test"), kv[0] != "test overall")):
            for m in metrics:
                test((group, m), ids, lambda i, m=m: rows_a[i]["metrics"][m], lambda i, m=m: rows_b[i]["metrics"][m],
                     [rows_a[i]["need"] for i in ids])
    else:
        columns = a["row_metrics"]
        for setting in a["rows"]:
            ra, rb = a["rows"][setting], b["rows"][setting]
            ids = sorted(k for k in set(ra) & set(rb) if "@" not in k) or sorted(set(ra) & set(rb))
            for m in metrics:
                col = columns.index(m)
                test((setting, m), ids, lambda i, c=col, r=ra: r[i][c], lambda i, c=col, r=rb: r[i][c],
                     [question_group(i) for i in ids])
    return tests
