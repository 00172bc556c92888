"""Two classes of product offered as alternatives ("TPU или GPU"): the sentence that says which is better at
the asked aspect decides, whatever its language; a product's name or the other side of "than" never wins."""

from __future__ import annotations

from kb.class_comparison import class_of, class_question, comparison_answer, offered_between, offers_classes, statements
from kb.specs.model import Entity, Parts

_ENTITIES = {e.id: e for e in (
    Entity(id="a100", name="A100", kind="chip", category="gpu"), Entity(id="v5e", name="TPU v5e", kind="chip", category="tpu"),
    Entity(id="p4d", name="P4d", kind="instance", parts=Parts(chip="a100", count=8)),
    Entity(id="trainium", name="Trainium", kind="chip"))}


_EMPTY = type("Empty", (), {"inverted": frozenset()})()


def _question(text: str):
    found = class_question(text.lower(), [])
    assert found is not None, text
    return found


def test_a_question_offering_two_classes_and_an_aspect_is_a_class_comparison():
    for text, aspects in (("Что дешевле для обучения: TPU или GPU?", ("cost",)),
                          ("GPU 还是 TPU 更便宜？", ("cost",)),
                          ("at large scale, which is cheaper and simpler to network together: TPUs or GPUs?",
                           ("cost", "simplicity")),
                          ("batch 很大的时候 TPU 和 GPU 谁更占优势", ("better",)),
                          ("кто лучше тянет — тпу или видюхи?", ("better",))):
        found = _question(text)
        assert set(found.classes) == {"tpu", "gpu"} and found.aspects == aspects, text
    # no aspect, one class, or a product named: not a class comparison
    assert class_question("what are tpus and gpus?", []) is None
    assert class_question("is the tpu cheaper or not?", []) is None
    assert class_question("tpu v5p or a gpu, which is cheaper?", [(0, 8)]) is None


def test_a_product_standing_for_its_class_set_against_the_other_is_a_class_comparison():
    # "TPU v5e" (the span 3..10) stands for the TPUs where the caller says so; its "TPU" is no class word of its own
    found = class_question("Is TPU v5e cheaper than GPUs?", [(3, 10)], standing="tpu")
    assert found is not None and found.classes == ("tpu", "gpu") and found.aspects == ("cost",)
    assert class_question("H100 дешевле, чем TPU?", [(0, 4)], standing="gpu").classes == ("gpu", "tpu")
    # not standing for it, against its own class, or with nothing offered: no class comparison
    assert class_question("Is TPU v5e cheaper than GPUs?", [(3, 10)]) is None
    assert class_question("Is TPU v5e cheaper than other TPUs?", [(3, 10)], standing="tpu") is None
    assert class_question("TPU v5e GPU cheaper", [(0, 7)], standing="tpu") is None
    # the product's own class asked of too ("other GPUs and TPUs"): no class stands for it
    assert class_question("Is the H100 cheaper than other GPUs and TPUs?", [(7, 11)], standing="gpu") is None


def test_a_product_standing_for_its_class_is_named_in_the_answer():
    question = class_question("Is TPU v5e cheaper than GPUs?", [(3, 10)], standing="tpu")
    (one,) = statements("tpus are dramatically cheaper than gpus", [], question)
    text = comparison_answer(one, "TPUs are dramatically cheaper than GPUs", "en", ("Google TPU v5e", "tpu")).text
    assert text.startswith("The corpus compares the classes, not Google TPU v5e itself") and \
        "TPU is cheaper than GPU" in text
    assert class_of(_ENTITIES, "p4d") == "gpu" and class_of(_ENTITIES, "v5e") == "tpu" and \
        class_of(_ENTITIES, "trainium") is None
    built = comparison_answer(one, "TPUs are dramatically cheaper than GPUs", "en", ("AWS EC2 P4d", "gpu", True)).text
    assert "(AWS EC2 P4d is built of GPUs)" in built
    # standing for its class, only a sentence setting the two classes side by side answers: "Each GPU requires a
    # switch ..., making on chip interconnect like ICI cheaper" names no TPU
    assert statements("tpus are dramatically cheaper than gpus", [], question)
    assert not statements("tpus are dramatically cheaper and simpler to wire together", [], question)
    assert statements("tpus are dramatically cheaper and simpler to wire together", [],
                      class_question("Which is cheaper, TPU or GPU?", []))


