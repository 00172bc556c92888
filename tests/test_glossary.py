"""The domain glossary carries question terms into the other languages' lexical search."""

from __future__ import annotations

from kb.glossary import Glossary, load_glossary
from kb.lexical import tokenize


def test_terms_cross_languages(project_settings):
    glossary = load_glossary(project_settings.corpus_dir / "glossary.yaml")
    ru = tokenize("Сколько памяти у Intel Gaudi2?")
    assert "memori" in glossary.translate(ru, "ru", "en")
    assert "内存" in glossary.translate(ru, "ru", "zh")
    zh = tokenize("Trainium2芯片有多少内存？")
    assert {"memori", "chip"} <= set(glossary.translate(zh, "zh", "en"))
    assert glossary.translate(tokenize("What is the weather?"), "en", "ru") == []


def test_multiword_terms_need_all_their_words():
    glossary = Glossary([{"en": ["process node"], "ru": ["техпроцесс"]}])
    assert glossary.translate(tokenize("which process node"), "en", "ru") == tokenize("техпроцесс")
    assert glossary.translate(tokenize("which process"), "en", "ru") == []


def test_glossary_reaches_english_text_for_a_russian_question(runtime):
    retriever = runtime.retriever
    assert retriever.glossary is not None
    scores = retriever.score("Сколько памяти у Intel Gaudi2?", "lexical")
    english = retriever.index.chunk_langs == "en"
    best = retriever.index.chunks[int(scores.lexical.argmax())]
    assert scores.lexical[english].max() > 0 and best.lang == "en" and "Gaudi" in best.text


def test_a_maker_written_in_another_script_is_no_unknown_name(project_settings):
    # the articles write "Google"; a Chinese or Russian user writes 谷歌 or Гугл: the glossary's makers are known
    from kb.coverage import corpus_words, unknown_names
    from kb.glossary import load_glossary, with_glossary_words

    words = corpus_words(["Google TPU v5p has 95 GB of HBM."])
    known = with_glossary_words(words, load_glossary(project_settings.corpus_dir / "glossary.yaml"))
    for question, lang in (("谷歌 TPU v5p 有多少内存？", "zh"), ("Сколько памяти у TPU v5p от Гугл?", "ru")):
        assert unknown_names(question, words, lang) and not unknown_names(question, known, lang), question
    assert [n.text for n in unknown_names("Сколько памяти у чипа от Самсунг?", known, "ru")] == ["Самсунг"]


def test_a_maker_written_in_russian_or_chinese_reads_as_its_latin_name(project_settings):
    glossary = load_glossary(project_settings.corpus_dir / "glossary.yaml")
    makers = {"nvidia", "google"}
    assert glossary.in_english("英伟达的哪款 GPU 显存最大？", makers).split() == ["NVIDIA", "的哪款", "GPU", "显存最大？"]
    assert "NVIDIA" in glossary.in_english("Какой GPU от Нвидиа самый быстрый?", makers)
    assert glossary.in_english("英伟达A100的显存", makers).split()[:2] == ["NVIDIA", "A100的显存"]  # the model stays whole
    assert glossary.in_english("亚马逊的 Trainium", makers) == "亚马逊的 Trainium"  # not asked for: left as written
