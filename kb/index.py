"""The index artifact: one directory, written once by ``kb build``, read by everyone else.

    <index_dir>            a symlink to the current build
    <index_dir>.builds/    one folder per build:
        manifest.json      format version, model id + weights hash, corpus hash, counts
        vectors.faiss      exact inner-product index (vectors are L2-normalized)
        chunks.jsonl       one chunk per line, in vector order
        articles.json      title, language, source link of each article
        sentences.npz      every sentence (table row) of every chunk: spans and vectors (under the
                           chunk's context line), for scoring passages and quoting answers
        bm25/, lexical.json  the BM25 index and the cross-language anchor vocabulary
        facts.json         the spec fact table (kb.specs) with its vocabulary

A build is written into a fresh folder and published by atomically replacing
the symlink, so a build that fails or is interrupted leaves the previous
index exactly as it was.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb import __version__
from kb.chunking import ChunkerSettings, chunk_article
from kb.corpus import corpus_hash, load_corpus
from kb.coverage import corpus_words
from kb.embedding.encoder import Encoder
from kb.errors import IndexArtifactError
from kb.lexical import LexicalIndex
from kb.models import Article, Chunk
from kb.sentences import sentence_spans
from kb.specs.facts import FACTS_JSON, FactTable, specs_hash
from kb.textnorm import normalize_for_matching

FORMAT_VERSION = 5
MANIFEST = "manifest.json"
_FILES = (MANIFEST, "vectors.faiss", "chunks.jsonl", "articles.json", "sentences.npz", LexicalIndex.FILE, FACTS_JSON)


@dataclass(frozen=True)
class ArticleInfo:
    id: str
    title: str
    lang: str
    url: str | None
    path: str
    publisher: str
    license: str = ""
    body: str = ""


@dataclass
class KnowledgeIndex:
    """A loaded index: vectors, chunks and article metadata, read-only."""

    path: Path
    manifest: dict
    chunks: list[Chunk]
    articles: dict[str, ArticleInfo]
    faiss_index: object
    lexical: LexicalIndex
    sentence_spans: np.ndarray  # (n, 3): chunk index, body start, body end
    sentence_vectors: np.ndarray  # (n, dimension), L2-normalized
    facts: FactTable

    def __post_init__(self) -> None:
        self.chunk_langs = np.array([c.lang for c in self.chunks])
        self.chunk_position = {c.chunk_id: i for i, c in enumerate(self.chunks)}
        self.words = corpus_words(a.body for a in self.articles.values())
        self._by_article: dict[str, list[int]] = {}
        for i, c in enumerate(self.chunks):
            self._by_article.setdefault(c.article_id, []).append(i)
        owners = self.sentence_spans[:, 0]
        if owners.size and (np.diff(owners) < 0).any():
            raise IndexArtifactError(f"{self.path}: sentences are not in chunk order; rebuild with `kb build`")
        self.sentence_langs = self.chunk_langs[owners] if owners.size else np.array([], dtype=self.chunk_langs.dtype)
        # Sentences are searched through FAISS like chunks: a numpy product per question would wake
        # OpenBLAS's thread pool, whose spinning then slows the next question's encoding sevenfold.
        import faiss

        self._sentence_index = faiss.IndexFlatIP(self.faiss_index.d)
        if owners.size:
            self._sentence_index.add(np.ascontiguousarray(self.sentence_vectors, dtype=np.float32))

    def chunk_at(self, article_id: str, offset: int) -> int | None:
        """Position of the chunk whose span holds a body offset of an article."""
        for i in self._by_article.get(article_id, []):
            if self.chunks[i].char_start <= offset < self.chunks[i].char_end:
                return i
        return None

    def search_vectors(self, query_vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        k = min(k, len(self.chunks))
        return self.faiss_index.search(np.ascontiguousarray(query_vectors, dtype=np.float32), k)

    def all_scores(self, query_vector: np.ndarray) -> np.ndarray:
        """Inner product of one query with every chunk, in chunk order."""
        return _every_score(self.faiss_index, query_vector)

    def all_sentence_scores(self, query_vector: np.ndarray) -> np.ndarray:
        """Inner product of one query with every sentence, in ``sentence_spans`` order."""
        return _every_score(self._sentence_index, query_vector)


def _every_score(faiss_index, query_vector: np.ndarray) -> np.ndarray:
    n = faiss_index.ntotal
    out = np.empty(n, dtype=np.float32)
    if n:
        scores, ids = faiss_index.search(np.ascontiguousarray(query_vector.reshape(1, -1), dtype=np.float32), n)
        out[ids[0]] = scores[0]
    return out


def _article_info(article: Article) -> ArticleInfo:
    return ArticleInfo(id=article.meta.id, title=article.meta.title, lang=article.meta.lang,
                       url=article.meta.source.link(), path=article.path, publisher=article.meta.publisher,
                       license=article.meta.license, body=article.body)


def _builds_dir(index_dir: Path) -> Path:
    return index_dir.with_name(index_dir.name + ".builds")


def build_index(corpus_dir: Path, index_dir: Path, encoder: Encoder,
                chunker: ChunkerSettings = ChunkerSettings(), progress: bool = True) -> dict:
    """Chunk, embed and write the corpus; publish it at ``index_dir``; return the manifest."""
    import faiss

    started = time.perf_counter()
    articles = load_corpus(corpus_dir)
    # Facts are checked first: a bad one fails the build before any embedding work, naming file and line.
    facts = FactTable.build(corpus_dir, articles)
    chunks = [c for a in articles for c in chunk_article(a, encoder.count_tokens, chunker)]
    too_long = [c.chunk_id for c in chunks if encoder.count_tokens(c.embed_text) > encoder.max_tokens]
    if too_long:
        raise IndexArtifactError(f"chunks over the model's {encoder.max_tokens}-token limit: {too_long[:5]}")
    vectors = encoder.encode_documents([c.embed_text for c in chunks], [c.lang for c in chunks], progress=progress)
    if vectors.shape != (len(chunks), encoder.dimension):
        raise IndexArtifactError(f"encoder returned {vectors.shape}, expected ({len(chunks)}, {encoder.dimension})")
    # Answers quote single sentences (table rows for tables); their vectors are made now so
    # that choosing them at question time is a dot product.
    spans = chunk_sentence_spans(chunks)
    sentence_vectors = encoder.encode_documents(
        [normalize_for_matching(_sentence_for_embedding(chunks[c], s, e)) for c, s, e in spans],
        [chunks[c].lang for c, _, _ in spans], progress=progress)
    lexical = LexicalIndex.build([c.embed_text for c in chunks], [c.lang for c in chunks])

    builds = _builds_dir(index_dir)
    builds.mkdir(parents=True, exist_ok=True)
    build_id = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ") + "-" + uuid.uuid4().hex[:6]
    staging = builds / (build_id + ".partial")
    staging.mkdir()
    try:
        faiss_index = faiss.IndexFlatIP(encoder.dimension)
        faiss_index.add(vectors)
        faiss.write_index(faiss_index, str(staging / "vectors.faiss"))
        np.savez(staging / "sentences.npz", spans=np.asarray(spans, dtype=np.int64).reshape(-1, 3),
                 vectors=np.asarray(sentence_vectors, dtype=np.float32))
        lexical.save(staging)
        facts.save(staging)
        with (staging / "chunks.jsonl").open("w", encoding="utf-8") as handle:
            for chunk in chunks:
                handle.write(chunk.model_dump_json() + "\n")
        infos = [_article_info(a).__dict__ for a in articles]
        (staging / "articles.json").write_text(json.dumps(infos, ensure_ascii=False, indent=1), encoding="utf-8")
        by_lang = {lang: sum(1 for c in chunks if c.lang == lang) for lang in sorted({c.lang for c in chunks})}
        manifest = {
            "format_version": FORMAT_VERSION,
            "build_id": build_id,
            "project_version": __version__,
            "built_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "model": model_signature(encoder),
            "corpus_hash": corpus_hash(articles),
            "specs_hash": specs_hash(corpus_dir),
            "chunker": chunker.as_dict(),
            "counts": {"articles": len(articles), "chunks": len(chunks), "chunks_by_lang": by_lang,
                       "sentences": len(spans), "lexical_anchors": len(lexical.anchors),
                       "facts": len(facts.facts), "fact_conflicts": sum(f.conflict for f in facts.facts)},
            "build_seconds": round(time.perf_counter() - started, 2),
        }
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        final = builds / build_id
        staging.rename(final)
        _publish(index_dir, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _prune(builds, keep={final.name, *_current_target_names(index_dir)})
    return manifest


def _body_text(chunk: Chunk, start: int, end: int) -> str:
    return chunk.text[start - chunk.char_start:end - chunk.char_start]


def _sentence_for_embedding(chunk: Chunk, start: int, end: int) -> str:
    """A sentence is embedded under its chunk's context line (title and section): "it has 96 GB" means
    nothing without the chip it is about. A table row also gets its column names."""
    text = _body_text(chunk, start, end)
    context, *rest = chunk.embed_text.split("\n")
    if chunk.kind != "table":
        return f"{context}\n{text}"
    lines = chunk.text.split("\n")
    header = lines[0] if len(lines) > 1 and not _row_units(lines[1]) else (rest[0] if rest else "")
    return f"{context}\n{header}\n{text}"


def _row_units(line: str) -> list[tuple[int, int]]:
    """A table row's quotable units: its prose cells when it has any, else the whole row."""
    if not line.strip().strip("|").replace("-", "").replace(":", "").replace("|", "").strip():
        return []  # the separator row
    cells, start = [], 0
    for part in line.split("|"):
        stripped = part.strip()
        if len(stripped.split()) >= 4:
            offset = start + part.index(stripped)
            cells.append((offset, offset + len(stripped)))
        start += len(part) + 1
    return cells or [(0, len(line))]


