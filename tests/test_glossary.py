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
