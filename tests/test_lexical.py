"""Tokenization per language, identifiers and numbers, and the cross-language anchor rule."""

from __future__ import annotations

import pytest

from kb.lexical import LexicalIndex, tokenize


@pytest.mark.parametrize("a, b", [
    ("32GB of HBM", "32 GB of HBM"),
    ("13,11 USD", "13.11 usd"),
    ("2.9 TB/sec", "2.9 TBps"),
    ("訓練模型", "训练模型"),  # Traditional and Simplified are one token stream
    ("訓練晶片", "训练芯片"),  # and Taiwan's words are mainland's
    ("ＴＰＵ　ｖ５ｐ", "TPU v5p"),  # full-width folded
])
def test_equivalent_spellings_tokenize_alike(a, b):
    assert tokenize(a) == tokenize(b)


def test_identifiers_survive_whole():
    tokens = tokenize("H100 SXM, TPU v5p, MI300X, Trn1, DL1, P4d and trn2.48xlarge")
    for identifier in ("h100", "sxm", "v5p", "mi300x", "trn1", "dl1", "p4d", "trn2.48xlarge"):
        assert identifier in tokens, identifier
    assert "1,299" not in tokenize("1,299 FP8 TFLOPS") and "1299" in tokenize("1,299 FP8 TFLOPS")


def test_stemming_and_stopwords_per_language():
    assert tokenize("processors") == tokenize("processor")
    assert tokenize("процессоров") == tokenize("процессоры")
    assert "the" not in tokenize("the memory of the chip") and "сколько" not in tokenize("сколько памяти")
    assert tokenize("Trn1的FP32算力是多少？") == ["trn1", "fp32", "算力"]


def test_anchors_are_shared_names_and_numbers_not_stray_words():
    texts = ["The Gaudi processor has 32GB of memory.", "Процессор Gaudi имеет 32GB памяти, the end.",
             "Gaudi处理器配有32GB内存。", "Memory bandwidth matters."]
    index = LexicalIndex.build(texts, ["en", "ru", "zh", "en"])
    assert {"gaudi", "32gb"} <= index.anchors
    assert "memori" not in index.anchors  # an English word seen in English text only
    assert "end" not in index.anchors or "end" in {"end"}  # stop words never reach the index
    assert "the" not in index.anchors


def test_an_identifier_the_question_names_outweighs_its_plain_words_in_a_sentence():
    # "2x2x1" asked: the sentence naming that slice holds more of the question than one with "full cube" and another
    # slice's name; across languages, only the shared identifier counts
    index = LexicalIndex.build(["Smaller topologies (e.g. 2x2x1) have no wraparounds.",
                                "Note that a 2x2x4 has no wraparounds off a full cube."], ["en", "en"])
    question = tokenize("What is the catch with a small TPU slice like 2x2x1 instead of a full cube?")
    named, plain = (index.overlap(question, text, True) for text in (
        "Smaller topologies (e.g. 2x2x1) have no wraparounds.", "Note that a 2x2x4 has no wraparounds off a full cube."))
    assert named > plain > 0
    assert index.overlap(tokenize("Чем плох слайс 2x2x1 без полного куба?"), "Smaller topologies (e.g. 2x2x1).", False) > 0


def test_scores_rank_matching_text_first():
    index = LexicalIndex.build(["Trainium2 has 96 GiB of HBM", "TPU v5e has 16GB of HBM", "Gaudi costs 13.11 USD"],
                               ["en", "en", "en"])
    scores = index.scores(tokenize("How much HBM does TPU v5e have?"))
    assert scores.argmax() == 1
    assert not index.scores(tokenize("nothing relevant here")).any()


def test_lexical_match_is_the_share_of_what_the_question_can_attain():
    import numpy as np

    from kb.retrieval import lexical_match

    texts = ["TPU v5e has 16GB of HBM", "TPU v5p has 95GB of HBM", "TPU pods are large", "Gaudi costs 13.11 USD"]
    index = LexicalIndex.build(texts, ["en"] * 4)
    tokens = tokenize("How much HBM does TPU v5e have?")
    raw = index.scores(tokens)
    attainable = index.attainable(tokens)
    share = lexical_match(raw, attainable, 0.0)
    assert raw.max() <= attainable + 1e-6
    assert share[0] > 0.95  # every word of the question (a shorter passage scores "TPU" a little higher)
    assert 0 < share[2] < share[1] < 1  # "TPU" only; "TPU" and "HBM"
    assert share[3] == 0
    floored = lexical_match(raw, attainable, 0.5)
    assert floored[0] > 0.9
    assert floored[2] == 0  # a passage sharing a word or two with the question gets no lexical credit
    assert np.all(floored <= share)
    assert not lexical_match(raw, 0.0, 0.5).any()  # no known word: no lexical evidence at all


def test_a_bare_number_weighs_as_a_plain_word():
    index = LexicalIndex.build(["Gaudi 2 settings", "see footnote 2"], ["en", "en"])
    question = tokenize("What settings should I use on Gaudi 2?")
    assert index.overlap(question, "Gaudi settings for training", True) > index.overlap(question, "footnote 2", True)
