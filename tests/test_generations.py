"""Words that say which product, per what, or against what, read alike in questions and prose: an ordinal
generation of a product line, a plural name, "per chip" / "на линк" / "每条链路", and the comparing words."""

from __future__ import annotations

import re

import pytest

from kb.asked_about import asked_about
from kb.coverage import corpus_words, unknown_names
from kb.evaluation.sweep import choose_domain_threshold, domain_thresholds
from kb.specs.clauses import fits_said_per, said_per
from kb.specs.lines import asked_line, line_generations, name_generations, unlisted_variant
from kb.specs.present import lookup


@pytest.mark.parametrize("question, name", [
    ("How much memory does the second-generation Trainium have?", "Trainium2"),
    ("What is the memory of the 3rd gen Gaudi?", "Gaudi3"),
    ("How much HBM does Google's third-generation TPU have?", "TPU v3"),  # as the table writes it, not "TPUv3"
    ("Which generation of HBM does the second-generation Trainium use?", "Trainium2"),
    ("Сколько памяти у второго поколения Gaudi?", "Gaudi2"),
    ("第三代 Trainium 的 FP8 算力是多少？", "Trainium3"),
    ("第3代 Trainium 的内存多大？", "Trainium3"),
    ("二代Gaudi的内存多大", "Gaudi2"),
    ("Gaudi 的第二代内存多大？", "Gaudi2"),
    ("Сколько HBM у второго поколения Трейниума?", "Trainium2"),  # the line in its Russian name
])
def test_an_ordinal_generation_of_a_line_is_that_generations_product(vocabulary, question, name):
    written = name_generations(question, vocabulary)
    assert re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", written) and written != question, written


@pytest.mark.parametrize("question, written", [
    ("How much faster is the second-generation Trainium than the first?", "the Trainium2 than the Trainium1"),
    ("Во сколько раз второе поколение Трейниума быстрее, чем первое?", "Trainium2 быстрее, чем Trainium1"),
    ("第二代Trainium比第一代快多少？", "Trainium2比Trainium1快多少"),
    # an ordinal that names no generation stays ("the first thing"), as does one with no line named before it
    ("What is the first thing to check on the second-gen Trainium?", "the first thing to check on the Trainium2"),
    ("Is the H100 faster than the first one?", "faster than the first one"),
    # a Russian noun before the ordinal is no line ("память второго поколения Trainium" is Trainium2's memory)
    ("Сравните память второго поколения Trainium с первым поколением.", "память Trainium2 с Trainium1"),
])
def test_an_ordinal_alone_on_the_far_side_is_that_generation_of_the_line_named(vocabulary, question, written):
    assert written in name_generations(question, vocabulary)


def test_the_second_generation_against_the_first_compares_the_two_products(table):
    query, spec = lookup(table, name_generations("第二代Trainium比第一代快多少？", table.vocabulary), "zh")
    assert query.entities == ("aws-trainium2", "aws-trainium") and "3.4倍" in spec.answer.text


@pytest.mark.parametrize("question", [
    "AWS 的三代 Trainium 芯片里，哪一代 FP8 算力最高？",  # compares among them: the number counts generations
    "比较三代 Trainium 的内存带宽",
    "新一代 Trainium 的内存有多大",  # the newest, the next, this one: no ordinal
    "下一代 Gaudi 什么时候发布",
    "这一代 Trainium 和上一代 Trainium 比",
    "How much memory does the second-generation Fooblaster have?",  # no line of that name
    "What is the second-generation H100's memory?",  # a model number is one product, no line
    "Which second-generation HBM does the H100 use?",
])
def test_a_count_of_generations_or_no_line_is_left_as_written(vocabulary, question):
    assert name_generations(question, vocabulary) == question


