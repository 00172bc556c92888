"""The index artifact: one directory, written once by ``kb build``, read by everyone else.

    <index_dir>            a symlink to the current build
    <index_dir>.builds/    one folder per build:
        manifest.json      format version, model id + weights hash, corpus hash, counts
        vectors.faiss      inner-product index (vectors are L2-normalized): exact, or approximate for a
                           large corpus (kb.vector_index; the manifest's vector_index says which)
        chunks.jsonl       one chunk per line, in vector order, with its sentences' spans
        articles.json      title, language, source link of each article
        sentences.npz      a vector for every sentence (table row) of every chunk, in chunk order,
                           embedded under the chunk's context line
        bm25/, lexical.json  the BM25 index and the cross-language anchor vocabulary
        facts.json         the spec fact table (kb.specs) with its vocabulary

A build is written into a fresh folder and published by atomically replacing
the symlink, so a build that fails or is interrupted leaves the previous
index exactly as it was. Building (chunking, embedding) is ``kb.build``.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb.coverage import corpus_words
from kb.embedding.encoder import Encoder
from kb.errors import IndexArtifactError
from kb.lexical import LexicalIndex
from kb.models import Chunk
from kb.specs.facts import FACTS_JSON, FactTable
from kb.vector_index import (
    CANDIDATES,
    FLAT,
    VectorIndexSpec,
    build_vector_index,
    candidate_scores,
    configure,
    every_score,
)

FORMAT_VERSION = 6
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
    sentence_vectors: np.ndarray  # (n, dimension), L2-normalized, the chunks' sentences in order
    facts: FactTable
    vector_spec: VectorIndexSpec = FLAT

    def __post_init__(self) -> None:
        self.chunk_langs = np.array([c.lang for c in self.chunks])
        self.chunk_position = {c.chunk_id: i for i, c in enumerate(self.chunks)}
        self.words = corpus_words(a.body for a in self.articles.values())
        self._by_article: dict[str, list[int]] = {}
        for i, c in enumerate(self.chunks):
            self._by_article.setdefault(c.article_id, []).append(i)
        # (chunk position, body start, body end) of every sentence, in chunk order
        self.sentence_spans = np.array([(i, s, e) for i, c in enumerate(self.chunks) for s, e in c.sentences],
                                       dtype=np.int64).reshape(-1, 3)
        if len(self.sentence_spans) != len(self.sentence_vectors):
            raise IndexArtifactError(f"{self.path}: {len(self.sentence_vectors)} sentence vectors for "
                                     f"{len(self.sentence_spans)} sentences; rebuild with `kb build`")
        owners = self.sentence_spans[:, 0]
        self.sentence_langs = self.chunk_langs[owners] if owners.size else np.array([], dtype=self.chunk_langs.dtype)
        # Sentences are searched through FAISS like chunks: a numpy product per question would wake
        # OpenBLAS's thread pool, whose spinning then slows the next question's encoding sevenfold.
        import faiss

        configure(self.faiss_index, self.vector_spec)
        self._sentence_index = faiss.IndexFlatIP(self.faiss_index.d)
        if owners.size and self.vector_spec.exact:
            self._sentence_index.add(np.ascontiguousarray(self.sentence_vectors, dtype=np.float32))
        self._sentence_rows = np.searchsorted(owners, np.arange(len(self.chunks) + 1))  # chunk i: rows [r_i, r_i+1)

    def chunk_at(self, article_id: str, offset: int) -> int | None:
        """Position of the chunk whose span holds a body offset of an article."""
        for i in self._by_article.get(article_id, []):
            if self.chunks[i].char_start <= offset < self.chunks[i].char_end:
                return i
        return None

    def sentence_at(self, chunk: int, offset: int) -> tuple[int, int] | None:
        """The span of the sentence of a chunk that starts at or before a body offset and runs past it."""
        spans = self.sentence_spans
        rows = np.flatnonzero((spans[:, 0] == chunk) & (spans[:, 1] <= offset) & (spans[:, 2] > offset))
        return (int(spans[rows[0], 1]), int(spans[rows[0], 2])) if rows.size else None

    def sentence_text(self, row: int) -> str:
        """The text of one row of ``sentence_spans``."""
        c, s, e = (int(x) for x in self.sentence_spans[row])
        return self.chunks[c].span_text(s, e)

    def sentences_of(self, chunks: list[int]) -> np.ndarray:
        """Rows of ``sentence_spans`` that belong to these chunk positions, in index order."""
        return np.flatnonzero(np.isin(self.sentence_spans[:, 0], chunks))

    def dense_scores(self, query_vector: np.ndarray, candidates: int = CANDIDATES) -> tuple[np.ndarray, np.ndarray]:
        """Inner products of one query with every chunk (chunk order) and every sentence (``sentence_spans``
        order): exact for a flat index; with an approximate one (kb.vector_index), exact for the nearest
        chunks and their sentences and the lowest of those scores for the rest."""
        if self.vector_spec.exact:
            return every_score(self.faiss_index, query_vector), every_score(self._sentence_index, query_vector)
        ids, scores = candidate_scores(self.faiss_index, query_vector, candidates)
        floor = float(scores.min()) if scores.size else 0.0
        chunks = np.full(len(self.chunks), floor, dtype=np.float32)
        chunks[ids] = scores
        sentences = np.full(len(self.sentence_spans), floor, dtype=np.float32)
        rows = np.concatenate([np.arange(self._sentence_rows[i], self._sentence_rows[i + 1]) for i in ids]) \
            if ids.size else np.array([], dtype=np.int64)
        if rows.size:
            sentences[rows] = self.sentence_vectors[rows] @ np.asarray(query_vector, dtype=np.float32)
        return chunks, sentences


# ---- writing and publishing ----

def _builds_dir(index_dir: Path) -> Path:
    return index_dir.with_name(index_dir.name + ".builds")


def new_build_id() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ") + "-" + uuid.uuid4().hex[:6]


def publish(index_dir: Path, build_id: str, write: Callable[[Path], dict]) -> dict:
    """Run ``write`` into a fresh build folder (it returns the manifest), then publish that build at
    ``index_dir``; whatever fails on the way leaves the published build as it was."""
    builds = _builds_dir(index_dir)
    builds.mkdir(parents=True, exist_ok=True)
    staging = builds / (build_id + ".partial")
    staging.mkdir()
    try:
        manifest = write(staging)
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        final = builds / build_id
        staging.rename(final)
        _swap_link(index_dir, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _prune(builds, keep={final.name, *_current_target_names(index_dir)})
    return manifest


def write_parts(folder: Path, vectors: np.ndarray, sentence_vectors: np.ndarray, chunks: list[Chunk],
                articles: list[ArticleInfo], lexical: LexicalIndex, facts: FactTable, spec: VectorIndexSpec = FLAT) -> None:
    """Every file of a build but the manifest."""
    import faiss

    faiss.write_index(build_vector_index(vectors, spec), str(folder / "vectors.faiss"))
    np.savez(folder / "sentences.npz", vectors=np.asarray(sentence_vectors, dtype=np.float32))
    lexical.save(folder)
    facts.save(folder)
    with (folder / "chunks.jsonl").open("w", encoding="utf-8") as handle:
        for chunk in chunks:
            handle.write(chunk.model_dump_json() + "\n")
    infos = [a.__dict__ for a in articles]
    (folder / "articles.json").write_text(json.dumps(infos, ensure_ascii=False, indent=1), encoding="utf-8")


def _swap_link(index_dir: Path, build: Path) -> None:
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


# ---- reading ----

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
    """Load the published index; with an encoder, also check that it made the vectors.

    A damaged file (truncated vectors, a bad line in chunks.jsonl, a broken archive) is one
    ``IndexArtifactError`` naming the folder, never the parser's own exception and traceback."""
    index_dir = Path(index_dir)
    try:
        return _load(index_dir, encoder)
    except IndexArtifactError:
        raise
    except (OSError, ValueError, RuntimeError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
        # pydantic's ValidationError is a ValueError; faiss raises RuntimeError, numpy's archives BadZipFile
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise IndexArtifactError(f"the index at {index_dir} is damaged ({type(exc).__name__}: {first[:160]}); "
                                 "rebuild with `kb build`") from None


def _load(index_dir: Path, encoder: Encoder | None) -> KnowledgeIndex:
    import faiss

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
        sentence_vectors = sentences["vectors"]
    return KnowledgeIndex(path=index_dir, manifest=manifest, chunks=chunks, articles=articles, faiss_index=faiss_index,
                          lexical=LexicalIndex.load(index_dir), sentence_vectors=sentence_vectors,
                          facts=FactTable.load(index_dir), vector_spec=VectorIndexSpec.from_manifest(manifest))