def test_asked_why_one_class_is_better_naming_both_is_enough():
    # "than" compares without offering a choice; asked why, the comparison is the premise whose reason is asked,
    # and no verdict leads (see offered_between)
    for text in ("почему tpu дешевле и проще объединять в большие кластеры, чем gpu?", "why are tpus cheaper than gpus?",
                 "为什么 tpu 比 gpu 更省电？"):
        assert not offered_between(text)
        found = class_question(text, [], premise=True)
        assert found is not None and set(found.classes) == {"tpu", "gpu"}, text
    assert class_question("why are tpus cheap?", [], premise=True) is None  # one class: no comparison


def test_two_classes_offered_as_alternatives_are_never_ranked_as_instances():
    # whatever is asked of them: "哪个" offers them as much as "or" does, without an aspect word
    assert offers_classes("GPU 和 TPU 哪个片上快速缓存更大？") and offers_classes("TPU or GPU: which has more memory?")
    assert not offers_classes("哪个 GPU 的显存最大？") and not offers_classes("what are tpus and gpus")
    # joined to rank what both hold, as "among GPUs and TPUs" is, they are no alternatives
    assert not offers_classes("GPU 和 TPU 中，哪款芯片的显存最大？")
    # set one against the other by a comparative, they are compared too: no ranking of the instances with a price
    assert offers_classes("Дешевле ли TPU, чем GPU?") and offers_classes("TPU 比 GPU 便宜吗？") and \
        offers_classes("Is TPU cheaper than GPU?")
    assert class_question("Дешевле ли TPU, чем GPU?", []).classes == ("tpu", "gpu")


def test_the_class_named_before_the_comparative_wins_and_the_other_side_never_does():
    question = _question("Which is cheaper, TPU or GPU?")
    (one,) = statements("on the other hand, tpus are dramatically cheaper and simpler to wire together", [], question)
    assert (one.aspect.name, one.winner, one.loser) == ("cost", "tpu", "gpu")
    assert [s.winner for s in statements("tpu 比 gpu 更便宜", [], question)] == ["tpu"]
    assert [s.winner for s in statements("gpus are cheaper than tpus for small jobs", [], question)] == ["gpu"]
    assert [s.winner for s in statements("compared to tpus, gpus cost less to rent", [], question)] == ["gpu"]
    # negated, after the other side only, or the class word inside a product's name: nothing stated
    assert not statements("gpus are not cheaper than tpus", [], question)
    assert not statements("cheaper than gpus, say some", [], question)
    assert not statements("tpu v5p is cheaper per hour", [(0, 8)], question)
    assert not statements("tpus are not always cheaper than gpus", [], question)
    assert not statements("tpu 不一定比 gpu 便宜", [], question) and not statements("tpu 不一定更便宜", [], question)
    # a word that only begins as a negation does ("notably", "немного"); "不仅" (not only) affirms
    assert [s.winner for s in statements("tpus are notably cheaper than gpus", [], question)] == ["tpu"]
    assert [s.winner for s in statements("tpu немного дешевле gpu", [], question)] == ["tpu"]
    assert [s.winner for s in statements("tpu 不仅更便宜，也更省电", [], question)] == ["tpu"]
    # an aspect the question did not ask is no answer to it
    assert not statements("tpus are faster than gpus", [], question)


def test_the_answer_names_the_winner_first_in_the_questions_language():
    question = _question("Что дешевле: TPU или GPU?")
    (found,) = statements("tpu, как правило, предлагают более низкие затраты", [], question)
    quote = "TPU, как правило, предлагают более низкие затраты"
    ru = comparison_answer(found, quote, "ru")
    assert ru.text.startswith("TPU дешевле, чем GPU") and (ru.lower, ru.higher) == ("tpu", "gpu")
    assert ru.relation == quote and not ru.comparable
    assert comparison_answer(found, quote, "zh").text.startswith("TPU 比 GPU 更便宜")
    assert comparison_answer(found, quote, "en").text.startswith("TPU is cheaper than GPU")