def test_which_generation_asks_within_the_line_whatever_number_counts_them(vocabulary):
    for question in ("AWS 的三代 Trainium 芯片里，哪一代 FP8 算力最高？", "AWS 的三代 Trainium 里，内存最大的是哪款？",
                     "Among the three Trainium generations, which generation is fastest?"):
        low = question.lower()
        line, _ = asked_line(low, vocabulary.mentions(low), vocabulary)
        assert line == ("trainium",), question
    low = "第二代 trainium 的内存多大？"  # an ordinal names one generation, not the line
    assert asked_line(low, vocabulary.mentions(low), vocabulary) == ((), ())


def test_a_maker_named_before_which_in_chinese_is_the_group_ranked(vocabulary):
    # Chinese writes the group before 哪 ("NVIDIA 的哪款 GPU"), English after "which"
    for question in ("nvidia 的哪款 gpu 显存最大？", " nvidia 系列显卡里哪个显存最大？", "谷歌 google 哪款 tpu 显存最大"):
        low = question.lower()
        line, _ = asked_line(low, vocabulary.mentions(low), vocabulary)
        assert line and line[0] in ("nvidia", "google", "tpu"), question
    # two groups joined are compared, a group excepted or in another clause restricts nothing
    for question in ("amd 和 nvidia 哪个的显卡显存更大？", "除了 nvidia，哪款芯片显存最大？", "amd、nvidia哪款显存更大？",
                     "amd 以及 nvidia 哪款显存最大？", "amd 对比nvidia哪个显存更大？"):
        low = question.lower()
        assert asked_line(low, vocabulary.mentions(low), vocabulary) == ((), ()), question


def test_a_plural_of_a_name_the_corpus_writes_is_that_name():
    words = corpus_words(["DL1 instances carry eight Gaudi processors; P4d carries A100 GPUs."])
    question = "Which was cheaper per hour: a DL1 with 8 Gaudis or a P4d with 8 A100s?"
    assert unknown_names(question, words) == []
    assert [n.text for n in unknown_names("How many Ryzens fit in a server?", words)] == ["Ryzens"]


@pytest.mark.parametrize("text, said", [
    ("ICI bandwidth per chip (GBps)", {"chip"}), ("50 GB/sec per link", {"link"}),
    ("пропускная способность на один чип", {"chip"}), ("на каждый линк", {"link"}),
    ("每颗芯片的带宽", {"chip"}), ("每条链路 50GB/s", {"link"}), ("13.11 USD per hour per instance", {"hour", "instance"}),
    ("the chip's total bandwidth", set()),
])
def test_what_a_figure_is_said_per_reads_alike_in_every_language(text, said):
    assert said_per(text) == said


def test_a_figure_said_per_one_thing_fits_no_attribute_defined_per_another():
    assert not fits_said_per({"chip"}, "ICI bandwidth per link")
    assert fits_said_per({"link"}, "ICI bandwidth per link")
    assert fits_said_per({"chip"}, "chip-to-chip interconnect bandwidth")  # defined per nothing
    assert fits_said_per(set(), "ICI bandwidth per link")  # said per nothing
    assert fits_said_per({"hour", "instance"}, "price per hour")
    assert not fits_said_per({"chip"}, "bandwidth per GPU")  # a label's noun in capitals is read too


@pytest.mark.parametrize("question, lang", [
    ("Какую пиковую пропускную способность даёт один 16-битный линк Infinity Fabric у MI250?", "ru"),
    ("MI250 单条 16 位 Infinity Fabric 链路的峰值带宽是多少？", "zh"),
    ("What is the peak bandwidth of one 16-wide Infinity Fabric link on the MI250?", "en"),
])
def test_words_may_name_the_link_between_one_and_link_in_every_language(vocabulary, question, lang):
    assert "link_bandwidth" in vocabulary.cue_spans(question.lower(), lang)


def test_a_comparing_verb_joins_an_unknown_name_to_a_known_one_in_every_language():
    words = corpus_words(["H100 and Gaudi2"])

    def about(question, lang="en"):
        known = [m.span() for m in re.finditer("Gaudi2|H100", question)]
        return asked_about(question, unknown_names(question, words, lang), known)
    assert about("Does the Graphcore IPU exceed the Gaudi2?")
    assert about("Graphcore IPU уступает Gaudi2 по памяти?", "ru")
    assert about("Graphcore IPU 不如 Gaudi2 吗？", "zh")
    assert not about("How much memory does the Gaudi2 have for Mistral models?")