def chunk_sentence_spans(chunks: list[Chunk]) -> list[tuple[int, int, int]]:
    """(chunk index, body start, body end) of each sentence; a table chunk's rows stand for its sentences."""
    spans = []
    for i, chunk in enumerate(chunks):
        if chunk.kind == "table":
            pos = chunk.char_start
            lines = chunk.text.split("\n")
            # A header row names columns; it answers nothing, so it is never quoted.
            header = 0 if len(lines) > 1 and not _row_units(lines[1]) else -1
            for number, line in enumerate(lines):
                if number != header:
                    spans.extend((i, pos + s, pos + e) for s, e in _row_units(line))
                pos += len(line) + 1
        else:
            spans.extend((i, chunk.char_start + s, chunk.char_start + e) for s, e in sentence_spans(chunk.text))
    return spans


def _publish(index_dir: Path, build: Path) -> None:
    link = index_dir.with_name(index_dir.name + ".new-link")
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(os.path.relpath(build, index_dir.parent))
    if index_dir.exists() and not index_dir.is_symlink():
        # An index from before symlinked builds: move it aside, don't delete it.
        index_dir.rename(index_dir.with_name(index_dir.name + ".legacy"))
    os.replace(link, index_dir)  # atomic: readers see the old build or the new one


def _current_target_names(index_dir: Path) -> set[str]:
    return {Path(os.readlink(index_dir)).name} if index_dir.is_symlink() else set()


