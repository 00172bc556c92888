"""``kb build``: the corpus to a published index artifact (``kb.index`` stores it).

Articles are loaded and their facts checked first, so a bad fact fails the
build before any embedding work, naming its file and line. Then chunks and
their sentences are embedded, the BM25 index is built over the same text the
model sees, and everything is written into a fresh build folder that is
published only when complete.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import time
from pathlib import Path

from kb import __version__
from kb.chunking import ChunkerSettings, chunk_article, sentence_texts
from kb.corpus import corpus_hash, load_corpus
from kb.embedding.encoder import Encoder
from kb.errors import IndexArtifactError
from kb.index import FORMAT_VERSION, ArticleInfo, model_signature, new_build_id, publish, write_parts
from kb.lexical import LexicalIndex
from kb.models import Article
from kb.specs.facts import FactTable, specs_hash
from kb.vector_index import EXACT_MAX_CHUNKS, choose

# The modules whose code decides what a build contains: an index made by other code is rebuilt for evaluation.
BUILDER_MODULES = ("build", "chunking", "corpus", "index", "language", "lexical", "markdown", "models", "sentences",
                   "tables", "textnorm", "specs/curated", "specs/facts", "specs/model", "specs/tables",
                   "specs/prose", "specs/quantities", "specs/units", "specs/vocabulary")


def builder_digest() -> str:
    digest = hashlib.sha256()
    for name in BUILDER_MODULES:
        digest.update((Path(__file__).parent / f"{name}.py").read_bytes())
    return digest.hexdigest()[:16]


def article_info(article: Article) -> ArticleInfo:
    return ArticleInfo(id=article.meta.id, title=article.meta.title, lang=article.meta.lang,
                       url=article.meta.source.link(), path=article.path, publisher=article.meta.publisher,
                       license=article.meta.license, body=article.body)


def build_index(corpus_dir: Path, index_dir: Path, encoder: Encoder,
                chunker: ChunkerSettings = ChunkerSettings(), progress: bool = True,
                exact_max_chunks: int = EXACT_MAX_CHUNKS) -> dict:
    """Chunk, embed and write the corpus; publish it at ``index_dir``; return the manifest. The vector
    index is exact up to ``exact_max_chunks`` chunks and approximate above (kb.vector_index)."""
    started = time.perf_counter()
    articles = load_corpus(corpus_dir)
    facts = FactTable.build(corpus_dir, articles)
    chunks = [c for a in articles for c in chunk_article(a, encoder.count_tokens, chunker)]
    too_long = [c.chunk_id for c in chunks if encoder.count_tokens(c.embed_text) > encoder.max_tokens]
    if too_long:
        raise IndexArtifactError(f"chunks over the model's {encoder.max_tokens}-token limit: {too_long[:5]}")
    vectors = encoder.encode_documents([c.embed_text for c in chunks], [c.lang for c in chunks], progress=progress)
    if vectors.shape != (len(chunks), encoder.dimension):
        raise IndexArtifactError(f"encoder returned {vectors.shape}, expected ({len(chunks)}, {encoder.dimension})")
    # Sentences score their passage and are what answers quote; embedding them now makes
    # choosing them at question time a dot product.
    texts, langs = [], []
    for chunk in chunks:
        for text in sentence_texts(chunk):
            texts.append(text)
            langs.append(chunk.lang)
    sentence_vectors = encoder.encode_documents(texts, langs, progress=progress)
    lexical = LexicalIndex.build([c.embed_text for c in chunks], [c.lang for c in chunks])

    spec = choose(len(chunks), exact_max_chunks)
    build_id = new_build_id()
    by_lang = {lang: sum(1 for c in chunks if c.lang == lang) for lang in sorted({c.lang for c in chunks})}

    def write(folder: Path) -> dict:
        write_parts(folder, vectors, sentence_vectors, chunks, [article_info(a) for a in articles], lexical, facts,
                    spec)
        return {
            "format_version": FORMAT_VERSION,
            "build_id": build_id,
            "project_version": __version__,
            "builder": builder_digest(),
            "built_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "model": model_signature(encoder),
            "corpus_hash": corpus_hash(articles),
            "specs_hash": specs_hash(corpus_dir),
            "chunker": chunker.as_dict(),
            "vector_index": spec.as_dict(),
            "counts": {"articles": len(articles), "chunks": len(chunks), "chunks_by_lang": by_lang,
                       "sentences": len(texts), "lexical_anchors": len(lexical.anchors),
                       "facts": len(facts.facts), "fact_conflicts": sum(f.conflict for f in facts.facts)},
            "build_seconds": round(time.perf_counter() - started, 2),
        }

    return publish(index_dir, build_id, write)