def _gate_rows(off_topic: list[float], answerable: list[float]) -> dict:
    rows = [{"category": "off_topic", "answerable_expected": False, "gated": True, "domain_score": s} for s in off_topic]
    rows += [{"category": "factual", "answerable_expected": True, "gated": True, "domain_score": s} for s in answerable]
    return {"rows": rows}


def test_the_domain_threshold_is_the_classifiers_own_boundary_where_dev_cannot_tell():
    # every threshold in (-1.0, 1.9] declines both off-topic questions and no answerable one
    chosen = choose_domain_threshold(domain_thresholds(_gate_rows([-3.0, -1.0], [1.9, 4.0])))
    assert chosen["range"] == (-1.0, 1.9) and chosen["threshold"] == 0.0
    # a range that does not hold 0: its middle
    chosen = choose_domain_threshold(domain_thresholds(_gate_rows([0.5, 1.0], [2.0, 4.0])))
    assert chosen["range"] == (1.0, 2.0) and chosen["threshold"] == 1.5


@pytest.mark.parametrize("question, variant", [
    ("How much memory does the H100 NVL have?", "H100 NVL"), ("h100 nvl 每颗芯片有多少显存？", "h100 nvl"),
    ("H100 PCIe memory bandwidth", None), ("How much memory does the H100 SXM5 have?", None),  # its own variants
    ("H100 GPU memory?", None), ("How many H100 instances are there?", None),  # ordinary words, no form
    ("How much memory does the TPU v5e have?", None),  # a product with no variants in the table
    # an unlisted model number right before a machine's alias names another machine; a precision or a listed name
    # there does not ("FP8 UltraServer"; "Trn2 UltraServer" is one alias)
    ("How many Trainium3 chips are in a Trn3 UltraServer?", "Trn3 UltraServer"),
    ("Сколько чипов в trn3 ultraserver?", "trn3 ultraserver"), ("What is the FP8 UltraServer throughput?", None),
    ("How many chips does a Trn2 UltraServer hold?", None),
    # a word of a listed name ("EC2", "trn2u") is no model number; one in Cyrillic letters is ("Трн3")
    ("How many chips in an EC2 UltraServer?", None), ("How many chips in a trn2u UltraServer?", None),
    ("How many chips in a Gen2 UltraServer?", None),
    ("Сколько чипов в Трн3 UltraServer?", "Трн3 UltraServer"),
])
def test_a_word_of_form_the_table_has_no_variant_of_names_another_product(vocabulary, question, variant):
    found = [question[s:e] for m in vocabulary.mentions(question)
             if (span := unlisted_variant(vocabulary, question, m)) for s, e in [span]]
    assert found == ([variant] if variant else [])


def test_an_unlisted_variant_is_answered_with_no_figure_of_the_listed_product(table):
    query, result = lookup(table, "How much memory does the H100 NVL have?", "en", unlisted=("H100 NVL",))
    assert query.entities == () and not result.found and "H100 NVL" in result.answer.text
    query, result = lookup(table, "How much memory does the H100 PCIe have?", "en")
    assert query.entities == ("nvidia-h100-pcie",) and result.found


@pytest.mark.parametrize("question, lang", [
    ("How much shared memory (SMEM) does each SM have on an A100?", "en"),
    ("Сколько разделяемой памяти в каждом SM у H100?", "ru"), ("H100 每个 SM 有多少共享内存？", "zh"),
])
def test_shared_memory_of_each_sm_is_the_per_sm_figure(vocabulary, question, lang):
    assert "smem_per_sm" in vocabulary.cue_spans(question.lower(), lang)


