"""Questions that ask by how much, relations stated in improvement columns and prose, and how sloppy wording is
still read: cue words split by hyphens or brackets, a name a letter short, a series asked for, a chip asked of the instance built of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.corpus import load_corpus, parse_article
from kb.response import AskResponse, ComparisonAnswer, SpecEntry, one_sided, spec_leads
from kb.specs.present import lookup
from kb.specs.prose import read_prose
from kb.specs.questions import understand
from kb.textnorm import plain_words

HEAD = ("---\nid: test-article\ntitle: {title}\nlang: {lang}\nsource: {{url: 'https://example.com/a', raw_file: a.en.md}}\n"
        "publisher: Example\nlicense: CC-BY-4.0\n---\n")


def test_an_improvement_factor_column_states_a_relation_per_row(table):
    hbm = table.relation_between("aws-trainium", "aws-trainium2", "memory_bandwidth")
    assert (hbm.subject, hbm.object, hbm.direction, hbm.factor) == ("aws-trainium2", "aws-trainium", "higher", "3.6x")
    assert "| HBM Bandwidth (TB/sec) | 0.8 | 2.9 | 3.6x |" in hbm.source.quote
    # one row per number format: the FP8 row answers FP8, the BF16 row a question that names none
    assert table.relation_between("aws-trainium2", "aws-trainium", "peak_compute", "FP8").factor == "6.7x"
    assert table.relation_between("aws-trainium2", "aws-trainium", "peak_compute").factor == "3.4x"
    # a row whose cell is no plain factor (">1x (Benefit DMA-size dependent)") states none
    assert not [r for r in table.relations if "DMA barriers" in r.source.quote]


@pytest.mark.parametrize("question, lang, start", [
    ("Во сколько раз Trainium2 быстрее первого Trainium в FP8?", "ru", "AWS Trainium2: в 6,7 раза выше, чем AWS Trainium"),
    ("Trainium3 的 HBM 带宽比 Trainium2 提升了多少倍？", "zh", "AWS Trainium3：是 AWS Trainium2 的1.7倍"),
    ("By what factor does Trainium2 improve HBM bandwidth over the first-gen Trainium?", "en",
     "AWS Trainium2: 3.6× higher than AWS Trainium"),
    # a speedup or a multiplier is a factor asked by a noun: the column's 6.7x, not the values' own 6.8
    ("trainium2 vs the original trainium, what's the FP8 speedup factor?", "en", "AWS Trainium2: 6.7× higher"),
    ("What is the speedup of Trainium2 over Trainium in FP8?", "en", "AWS Trainium2: 6.7× higher"),
    ("Какое ускорение у Trainium2 по сравнению с Trainium в FP8?", "ru", "AWS Trainium2: в 6,7 раза выше"),
    ("Trainium2 相比 Trainium 的 FP8 加速比是多少？", "zh", "AWS Trainium2：是 AWS Trainium 的6.7倍"),
])
def test_a_question_asking_by_how_much_leads_with_the_stated_factor(table, question, lang, start):
    query, spec = lookup(table, question, lang)
    assert query.kind == "comparison" and query.ratio
    assert spec.answer.text.startswith(start), spec.answer.text
    assert spec.relation is not None and spec.answer.relation == spec.relation.quote  # its row is cited


def test_a_word_for_accelerator_or_a_limiting_factor_asks_no_speedup(table):
    # 加速卡 and ускоритель are accelerators, not speed; "大几倍" and "больше" ask no compute
    for question, lang in (("H100 加速卡比 A100 大几倍？", "zh"), ("Во сколько раз ускоритель Trainium2 больше, чем Trainium?", "ru")):
        query, _ = lookup(table, question, lang)
        assert query is None or query.attribute != "peak_compute", question
    query, _ = lookup(table, "Is memory bandwidth the limiting factor for the H100 vs the A100?", "en")
    assert query.attribute == "memory_bandwidth" and not query.ratio
    # a kind of thing named "speedup" is no speedup asked for
    assert lookup(table, "What speedup techniques does Trainium2 support compared to Trainium?", "en")[0] is None
    # 加速了多少 asks by how much, as 快了多少 does
    query, spec = lookup(table, "Trainium2 相比 Trainium 加速了多少？", "zh")
    assert query.ratio and spec.answer.text.startswith("AWS Trainium2：是 AWS Trainium 的3.4倍")


def test_without_a_fitting_stated_factor_the_values_own_ratio_leads(table):
    # the source's "6x faster for fp8" does not fit the table's 1,979 against 624 TFLOPS: the values speak
    _, spec = lookup(table, "How much faster is an H100 than an A100 for fp8?", "en")
    assert spec.answer.text.startswith("NVIDIA H100 SXM is 3.17–3.21× NVIDIA A100 SXM") and "6×" not in spec.answer.text
    _, spec = lookup(table, "how much less memory does an A100 have than an H200?", "en")
    assert spec.answer.text.startswith("NVIDIA A100 SXM is 43% lower than NVIDIA H200 SXM")
    # "во сколько раз меньше" asks for the factor, not the share
    query, spec = lookup(table, "Во сколько раз у A100 меньше памяти, чем у H200?", "ru")
    assert query.ratio == "times" and spec.answer.text.startswith("У NVIDIA A100 SXM в 1,76 раза меньше")
    # asked which, not by how much: the usual comparison
    _, spec = lookup(table, "Which has more HBM bandwidth, Trainium2 or Trainium?", "en")
    assert spec.answer.text.startswith("AWS Trainium2 is higher")


def test_a_factor_that_goes_on_in_another_precision_keeps_both_sides(project_settings):
    from kb.specs.vocabulary import Vocabulary

    vocabulary = Vocabulary.load(project_settings.corpus_dir / "specs")
    article = parse_article(HEAD.format(title="Vendors", lang="en") + "\n- H100 - 2-3x faster than A100 (half precision), "
                            "6x faster for fp8, has been available.\n", "en/test-article.md")
    _, _, relations, _ = read_prose(article, vocabulary, Path("corpus"))
    assert [(r.subject, r.object, r.factor, r.dtype) for r in relations] == [
        ("nvidia-h100-sxm", "nvidia-a100-sxm", "2-3x", None), ("nvidia-h100-sxm", "nvidia-a100-sxm", "6x", "FP8")]
    article = parse_article(HEAD.format(title="Roofline", lang="zh") + "\nB200 的 FLOPs 是 H100 的 2.25 倍。"
                            "A100 的 FLOPs 是 H100 的 30%。\n", "zh/test-article.md")
    _, _, relations, _ = read_prose(article, vocabulary, Path("corpus"))
    assert [(r.subject, r.object, r.factor, r.direction) for r in relations] == [
        ("nvidia-b200-sxm", "nvidia-h100-sxm", "2.25x", "higher")]  # a share ("的 30%") is no multiple
    # a factor that goes on without a number format of its own is no figure of the two: "2x faster with sparsity"
    article = parse_article(HEAD.format(title="Vendors", lang="en") + "\n- H100 - 3x faster than A100 (half precision), 2x faster "
                            "with sparsity.\n", "en/test-article.md")
    _, _, relations, _ = read_prose(article, vocabulary, Path("corpus"))
    assert [r.factor for r in relations] == ["3x"]


def test_a_comparison_one_side_of_which_has_no_value_lets_the_passage_lead():
    answer = ComparisonAnswer(kind="comparison", attribute="peak_compute", entities=("a", "b"), lang="en", higher=None,
                              lower=None, comparable=False, difference=None, ratio=None, unit="TFLOPS",
                              text="No peak compute for a in the corpus, so it cannot be compared.")
    one = SpecEntry.model_construct(entity="b", value=383.0)
    assert one_sided(answer, (one,))
    response = AskResponse.model_construct(spec_answer=answer, specs=(one,))
    assert not spec_leads(response)
    both = (one, SpecEntry.model_construct(entity="a", value=100.0))
    assert not one_sided(answer, both) and spec_leads(AskResponse.model_construct(spec_answer=answer, specs=both))


def test_cue_words_split_by_a_hyphen_or_brackets_are_still_cues(table):
    assert plain_words("L2-кэша (SMEM)")[0] == "L2 кэша SMEM"
    assert understand("какой объём L2-кэша у B200?", "ru", table).attribute == "l2_cache"
    assert understand("сколько shared memory (SMEM) на один SM у A100", "ru", table).attribute == "smem_per_sm"
    _, spec = lookup(table, "сколько shared memory (SMEM) на один SM у A100", "ru")
    assert [(e.value, e.unit) for e in spec.entries] == [(192, "kB")]


def test_a_term_and_its_gloss_side_by_side_name_one_thing_the_specific_one(table):
    # a term glossed in brackets, in either order: the generic memory word does not make it an HBM question
    for question, lang in [("Каков объём SBUF (on-chip памяти) у чипа Trainium2?", "ru"),
                           ("What is the SBUF (on-chip memory) of Trainium2?", "en"),
                           ("Trainium2 的片上缓存（SBUF）有多大？", "zh"), ("Trainium2 的片上缓存 SBUF 有多大？", "zh"),
                           ("How much memory (SBUF) does Trainium2 have?", "en")]:
        assert understand(question, lang, table).attribute == "sbuf_capacity", question
    # the same attribute inside and outside: kept
    assert understand("What is the memory (HBM) bandwidth of the H100?", "en", table).attribute == "memory_bandwidth"
    assert understand("How much memory (HBM) does the H100 have?", "en", table).attribute == "memory_capacity"
    # "shared memory" is what SMEM stands for, in every language, and "每个 SM" has its measure word
    for question, lang in [("How much shared memory does the H100 have?", "en"),
                           ("Сколько разделяемой памяти у H100?", "ru"), ("H100 的共享内存有多大？", "zh")]:
        assert understand(question, lang, table).attribute == "fast_onchip_memory"
    assert understand("H100 每个 SM 的共享内存（SMEM）容量是多少？", "zh", table).attribute == "smem_per_sm"
    # a pool of memory shared between chips is no SMEM
    for question, lang in [("What is the size of the shared memory pool of the GB200 NVL72?", "en"),
                           ("GB200 NVL72 的共享内存池有多大？", "zh")]:
        assert understand(question, lang, table).attribute == "memory_pool", question


def test_cue_words_match_where_they_mean_it(table):
    # a short Russian stem starts a word: "состоит" is no price ("стоит"), "процент" no "цена"
    assert understand("Из скольких чипов состоит полный под TPU v5p?", "ru", table).attribute == "pod_size"
    assert understand("Сколько стоит час DL1?", "ru", table).attribute == "price_per_hour"
    # any case of "сколько" asks a count: "из скольких", "до скольких"
    assert understand("До скольких чипов масштабируется под TPU v5p?", "ru", table).attribute == "pod_size"
    # "per GPU" alone is a scope, not the per-GPU bandwidth; beside a word of bandwidth it is that
    query = understand("Which has more HBM capacity per GPU, the MI300X or the H200 SXM?", "en", table)
    assert (query.kind, query.attribute) == ("comparison", "memory_capacity")
    for question, lang in [("What is the NVLink bandwidth per GPU on the H100?", "en"), ("H100 每个 GPU 的带宽是多少", "zh"),
                           ("какая пропускная способность на один GPU у B200?", "ru")]:
        assert understand(question, lang, table).attribute == "gpu_bandwidth", question
    # a colloquial why asks a reason, not a figure
    assert understand("为啥 B200 算力涨了，跨节点做数据并行反而更难达到计算受限？", "zh", table) is None


def test_an_acronym_beside_a_word_of_its_dimension_names_the_kind_asked(table):
    # "SBUF memory" is the SBUF, not the HBM, though "memory" is the longer cue; of another dimension the
    # head still decides ("peak clock" asks for a clock)
    for question, lang in [("How much SBUF memory does Trainium2 have?", "en"),
                           ("Сколько SBUF-памяти на одном чипе Trainium2?", "ru")]:
        assert understand(question, lang, table).attribute == "sbuf_capacity"
    # a cue inside the word the acronym overrules goes with it: "memory" of "SBUF on-chip memory" is no HBM
    assert understand("how much SBUF on-chip memory does one Trainium2 chip have?", "en", table).attribute == \
        "sbuf_capacity"
    # a term glossed in brackets and joined to "per SM" by a verb is still the shared memory per SM
    assert understand("Сколько shared memory (SMEM) приходится на один SM в A100?", "ru", table).attribute == \
        "smem_per_sm"
    assert understand("How much L2 cache memory does the H100 have?", "en", table).attribute == "l2_cache"
    assert understand("How much HBM memory does the H100 have?", "en", table).attribute == "memory_capacity"
    # the modifier before the noun in Russian, as in "хост-память", names the host's memory as "память хоста" does
    assert understand("сколько хост памяти у Trn2 UltraServer", "ru", table).attribute == "host_memory"
    assert understand("Trainium2 芯片的 SBUF 片上缓存容量是多少？", "zh", table).attribute == "sbuf_capacity"
    # two words of one dimension as long as each other: the one the table has values of for what is asked
    question = "у какого узла выше исходящая пропускная способность сети: 8xH100 или GB200 NVL72?"
    assert understand(question, "ru", table).attribute == "node_egress_bandwidth"
    # the modifier of a cue of another dimension is no kind of it: "peak clock" asks for a clock
    assert understand("What is the peak clock of the MI250?", "en", table).attribute == "clock"


def test_chinese_is_not_mended_by_sound_or_swapped_characters(table):
    # ordinary words would become cue words: "适中" sounds like "时钟", "支撑" like "制程", "可能性" holds "能性"
    for text in ("h100 价格适中吗？", "h100 能支撑多大的模型？", "存内计算的可能性", "mi325x 现存多大？"):
        assert table.vocabulary.mend_spelling(text) == text


def test_a_name_of_letters_a_letter_short_is_mended_and_a_comparative_compares(table):
    assert table.vocabulary.mend_names("the first gen trainum") == "the first gen Trainium"
    assert table.vocabulary.mend_names("a gaudy chart") == "a gaudy chart"  # under six letters: a word
    query, spec = lookup(table, table.vocabulary.mend_names("does trainum2 have more sbuf then the first gen trainum?"),
                         "en")
    assert query.kind == "comparison" and spec.answer.higher == "aws-trainium2"


def test_a_series_without_a_figure_shows_its_members_and_a_chip_is_asked_of_its_instance(table):
    _, spec = lookup(table, "how much HBM does the MI300 have?", "en")
    assert {e.entity for e in spec.entries} == {"amd-mi300x"} and spec.entries[0].value == 192
    _, spec = lookup(table, "trn2 HBM per chip?", "en")
    assert {(e.entity, e.value) for e in spec.entries} == {("aws-trainium2", 96)}
    _, spec = lookup(table, "how much HBM does a trn2.48xlarge have", "en")
    assert [(e.entity, e.value, e.unit) for e in spec.entries] == [("aws-trn2-48xlarge", 1536, "GiB")]


def test_a_torus_shape_in_a_table_is_a_count_of_chips(table):
    from kb.specs.tables import parse_cell

    cell = parse_cell("16x20x28")
    assert (cell.value, cell.unit, cell.detail) == (8960, "chips", "16x20x28")
    assert [(f.value, f.value_text, f.scope) for f in table.about("google-tpu-v5p", "pod_size")] == [(8960, "16x20x28", None)]
    for question, lang, attribute, value in (("一个完整的 TPU v5p pod 有多少颗芯片？", "zh", "pod_size", 8960),
                                             ("How many v5e chips hang off a single host?", "en", "host_size", 8),
                                             ("скока чипов висит на одном хосте у TPU v5e?", "ru", "host_size", 8)):
        query, spec = lookup(table, question, lang)
        assert query.attribute == attribute and [e.value for e in spec.entries] == [value], question
    # a chip's own figure asked of the chips of a pod is still that figure
    assert understand("how much HBM does each chip in a v5p pod have?", "en", table).attribute == "memory_capacity"


def test_two_capitalized_words_the_corpus_writes_together_are_its_terms(project_settings):
    from kb.coverage import corpus_words, known_terms

    words = corpus_words(a.body for a in load_corpus(project_settings.corpus_dir))
    assert known_terms("Should I plan around Intel Jaguar Shores for next year's cluster?", words, "en")
    # capitalized because they start a sentence or a title, or never written by the corpus: no name
    for question in ("Who won the World Cup in 2018?", "How Does yeast make bread rise?",
                     "What Is the best pizza in New York?"):
        assert not known_terms(question, words, "en"), question


def test_each_with_the_measure_word_of_cards_asks_per_gpu(table):
    query, spec = lookup(table, "8卡节点里每张 GPU 的出口带宽，H100 和 B200 哪个高？", "zh")
    assert query.attribute == "gpu_bandwidth" and spec.answer.higher == "nvidia-b200-sxm"


def test_a_relation_to_a_class_of_products_answers_an_entity_without_a_value(table):
    gaudi = table.relation_of("intel-gaudi", "price_performance")
    assert (gaudi.object, gaudi.object_text, gaudi.factor, gaudi.direction) == ("", "最新的GPU实例", "40%", "higher")
    assert table.relation_of("aws-dl1", "price_performance") == gaudi  # the instance is built of Gaudi
    for question, lang in (("How much better is Gaudi's price-performance than GPU instances?", "en"),
                           ("Насколько у DL1 лучше цена/производительность, чем у GPU-инстансов?", "ru")):
        query, spec = lookup(table, question, lang)
        assert query.attribute == "price_performance" and spec.found and not spec.missing, question
        assert spec.answer.text.startswith("Intel Gaudi: ") and "40%" in spec.answer.text
        assert spec.answer.relation == spec.relation.quote and "性价比高出40%" in spec.relation.quote
    # a class is never one side of a comparison of two entities, and an entity no sentence relates has nothing
    assert table.relation_between("intel-gaudi", "aws-p4d", "price_performance") is None
    _, spec = lookup(table, "what is the price-performance of the H100?", "en")
    assert spec.missing and spec.answer.relation is None


@pytest.mark.parametrize(("question", "lang"), [
    ("Насколько Gaudi выгоднее GPU-инстансов?", "ru"),
    ("Is Gaudi cheaper than GPU instances?", "en"),
    ("Gaudi比GPU实例划算多少？", "zh"),
])
def test_a_product_set_against_a_class_is_answered_by_the_relation_the_source_states(table, question, lang):
    # the product has a price (the DL1's), the class none: the stated price-performance against GPU instances leads,
    # the product's own value after it
    query, spec = lookup(table, question, lang)
    assert query.attribute == "price_per_hour" and spec.answer.attribute == "price_performance"
    assert "40%" in spec.answer.text and "性价比高出40%" in spec.relation.quote
    assert [e.value for e in spec.entries] == [13.11] and spec.answer.text.index("40%") < spec.answer.text.index("13")
    # naming a class with nothing set against it asks the product's own value (a plural noun is no comparative)
    for plain, plain_lang in (("Gaudi GPU price per hour?", "en"), ("Gaudi 和 GPU 实例的价格", "zh"),
                              ("Какова цена Gaudi для обучения моделей на GPU-инстансах?", "ru")):
        _, spec = lookup(table, plain, plain_lang)
        assert spec.answer.attribute == "price_per_hour" and any(e.value == 13.11 for e in spec.entries), plain


def test_a_paragraph_that_names_nothing_is_about_the_articles_subject_surely_only_when_it_refers_back(table):
    """A sentence naming no product is read as about the one the article's title names: unsurely (a candidate,
    quoted, never stated as the table's value), unless it refers back to it ("the package", "the processor")."""
    def read(sentence):
        article = parse_article(HEAD.format(title="AMD Instinct MI250 microarchitecture", lang="en") + "\n" +
                                sentence + "\n", "en/test-article.md")
        facts, candidates, _, _ = read_prose(article, table.vocabulary, Path("corpus"))
        # the bandwidth is what is about the subject here ("four links" is a count read beside it)
        return ({(f.entity, f.attribute, f.value) for f in facts if f.attribute == "die_link_bandwidth"},
                {(c.entity, c.attribute, c.value) for c in candidates if c.attribute == "die_link_bandwidth"})
    unsure = read("Two GCDs are connected by four links, giving 200 GB/sec peak transfer bandwidth between the two GCDs.")
    assert unsure == (set(), {("amd-mi250", "die_link_bandwidth", 200)})
    sure = read("The two GCDs in the package are connected by four links, giving 200 GB/sec peak transfer "
                "bandwidth between the two GCDs.")
    assert sure == ({("amd-mi250", "die_link_bandwidth", 200)}, set())
    # the corpus's own sentence refers back to the package: its figure answers as the table's value
    _, spec = lookup(table, "What is the peak bandwidth between the two GCDs of an MI250?", "en")
    assert not spec.missing and [(e.entity, e.value, e.basis) for e in spec.entries] == [
        ("amd-mi250", 200, None), ("amd-mi250", 400, "bidirectional")]  # the same said for both directions


