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


def test_a_question_is_written_in_each_other_language_by_its_terms():
    glossary = Glossary([{"en": ["node", "nodes"], "ru": ["узел"], "zh": ["节点"]},
                         {"en": ["across nodes"], "ru": ["между узлами"], "zh": ["跨节点"]},
                         {"en": ["peak"], "zh": ["峰值"]}])
    written = glossary.written_in("Why is it slower across nodes than inside a node?", "en")
    # the longest term first ("across nodes", not "nodes"), whole words only, each language its own form
    assert written == {"ru": "Why is it slower между узлами than inside a узел ?",
                       "zh": "Why is it slower 跨节点 than inside a 节点 ?"}
    assert glossary.written_in("Who is speaking at the peaking party?", "en") == {}  # no term as a whole word
    assert glossary.written_in("跨节点为什么慢？", "zh") == {"en": "across nodes 为什么慢？", "ru": "между узлами 为什么慢？"}


def test_a_passage_in_another_language_is_found_by_the_question_written_in_it(runtime):
    # e5-small does not link "compute-bound across nodes" to "跨节点 ... 计算受限"; written with the glossary's terms,
    # the question finds the Chinese conclusion among the first five, as it does with the setting off only far below
    from dataclasses import replace

    retriever = runtime.retriever
    question = "Why is it harder for a B200 cluster to stay compute-bound across nodes than an H100 cluster?"
    target = next(i for i, c in enumerate(retriever.index.chunks) if "结论：B200 在跨节点场景更难计算受限" in c.text)

    def rank(translated: bool) -> int:
        before = retriever.params
        retriever.params = replace(before, translated_queries=translated)
        try:
            fused = retriever.score(question).fused
        finally:
            retriever.params = before
        return int((fused > fused[target]).sum()) + 1
    assert rank(True) <= 5 < 50 < rank(False)
