"""The one home of configuration: a pydantic settings model.

Every value has a default that works from a fresh clone; each can be
overridden by an environment variable with the ``KB_`` prefix
(``KB_INDEX_DIR=/srv/kb/index``, ``KB_EMBEDDING_BACKEND=use-m3``) or by a
``.env`` file. Settings are built at the edges (CLI, ``create_app``) and
passed down; the library never reads the environment itself.
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from kb.params import Mode

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class EmbeddingBackend(StrEnum):
    """Which sentence-transformers model embeds chunks and questions."""

    E5_SMALL = "e5-small"
    USE_M3 = "use-m3"
    E5_USE_CONCAT = "e5-use-concat"  # both, side by side, weighted by concat_use_share


class EncoderRuntime(StrEnum):
    """What computes question vectors for e5-small (the other models always run on torch)."""

    TORCH = "torch"  # sentence-transformers on torch, fp32
    ONNX = "onnx"  # the exported graph on onnxruntime, fp32: torch's vectors, a few times faster
    ONNX_INT8 = "onnx-int8"  # the same graph with int8 weights: faster again, vectors move a little


class Settings(BaseSettings):
    """Configuration for building, searching and serving the knowledge base."""

    model_config = SettingsConfigDict(env_prefix="KB_", env_file=".env", extra="ignore", frozen=True)

    corpus_dir: Path = PROJECT_ROOT / "corpus"
    models_dir: Path = PROJECT_ROOT / "models"
    index_dir: Path = PROJECT_ROOT / "var" / "index"

    embedding_backend: EmbeddingBackend = EmbeddingBackend.E5_SMALL
    concat_use_share: float = Field(0.25, ge=0.0, le=1.0, description="e5-use-concat: USE-m3's share of the "
                                    "inner product (e5's is the rest)")
    embedding_batch_size: int = Field(16, ge=1, le=512)
    torch_threads: int | None = Field(None, ge=1, description="None lets torch decide")
    # chosen by `kb bench` (eval/results/bench.md): int8 moves centered question vectors below the 0.99 cosine
    # bound, fp32 ONNX keeps torch's vectors exactly and is the fastest runtime that does
    encoder_runtime: EncoderRuntime = Field(EncoderRuntime.ONNX, description="torch, onnx or onnx-int8 (e5-small "
                                            "questions); passages are always embedded in fp32")
    encoder_threads: int | None = Field(None, ge=1, description="intra-op threads of the question encoder; None: "
                                        "the CPU count divided by the number of workers")

    # Chunks are measured in the model's own tokens, prompt prefix and
    # context header included; 512 is the hard limit of both models.
    chunk_target_tokens: int = Field(200, ge=32, le=480)
    chunk_max_tokens: int = Field(320, ge=64, le=500)

    # Retrieval (kb.params.RetrievalParams) and answers (kb.params.AnswerPolicy); the values are
    # chosen by the evaluation suite (see eval/README.md).
    retrieval_mode: Mode = "hybrid"
    dense_sentence_share: float = Field(0.5, ge=0.0, le=1.0, description="a passage's dense score blends its own "
                                        "and its best sentence's calibrated scores; this is the sentence's share")
    fusion_lexical_weight: float = Field(2.0, ge=0.0, le=20.0, description="weight of the lexical match (in [0, 1]) "
                                         "next to calibrated dense scores")
    lexical_min_match: float = Field(0.5, ge=0.0, lt=1.0, description="share of the question's attainable BM25 a "
                                     "passage must exceed to get lexical credit")
    fusion_dense_window: float | None = Field(0.5, ge=0.0, description="lexical evidence counts only within this "
                                              "distance of the best calibrated dense score; null: everywhere")
    # chosen by `kb eval --sweep` on dev (eval/results/sweep-fusion-e5-small.md), as are the answer knobs below
    diversify_margin: float = Field(0.5, ge=0.0, description="among passages within this score of the best left, "
                                    "one from the least-cited article goes first; 0: pure score order")
    use_glossary: bool = Field(True, description="carry question terms across languages with corpus/glossary.yaml")
    translated_queries: bool = Field(True, description="also score passages of another language with the question "
                                     "whose glossary terms are written in that language (the higher score counts)")
    max_chunks_per_article: int = Field(0, ge=0, description="0 means no cap")
    # the best abstention F1 on dev that loses no answerable question is any threshold in (1.17, 5.10] once the
    # domain gate declines dev's off-topic questions, and the sweep takes the middle; near-miss questions (a
    # known chip, an attribute the corpus lacks) score like answerable ones, so a score alone catches only
    # off-topic ones.
    answer_min_score: float = Field(3.13, description="top hybrid score below which a question is unanswerable")
    answer_max_sentences: int = Field(3, ge=1, le=5)
    answer_min_domain: float = Field(0.0, description="domain gate log-odds (kb.domain) below which a question that "
                                     "names nothing the corpus knows is declined as off-topic; chosen on dev")
    # the bonus that quotes most answers in the question's language (the smallest on a tie) while costing at most
    # 1% of the answers quoting the labelled evidence on dev, and no answer
    answer_lang_bonus: float = Field(0.0, ge=0.0, description="calibrated score added to sentences written in the "
                                     "question's language when the answer's sentences are chosen; chosen on dev")
    pin_spec_evidence: bool = Field(True, description="the passages that hold a spec answer's facts lead the "
                                    "citations, whatever their retrieval score")

    top_k_default: int = Field(5, ge=1, le=50)
    top_k_max: int = Field(50, ge=1, le=200)
    question_max_chars: int = Field(1000, ge=10)
    # every body the API document allows fits: 8,200 characters of feedback at 12 bytes each (an escaped
    # surrogate pair) is 98 KiB; at 16 KiB some valid feedback got 413
    request_max_bytes: int = Field(131_072, ge=1024)

    # The widget on other sites: origins allowed to call the API (same origin always works).
    cors_allow_origins: list[str] = Field(default_factory=list, description='e.g. ["https://example.org"]; never "*" by default')
    rate_limit_per_minute: int = Field(60, ge=1, description="requests per client address to /v1/ask and /v1/feedback "
                                       "within any 60 s (a sliding window, shared by all replicas through Redis)")
    # Shared state for several replicas (README "Several replicas"); unset: everything stays in this process.
    redis_url: str | None = Field(None, pattern=r"^rediss?://", description="rate limits and the answer cache in "
                                  "Redis (redis://host:port/db); unset: in process memory")
    redis_timeout_s: float = Field(0.25, gt=0, le=10, description="a Redis call slower than this counts as a failure; "
                                   "after one, Redis is left alone for redis_retry_s and the process falls back")
    redis_retry_s: float = Field(5.0, gt=0, le=300)
    feedback_dsn: str | None = Field(None, pattern=r"^postgres(ql)?://", description="feedback in PostgreSQL "
                                     "(postgresql://user@host:port/db); unset: the SQLite file feedback_db")
    feedback_db: Path = PROJECT_ROOT / "var" / "feedback.sqlite3"
    feedback_busy_timeout_s: float = Field(1.0, gt=0, le=30, description="how long a feedback write waits for a "
                                           "locked database before it is refused with 503")
    # Operating safely (README "Operating it safely").
    trusted_proxies: list[str] = Field(default_factory=list, description="addresses whose X-Forwarded-For is "
                                       "believed (a reverse proxy in front); empty: the peer address is the client")
    public_url: str | None = Field(None, pattern=r"^https?://[^\s\"'<>]+$", description="the address the widget "
                                   "snippet names; by default http://host:port, never the request's Host header")
    request_read_timeout_s: float = Field(10.0, gt=0, le=300, description="a request's line, headers and body must "
                                          "arrive within this of its first byte; later: 408 and the connection closes")
    keep_alive_timeout_s: float = Field(5.0, gt=0, le=120, description="an idle keep-alive connection is closed after this")
    max_connections: int = Field(256, ge=1, description="concurrent connections per worker; more get 503 at once")
    shutdown_grace_s: float = Field(10.0, ge=0, le=300, description="on SIGTERM, connections still open after this are closed")

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    workers: int = Field(1, ge=1, le=64, description="server processes; each loads the index once")
    log_level: str = Field("info", pattern="^(critical|error|warning|info|debug)$")
    access_log: bool = Field(True, description="one log line per request (off for load tests)")
    # Serving speed (eval/results/bench.md measures both).
    batch_window_ms: float = Field(2.0, ge=0.0, le=50.0, description="questions arriving within this window are "
                                   "embedded in one call; 0 embeds each on its own")
    batch_max: int = Field(16, ge=1, le=256, description="a batch is encoded at once when this many are waiting")
    index_poll_s: float = Field(2.0, ge=0, le=3600, description="how often each worker checks whether a new index "
                                "build was published (and then loads it without a restart); 0: never")
    refused_log_lines_per_minute: int = Field(20, ge=0, description="log lines for refused requests (4xx, 5xx, "
                                              "unparsable) per worker and minute; the rest are counted in a summary")
    answer_cache_size: int = Field(2048, ge=0, description="whole answers kept in memory per worker (LRU, keyed by the "
                                   "exact question, top_k, mode and index build); 0 turns the cache off")

    def serving_threads(self) -> int:
        """Encoder threads per worker: the cores shared out, so workers do not fight over them."""
        return self.encoder_threads or max(1, (os.cpu_count() or 1) // self.workers)

MODEL_FOLDERS = {
    EmbeddingBackend.E5_SMALL: "multilingual-e5-small",
    EmbeddingBackend.USE_M3: "use-multilingual-v3",
}
# A backend made of others: which single models it needs.
COMPONENTS = {
    EmbeddingBackend.E5_SMALL: (EmbeddingBackend.E5_SMALL,),
    EmbeddingBackend.USE_M3: (EmbeddingBackend.USE_M3,),
    EmbeddingBackend.E5_USE_CONCAT: (EmbeddingBackend.E5_SMALL, EmbeddingBackend.USE_M3),
}