def test_the_opposite_comparative_names_the_loser_in_the_sentence_and_in_the_answer():
    # asked "more expensive", "дороже", "更贵": the same aspect as "cheaper", answered in the words asked
    for text in ("Which is more expensive, TPU or GPU?", "Что дороже: TPU или GPU?", "TPU 和 GPU 哪个更贵？"):
        found = _question(text)
        assert found.aspects == ("cost",) and found.inverted == {"cost"}, text
    asked = _question("Что дороже: TPU или GPU?")
    (one,) = statements("tpus are dramatically cheaper and simpler to wire together", [], asked)
    text = comparison_answer(one, "TPUs are dramatically cheaper", "ru", inverted=asked.inverted).text
    assert text.startswith("GPU дороже, чем TPU") and (one.winner, one.loser) == ("tpu", "gpu")
    # a sentence stating the opposite of the class named before it: the other class wins, for either question
    for question in ("Что дороже: TPU или GPU?", "Что дешевле: TPU или GPU?"):
        (stated,) = statements("gpu обычно имеют более высокое потребление энергии и затраты, чем tpu", [],
                               _question(question))
        assert (stated.winner, stated.loser) == ("tpu", "gpu"), question
    assert not statements("gpus are not more expensive than tpus", [], asked)  # negated: nothing stated
    assert not _question("Which is cheaper, TPU or GPU?").inverted
    # each aspect keeps its own wording: "more expensive but faster" asks cost the other way, speed the plain way
    both = _question("Which is more expensive but faster, GPU or TPU?")
    assert both.inverted == {"cost"} and set(both.aspects) == {"cost", "speed"}
    (fast,) = statements("tpus are faster than gpus", [], both)
    assert comparison_answer(fast, "", "en", inverted=both.inverted).text.startswith("TPU is faster than GPU")
    # cost efficiency, cost savings, 成本效益, отдача от затрат are no "higher cost"
    for text in ("Which has higher cost efficiency, TPU or GPU?", "Which has higher cost savings, TPU or GPU?",
                 "TPU 和 GPU 哪个有更高的成本效益？", "Что даёт более высокую отдачу от затрат: TPU или GPU?"):
        assert "cost" not in (class_question(text.lower(), []) or _EMPTY).inverted, text
    # one aspect stated both ways in one sentence states neither
    assert not statements("gpus have a simpler communication model and a more complicated programming model than tpus",
                          [], _question("Which is harder to program, GPUs or TPUs?"))
    # "улучшают" (are improving) is no "лучше" (better)
    assert not statements("gpu улучшают свою эффективность, чем tpu", [], _question("Что лучше: TPU или GPU?"))


def test_better_that_a_telling_aspect_follows_says_that_aspect():
    # "лучшую производительность на ватт" is efficiency: asked which is better in general, it states nothing
    asked = _question("Что лучше: TPU или GPU?")
    assert not statements("tpu, как правило, предлагают лучшую производительность на ватт", [], asked)
    assert not statements("tpus have better performance per watt than gpus", [], asked)
    assert [s.winner for s in statements("tpus have better performance per watt than gpus", [],
                                         _question("Which is more efficient, TPU or GPU?"))] == ["tpu"]
    assert [s.winner for s in statements("tpu лучше подходят для больших моделей", [], asked)] == ["tpu"]
    # better by price is cost ("по цене лучше", "price-wise", "价格上更好")
    for text in ("Что лучше по цене: TPU или GPU?", "Which is better price-wise, TPU or GPU?", "TPU 和 GPU 价格上哪个更好？"):
        assert _question(text).aspects == ("cost",), text
    # the aspect before it says so too ("能效更好" asks efficiency); across a clause mark it does not
    assert _question("TPU 和 GPU 哪个能效更好？").aspects == ("efficiency",)
    assert set(_question("Which is cheaper, and which is better overall, TPU or GPU?").aspects) == {"cost", "better"}


def test_a_question_asking_in_which_cases_one_is_better_gets_the_scenarios_not_a_verdict():
    for question in ("В каких случаях лучше взять GPU, а не TPU?", "In which cases is a GPU the better pick than a TPU?",
                     "什么场景下选 GPU 而不是 TPU 更好？", "When is a GPU better than a TPU?"):
        assert class_question(question, []) is None, question
    assert class_question("Что лучше: TPU или GPU?", []) is not None


def test_better_for_a_purpose_rests_only_on_a_sentence_that_names_it_in_the_questions_language():
    asked = class_question("Что лучше брать для быстрых экспериментов и прототипов, TPU или GPU?", [])
    assert asked is not None and {"эксперимент", "прототип"} <= asked.purpose
    # "better" said for another purpose, or for none the question names ("быстрее" shares only a stem): no verdict
    assert not statements("TPU лучше подходят для TensorFlow, тогда как GPU имеют более широкую поддержку.", [], asked)
    assert not statements("TPU v4 могут быть в 2.8 раз быстрее и стабильно обгоняют GPU в крупных нагрузках.", [], asked)
    # the purpose named: the class it is said of wins ("предпочитают" prefers)
    found = statements("В то время как GPU предпочитают для экспериментов, прототипирования и обучения.", [], asked)
    assert [(s.aspect.name, s.winner) for s in found] == [("better", "gpu")]
    # across languages the words cannot be matched: the sentence's verdict stands
    asked = class_question("Which is better for very large batch sizes, TPU or GPU?", [])
    assert [s.winner for s in statements("TPU превосходят GPU в обработке больших партий данных.", [], asked)] == ["tpu"]
    # no purpose asked: any "better" verdict stands
    asked = class_question("TPU или GPU — что лучше?", [])
    assert [s.winner for s in statements("TPU лучше подходят для TensorFlow.", [], asked)] == ["tpu"]


