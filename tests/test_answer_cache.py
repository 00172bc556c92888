"""The answer cache: repeats are served from memory, a new index build never serves old answers."""

from __future__ import annotations

from kb.answer_cache import AnswerCache, CacheKey, question_key


def _response(question: str):
    from kb.response import AskResponse

    return AskResponse(question=question, lang="en", mode="hybrid", answerable=False, abstain_reason="off_topic",
                       unknown_names=(), evidence_score=None, answer=None, citations=(), specs=(),
                       spec_answer=None, took_ms=1.0)


def test_the_key_is_the_exact_question():
    # The answer stage reads capitals and spacing ("Rubin Ultra" is one unknown name, "rubin ultra" none).
    assert question_key("How fast is the Rubin Ultra?") != question_key("how fast is the rubin ultra?")
    assert question_key("Rubin  Ultra") != question_key("Rubin Ultra")
    assert question_key("a100 memory") == question_key("a100 memory")


def test_a_repeat_is_a_hit_and_other_settings_are_misses():
    cache = AnswerCache(8)
    key = CacheKey.of("What is HBM?", 5, None, "build-1")
    assert cache.get(key) is None
    cache.put(key, _response("What is HBM?"))
    assert cache.get(CacheKey.of("What is HBM?", 5, None, "build-1")) is not None
    assert cache.get(CacheKey.of("what is hbm?", 5, None, "build-1")) is None
    assert cache.get(CacheKey.of("What is HBM?", 3, None, "build-1")) is None
    assert cache.get(CacheKey.of("What is HBM?", 5, "dense", "build-1")) is None
    assert cache.stats() == {"size": 8, "entries": 1, "hits": 1, "misses": 4}


def test_a_new_build_id_never_serves_the_old_answer():
    cache = AnswerCache(8)
    cache.put(CacheKey.of("What is HBM?", 5, None, "build-1"), _response("What is HBM?"))
    assert cache.get(CacheKey.of("What is HBM?", 5, None, "build-2")) is None


def test_least_recently_used_goes_first_and_size_zero_is_off():
    cache = AnswerCache(2)
    keys = [CacheKey.of(f"q{i}", 5, None, "b") for i in range(3)]
    cache.put(keys[0], _response("q0"))
    cache.put(keys[1], _response("q1"))
    cache.get(keys[0])
    cache.put(keys[2], _response("q2"))
    assert cache.get(keys[1]) is None and cache.get(keys[0]) is not None and cache.get(keys[2]) is not None
    off = AnswerCache(0)
    off.put(keys[0], _response("q0"))
    assert off.get(keys[0]) is None and off.stats()["entries"] == 0
