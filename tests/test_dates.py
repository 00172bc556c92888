"""Dates of a product's life read from prose (kb.specs.dates) and asked for in three languages."""

from __future__ import annotations

import pytest

from kb.asks import WHEN
from kb.specs.dates import shown, stated_dates, states_time
from kb.specs.present import lookup


@pytest.mark.parametrize("sentence, expected", [
    ('SN50 was announced in February 2026 and "will start shipping in the second half of 2026"',
     [("2026-02", "announced"), ("2026 H2", "shipping")]),
    ("has been available on all Tier-1 compute clouds since Q4-2023", [("2023 Q4", "available")]),
    ("Gaudi2 вышел в мае 2022 года", [("2022-05", "released")]),
    ("поставки начнутся во второй половине 2026", [("2026 H2", "shipping")]),
    ("H100于2022年3月发布", [("2022-03", "announced")]),
    ("亚马逊在2020年推出了Trainium", [("2020", "released")]),
    # a date with no life event in its clause is no date of a product: an acquisition, a snapshot
    ("19年12月，英特尔收购了以色列的Habana Labs", []),
    ("Figures are as of 2026-08 and go stale quickly.", []),
    ("Intel acquired Habana Labs in December 2019.", []),
    # a word that begins like a month is none ("market 2025" is no March)
    ("released to the market 2025 edition", []),
])
def test_a_date_is_read_with_the_life_event_its_clause_names(sentence, expected):
    assert [(d.value, d.event) for d in stated_dates(sentence)] == expected


def test_the_corpus_dates_are_facts_of_the_entity_named_before_them(table):
    dates = {(f.entity, f.text, f.basis) for f in table.facts if f.attribute == "release_date"}
    assert ("sambanova-sn50", "2026-02", "announced") in dates and ("sambanova-sn50", "2026 H2", "shipping") in dates
    # the announcement and the first shipment are two quantities, not two sources disagreeing
    assert not any(f.conflict for f in table.facts if f.attribute == "release_date")
    # SN40L is named after the dates of the SN50 sentence: they are not its dates
    assert not any(entity == "sambanova-sn40l" for entity, _, _ in dates)


@pytest.mark.parametrize("question, lang, start", [
    ("when was the SN50 announced?", "en", "SambaNova SN50: February 2026 (announced)"),
    ("Когда анонсировали SN50?", "ru", "SambaNova SN50: февраль 2026 (анонс)"),
    # the event asked for picks its date: a shipment, not the announcement
    ("SN50 什么时候出货？", "zh", "SambaNova SN50: 2026年下半年（出货）"),
    ("when will SN50 ship?", "en", "SambaNova SN50: H2 2026 (shipping)"),
])
def test_a_stated_date_answers_in_the_questions_language(table, question, lang, start):
    query, result = lookup(table, question, lang)
    assert query.attribute == "release_date" and result.found
    assert result.answer.text.startswith(start), result.answer.text


@pytest.mark.parametrize("value, lang, words", [
    ("2026-02", "en", "February 2026"), ("2026-02", "ru", "февраль 2026"), ("2026-02", "zh", "2026年2月"),
    ("2026 H2", "en", "H2 2026"), ("2026 H1", "ru", "первое полугодие 2026"), ("2026 H2", "zh", "2026年下半年"),
    ("2023 Q4", "en", "Q4 2023"), ("2023 Q4", "ru", "4-й квартал 2023"), ("2023 Q4", "zh", "2023年第四季度"),
    ("2019", "en", "2019"), ("2019", "zh", "2019年"),
    ("HBM3", "zh", "HBM3"),  # a text value that is no date stays as written
])
def test_a_date_is_worded_in_the_readers_language(value, lang, words):
    assert shown(value, lang) == words


@pytest.mark.parametrize("question, lang", [
    ("When did Google launch the TPU v4?", "en"), ("когда вышел MI250? год релиза", "ru"),
    ("Inferentia2 是哪一年发布的？", "zh"),
])
def test_a_release_date_the_corpus_never_states_is_reported_absent(table, question, lang):
    query, result = lookup(table, question, lang)
    assert query.attribute == "release_date" and not result.found and result.missing, result


