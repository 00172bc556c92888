"""Product names written in Cyrillic letters ("Трн2 ультрасервер", "а100" typed on a Russian keyboard) are read as
the Latin names they spell, by sound or by look; Russian words and the corpus's own words are left as they are."""

from __future__ import annotations

import pytest

from kb.specs.transliteration import latin_names, name_words


@pytest.mark.parametrize("question, read", [
    ("Трн2 ультрасервер - сколько петафлопс?", "Trn2 UltraServer - сколько петафлопс?"),  # said as they sound
    ("скока тензорных ядер у а100?", "скока тензорных ядер у A100?"),  # a Cyrillic "а" that looks Latin
    ("сколько памяти у Н100 и МИ300Х?", "сколько памяти у H100 и MI300X?"),  # by look and by sound in one word
    ("а на ультрасервере сколько чипов?", "а на UltraServer сколько чипов?"),  # with a case ending
    ("сколько стоит час на дл1?", "сколько стоит час на DL1?"),
])
def test_a_name_spelled_in_cyrillic_letters_is_read_as_the_name(vocabulary, question, read):
    assert latin_names(question, vocabulary) == read


def test_russian_words_and_the_corpus_words_are_left_alone(vocabulary):
    for text in ("сколько стоит инстанс в час?", "Сколько процессоров в суперкомпьютере Вояджер?", "Скока ядер?"):
        assert latin_names(text, vocabulary) == text
    # an ordinary Russian word of letters alone is no name ("рубин" is a ruby, "инстинкт" an instinct)
    assert latin_names("Где купить рубин?", vocabulary) == "Где купить рубин?"
    assert latin_names("Где купить ультрасервер?", vocabulary) == "Где купить UltraServer?"
    # a word the corpus itself writes is its own ("Рубин" read as a word of the corpus stays)
    assert latin_names("Когда выйдет Рубик?", vocabulary, frozenset({"рубик"})) == "Когда выйдет Рубик?"
    # names' short words (under five letters, no digit) are too easily spelled by chance: never read as names
    assert all(any(ch.isdigit() for ch in w) or len(w) >= 5 for w in name_words(vocabulary))


@pytest.mark.parametrize("question, value", [("скока тензорных ядер у а100?", "432"),
                                             ("Трн2 ультрасервер - сколько петафлопс в FP8 выдаёт целиком?", "83,2")])
def test_a_question_naming_a_product_in_cyrillic_letters_gets_its_fact(client, question, value):
    body = client.post("/v1/ask", json={"question": question}).json()
    assert body["answerable"] and value in body["spec_answer"]["text"], body["spec_answer"]
    assert body["question"] == question  # the question is echoed as asked