def test_more_power_drawn_is_less_efficiency_and_shares_its_words_with_the_cost():
    # "более высокое потребление энергии и затраты": higher energy use (efficiency) and higher costs, both GPU's
    sentence = ("GPU улучшают свою эффективность, однако обычно имеют более высокое потребление энергии и затраты на "
                "ультракрупные запуски по сравнению с оптимизированными TPU.")
    for text, aspect in (("Что обычно энергоэффективнее — TPU или GPU?", "efficiency"),
                         ("Which is more power efficient, GPU or TPU?", "efficiency"),
                         ("Что дешевле — TPU или GPU?", "cost")):
        question = _question(text)
        assert [(s.aspect.name, s.winner) for s in statements(sentence, [], question)] == [(aspect, "tpu")], text
    # asked by the opposite comparative, the class that draws more power is named first
    question = _question("у кого выше энергопотребление, у GPU или у TPU?")
    stated = statements(sentence, [], question)
    assert comparison_answer(stated[0], sentence, "ru", inverted=question.inverted).text.startswith("GPU менее")


def test_broader_support_is_an_aspect_of_its_own():
    sentence = "TPU лучше подходят для TensorFlow, тогда как GPU имеют более широкую поддержку."
    for text, lang in (("Which has broader framework support, TPU or GPU?", "en"),
                       ("GPU 还是 TPU，哪个支持的训练框架更多？", "zh")):
        question = _question(text)
        assert question.aspects == ("support",)
        stated = statements(sentence, [], question)
        assert [(s.aspect.name, s.winner) for s in stated] == [("support", "gpu")]
        assert comparison_answer(stated[0], sentence, lang).text.startswith("GPU")


def test_supported_better_asks_support_and_limited_support_loses_it():
    # "better supported by PyTorch" asks support, not better in general: "TPU лучше подходят для TensorFlow" is
    # no verdict on it, "GPU имеют более широкую поддержку" is
    broader = "TPU лучше подходят для TensorFlow, тогда как GPU имеют более широкую поддержку."
    for text in ("Which is better supported by PyTorch, TPU or GPU?", "Что лучше поддерживается фреймворками: TPU или GPU?",
                 "PyTorch 对 TPU 还是 GPU 支持得更好？"):
        question = _question(text)
        assert question.aspects == ("support",), text
        assert [(s.aspect.name, s.winner) for s in statements(broader, [], question)] == [("support", "gpu")], text
        # the class whose support is said to be limited loses
        for limited in ("TPUs have limited support for PyTorch.", "TPU имеют ограниченную поддержку PyTorch.",
                        "TPU 对 PyTorch 的支持有限。"):
            assert [(s.aspect.name, s.winner) for s in statements(limited, [], question)] == [("support", "gpu")], limited
    # "better" with no aspect after it stays better in general
    assert _question("Which is better, TPU or GPU?").aspects == ("better",)



def test_support_of_a_named_framework_rests_on_the_clause_that_names_it():
    sentence = "TPU лучше подходят для TensorFlow, тогда как GPU имеют более широкую поддержку."
    # the clause naming TensorFlow decides for TensorFlow; for PyTorch, which no clause names, support in general does
    for text, winner in (("Is TensorFlow better supported on TPUs or on GPUs?", "tpu"),
                         ("TPU 还是 GPU 对TensorFlow 支持更好？", "tpu"), ("Что лучше поддерживается TensorFlow: TPU или GPU?", "tpu"),
                         ("Which is better supported by PyTorch, TPU or GPU?", "gpu")):
        stated = statements(sentence, [], _question(text))
        assert [(s.aspect.name, s.winner) for s in stated] == [("support", winner)], text
    # better for another framework says nothing of the one asked
    assert not statements("TPU лучше подходят для TensorFlow.", [], _question("Which is better supported by PyTorch, TPU or GPU?"))