@pytest.mark.parametrize("question, lang, attribute", [
    ("What is the bidirectional ICI bandwidth per chip of TPU7x (Ironwood)?", "en", "interchip_bandwidth"),
    ("Ironwood（TPU7x）每颗芯片的双向 ICI 带宽是多少 GBps？", "zh", "interchip_bandwidth"),
    ("Какая двунаправленная пропускная способность ICI на один чип у TPU7x?", "ru", "interchip_bandwidth"),
    ("What is the ICI bandwidth per link of TPU v5p?", "en", "ici_bandwidth"),
    ("TPU v5p ICI bandwidth", "en", "ici_bandwidth"),
])
def test_one_links_figure_asked_of_a_whole_chip_is_the_chips_figure(table, question, lang, attribute):
    query, result = lookup(table, question, lang)
    assert query.attribute == attribute and result.found, result
    if attribute == "interchip_bandwidth":
        assert [e.value for e in result.entries] == [1200.0]


@pytest.mark.parametrize("question, lang", [
    ("Compare the memory bandwidth of the Trainium generations", "en"),
    ("How much memory does each Trainium generation have?", "en"),
    ("Сравни пропускную способность памяти поколений Trainium", "ru"),
    ("比较三代 Trainium 的内存带宽", "zh"), ("每一代 Trainium 的内存是多少？", "zh"),
])
def test_the_generations_of_a_line_asked_together_are_each_answered(table, question, lang):
    query, result = lookup(table, question, lang)
    assert query.entities == ("aws-trainium", "aws-trainium2", "aws-trainium3") and query.kind == "lookup"
    # each generation's figure is read, however many figures the first one has
    assert all(name in result.answer.text for name in ("Trainium2", "Trainium3")), result.answer.text


def test_one_product_of_a_line_is_still_that_product(table):
    query, _ = lookup(table, "How much memory does Trainium have?", "en")
    assert query.entities == ("aws-trainium",)


def test_three_named_products_compared_without_a_ranking_are_each_answered(table):
    query, result = lookup(table, "Какая память у H100, A100 и MI300X?", "ru")
    assert query.kind == "lookup" and all(v in result.answer.text for v in ("80 GB", "192 GB")), result.answer.text
    query, _ = lookup(table, "Is the H100 faster than the A100?", "en")
    assert query.kind == "comparison"


@pytest.mark.parametrize("question, lang", [
    ("第五代 Trainium 的内存带宽是多少？", "zh"),  # one generation the table lacks, not all of them
    ("Какая пропускная способность памяти у пятого поколения Gaudi?", "ru"),
    ("Какой объём памяти у нового поколения Gaudi?", "ru"),  # the newest one
    ("前两代 Trainium 的内存是多少？", "zh"),  # some of them
])
def test_one_generation_or_some_of_them_is_not_the_whole_line(table, question, lang):
    query, _ = lookup(table, question, lang)
    assert query is None or len(query.entities) <= 1, query


def test_generations_across_a_line_and_a_link_asked_of_each_chip(table):
    query, _ = lookup(table, "Compare the memory bandwidth of Gaudi across its generations", "en")
    assert query.entities == ("intel-gaudi", "intel-gaudi2", "intel-gaudi3")
    # "per link" asked as well: the link's figure, not the chip's
    query, result = lookup(table, "What is the ICI bandwidth per link of each chip in TPU v5p?", "en")
    assert query.attribute == "ici_bandwidth" and result.found


@pytest.mark.parametrize("text, names", [
    ("TPU v3、v4、v5e 这几代里", ["TPU v3", "v4", "v5e"]),  # the enumeration comma of a Chinese list
    ("NVLink 3.0、4.0、5.0 这几代里", ["NVLink 3.0", "4.0", "5.0"]),  # versions with a decimal point
    ("NVLink 3.0, 4.0 and 5.0", ["NVLink 3.0", "4.0", "5.0"]),
])
def test_a_listed_version_after_a_name_names_its_sibling(vocabulary, text, names):
    assert [m.text for m in vocabulary.mentions(text)] == names


