"""The question's language, names the corpus lacks, and how the evaluation scores spec answers."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from kb.asked_about import asked_about
from kb.asks import FIGURE_ASKED
from kb.coverage import (
    corpus_words,
    defined_acronyms,
    known_terms,
    names_in,
    prepare,
    unknown_names,
    unlisted_names,
)
from kb.evaluation.answers import answer_correct, lost_value_safe, names_winner, spec_match, states_value
from kb.evaluation.datasets import Expected
from kb.evaluation.sweep import abstention_thresholds
from kb.language import detect_language
from kb.response import AskResponse, ComparisonAnswer, LookupAnswer, SpecEntry, SpecSource
from kb.specs.asked_attribute import rate_asked
from kb.specs.model import Entity
from kb.specs.vocabulary import Vocabulary


@pytest.mark.parametrize("text, lang", [
    ("Когда выйдет NVIDIA Rubin Ultra?", "ru"),  # more Latin letters than Cyrillic, still Russian
    ("Сколько TFLOPS в BF16 выдаёт NVIDIA H100 SXM?", "ru"),
    ("Trn1的FP32算力是多少？", "zh"),
    ("GB200 NVL72每个GPU的带宽是多少？", "zh"),
    ("What is the PCIe bandwidth of TPU v4?", "en"),
    ("123 ?!", None),
])
def test_language_is_the_script_of_the_non_latin_letters(text, lang):
    assert detect_language(text) == lang


def _unknown(question, words, lang="en"):
    return [n.text for n in unknown_names(question, words, lang)]


def test_names_the_corpus_never_mentions_in_any_script():
    words = corpus_words(["The Gaudi2 has 96 GB; Cerebras is not covered here. TPU v5e and MI300X. 英伟达的芯片。"])
    assert _unknown("What is the memory of the Graphcore Bow IPU?", words) == ["Graphcore Bow"]  # one name
    assert _unknown("How much does a Cerebras CS-3 cost?", words) == ["CS-3"]
    assert _unknown("华为昇腾910B的价格是多少？", words, "zh") == ["华为昇腾910B"]
    assert _unknown("寒武纪思元590的FP16算力有多少", words, "zh")[0] == "寒武纪思元590"  # Chinese name with digits
    assert "寒武纪" in _unknown("寒武纪的芯片怎么样", words, "zh")  # a Chinese proper noun, no digits
    assert _unknown("英伟达的芯片", words, "zh") == []  # named in the corpus
    # proper nouns jieba's HMM makes of ordinary words are none: 张卡 of "多少张卡", 加卡, 老卡
    assert _unknown("训练一个千亿参数模型需要多少张卡", words, "zh") == []
    assert _unknown("显存不够训练报OOM，是换卡还是加卡", words, "zh") == []
    # a name before a generation or series word, whatever jieba tags its characters ("昆仑" + "芯"); not the
    # generation of what follows it, nor a relative one
    assert _unknown("昆仑芯二代的训练性能跟Gaudi2比怎么样？", words, "zh") == ["昆仑芯"]
    assert _unknown("燧原第三代有多少显存", words, "zh") == ["燧原"]
    assert _unknown("英伟达第二代芯片的显存", words, "zh") == []
    assert _unknown("新一代 TPU 的显存", words, "zh") == []
    # ordinary nouns after a known maker describe its product, they name none; nor do ordinary nouns alone
    google = corpus_words(["谷歌的张量处理单元，即 TPU。显卡。"])
    assert _unknown("谷歌张量处理单元第五代的显存多大？", google, "zh") == []
    assert _unknown("显卡系列哪个显存最大？", google, "zh") == []
    # however jieba cuts them (英伟/达卡: 达卡 is Dhaka), nouns that hold a name the corpus writes describe it
    assert _unknown("英伟达卡系列哪个显存最大？", words, "zh") == []
    assert _unknown("Сколько памяти у ускорителя Эльбрус?", words, "ru") == ["Эльбрус"]  # Cyrillic, not first
    assert _unknown("Graphcore IPU有多少内存？", words, "zh") == ["Graphcore"]  # no sentence-initial rule
    assert _unknown("Graphcore IPU сколько SRAM на чип", words, "ru") == ["Graphcore"]  # Latin opens a Russian one
    assert _unknown("Сколько HBM у Gaudi2? Какие цены?", words, "ru") == []  # each sentence capitalizes its first word
    assert _unknown("is microsoft's maia 100 faster", words) == ["maia 100"]  # a word and a number, any case
    # a year after a word in lower case is a date, not a product's number
    assert _unknown("In that 2021 price comparison, what did the Gaudi2 cost?", words) == []
    assert _unknown("Since 2020, how much has the Gaudi2 price changed?", words) == []
    assert _unknown("is the dojo 300 faster", words) == ["dojo 300"]  # no year
    assert _unknown("is the rtx 2000 faster", words) == ["rtx 2000"]  # a year-like number after a name
    assert _unknown("What memory does the Gaudi2 have?", words) == []  # "What" starts the sentence
    assert _unknown("Is MI300X faster than TPU v5e?", words) == []


def test_a_question_typed_without_capitals_names_products_by_rare_words():
    words = corpus_words(["The Gaudi2 reaches 432 TFLOPS over NVLink and HBM bandwidth in memory."])
    # rare in general English and absent from the corpus: a name, in any language's question
    assert _unknown("how many tflops does the graphcore bow ipu have", words) == ["graphcore", "ipu"]
    assert _unknown("сколько памяти у groq lpu", words, "ru") == ["groq", "lpu"]
    # the maker in lower case, the product in capitals; an acronym the corpus writes is its own ("HBM", "TFLOPS")
    assert _unknown("groq LPU on-chip SRAM capacity?", words) == ["groq", "LPU", "SRAM"]
    assert _unknown("how much HBM does the gaudi2 have and how many TFLOPS", words) == []
    # one the corpus writes with a version is the corpus's ("EFA" of "EFAv3"), not one it writes inside a word
    efa = corpus_words(["Trn2 uses EFAv3 networking; lpuarch is no product."])
    assert _unknown("how does dpu offload help EFA", efa) == []
    assert _unknown("what is the tdp of the groq LPU card", efa) == ["groq", "LPU"]
    # a word of an entity's name is that entity's, however it declines ("Трейниума" of "у Трейниума 2")
    question = "Сколько памяти у Трейниума 2?"
    at = question.index("Трейниума 2")
    assert unknown_names(question, words, "ru", entities=[(at, at + len("Трейниума 2"))]) == []
    # words of general English ("bow", "cheapest") and the corpus's own ("tflops", "nvlink") are no names
    assert _unknown("whats the cheapest bow with nvlink and the most tflops", words) == []
    # a near-spelling of a corpus word is a typo, not a product
    assert _unknown("what is the memroy bandwith of the gaudi2", words) == []
    # one rare word alone is as likely jargon as a name: no name
    assert _unknown("which accelerator is best for finetuning", words) == []
    # a question that capitalizes its names writes jargon in lower case
    assert _unknown("Is pretraining with deepspeed faster on the Gaudi2?", words) == []
    # incidental beside a known subject, as a capitalized name is
    question = "how much memory does a gaudi2 have for running kubernetes jobs with deepspeed"
    unknown = unknown_names(question, words)
    assert [n.text for n in unknown] == ["kubernetes", "deepspeed"]
    assert not asked_about(question, unknown, [m.span() for m in re.finditer("gaudi2", question)])


def test_the_name_dictionaries_load_before_the_first_question():
    from kb import han_names, language
    han_names.tagger.cache_clear()
    language.word_frequency.cache_clear()
    prepare()
    assert han_names.tagger.cache_info().currsize == 1 and language.word_frequency.cache_info().currsize >= 1


def test_a_model_number_the_corpus_writes_of_a_product_line_the_table_holds_is_an_unlisted_product():
    vocabulary = Vocabulary([Entity(id="amd-mi300x", name="AMD Instinct MI300X", kind="chip", aliases=("MI300X",)),
                             Entity(id="google-tpu-v5e", name="Google TPU v5e", kind="chip", aliases=("TPU v5e",)),
                             Entity(id="hbm3e", name="HBM3e", kind="memory"),
                             Entity(id="trn1", name="AWS EC2 Trn1", kind="instance", aliases=("Trn1",)),
                             Entity(id="p4d", name="AWS EC2 P4d", kind="instance", aliases=("P4d",)),
                             Entity(id="h100", name="NVIDIA H100", kind="chip", aliases=("H100",))], [])
    words = corpus_words(["MI300X and MI300A; TPU v5e and TPU v2; HBM3e; NVLink 4; the L2 of the MI300X; "
                          "EC2 Trn1 and EC2 P4d; P2P; H100 and H800."])

    def unlisted(question, taken=(), terms=()):
        return [n.text for n in unlisted_names(words, names_in(question, "en"), list(taken), list(terms),
                                               vocabulary.names_a_product_line)]

    assert unlisted("What is the TDP of the MI300A?") == ["MI300A"]  # the line of the MI300X
    assert unlisted("How much HBM does the TPU v2 have?", terms=[(22, 25)]) == ["TPU v2"]  # "TPU" is part of it
    # a memory type or a link is no product of a line the table holds; a name the corpus never writes is an
    # unknown one, not an unlisted one; two characters are a cache level; an entity's mention is the entity
    assert unlisted("bandwidth of HBM3e and NVLink 4?") == [] and unlisted("TDP of the MI300B?") == []
    assert unlisted("How big is the L2?") == [] and unlisted("TDP of the MI300X?", taken=[(11, 17)]) == []
    # a word of a known name ("EC2" of "AWS EC2 Trn1") is part of it; one letter before one digit is a link
    # or a protocol ("P2P"), a line only with two digits or more ("H800")
    assert unlisted("What is the hourly price on EC2?") == [] and unlisted("bandwidth of the P2P link?") == []
    assert unlisted("NVLink bandwidth of the H800?") == ["H800"]


def test_amounts_are_not_names_but_a_name_may_end_like_one():
    words = corpus_words(["The A100 has 80 GB for pretraining. TPU v5e and v5p. Ascend, Atlas, Xeon and Radeon."])
    # sizes, units and parameter counts beside a word for a model are amounts, in any script
    assert _unknown("A100 40GB vs 80GB, does the extra memory matter for training", words) == []
    assert _unknown("A100 80G 的显存够吗", words, "zh") == []
    assert _unknown("is a 700W card on a 5nm node worth it", words) == []
    assert _unknown("tpu v5e vs v5p for pretraining a 7B model?", words) == []
    assert _unknown("can I train 70B models on a single node", words) == []
    assert _unknown("a 175B-parameter or a 1.8T-param model on TPU v5e", words) == []
    assert _unknown("Хватит ли A100 для модели 7B?", words, "ru") == []
    assert _unknown("微调一个13B模型需要多少显存", words, "zh") == []
    assert _unknown("部署一个7B大模型", words, "zh") == []
    # a bare number before a measure word or counted noun counts it: "同一台8卡" is one machine of eight cards
    assert _unknown("同一台8卡机器里每张卡跑出来的性能咋不一样", words, "zh") == []
    assert _unknown("为啥超过256张卡训练一般就得上流水线并行", words, "zh") == []
    assert _unknown("寒武纪思元590的显存多大", words, "zh") == ["寒武纪思元590"]
    # a product's digits before a counted noun or a word such a character begins stay a name
    assert _unknown("寒武纪思元590卡的显存多大", words, "zh") == ["寒武纪思元590"]
    assert _unknown("寒武纪思元370片上内存多大", words, "zh") == ["寒武纪思元370"]
    # a name word before the number keeps it a name, whatever follows or however it ends
    assert _unknown("How much does the Ascend 910B cost?", words) == ["Ascend 910B"]
    assert _unknown("Does the Ascend 910B model support HBM?", words) == ["Ascend 910B"]
    assert _unknown("华为昇腾910B的价格是多少？", words, "zh") == ["华为昇腾910B"]
    assert _unknown("昇腾910B模型训练性能怎么样", words, "zh") == ["昇腾910B"]
    for name in ("Ascend 310P", "Atlas 300T", "Xeon 6980P", "Radeon 780M"):
        assert _unknown(f"How much memory does the {name} have?", words) == [name]



def test_factors_and_grids_are_amounts_and_a_factor_on_a_name_counts_it():
    words = corpus_words(["The A100 and Trainium. TPU v5e pods."])
    assert _unknown("do you need fewer instances with 16x trainium or with 8x a100?", words) == []
    assert _unknown("is it 2.5x faster on a 4x4x4 slice", words) == []
    assert _unknown("8xA100 server for fine-tuning", words) == []  # eight A100s, and A100 is known
    assert _unknown("8xB300 server for fine-tuning", words) == ["B300"]  # the counted name still counts
    assert _unknown("TPU v5e 比 A100 快2倍吗，便宜30%吗", words, "zh") == []
    assert _unknown("思元590 比 A100 快2倍吗", words, "zh") == ["思元590"]


def test_a_count_a_describing_word_or_a_plural_written_onto_a_name_leave_the_name():
    words = corpus_words(["The B200 and B300, Gaudi and DL1, the A100 and P4d. FP64 math. H100 and MI300X."])
    assert _unknown("For FP64-heavy simulation work, should I prefer the B300 or the B200?", words) == []
    assert _unknown("Is an 8-Gaudi DL1 instance cheaper per hour than a P4d with eight A100s?", words) == []
    assert _unknown("an H200-based box or a B300-class one?", words) == ["H200"]  # the name itself still counts
    assert _unknown("Are eleven H100s faster than MI300Xs or an MI300X-based box?", words) == []
    assert _unknown("the Maia 100s or the B300?", words) == ["Maia 100s"]


def test_acronyms_the_corpus_spells_out_and_model_numbers_it_names_are_its_terms():
    text = ("MAMF stands for Maximum Achievable Matmul FLOPS. The two Graphics Compute Die (GCD) of the MI250. "
            "RDU (Reconfigurable Dataflow Unit). The Open Compute Platform (OAM) and Artificial Intelligence (AI). "
            "Cerebras WSE-3. We use Python 3 and Gen3 PCIe.")
    assert defined_acronyms(text) == {"mamf", "gcd", "rdu"}  # OAM's words do not spell it; AI is too short
    words = corpus_words([text])

    def terms(question, lang="en"):
        return [question[a:b] for a, b in known_terms(question, words, lang)]
    assert terms("what does MAMF measure") == ["MAMF"]
    assert terms("what does mamf measure") == []  # lowercase, it could be any word
    assert terms("сколько ядер у Cerebras WSE-3?", "ru") == ["WSE-3"]
    assert terms("how can I improve my 5k time") == [] and terms("log以2为底8等于多少", "zh") == []
    assert terms("how to reverse a list in Python") == []  # a capitalized word the corpus names is no sign


def test_a_known_word_written_onto_an_unknown_name_is_part_of_it():
    words = corpus_words(["Gen3 PCIe, H100 and NVIDIA."])
    question = "骁龙8 Gen3 手机发热严重吗"
    unknown = unknown_names(question, words, "zh")
    gen3 = [m.span() for m in re.finditer("Gen3", question)]
    assert [n.text for n in unknown] == ["骁龙8"] and asked_about(question, unknown, gen3)


def test_an_unknown_name_declines_only_what_it_is_about():
    def about(question, known_words):
        words = corpus_words(["H100 and Gaudi2 and GPU"])
        known = [m.span() for w in known_words for m in re.finditer(w, question)]
        return asked_about(question, unknown_names(question, words), known)
    assert about("What is the memory of the Graphcore Bow IPU?", [])  # nothing known: it is the subject
    assert not about("How much memory does the H100 have for training Mistral models?", ["H100"])  # incidental
    assert not about("Can I rent Gaudi2 on Kubernetes?", ["Gaudi2"])
    assert about("Is the Graphcore IPU faster than an H100?", ["H100"])  # compared with a known one
    assert about("Что быстрее: Graphcore IPU или Gaudi2?", ["Gaudi2"])
    # a comparison of two known ones, or one in another sentence, leaves the unknown name incidental
    assert not about("Serving Mistral is memory-bound. Does the Gaudi2 have more memory than the H100?",
                     ["Gaudi2", "H100"])
    assert not about("For Mistral models, is the Gaudi2 faster than the H100?", ["Gaudi2", "H100"])
    assert not about("How much memory does the H100 have?", ["H100"])  # nothing unknown at all
    # a Chinese sentence ends with no space after it: a name in the next one is not compared
    assert not about("Gaudi2 跟 H100 比，哪个内存更大？在 Kubernetes 上部署", ["Gaudi2", "H100"])
    assert about("Gaudi2 跟 Kubernetes 比哪个好", ["Gaudi2"])
    # a verb that compares ("beats", "обгоняет", "优于") compares as "than" does
    assert about("Does the Graphcore IPU beat the Gaudi2?", ["Gaudi2"])
    assert about("训练时 Graphcore IPU 优于 Gaudi2 吗？", ["Gaudi2"])
    assert about("How much SRAM does a Graphcore IPU have, and how does it compare to a Gaudi2?", ["Gaudi2"])
    assert not about("Does the Graphcore IPU need Kubernetes? The Gaudi2 does.", ["Gaudi2"])
    assert not about("在 Volcano 调度器上跑超过 8 张 H100 的任务，每张卡显存多少？", ["H100"])  # 超过: "more than"
    # a part of a known product asked by a name of its own is what it asks about
    assert about("How large is the Infinity Cache on the AMD H100?", ["H100"])
    assert about("Сколько Infinity Cache у H100?", ["H100"]) and about("H100 的 Infinity Cache 有多大？", ["H100"])
    assert not about("Can I use the H100 on Kubernetes?", ["H100"])  # the product is on it, not the other way
    assert not about("H100 的 Kubernetes 部署教程", ["H100"])  # no size asked of it
    # past a gloss in brackets, and by the English possessive with the size asked before it
    assert about("H100 的 Infinity Cache（L3 缓存）有多大？", ["H100"])
    assert about("How big is the H100's Infinity Cache?", ["H100"])
    assert not about("How big is the H100's memory for Mistral models?", ["H100"])
    assert not about("What did the H100's launch mean for Kubernetes?", ["H100"])  # no size asked
    # an attribute's own words in capitals ("the Die Size of the H100") are the attribute asked, no part
    question = "What is the Die Size of the H100?"
    cue = [(question.index("Die Size"), question.index("Die Size") + 8)]
    words = corpus_words(["H100 and Gaudi2 and GPU"])
    h100 = [(question.index("H100"), question.index("H100") + 4)]
    assert asked_about(question, unknown_names(question, words), h100)
    assert not asked_about(question, unknown_names(question, words), h100, cue)


def test_a_rare_name_in_the_dictionary_that_common_words_spell_is_no_name():
    words = corpus_words(["TPU GPU Trainium2 连接 拓扑"])
    # jieba lists "连接成" as a rare person's name; here it is "connect into"
    assert _unknown("为什么 TPU 比 GPU 更便宜、更容易连接成更大规模的拓扑？", words, "zh") == []
    # and "高带宽" (high bandwidth) is 高 and 带宽, though 带宽 is no everyday word
    assert _unknown("Trainium2 高带宽内存的带宽是多少？", words, "zh") == []
    assert _unknown("寒武纪的芯片有多少显存？", words, "zh") == ["寒武纪"]


def test_a_maker_written_before_a_known_product_names_that_product():
    words = corpus_words(["Habana Labs makes Gaudi. Rubin is next. Blackwell Ultra ships. The Ultra variant. Intel."])
    def unknown(question, entity, lang="en"):
        spans = [m.span() for m in re.finditer(entity, question)]
        return [n.text for n in unknown_names(question, words, lang, entities=spans)]
    assert unknown("What process node is the first-gen Habana Gaudi built on?", "Gaudi") == []
    assert unknown("What process node is the Graphcore Gaudi built on?", "Gaudi") == ["Graphcore Gaudi"]  # no maker
    assert unknown("When will the NVIDIA Rubin Ultra ship?", "Rubin") == ["Rubin Ultra"]  # a word after the product
    # makers' words the corpus writes, right before the product, though never written side by side with it there
    assert unknown("Какой техпроцесс у первого Intel Habana Gaudi?", "Gaudi", "ru") == []
    assert unknown("Какой техпроцесс у первого Graphcore Habana Gaudi?", "Gaudi", "ru") == ["Graphcore Habana"]
    assert _unknown("What process node is the first-gen Habana Gaudi built on?", words) == ["Habana Gaudi"]


def test_known_words_side_by_side_the_corpus_never_writes_name_a_new_product():
    words = corpus_words(["Rubin is next. Blackwell Ultra ships. The Ultra variant. NVIDIA H100."])
    assert _unknown("When will the NVIDIA Rubin Ultra ship?", words) == ["Rubin Ultra"]
    assert _unknown("Does the Blackwell Ultra have more memory?", words) == []  # written together in the corpus
    question = "When will the NVIDIA Rubin Ultra ship?"
    known = [(question.index("NVIDIA"), question.index("NVIDIA") + 6), (question.index("Rubin"), question.index("Rubin") + 5)]
    # "NVIDIA" and "Rubin" are parts of the new name, not a known subject beside it
    assert asked_about(question, unknown_names(question, words), known)


def test_expected_spec_forms_are_exclusive():
    Expected(entity="x", value=96, unit="GiB")
    Expected(lost=True)
    Expected(winner="a", loser="b", direction="higher", values=[{"entity": "a", "value": 1, "unit": "GB"}])
    for bad in ({"value": 96}, {"value": 96, "unit": "GiB"}, {"entity": "x", "value": 1, "unit": "GB", "lost": True},
                {"winner": "a", "loser": "b"}, {}):
        with pytest.raises(ValidationError):
            Expected(**bad)


def _spec(entity, value, unit, status="value", value_text=""):
    source = SpecSource(article_id="x", title="X", url=None, anchor="", char_start=0, char_end=1, origin="table",
                        location="x:1", context=None)
    return SpecEntry(entity=entity, entity_name=entity, attribute="a", label="a", status=status, value=value,
                     text=None, unit=unit, value_text=value_text, display="", value_display="", qualifier="",
                     dtype=None, scope=None, basis=None, variant=None, note=None, approx=False, bound=None,
                     as_of=None, conflict=False, via=None, quote="q", citation=source)


def _response(specs, spec_answer=None) -> AskResponse:
    return AskResponse(question="q", lang="en", mode="hybrid", answerable=True, abstain_reason=None, unknown_names=(),
                       evidence_score=1.0, answer=None, citations=(), specs=tuple(specs), spec_answer=spec_answer,
                       took_ms=0.0)


def _lookup(text: str) -> LookupAnswer:
    return LookupAnswer(kind="lookup", attribute="a", lang="en", entities=("x",), text=text)


def test_spec_scoring_is_exact():
    body = _response([_spec("x", 96.0, "GiB")])
    assert spec_match(body, Expected(entity="x", value=96, unit="GiB"))
    assert not spec_match(body, Expected(entity="x", value=96, unit="GB"))  # GB is not GiB
    assert not spec_match(body, Expected(entity="y", value=96, unit="GiB"))  # the value of another entity
    assert spec_match(body, Expected(entity=("y", "x"), value=96, unit="GiB"))  # any of tied winners
    # an entity written as new when the question was, matched by name once the table has it
    vocabulary = Vocabulary([Entity(id="x", name="AWS EC2 Inf2", kind="instance", aliases=["Inf2"])], [])
    assert spec_match(body, Expected(entity="new:AWS EC2 Inf2", value=96, unit="GiB"), vocabulary)
    assert spec_match(body, Expected(entity="new:Inf2", value=96, unit="GiB"), vocabulary)
    assert not spec_match(body, Expected(entity="new:Inf2 Pro", value=96, unit="GiB"), vocabulary)
    assert not spec_match(body, Expected(entity="new:AWS EC2 Inf2", value=96, unit="GiB"))  # no table, no match
    # a series' figure given for the member asked about is that member's; a relative's other than its series is not
    series = Vocabulary([Entity(id="s", name="Series", kind="chip"), Entity(id="m", name="Member", kind="chip", family="s"),
                         Entity(id="i", name="Instance", kind="instance")], [])
    of_series = _response([_spec("s", 4.0, "MB").model_copy(update={"via": "m"})])
    assert spec_match(of_series, Expected(entity="m", value=4, unit="MB"), series)
    assert not spec_match(of_series, Expected(entity="m", value=4, unit="MB"))  # without the vocabulary, no series
    asked_the_series = _response([_spec("s", 4.0, "MB")])  # the question named the series, not the member
    assert spec_match(asked_the_series, Expected(entity="m", value=4, unit="MB"), series)
    assert not spec_match(asked_the_series, Expected(entity="m", value=8, unit="MB"), series)
    of_instance = _response([_spec("i", 4.0, "MB").model_copy(update={"via": "m"})])
    assert not spec_match(of_instance, Expected(entity="m", value=4, unit="MB"), series)
    unknown = [_spec("x", None, "images/s", "unknown", "[?]963")]
    assert lost_value_safe(_response(unknown, _lookup("unknown")))
    assert not lost_value_safe(_response(unknown, _lookup("about 963 images/s")))  # a guess from the digits
    assert not lost_value_safe(_response(unknown + [_spec("x", 1963.0, "images/s")]))
    compared = ComparisonAnswer(kind="comparison", attribute="a", entities=("a", "b"), lang="en", higher="a",
                                lower="b", comparable=True, difference=(1.0, 1.0), ratio=(2.0, 2.0), unit="TB/s",
                                text="a is higher")
    body = _response([_spec("a", 2.0, "TB/s"), _spec("b", 1.0, "TB/s")], compared)
    want = [{"entity": "a", "value": 2, "unit": "TB/s"}, {"entity": "b", "value": 1, "unit": "TB/s"}]
    assert spec_match(body, Expected(winner="a", loser="b", direction="higher", values=want))
    assert not spec_match(body, Expected(winner="b", loser="a", direction="higher", values=want))
    assert spec_match(body, Expected(winner="b", loser="a", direction="lower", values=want))  # "which is cheaper"


def test_the_answer_read_first_states_the_value_in_any_unit_of_its_kind():
    assert states_value("Trainium3: 4.9 TB/s (per chip)", 4.9, "TB/s")
    assert states_value("memory bandwidth of 4900 GB/s", 4.9, "TB/s")
    assert states_value("AWS EC2 DL1: 13,11 долл./ч", 13.11, "USD/h")  # a decimal comma
    assert not states_value("Trainium3: 2.9 TB/s", 4.9, "TB/s")
    declined = _response([_spec("x", 96.0, "GiB")], _lookup("x: 96 GiB")).model_copy(update={"answerable": False})
    assert answer_correct(declined, Expected(entity="x", value=96, unit="GiB"), Vocabulary([], [])) is False


def test_the_answer_names_the_winner_before_the_loser():
    vocabulary = Vocabulary([Entity(id="trn3", name="Trainium3", kind="chip"),
                             Entity(id="trn2", name="Trainium2", kind="chip")], [])
    cheaper = Expected(winner="trn3", loser="trn2", direction="higher")
    assert names_winner("Trainium3 is higher: 4.9 against 2.9 for Trainium2", cheaper, vocabulary)
    assert not names_winner("Trainium2 has 2.9, Trainium3 4.9", cheaper, vocabulary)
    classes = Expected(winner="tpu", loser="gpu", direction="lower", names={"tpu": ("TPU",), "gpu": ("GPU", "видеокарт")})
    assert names_winner("TPU обходятся дешевле, чем видеокарты", classes, vocabulary)
    assert not names_winner("GPU дешевле TPU", classes, vocabulary)
    assert not names_winner("no names here", classes, vocabulary)


def test_threshold_sweep_counts_the_other_abstention_signals():
    rows = [{"answerable_expected": False, "top_score": 5.0, "decided_by": "no_fact"},
            {"answerable_expected": False, "top_score": 1.0, "decided_by": "score"},
            {"answerable_expected": True, "top_score": 0.5, "decided_by": "spec"},
            {"answerable_expected": True, "top_score": 4.0, "decided_by": "score"}]
    at_two = next(c for c in abstention_thresholds({"rows": rows}) if c["threshold"] == 4.0)
    assert (at_two["recall"], at_two["lost"]) == (1.0, 0)  # the spec-answered question is not lost at any threshold
    # an answerable question a name signal declines is lost whatever the threshold: not the threshold's loss
    rows.append({"answerable_expected": True, "top_score": 9.0, "decided_by": "unknown_name"})
    at_two = next(c for c in abstention_thresholds({"rows": rows}) if c["threshold"] == 4.0)
    assert at_two["lost"] == 0 and at_two["allowed"]


def test_the_threshold_is_the_middle_of_the_equally_good_range():
    from kb.evaluation.sweep import choose_threshold

    rows = [{"answerable_expected": False, "top_score": 1.0, "decided_by": "score"},
            {"answerable_expected": False, "top_score": 2.0, "decided_by": "score"},
            {"answerable_expected": True, "top_score": 4.0, "decided_by": "score"},
            {"answerable_expected": True, "top_score": 6.0, "decided_by": "score"}]
    chosen = choose_threshold(abstention_thresholds({"rows": rows}))
    # declining both unanswerables and neither answerable: any threshold in (2, 4], and 3 is the safest
    assert chosen["range"] == (2.0, 4.0)
    assert chosen["threshold"] == 3.0
    assert (chosen["recall"], chosen["lost"]) == (1.0, 0)


@pytest.mark.parametrize("question, asks", [
    ("what allreduce bandwidth do you get on 8xh100?", True), ("how fast is the ici?", True),
    ("какая скорость у nvlink?", True), ("8xh100 的 allreduce 带宽是多少", True),
    # the name of a kind of memory asks no rate
    ("what is high-bandwidth memory?", False), ("что такое память с высокой пропускной способностью?", False)])
def test_a_word_of_rate_asks_a_figure_unless_it_names_a_memory(question, asks):
    assert rate_asked(question) is asks


@pytest.mark.parametrize("question, asks", [
    ("H100 有几个 SM？", True), ("Сколько памяти у Gaudi?", True), ("how much HBM does the MI300X have", True),
    # 几乎 is "almost"
    ("为什么 TPU 几乎总是比 GPU 便宜？", False)])
def test_a_figure_is_asked_in_so_many_words(question, asks):
    assert bool(FIGURE_ASKED.search(question.lower())) is asks
