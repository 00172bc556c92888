"""`kb bench`: how fast a question is answered, in process and over HTTP, against a plain pipeline.

Everything runs in one invocation on one machine, so ratios between rows
mean something even where absolute times drift from machine to machine:

- in process: the whole ``ask`` for each question of the evaluation set,
  once per encoder runtime (torch, onnx, onnx-int8), after a warm-up;
- the plain pipeline as the reference: the same articles cut into fixed
  600-character chunks, the same model through sentence-transformers, a flat
  FAISS index, top 5 (no lexical leg, no sentences, no facts);
- over HTTP (``kb.evaluation.load``): ``kb serve`` with 1 and 2 workers,
  cache off on distinct questions and on over a repeated set, at several
  concurrencies, each run bounded in time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from kb.settings import EncoderRuntime, Settings

PLAIN_CHUNK_CHARS = 600
PLAIN_TOP_K = 5


def percentiles(seconds: list[float]) -> dict[str, float]:
    ms = np.asarray(seconds) * 1000.0
    return {"n": len(seconds), "p50_ms": round(float(np.percentile(ms, 50)), 2),
            "p95_ms": round(float(np.percentile(ms, 95)), 2), "p99_ms": round(float(np.percentile(ms, 99)), 2),
            "mean_ms": round(float(ms.mean()), 2)}


def bench_questions() -> list[tuple[str, str]]:
    """Every question of the evaluation set (both splits: nothing is tuned here), with its language."""
    from kb.evaluation.datasets import load_kb_questions
    from kb.evaluation.runner import KB_QUESTIONS

    return [(q.question, q.lang) for q in load_kb_questions(KB_QUESTIONS)]


def time_ask(settings: Settings, questions: list[str], warmup: int = 20) -> dict:
    """Per-question latency of the full ``ask`` with the settings' encoder runtime."""
    from kb.answer import ask
    from kb.embedding.encoder import load_encoder
    from kb.index import load_index
    from kb.params import AnswerPolicy
    from kb.retrieval import Retriever

    started = time.perf_counter()
    encoder = load_encoder(settings)
    retriever = Retriever.from_settings(load_index(settings.index_dir, encoder), encoder, settings)
    load_s = time.perf_counter() - started
    policy = AnswerPolicy.from_settings(settings)
    for q in questions[:warmup]:
        ask(retriever, q, settings.top_k_default, policy)
    seconds, encode, stages = [], [], {"retrieve": [], "compose": []}
    for q in questions:
        t0 = time.perf_counter()
        ask(retriever, q, settings.top_k_default, policy, observe=lambda stage, s: stages[stage].append(s))
        seconds.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        encoder.encode_queries([q])
        encode.append(time.perf_counter() - t0)
    return {"runtime": str(settings.encoder_runtime), "load_s": round(load_s, 2), "ask": percentiles(seconds),
            "encode": percentiles(encode), "stages": {k: percentiles(v) for k, v in stages.items()}}


@dataclass
class PlainPipeline:
    """The reference: what a first attempt at this product would be."""

    model: object
    index: object
    chunks: list[str]

    @classmethod
    def build(cls, settings: Settings) -> PlainPipeline:
        import faiss

        from kb.corpus import load_corpus
        from kb.embedding.encoder import _offline
        from kb.settings import MODEL_FOLDERS, EmbeddingBackend

        _offline()
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(str(settings.models_dir / MODEL_FOLDERS[EmbeddingBackend.E5_SMALL]),
                                    device="cpu", local_files_only=True)
        chunks = [a.body[i:i + PLAIN_CHUNK_CHARS] for a in load_corpus(settings.corpus_dir)
                  for i in range(0, len(a.body), PLAIN_CHUNK_CHARS)]
        vectors = model.encode_document(chunks, batch_size=16, normalize_embeddings=True, convert_to_numpy=True)
        index = faiss.IndexFlatIP(vectors.shape[1])
        index.add(np.asarray(vectors, dtype=np.float32))
        return cls(model, index, chunks)

    def ask(self, question: str) -> list[str]:
        vector = self.model.encode_query([question], normalize_embeddings=True, convert_to_numpy=True)
        _, ids = self.index.search(np.asarray(vector, dtype=np.float32), PLAIN_TOP_K)
        return [self.chunks[i] for i in ids[0] if i >= 0]


def time_plain(settings: Settings, questions: list[str], warmup: int = 20) -> dict:
    started = time.perf_counter()
    plain = PlainPipeline.build(settings)
    build_s = time.perf_counter() - started
    for q in questions[:warmup]:
        plain.ask(q)
    seconds = []
    for q in questions:
        t0 = time.perf_counter()
        plain.ask(q)
        seconds.append(time.perf_counter() - t0)
    return {"runtime": "plain pipeline (torch)", "build_s": round(build_s, 2), "chunks": len(plain.chunks),
            "ask": percentiles(seconds)}


def in_process(settings: Settings, runtimes: list[EncoderRuntime], progress=print) -> dict:
    questions = [q for q, _ in bench_questions()]
    rows = []
    for runtime in runtimes:
        progress(f"in process: ask with {runtime} over {len(questions)} questions")
        rows.append(time_ask(settings.model_copy(update={"encoder_runtime": runtime}), questions))
    progress("in process: the plain pipeline")
    plain = time_plain(settings, questions)
    for row in rows:
        row["vs_plain_p50"] = round(plain["ask"]["p50_ms"] / row["ask"]["p50_ms"], 2)
    return {"questions": len(questions), "runtimes": rows, "plain": plain}