@pytest.mark.parametrize("question, lang", [
    ("When did Intel acquire Habana Labs?", "en"),
    ("When training on H100, how much memory is available?", "en"),
    ("в каком году на H100 начали обучать GPT-4?", "ru"),
    ("Когда стоит поставить H100 вместо A100?", "ru"),
    ("когда на H100 появляется выигрыш от FP8?", "ru"),
    ("В каком году Intel купила Habana и сколько памяти у Gaudi2?", "ru"),
])
def test_a_when_that_asks_no_life_event_is_no_release_date_question(table, question, lang):
    query, _ = lookup(table, question, lang)
    assert query is None or query.attribute != "release_date", query


def test_two_dates_are_shown_side_by_side_not_said_missing(table):
    _, result = lookup(table, "what is the release date of SN50 vs H100", "en")
    assert "SambaNova SN50: February 2026" in result.answer.text and "NVIDIA H100 SXM: Q4 2023" in result.answer.text


@pytest.mark.parametrize("body, expected", [
    # the relative clause is about the compared thing just named: no date of either
    ("H100 is 3x faster than A100, which was released in 2020.\n", set()),
    # "delivers" is throughput
    ("The MI300X delivers 1.3x the throughput of the H100 in 2024 benchmarks.\n", set()),
    # a year and a month of it agree
    ("SN50 was announced in 2026. SN50 was announced in February 2026.\n",
     {("sambanova-sn50", "2026", "announced"), ("sambanova-sn50", "2026-02", "announced")}),
])
def test_a_date_belongs_to_the_entity_it_is_said_of(project_settings, body, expected):
    from pathlib import Path

    from kb.corpus import parse_article
    from kb.specs.facts import mark_conflicts
    from kb.specs.prose import read_prose
    from kb.specs.vocabulary import Vocabulary

    head = ("---\nid: test-article\ntitle: A test article\nlang: en\nsource: {url: 'https://example.com/a', "
            "raw_file: a.en.md}\npublisher: Example\nlicense: CC-BY-4.0\n---\n\n")
    vocabulary = Vocabulary.load(project_settings.corpus_dir / "specs")
    facts, candidates, _, _ = read_prose(parse_article(head + body, "en/test-article.md"), vocabulary, Path("corpus"))
    dated = [f for f in facts if f.attribute == "release_date"]
    assert {(f.entity, f.text, f.basis) for f in dated} == expected
    assert not any(f.conflict for f in mark_conflicts(dated))
    # another entity the sentence is about leaves the date in doubt: a candidate
    _, candidates, _, _ = read_prose(parse_article(head + "The DL1 instance, built on Gaudi, launched in October "
                                                   "2021.\n", "en/test-article.md"), vocabulary, Path("corpus"))
    assert [(c.entity, c.text) for c in candidates if c.attribute == "release_date"] == [("intel-gaudi", "2021-10")]


@pytest.mark.parametrize("question, asks", [
    ("When did Intel acquire Habana Labs?", True), ("В каком году вышел TPU v4?", True), ("Когда вышел H100?", True),
    ("Habana Labs 是哪年被收购的？", True), ("英伟达什么时候发布 B200？", True),
    # "when" as a conjunction asks no time
    ("What best practice is recommended when working with TPUs?", False),
    ("Что делать, когда не хватает памяти?", False), ("When should I use bidirectional bandwidth figures?", False),
    # opening a clause that another question follows
    ("Когда Intel купила Habana Labs, какие продукты у неё были?", False)])
def test_a_question_that_asks_when_is_told_from_one_that_says_when(question, asks):
    assert bool(WHEN.search(question)) is asks


@pytest.mark.parametrize("sentence, states", [
    ("19年12月，英特尔收购了以色列的Habana Labs。", True), ("It was announced in February 2026.", True),
    ("Released in 2021, it ...", True), ("现有的产品仍然基于台积电的16nm制程。", False),
    ("A pod holds 2048 chips.", False), ("It is 2x faster than A100.", False), ("A pod holds 2016 chips.", False),
    ("up to 1960 TFLOPS", False), ("| H100 | 3.4TB/s | 990T | 2000T |", False), ("| 1979 | 1979 |", False),
    ("19年六月，它发布了 Gaudi。", True), ("In 2021, Amazon announced it.", True),
    ("AWS announced Trainium2 at re:Invent 2023.", True), ("Released 2019, the TPU v3 ...", True)])
def test_a_sentence_states_a_time_in_any_form(sentence, states):
    assert states_time(sentence) is states