def _prune(builds: Path, keep: set[str]) -> None:
    """Keep the published build and the one before it; drop older and partial ones."""
    finished = sorted(p for p in builds.iterdir() if p.is_dir() and not p.name.endswith(".partial"))
    keep = keep | {p.name for p in finished[-2:]}
    for path in builds.iterdir():
        if path.name not in keep:
            shutil.rmtree(path, ignore_errors=True)


def read_manifest(index_dir: Path) -> dict:
    path = index_dir / MANIFEST
    if not path.exists():
        raise IndexArtifactError(f"no index at {index_dir}: build it with `make index` (or `kb build`)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise IndexArtifactError(f"{path} is not valid JSON ({exc}); rebuild with `kb build`") from None
    if manifest.get("format_version") != FORMAT_VERSION:
        raise IndexArtifactError(f"{index_dir} has format {manifest.get('format_version')}, this version "
                                 f"reads {FORMAT_VERSION}; rebuild with `kb build`")
    return manifest


def model_signature(encoder: Encoder) -> dict:
    """What made the vectors: the model, its exact weights and the language centering applied."""
    return {"id": encoder.model_id, "weights_hash": encoder.weights_hash(), "dimension": encoder.dimension,
            "centering": encoder.centering_digest()}


def check_model(manifest: dict, encoder: Encoder, index_dir: Path) -> None:
    """Refuse an index built by another model (or centered otherwise): its vectors would be meaningless."""
    built = manifest["model"]
    now = model_signature(encoder)
    if {k: v for k, v in built.items() if k != "centering"} != {k: v for k, v in now.items() if k != "centering"}:
        raise IndexArtifactError(
            f"the index at {index_dir} was built with model {built['id']} (weights {built['weights_hash']}, "
            f"{built['dimension']} dims) but the configured model is {now['id']} (weights {now['weights_hash']}, "
            f"{now['dimension']} dims); rebuild with `kb build` or set KB_EMBEDDING_BACKEND={built['id']}"
        )
    if built.get("centering") != now["centering"]:
        raise IndexArtifactError(
            f"the index at {index_dir} was built with language centering {built.get('centering')} but the model's "
            f"centering is now {now['centering']} (kb/data/language_centering.json changed); rebuild with `kb build`")


def load_index(index_dir: Path, encoder: Encoder | None = None) -> KnowledgeIndex:
    """Load the published index; with an encoder, also check that it made the vectors."""
    import faiss

    index_dir = Path(index_dir)
    manifest = read_manifest(index_dir)
    missing = [name for name in _FILES if not (index_dir / name).exists()]
    if missing:
        raise IndexArtifactError(f"{index_dir} is incomplete (missing {missing}); rebuild with `kb build`")
    if encoder is not None:
        check_model(manifest, encoder, index_dir)
    faiss_index = faiss.read_index(str(index_dir / "vectors.faiss"))
    with (index_dir / "chunks.jsonl").open(encoding="utf-8") as handle:
        chunks = [Chunk.model_validate_json(line) for line in handle if line.strip()]
    if faiss_index.ntotal != len(chunks) or len(chunks) != manifest["counts"]["chunks"]:
        raise IndexArtifactError(f"{index_dir}: {faiss_index.ntotal} vectors for {len(chunks)} chunks; rebuild with `kb build`")
    infos = json.loads((index_dir / "articles.json").read_text(encoding="utf-8"))
    articles = {i["id"]: ArticleInfo(**i) for i in infos}
    with np.load(index_dir / "sentences.npz") as sentences:
        spans, sentence_vectors = sentences["spans"], sentences["vectors"]
    return KnowledgeIndex(path=index_dir, manifest=manifest, chunks=chunks, articles=articles, faiss_index=faiss_index,
                          lexical=LexicalIndex.load(index_dir), sentence_spans=spans, sentence_vectors=sentence_vectors,
                          facts=FactTable.load(index_dir))
