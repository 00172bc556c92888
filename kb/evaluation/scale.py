"""`kb bench --scale`: what 100k and 1M chunks would cost, on synthetic corpora made from the real one.

Vectors: each synthetic one is a random blend of two of the index's real
chunk and sentence vectors (e5-small, centered) plus a little Gaussian
noise, re-normalized: they lie where the corpus's vectors lie, spread as
a continuum rather than as hundreds of noisy copies of each real one
(which no real corpus has, and which no approximate index can rank).
Queries: the evaluation questions, embedded by the real encoder. Every
variant is compared with exact search (FAISS flat) on the same vectors:
recall@10, single-query latency on one thread (as a serving worker runs),
bytes per vector, build and load time. BM25: documents sampled from the
real chunks' tokens (each with a made-up name of its own, so the
vocabulary grows with the corpus as real names do), queried with the
questions' tokens the way the retriever does (once per language).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

NOISE = 0.01  # per-dimension standard deviation of the noise added to each blend
RECALL_AT = 10


@dataclass(frozen=True)
class Variant:
    name: str
    factory: str  # faiss.index_factory string
    params: dict  # search-time parameters

    def configure(self, index) -> None:
        import faiss

        for key, value in self.params.items():
            faiss.ParameterSpace().set_index_parameter(index, key, value)


def variants(n: int) -> list[Variant]:
    lists = int(4 * np.sqrt(n))  # the usual 4·sqrt(n) inverted lists
    return [Variant("flat (exact)", "Flat", {}),
            Variant("HNSW32, efSearch 64", "HNSW32,Flat", {"efSearch": 64}),
            Variant("HNSW32, efSearch 128", "HNSW32,Flat", {"efSearch": 128}),
            Variant("HNSW32, efSearch 256", "HNSW32,Flat", {"efSearch": 256}),
            Variant(f"IVF{lists}, nprobe 16", f"IVF{lists},Flat", {"nprobe": 16}),
            Variant(f"IVF{lists}, nprobe 64", f"IVF{lists},Flat", {"nprobe": 64}),
            Variant(f"IVF{lists} SQ8, nprobe 64", f"IVF{lists},SQ8", {"nprobe": 64})]


def synthetic_vectors(sample: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty((n, sample.shape[1]), dtype=np.float32)
    step = 100_000
    for start in range(0, n, step):
        size = min(step, n - start)
        share = rng.random((size, 1), dtype=np.float32)
        rows = share * sample[rng.integers(0, len(sample), size)] + (1 - share) * sample[rng.integers(0, len(sample), size)]
        noisy = rows + rng.normal(0, NOISE, rows.shape).astype(np.float32)
        out[start:start + len(rows)] = noisy / np.linalg.norm(noisy, axis=1, keepdims=True)
    return out


def _latencies(index, queries: np.ndarray, k: int) -> tuple[np.ndarray, list[float]]:
    found, seconds = [], []
    for q in queries:
        started = time.perf_counter()
        _, ids = index.search(q.reshape(1, -1), k)
        seconds.append(time.perf_counter() - started)
        found.append(ids[0])
    return np.array(found), seconds


def _ms(seconds: list[float], q: float) -> float:
    return round(float(np.percentile(seconds, q)) * 1000, 3)


def measure_vectors(vectors: np.ndarray, queries: np.ndarray, progress=print) -> list[dict]:
    import faiss

    faiss.omp_set_num_threads(2)  # building may use both cores; searching is measured on one below
    n, d = vectors.shape
    rows, exact = [], None
    for variant in variants(n):
        started = time.perf_counter()
        index = faiss.index_factory(d, variant.factory, faiss.METRIC_INNER_PRODUCT)
        if not index.is_trained:
            rng = np.random.default_rng(1)
            index.train(vectors[rng.choice(n, min(n, 64 * int(4 * np.sqrt(n))), replace=False)])
        index.add(vectors)
        build_s = time.perf_counter() - started
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "v.faiss")
            faiss.write_index(index, path)
            size = Path(path).stat().st_size
            del index
            started = time.perf_counter()
            index = faiss.read_index(path)
            load_s = time.perf_counter() - started
        variant.configure(index)
        faiss.omp_set_num_threads(1)
        ids, seconds = _latencies(index, queries, RECALL_AT)
        faiss.omp_set_num_threads(2)
        if exact is None:
            exact = ids
        recall = float(np.mean([len(set(a) & set(b)) / RECALL_AT for a, b in zip(ids, exact, strict=True)]))
        rows.append({"n": n, "variant": variant.name, "factory": variant.factory, "params": variant.params,
                     "recall_at_10": round(recall, 4), "p50_ms": _ms(seconds, 50), "p99_ms": _ms(seconds, 99),
                     "bytes_per_vector": round(size / n, 1), "build_s": round(build_s, 1), "load_s": round(load_s, 2)})
        progress(f"  {n:>9,} {variant.name:<28} recall@10 {recall:.3f}  p50 {rows[-1]['p50_ms']} ms  "
                 f"build {build_s:.0f} s")
        del index
    return rows


def synthetic_lexical(chunk_tokens: list[list[str]], n: int, seed: int = 0):
    import bm25s

    from kb.lexical import LexicalIndex

    rng = np.random.default_rng(seed)
    vocab: dict[str, int] = {}
    real = [[vocab.setdefault(t, len(vocab)) for t in tokens] for tokens in chunk_tokens]
    docs = []
    for i in range(n):
        source = real[int(rng.integers(len(real)))]
        keep = [t for t in source if rng.random() < 0.8]
        docs.append(keep + [vocab.setdefault(f"name{i % (n // 10 + 1)}", len(vocab))])
    started = time.perf_counter()
    bm25 = bm25s.BM25()
    bm25.index(bm25s.tokenization.Tokenized(ids=docs, vocab=vocab), show_progress=False)
    return LexicalIndex(bm25, frozenset()), len(vocab), time.perf_counter() - started


def measure_bm25(lexical, vocabulary: int, build_s: float, question_tokens: list[list[str]], n: int) -> dict:
    seconds = []
    for tokens in question_tokens:
        started = time.perf_counter()
        for _ in range(3):  # the retriever scores the question's language, then each other one
            lexical.scores(tokens)
        seconds.append(time.perf_counter() - started)
    return {"n": n, "vocabulary": vocabulary, "build_s": round(build_s, 1), "p50_ms": _ms(seconds, 50),
            "p99_ms": _ms(seconds, 99)}


SENTENCES_PER_CHUNK = 3.4  # as in the corpus


def measure_path(vectors: np.ndarray, queries: np.ndarray, lexical, question_tokens: list[list[str]]) -> dict:
    """Retrieval without encoding, with the index `kb build` would choose at this size: the dense candidates,
    BM25 three times, and the whole-corpus array work (floors, calibration, fusion, the top 50)."""
    import faiss

    from kb.vector_index import build_vector_index, candidate_scores, choose, configure, every_score

    spec = choose(len(vectors))
    started = time.perf_counter()
    index = build_vector_index(vectors, spec)
    build_s = time.perf_counter() - started
    configure(index, spec)
    n, sentences = len(vectors), int(len(vectors) * SENTENCES_PER_CHUNK)
    sentence_vectors = vectors[: min(n, 5000)]  # stands in for the candidates' sentences (about 3,400)
    faiss.omp_set_num_threads(1)
    seconds = []
    for q, tokens in zip(queries, question_tokens, strict=True):
        started = time.perf_counter()
        if spec.exact:
            dense = every_score(index, q)
        else:
            ids, found = candidate_scores(index, q)
            dense = np.full(n, found.min(), dtype=np.float32)
            dense[ids] = found
            sentence = np.full(sentences, found.min(), dtype=np.float32)
            sentence[: 3400] = sentence_vectors[:3400] @ q
        lexical_scores = [lexical.scores(tokens) for _ in range(3)]
        calibrated = (dense - 0.8) / 0.05  # the calibration's affine map, per language in the product
        blended = 0.5 * calibrated + 0.5 * calibrated
        fused = blended + 2.0 * np.minimum(lexical_scores[0] / (lexical_scores[0].max() + 1e-9), 1.0)
        np.argpartition(-fused, 50)[:50]
        seconds.append(time.perf_counter() - started)
    faiss.omp_set_num_threads(2)
    return {"n": n, "index": spec.as_dict(), "build_s": round(build_s, 1), "p50_ms": _ms(seconds, 50),
            "p99_ms": _ms(seconds, 99)}


def run_scale(settings, sizes=(30_000, 100_000, 1_000_000), progress=print) -> dict:
    from kb.embedding.encoder import load_encoder
    from kb.evaluation.bench import bench_questions
    from kb.index import load_index
    from kb.language import detect_language
    from kb.lexical import tokenize
    from kb.textnorm import normalize_for_matching

    encoder = load_encoder(settings)
    index = load_index(settings.index_dir, encoder)
    sample = np.vstack([index.faiss_index.reconstruct_n(0, index.faiss_index.ntotal), index.sentence_vectors])
    questions = [q for q, _ in bench_questions()]
    texts = [normalize_for_matching(q) for q in questions]
    queries = np.ascontiguousarray(encoder.encode_queries(texts, [detect_language(q) for q in questions]),
                                   dtype=np.float32)
    result = {"sample_vectors": len(sample), "queries": len(queries), "noise": NOISE, "vectors": [], "bm25": [],
              "path": []}
    chunk_tokens = [tokenize(c.text) for c in index.chunks]
    question_tokens = [tokenize(t) for t in texts]
    for n in sizes:
        progress(f"{n:,} chunks")
        vectors = synthetic_vectors(sample, n)
        result["vectors"] += measure_vectors(vectors, queries, progress)
        lexical, vocabulary, build_s = synthetic_lexical(chunk_tokens, n)
        result["bm25"].append(measure_bm25(lexical, vocabulary, build_s, question_tokens, n))
        progress(f"  bm25s: {result['bm25'][-1]}")
        result["path"].append(measure_path(vectors, queries, lexical, question_tokens))
        progress(f"  retrieval path: {result['path'][-1]}")
        del vectors, lexical
    return result