def test_how_much_faster_one_named_thing_is_than_another_uses_the_compute_relation_the_corpus_states(table):
    for question, lang, start in (("H100 比 A100 快几倍？", "zh", "NVIDIA H100 SXM：是 NVIDIA A100 SXM 的2–3倍"),
                                  ("Во сколько раз H100 быстрее A100?", "ru", "NVIDIA H100 SXM: в 2–3 раза выше")):
        query, spec = lookup(table, question, lang)
        assert query.attribute == "peak_compute" and spec.answer.text.startswith(start), question
        assert "2-3x faster than A100" in spec.relation.quote
    # asked the other way, how much slower the slower one is: the same relation, the slower one named first
    for question, lang, start in (("A100 比 H100 慢多少？", "zh", "NVIDIA A100 SXM 更低：NVIDIA H100 SXM 比它高2–3倍"),
                                  ("How much slower is the A100 than the H100?", "en",
                                   "NVIDIA A100 SXM is lower: NVIDIA H100 SXM is 2–3× higher")):
        query, spec = lookup(table, question, lang)
        assert query.attribute == "peak_compute" and spec.answer.text.startswith(start), (question, spec.answer.text)
    # with no relation stated between them, a word of speed alone names no attribute; a word of size is no speed
    assert understand("Во сколько раз Gaudi2 быстрее A100?", "ru", table) is None
    assert understand("H100 比 A100 大几倍", "zh", table) is None
    # "大小多少" asks for two sizes, not by how much one exceeds the other
    query = understand("H100 和 H200 显存大小多少", "zh", table)
    assert query.attribute == "memory_capacity" and not query.ratio