@pytest.mark.parametrize("text", ["NVLink 3.0 and 2.5 GB", "NVLink 4.0 vs 3.5x", "Gaudi2 and 3 instances",
                                  # amounts that happen to be a sibling's version
                                  "NVLink 4.0 与 3.0 TB/s 的显存带宽相比", "NVLink 5.0 и 4.0 раза больше PCIe?",
                                  "NVLink 4.0 and 5.0 GB/s per lane"])
def test_a_number_after_a_name_that_names_no_sibling_is_no_name(vocabulary, text):
    assert len(vocabulary.mentions(text)) == 1


@pytest.mark.parametrize("text", ["Чем NVLink 3.0 и 4.0 различаются?", "NVLink 4.0 и 5.0 разные?",
                                  "Is NVLink 4.0 or 5.0 faster?"])
def test_a_word_after_a_listed_version_that_is_no_unit_keeps_the_sibling(vocabulary, text):
    assert len(vocabulary.mentions(text)) == 2


@pytest.mark.parametrize("question, lang", [
    ("NVLink 3.0、4.0、5.0 这几代里，哪一代每块 GPU 的总带宽最大？", "zh"),
    ("哪一代 nvlink 每块 gpu 的总带宽最高", "zh"),  # 哪一代 asks which generation: no ordinal "first"
    ("Across the NVLink generations, which one gives each GPU the most NVLink bandwidth?", "en"),
    ("Какое поколение NVLink даёт больше всего пропускной способности на GPU?", "ru"),
])
def test_the_generations_of_a_link_are_ranked_among_themselves(table, question, lang):
    query, result = lookup(table, question, lang)
    assert query.kind == "superlative" and set(query.entities) == {"nvlink-3", "nvlink-4", "nvlink-5"}, query
    assert result.answer.best == "nvlink-5" and result.entries[0].entity == "nvlink-5"  # the winner cited first


def test_a_links_name_is_no_cue_where_another_word_asks_the_attribute(table):
    query, result = lookup(table, "NVLink 4.0 和 5.0 的链接带宽哪个高？", "zh")
    assert query.kind == "comparison" and query.attribute == "link_bandwidth", query  # not the per-GPU figure
    query, _ = lookup(table, "Какая пропускная способность NVLink 5.0 на GPU?", "ru")  # the name is the only cue
    assert query.attribute == "gpu_bandwidth"


@pytest.mark.parametrize("question, lang", [("Compare the memory bandwidth of the TPU generations", "en"),
                                            ("各代 TPU 的 HBM 容量是多少？", "zh")])
def test_a_line_word_that_is_no_products_name_asks_each_generation(table, question, lang):
    query, result = lookup(table, question, lang)
    assert query.kind == "lookup" and {"google-tpu-v3", "google-tpu-v5p", "google-tpu-v7x"} <= set(query.entities)
    assert "TPU v7x" in result.answer.text


def test_a_makers_generations_or_a_buss_are_no_line(vocabulary, table):
    assert line_generations("compare all nvidia generations", vocabulary) == ()
    assert line_generations("which pcie generation is fastest", vocabulary, ranked=True) == ()  # "A100 PCIe"'s word
    assert "google-tpu-v7x" in line_generations("tpu 哪一代显存最大", vocabulary, ranked=True)
    # 上一代 / 新一代 name no particular generation: the ranking stays among the line's products
    for question in ("上一代 TPU 中哪款显存最大", "新一代 TPU 中哪款显存最大"):
        _, result = lookup(table, question, "zh")
        assert result.answer.best.startswith("google-tpu"), (question, result.answer.text)
    _, result = lookup(table, "Gaudi 哪一代显存最大", "zh")
    assert result.answer.best == "intel-gaudi3"
    # generations none of which has a figure of what is read ("bandwidth" as memory bandwidth: HBM types have
    # stack bandwidths) are left to the passages: no "no memory bandwidth for HBM1" and no ranking of every chip
    assert lookup(table, "Which HBM generation has the highest bandwidth?", "en") == (None, None)


