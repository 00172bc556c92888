"""A tiny model-free encoder, for tests about something other than the model."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import numpy as np

from kb.params import RetrievalParams

# Plain fusion: no sentence blend, no floor, no window, no diversification, no cap, no written-in questions.
PLAIN = RetrievalParams(retrieval_mode="hybrid", dense_sentence_share=0.0, fusion_lexical_weight=2.0,
                        lexical_min_match=0.0, fusion_dense_window=None, diversify_margin=0.0,
                        max_chunks_per_article=0, translated_queries=False)


def plain_params(**changes) -> RetrievalParams:
    return replace(PLAIN, **changes)


class HashingEncoder:
    """Character-trigram hashing into a small vector: deterministic, instant, meaningless across languages."""

    model_id = "hashing-test"
    dimension = 64
    max_tokens = 512

    def __init__(self, fail_after: int | None = None) -> None:
        self.fail_after = fail_after

    def _vector(self, text: str) -> np.ndarray:
        v = np.zeros(self.dimension, dtype=np.float32)
        text = f"  {text.lower()}  "
        for i in range(len(text) - 2):
            h = int.from_bytes(hashlib.blake2b(text[i:i + 3].encode(), digest_size=4).digest(), "little")
            v[h % self.dimension] += 1.0
        return v / (np.linalg.norm(v) or 1.0)

    def encode_queries(self, texts: list[str], langs=None) -> np.ndarray:
        return np.stack([self._vector(t) for t in texts])

    def encode_documents(self, texts: list[str], langs=None, progress: bool = False) -> np.ndarray:
        if self.fail_after is not None and len(texts) > self.fail_after:
            raise RuntimeError("simulated failure while embedding")
        return np.stack([self._vector(t) for t in texts])

    def count_tokens(self, text: str) -> int:
        return len(text.split()) + sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff") + 2

    def weights_hash(self) -> str:
        return "0000"

    def centering_digest(self) -> None:
        return None