def test_a_chinese_count_asked_with_a_measure_word_is_never_answered_with_an_amount(table):
    """"几条 NVLink" counts links: of the cued attributes the count is read, never the per-GPU NVLink bandwidth;
    where none counts, no spec reading, and the passage that counts them answers."""
    assert understand("H100 每个 GPU 有几条 NVLink？", "zh", table).attribute == "link_count"
    assert understand("TPU v5e 有多少条 ICI 链路？", "zh", table).attribute == "link_count"
    assert understand("H100 有几块 HBM 带宽？", "zh", table) is None
    assert understand("H100 有多少个 SM", "zh", table).attribute == "sm_count"
    assert understand("Trn1 有几个 NeuronCore", "zh", table).attribute == "neuron_cores"
    assert understand("H100 的 NVLink 带宽是多少", "zh", table).attribute == "gpu_bandwidth"
    # a measure word before a unit or money asks for an amount of it, no count
    assert understand("H100 的显存有多少个 GB", "zh", table).attribute == "memory_capacity"
    assert understand("H100 的 NVLink 带宽是几个 TB/s", "zh", table).attribute == "gpu_bandwidth"
    assert understand("trn1.32xlarge 每小时几块钱", "zh", table).attribute == "price_per_hour"


def test_the_cpus_ram_is_host_memory_and_never_the_accelerators_hbm(table):
    for question, lang in (("How much system memory does a trn2.48xlarge have?", "en"),
                           ("Сколько оперативной памяти у trn2.48xlarge?", "ru"), ("trn2.48xlarge 的系统内存多大", "zh")):
        query, spec = lookup(table, question, lang)
        assert query.attribute == "host_memory" and spec.found, question
    # GH200's Grace CPU memory is not in the table: say so, and show no HBM figure in its place
    query, spec = lookup(table, "Сколько оперативной памяти у Grace CPU в GH200?", "ru")
    assert query.attribute == "host_memory" and spec.missing
    assert not [e for e in spec.entries if e.value is not None and e.attribute != "host_memory"]
    # RAM said of a GPU or a graphics card is the accelerator's own memory
    for question, lang in (("How much GPU RAM does the H100 have?", "en"),
                           ("Сколько оперативной памяти у видеокарты H100?", "ru")):
        query, spec = lookup(table, question, lang)
        assert query.attribute == "memory_capacity" and spec.found, question