def test_a_ranking_of_named_products_cites_the_winners_winning_figure_first(table):
    _, result = lookup(table, "A100、H100、B200 哪个显存最大？", "zh")
    assert result.answer.best == "nvidia-b200-sxm" and result.entries[0].value == 192, result.entries[0]


@pytest.mark.parametrize("question, lang", [("GB200 NVL72 整个的 NVLink 总带宽是多少", "zh"),
                                            ("Какая суммарная пропускная способность NVLink у GB200 NVL72?", "ru"),
                                            ("What is the total NVLink bandwidth of a GB200 NVL72?", "en")])
def test_a_systems_total_is_not_answered_with_a_figure_defined_per_gpu(table, question, lang):
    # the domain's total ("每 GPU 900GB/s，总 32.4TB/s"), not the 900 GB/s per GPU
    for asked, asked_lang in ((question, lang), ("What is the total NVLink bandwidth of one GB200 NVL72?", "en")):
        query, result = lookup(table, asked, asked_lang)  # one system is still the whole system
        assert query.attribute == "total_gpu_bandwidth" and [e.value for e in result.entries] == [32.4], asked
    for question, lang in (("What is the NVLink bandwidth per GPU of the GB200 NVL72?", "en"),
                           ("What is the total NVLink bandwidth of a single GPU in a GB200 NVL72?", "en"),
                           ("What is the total per-GPU NVLink bandwidth of a GB200 NVL72?", "en"),
                           ("GB200 NVL72 单卡 NVLink 总带宽", "zh"),
                           ("Какая суммарная пропускная способность NVLink одного GPU в GB200 NVL72?", "ru"),
                           ("NVLink 3.0 每个 GPU 的总带宽是多少？", "zh")):  # one GPU's total is the per-GPU figure
        query, result = lookup(table, question, lang)
        assert query.attribute == "gpu_bandwidth" and result.found, question
    # a figure said per hour is no part of the system: the instance's total price per hour is its price
    for question, lang in (("What is the total price per hour of a DL1 instance?", "en"), ("DL1 实例每小时总价是多少？", "zh")):
        query, result = lookup(table, question, lang)
        assert query.attribute == "price_per_hour" and [e.value for e in result.entries] == [13.11], question


@pytest.mark.parametrize("question, lang", [
    ("Which accelerator has the highest MAMF efficiency, i.e. achieved TFLOPS relative to the theoretical peak?", "en"),
    ("Какой ускоритель показал самую высокую эффективность в замерах MAMF для BF16 (отношение достигнутых TFLOPS к "
     "теоретическим)?", "ru"),
    ("哪款加速器的 MAMF 效率最高（实测 TFLOPS 与理论峰值之比）？", "zh"),  # 之比 is a ratio, not "A 与 B 比"
])
def test_a_share_asked_with_what_it_is_of_asks_the_share(table, question, lang):
    query, result = lookup(table, question, lang)
    assert query.attribute == "matmul_efficiency" and result.answer.best == "intel-gaudi2", query
    # the figures themselves asked: the measured TFLOPS
    query, _ = lookup(table, "What TFLOPS does the H100 get in MAMF?", "en")
    assert query.attribute == "mamf"
    # said without a word of efficiency, a share of the peak is still the one share of the peak the table has
    for question, lang in (("What is the H100's MAMF relative to its theoretical peak?", "en"),
                           ("Каково отношение достигнутых TFLOPS к теоретическим у H100?", "ru"),
                           ("H100 的 MAMF 占峰值的比例", "zh")):
        query, result = lookup(table, question, lang)
        assert query.attribute == "matmul_efficiency" and 80.3 in [e.value for e in result.entries], question
    # a word of relation that asks no share of the peak leaves the cues as they are
    query, _ = lookup(table, "How does H100 efficiency compare relative to the A100 in memory bandwidth?", "en")
    assert query.attribute == "memory_bandwidth"
