"""Concurrent questions are embedded together and still get exactly their own answers."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from kb.embedding.batching import BatchingEncoder
from tests.fakes import HashingEncoder


class CountingEncoder(HashingEncoder):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[int] = []
        self.lock = threading.Lock()

    def encode_queries(self, texts, langs=None):
        with self.lock:
            self.calls.append(len(texts))
        return super().encode_queries(texts, langs)


def test_questions_arriving_together_share_one_call():
    inner = CountingEncoder()
    batcher = BatchingEncoder(inner, window_ms=50, max_batch=8)
    texts = [f"question number {i}" for i in range(8)]
    barrier = threading.Barrier(8)

    def one(text):
        barrier.wait()
        return batcher.encode_queries([text])

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(one, texts))
    batcher.close()
    assert sum(inner.calls) == 8 and len(inner.calls) < 8
    for text, vector in zip(texts, got, strict=True):
        assert np.array_equal(vector, inner.encode_queries([text]))


def test_a_lone_question_waits_only_the_window():
    inner = CountingEncoder()
    batcher = BatchingEncoder(inner, window_ms=1, max_batch=16)
    vector = batcher.encode_queries(["only me"])
    batcher.close()
    assert inner.calls == [1] and np.array_equal(vector, inner.encode_queries(["only me"]))


def test_a_failing_encode_reaches_every_caller_and_the_batcher_goes_on():
    class Failing(CountingEncoder):
        fail = True

        def encode_queries(self, texts, langs=None):
            if self.fail:
                self.fail = False
                raise RuntimeError("boom")
            return super().encode_queries(texts, langs)

    batcher = BatchingEncoder(Failing(), window_ms=1)
    with pytest.raises(RuntimeError, match="boom"):
        batcher.encode_queries(["first"])
    assert batcher.encode_queries(["second"]).shape == (1, HashingEncoder.dimension)
    batcher.close()


def test_concurrent_asks_answer_as_sequential_ones(runtime):
    """The real model and index: 12 questions asked at once through the batcher answer as they do alone."""
    from kb.answer import ask
    from kb.retrieval import Retriever

    questions = ["сколько памяти у Gaudi?", "Trn1的FP32算力是多少？", "What are the limits of TPUs?",
                 "which option is cheaper?", "A100 memory bandwidth", "TPU v4 和 v5p 的区别",
                 "Сколько стоит DL1 в час?", "How many NeuronCores does a Trainium chip have?",
                 "Ponte Vecchio transistor count", "GPU 和 TPU 哪个更适合大批量训练", "what is HBM", "привет"]
    base = runtime.retriever
    batcher = BatchingEncoder(base.encoder, window_ms=20, max_batch=16)
    batched = Retriever(base.index, batcher, base.params, base.glossary)

    def view(response):
        return (response.answerable, response.abstain_reason, [c.chunk_id for c in response.citations],
                response.answer.text if response.answer else None,
                response.spec_answer.text if response.spec_answer else None)

    alone = [view(ask(base, q, 5, runtime.policy)) for q in questions]
    with ThreadPoolExecutor(len(questions)) as pool:
        together = list(pool.map(lambda q: view(ask(batched, q, 5, runtime.policy)), questions))
    batcher.close()
    assert together == alone
    assert batcher.batches < len(questions)