@pytest.mark.parametrize(("question", "lang", "winner", "factor"), [
    ("Gaudi vs A100 for ResNet-50 training: which one is cheaper per image?", "en", "intel-gaudi", "46%"),
    ("Что дешевле в ResNet-50 по стоимости одного изображения: Gaudi или V100?", "ru", "intel-gaudi", "61%"),
    # asked the other way round, the costlier one is named
    ("跑 ResNet50 训练，按每张图片成本算，Gaudi 和 V100 哪个更贵", "zh", "nvidia-v100", "61%"),
])
def test_a_cost_of_work_done_is_its_own_attribute_stated_by_relation(table, question, lang, winner, factor):
    # "Gaudi处理每张图片的成本要比A100低46%，更是比V100低了61%": the cue of the cost per image, not the "成本" inside
    # it that names a price per hour, is the attribute of both relations
    assert table.relation_between("intel-gaudi", "nvidia-a100-sxm", "cost_per_sample").factor == "46%"
    query, spec = lookup(table, question, lang)
    assert query.attribute == "cost_per_sample" and query.kind == "comparison"
    assert factor in spec.answer.text.replace("％", "%")
    named = table.vocabulary.entities[winner].display_name(lang)
    loser = next(e for e in query.entities if e != winner)
    assert spec.answer.text.index(named) < spec.answer.text.index(table.vocabulary.entities[loser].display_name(lang))


def test_a_machine_compared_with_a_chip_is_not_comparable_and_its_own_chip_is_compared_after(table):
    # a trn2.48xlarge's bandwidth is per instance, the Gaudi3's per chip: both are said, the instance's first
    query, spec = lookup(table, "trn2 или gaudi3 - у кого HBM шустрее по пропускной?", "ru")
    assert query.kind == "comparison" and isinstance(spec.answer, ComparisonAnswer)
    text = spec.answer.text
    assert text.startswith("Несравнимо") and "AWS Trainium2" in text and text.index("Несравнимо") < text.index("3,7")
    assert spec.answer.higher == "intel-gaudi3" and spec.answer.lower == "aws-trainium2"
    _, spec = lookup(table, "Does trn2.48xlarge have more memory bandwidth than the H100?", "en")
    assert spec.answer.text.startswith("Not comparable") and "Chip against chip" in spec.answer.text
    # two machines are never compared by their chips
    _, spec = lookup(table, "Trn2 UltraServer vs GB200 NVL72: which has more FP8 compute?", "en")
    assert "Chip against chip" not in spec.answer.text
