"""The fact table: extraction from tables and prose, typed values, disagreement, questions and answers."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from kb.corpus import load_corpus
from kb.errors import SpecError
from kb.specs.facts import FactTable
from kb.specs.lines import members
from kb.specs.model import loose_hyphens, loose_measure_words
from kb.specs.phrases import fmt_range
from kb.specs.present import _ranked_by_relation, answer_spec, lookup
from kb.specs.questions import SpecQuery, understand
from kb.specs.tables import parse_cell
from kb.specs.units import canonical_unit, convert, numbers_in, unit_name


@pytest.fixture(scope="module")
def articles(project_settings):
    return load_corpus(project_settings.corpus_dir)


@pytest.fixture(scope="module")
def table(project_settings, articles) -> FactTable:
    return FactTable.build(project_settings.corpus_dir, articles)


def _facts(table, entity, attribute, **match):
    return [f for f in table.about(entity, attribute) if all(getattr(f, k) == v for k, v in match.items())]


def test_every_fact_quotes_its_article_at_its_offsets(table, articles):
    bodies = {a.meta.id: a.body for a in articles}
    assert len(table.facts) > 400
    for fact in table.facts:
        src = fact.source
        assert bodies[src.article_id][src.char_start:src.char_end] == src.quote
        assert fact.value_text in src.quote
        assert src.location.split(":")[0].startswith("corpus/")


def test_table_cells_become_typed_facts(table):
    gaudi3 = _facts(table, "intel-gaudi3", "memory_capacity")
    assert [(f.value, f.unit, f.source.origin) for f in gaudi3] == [(128.0, "GB", "table")]
    assert "Intel Gaudi3" in gaudi3[0].source.quote and "128" in gaudi3[0].source.quote
    # "X" unsupported, "V" supported without a number, "?" unknown: never numbers
    assert _facts(table, "amd-mi300x", "peak_compute", dtype="FP4")[0].status == "unsupported"
    assert _facts(table, "intel-gaudi2", "peak_compute", dtype="FP32")[0].status == "unpublished"
    assert _facts(table, "google-tpu-v7x", "peak_compute", dtype="FP32")[0].status == "unknown"
    assert all(f.value is None for f in table.facts if f.status != "value")
    # transposed tables (entities in the header) and units from labels
    trn3 = _facts(table, "aws-trainium3", "memory_bandwidth")
    assert (trn3[0].value, trn3[0].unit) == (4.9, "TB/s")
    # 9.0e11 bytes/s is read as 0.9 TB/s; "990T" under a FLOPs/s header is 990 TFLOPS
    v3 = _facts(table, "google-tpu-v3", "memory_bandwidth")[0]
    assert (v3.value, v3.unit, v3.value_text) == (0.9, "TB/s", "9.0e11")
    h100 = [f for f in _facts(table, "nvidia-h100-sxm", "peak_compute") if f.value_text == "990T"]
    assert h100 and h100[0].unit == "TFLOPS" and h100[0].value == 990


def test_units_keep_gb_and_gib_apart():
    assert canonical_unit("GiB") == "GiB" and canonical_unit("GB") == "GB"
    assert convert(96, "GiB", "GB") == pytest.approx(103.079, rel=1e-4)
    assert canonical_unit("TBps") == "TB/s" and canonical_unit("TB/sec") == "TB/s"
    assert canonical_unit("Gbps") == "Gbps" and canonical_unit("GBps") == "GB/s"  # bits and bytes
    assert convert(400, "Gbps", "GB/s") == 50
    assert [n.value for n in numbers_in("1,299 FP8; 13,11 долл.; 542亿个")] == [1299, 13.11, 5.42e10]
    assert parse_cell("Up to 16 chips").bound == "at_most"
    assert parse_cell("~5.5TB/s").approx and parse_cell("[?]963").status == "unknown"


def test_lost_values_are_unknown_never_numbers(table):
    for entity in ("nvidia-a100-sxm", "intel-gaudi"):
        facts = table.about(entity, "resnet50_throughput")
        assert [f.status for f in facts] == ["unknown"]
        assert facts[0].value is None and "[?]" in facts[0].value_text and facts[0].note
    assert not [f for f in table.facts if f.is_number and "[?]" in f.value_text]


def test_disagreement_is_kept_and_flagged(table):
    b200 = _facts(table, "nvidia-b200-sxm", "memory_capacity")
    assert sorted(f.value for f in b200) == [180, 192] and all(f.conflict for f in b200)
    assert {f.source.article_id for f in b200} == {"ml-engineering-accelerator-specs", "scaling-book-cn-gpus"}
    trn2 = _facts(table, "aws-trainium2", "memory_capacity")
    # one HBM figure printed as GB by one source and GiB by another is one statement (JEDEC writes 2^30 as GB)
    assert {f.unit for f in trn2} == {"GB", "GiB"} and not any(f.conflict for f in trn2)
    # the same figure at another precision is agreement (362 and 362.1); a whole number is exact to its last
    # digit, so 190 and 191 are two statements: the disagreement the source catalogue itself notes
    assert not any(f.conflict for f in table.about("amd-mi250", "peak_compute"))
    trainium = [f for f in table.about("aws-trainium", "peak_compute") if "bf16" in f.dtypes]
    assert {f.value for f in trainium} >= {190, 191} and all(f.conflict for f in trainium if f.value in (190, 191))


def test_the_disagreements_the_source_catalogue_notes_are_flagged(table):
    """corpus/sources/catalog.yaml notes three: Trainium 190 / 191 TFLOPS (above), TPU v5p HBM bandwidth
    2.5 (prose) against 2.8 TB/s (table), and Gaudi figures (2.45 TB/s) older than the table's Gaudi2 2.46."""
    v5p = _facts(table, "google-tpu-v5p", "memory_bandwidth")
    assert {2.5, 2.8} <= {f.value for f in v5p}
    assert all(f.conflict for f in v5p if f.value in (2.5, 2.8))
    gaudi2 = _facts(table, "intel-gaudi2", "memory_bandwidth")
    assert {2.45, 2.46} <= {f.value for f in gaudi2} and all(f.conflict for f in gaudi2 if f.value in (2.45, 2.46))


@pytest.mark.parametrize("question, lang, kind, entities, attribute", [
    ("How much HBM does each Gaudi have?", "en", "lookup", ("intel-gaudi",), "memory_capacity"),
    ("Trn1的FP32算力是多少？", "zh", "lookup", ("aws-trn1",), "peak_compute"),
    ("Сколько транзисторов в A100?", "ru", "lookup", ("nvidia-a100-sxm",), "transistor_count"),
    ("Сколько памяти у Гауди 2?", "ru", "lookup", ("intel-gaudi2",), "memory_capacity"),
    # a Russian word of a name declines wherever it stands, its final vowel too
    ("Сколько памяти у Трейниума 2?", "ru", "lookup", ("aws-trainium2",), "memory_capacity"),
    ("Какая пропускная способность памяти у Инферентии 2?", "ru", "lookup", ("aws-inferentia2",), "memory_bandwidth"),
    ("Какая пропускная способность памяти у Trainium3?", "ru", "lookup", ("aws-trainium3",), "memory_bandwidth"),
    ("which is cheaper, eight Gaudi or a P4d?", "en", "comparison", ("intel-gaudi", "aws-p4d"), "price_per_hour"),
    ("MI300X和H100哪个内存更大？", "zh", "comparison", ("amd-mi300x", "nvidia-h100-sxm"), "memory_capacity"),
    ("which has the most HBM", "en", "superlative", (), "memory_capacity"),
    # a precision and a word for speed, no other cue: the peak compute in that precision
    ("Trainium3 vs Trainium2 - which is faster at FP8?", "en", "comparison", ("aws-trainium3", "aws-trainium2"),
     "peak_compute"),
    ("Что быстрее в BF16: H100 или MI300X?", "ru", "comparison", ("nvidia-h100-sxm", "amd-mi300x"), "peak_compute"),
    # or a word asking how powerful
    ("у кого FP64 мощнее, B300 или B200?", "ru", "comparison", ("nvidia-b300-sxm", "nvidia-b200-sxm"), "peak_compute"),
    ("做双精度计算，B300 和 B200 哪个更强？", "zh", "comparison", ("nvidia-b300-sxm", "nvidia-b200-sxm"), "peak_compute"),
    # or two things compared in a precision, with no other cue
    ("for double precision sims, is a B300 or a B200 the better pick?", "en", "comparison",
     ("nvidia-b300-sxm", "nvidia-b200-sxm"), "peak_compute"),
    ("H100 или A100 — что лучше для FP16?", "ru", "comparison", ("nvidia-h100-sxm", "nvidia-a100-sxm"), "peak_compute"),
    ("H100 还是 A100 的 FP16 更好？", "zh", "comparison", ("nvidia-h100-sxm", "nvidia-a100-sxm"), "peak_compute"),
    # what is achieved in practice, not the datasheet's peak
    ("What are the real-world BF16 TFLOPS of the H100?", "en", "lookup", ("nvidia-h100-sxm",), "mamf"),
    ("how many tflops does mi300x reach in practice", "en", "lookup", ("amd-mi300x",), "mamf"),
    ("сколько TFLOPS у MI300X на практике?", "ru", "lookup", ("amd-mi300x",), "mamf"),
    # a unit alone names no attribute beside a named one of its dimension; what is measured in a named
    # measurement is what is asked
    ("what TFLOPS does the H100 get in the MAMF benchmark?", "en", "lookup", ("nvidia-h100-sxm",), "mamf"),
    ("which accelerator had the lowest efficiency in the bf16 maximum achievable matmul flops (MAMF) measurements?",
     "en", "superlative", (), "matmul_efficiency"),
    ("Какая реальная производительность MI300X в BF16?", "ru", "lookup", ("amd-mi300x",), "mamf"),
    ("H100 和 MI300X 实际 BF16 算力谁更高？", "zh", "comparison", ("nvidia-h100-sxm", "amd-mi300x"), "mamf"),
    # an adverb that stresses a comparison asks no such thing
    ("Is the H100 actually faster than the A100 in FP16?", "en", "comparison", ("nvidia-h100-sxm", "nvidia-a100-sxm"),
     "peak_compute"),
    ("B200 реально быстрее H100 в FP8?", "ru", "comparison", ("nvidia-b200-sxm", "nvidia-h100-sxm"), "peak_compute"),
    ("У MI300X памяти больше H100?", "ru", "comparison", ("amd-mi300x", "nvidia-h100-sxm"), "memory_capacity"),
    ("B200 实际上比 H100 的 FP8 更快吗？", "zh", "comparison", ("nvidia-b200-sxm", "nvidia-h100-sxm"), "peak_compute"),
    ("какой чип дешевле в час", "ru", "superlative", (), "price_per_hour"),
    # a word of slowness asks for the lower figure
    ("which is slower at fp32, H100 or A100?", "en", "comparison", ("nvidia-h100-sxm", "nvidia-a100-sxm"),
     "peak_compute"),
    # counts the corpus states: collective-communication cores
    ("Сколько CC-ядер у Trainium3?", "ru", "lookup", ("aws-trainium3",), "cc_cores"),
    ("how many CC cores does trn2 have", "en", "lookup", ("aws-trn2-48xlarge",), "cc_cores"),  # Trn2, like Trn1
    ("Trainium 和 Trainium2 哪个 CC-Core 更多？", "zh", "comparison", ("aws-trainium", "aws-trainium2"), "cc_cores"),
    # a hyphenated cue matches the words written apart ("chip-to-chip")
    ("chip to chip link bandwidth on trainium3?", "en", "lookup", ("aws-trainium3",), "interchip_bandwidth"),
    # a name written short after another of its series ("v4" of "TPU v3 和 v4")
    ("TPU v3 和 v4 哪个 HBM 更大？", "zh", "comparison", ("google-tpu-v3", "google-tpu-v4"), "memory_capacity"),
    ("У кого больше памяти: Gaudi2 или 3?", "ru", "comparison", ("intel-gaudi2", "intel-gaudi3"), "memory_capacity"),
    # a verb of comparing, first in a yes-no question or after the subject
    ("Обгоняет ли H100 A100 по пропускной способности памяти?", "ru", "comparison",
     ("nvidia-h100-sxm", "nvidia-a100-sxm"), "memory_bandwidth"),
    ("Does the MI300X beat the H100 on memory capacity?", "en", "comparison", ("amd-mi300x", "nvidia-h100-sxm"),
     "memory_capacity"),
    ("H100 的显存带宽优于 A100 吗？", "zh", "comparison", ("nvidia-h100-sxm", "nvidia-a100-sxm"), "memory_bandwidth"),
    # 超过 is "more than" ("超过 40GB"), not a comparison of the things named
    ("DGX A100 里的 A100 显存超过 40GB 吗？", "zh", "lookup", ("nvidia-dgx-a100", "nvidia-a100-sxm"), "memory_capacity"),
    # "high-bandwidth memory" spelled out names a kind of memory: how much of it is a size
    ("how much high-bandwidth memory does Trainium2 have?", "en", "lookup", ("aws-trainium2",), "memory_capacity"),
    ("Сколько памяти с высокой пропускной способностью у Trainium2?", "ru", "lookup", ("aws-trainium2",),
     "memory_capacity"),
    ("Trainium2 的 HBM（高带宽内存）容量是多少？", "zh", "lookup", ("aws-trainium2",), "memory_capacity"),
    ("what's the high bandwidth memory bandwidth of trainium2", "en", "lookup", ("aws-trainium2",),
     "memory_bandwidth"),
    ("Which chip has the fastest high-bandwidth memory?", "en", "superlative", (), "memory_bandwidth"),
    # words may stand between "single" and "link"; a phrase holding a cue of its own dimension that has values
    # is that one ("per ICI link" is the ICI's per-link bandwidth, not a generic link's)
    ("whats the peak bandwidth of a single 16-wide infinity fabric link between MI250 GPUs?", "en", "lookup",
     ("amd-mi250",), "link_bandwidth"),
    ("Per ICI link, one-way, which is faster: TPU v3 or TPU v5p?", "en", "comparison",
     ("google-tpu-v3", "google-tpu-v5p"), "ici_bandwidth"),
    # how near the peak a measured figure comes is the efficiency, though the question writes the peak's unit
    ("which accelerator gets closest to its theoretical TFLOPS in the MAMF benchmark?", "en", "superlative", (),
     "matmul_efficiency"),
    ("какой ускоритель ближе всего к теоретическому пику в MAMF?", "ru", "superlative", (), "matmul_efficiency"),
    ("哪款加速器的 MAMF 最接近理论峰值？", "zh", "superlative", (), "matmul_efficiency"),
    # a measurement named as the setting is where the asked figure was measured, not the figure ("MAMF 实测里")
    ("MAMF 实测里，Gaudi 2 和 Gaudi 3 谁的矩阵乘效率更高？", "zh", "comparison", ("intel-gaudi2", "intel-gaudi3"),
     "matmul_efficiency"),
    ("在 MAMF 测试中，H100 和 MI300X 哪个效率更高？", "zh", "comparison", ("nvidia-h100-sxm", "amd-mi300x"),
     "matmul_efficiency"),
    ("Gaudi 2 和 Gaudi 3 的 MAMF 哪个更高？", "zh", "comparison", ("intel-gaudi2", "intel-gaudi3"), "mamf"),
    ("H100 的 MAMF 实测是多少？", "zh", "lookup", ("nvidia-h100-sxm",), "mamf"),
    # a chip's interconnect bandwidth is its own attribute; the ICI's is per link
    ("what is the chip-to-chip bandwidth of TPU v7x?", "en", "lookup", ("google-tpu-v7x",), "interchip_bandwidth"),
    ("TPU v5p 每条 ICI 链路带宽是多少？", "zh", "lookup", ("google-tpu-v5p",), "ici_bandwidth"),
    ("What is the ICI bandwidth of TPU v5p?", "en", "lookup", ("google-tpu-v5p",), "ici_bandwidth"),
    # a node's bandwidth to the other nodes is its egress, said in any words of "between nodes"
    ("What is the inter-node bandwidth of an H100 node?", "en", "lookup", ("nvidia-h100-sxm",), "node_egress_bandwidth"),
    ("H100 节点间带宽是多少？", "zh", "lookup", ("nvidia-h100-sxm",), "node_egress_bandwidth"),
])
def test_spec_questions_are_understood(table, question, lang, kind, entities, attribute):
    query = understand(question, lang, table)
    assert (query.kind, query.entities, query.attribute) == (kind, entities, attribute)


def test_a_precision_alone_asks_no_figure_of_one_thing_or_of_support(table):
    for question, lang in (("Does the H100 support FP8 like the B200?", "en"), ("Which supports FP8, H100 or A100?", "en"),
                           ("Поддерживает ли H100 FP8, как B200?", "ru"), ("H100 和 B200 都支持 FP8 吗？", "zh"),
                           ("What is FP8 on the H100?", "en")):
        assert understand(question, lang, table) is None, question


def test_a_hyphen_in_a_cue_also_matches_a_space_or_nothing():
    assert loose_hyphens(r"\bchip-to-chip\b") == r"\bchip[-\s]?to[-\s]?chip\b"
    pattern = re.compile(loose_hyphens(r"\bscale-up\b"))
    assert all(pattern.search(t) for t in ("scale-up bandwidth", "scale up bandwidth", "scaleup bandwidth"))
    # character classes, lookbehinds, escaped and already optional hyphens stay as written, and so does one
    # after a preposition ("depends on chip memory" is not about on-chip memory)
    for kept in (r"[a-z-]+\-x inter-?chip", r"(?<!non-sparse )dense", r"\bon-chip memory\b"):
        assert loose_hyphens(kept) == kept


def test_a_misspelled_name_is_mended_but_a_real_name_or_model_number_is_not(table):
    mend = table.vocabulary.mend_names
    assert mend("trainum3 SBUF capacity?") == "Trainium3 SBUF capacity?"
    assert mend("how much HBM on Inferntia2") == "how much HBM on Inferentia2"
    # what follows the letters must agree: other products, not typos; and stems of model numbers are no words
    for other in ("Trainium4", "TPUv4i", "HBM4e", "Gaudi2D", "Trainium2e", "trn1n.32xlarge", "MI300A", "MI300Xs",
                  "robin", "gaudy"):
        assert mend(f"what about {other}?") == f"what about {other}?"
    assert mend("Gaudii2 price", frozenset({"gaudii2"})) == "Gaudii2 price"  # a word the corpus writes stays


def test_a_short_name_ends_a_sentence_but_a_bare_number_before_a_word_is_a_count(table):
    def named(text):
        return [m.entity for m in table.vocabulary.mentions(text)]
    assert named("TPU v3 and v4.") == ["google-tpu-v3", "google-tpu-v4"]
    assert named("Trainium2 или 3 — что быстрее?") == ["aws-trainium2", "aws-trainium3"]
    assert named("Trainium2 和 3 哪个快") == ["aws-trainium2", "aws-trainium3"]
    assert named("Gaudi2 and 3 instances") == named("Gaudi2 和 3 个节点的内存") == ["intel-gaudi2"]
    assert named("Trainium2 或 3 倍") == ["aws-trainium2"]


def test_the_variants_of_a_product_named_by_their_word_alone(table):
    def named(text):
        return [m.entity for m in table.vocabulary.mentions(text)]
    assert set(named("Which H100 has less memory bandwidth - PCIe or SXM?")) == {"nvidia-h100-sxm", "nvidia-h100-pcie"}
    assert named("A100 SXM или PCIe?") == named("A100 SXM 和 PCIe") == ["nvidia-a100-sxm", "nvidia-a100-pcie"]
    # one variant word alone is a word, not a product; another product named nearer makes the pair unsure
    assert named("what is the PCIe bandwidth of the H100?") == ["nvidia-h100-sxm"]
    assert named("H100 or A100 - PCIe or SXM?") == ["nvidia-h100-sxm", "nvidia-a100-sxm", "nvidia-a100-pcie",
                                                     "nvidia-a100-sxm"]
    # a variant word made a product by a noun beside it names that variant, in any language
    assert named("Does the A100 SXM use more power than the PCIe one?") == ["nvidia-a100-sxm", "nvidia-a100-pcie"]
    assert named("A100 PCIe 和 SXM 版哪个功耗更高") == ["nvidia-a100-pcie", "nvidia-a100-sxm"]
    assert named("Потребляет ли A100 SXM больше, чем версия PCIe?") == ["nvidia-a100-sxm", "nvidia-a100-pcie"]
    assert named("H100 SXM: what is its PCIe bandwidth?") == ["nvidia-h100-sxm"]  # no noun: a word
    assert named("A100 SXM or the H100 PCIe version?") == ["nvidia-a100-sxm", "nvidia-h100-pcie"]
    # the bus's generation asked is no variant; both variants with their noun are both named
    assert named("What is the memory bandwidth of the H100 SXM, and which PCIe version does it support?") == [
        "nvidia-h100-sxm"]
    assert named("H100 SXM 的显存带宽是多少？支持的 PCIe 版本是多少？") == ["nvidia-h100-sxm"]
    assert named("Which A100 has more memory: the SXM version or the PCIe version?") == [
        "nvidia-a100-sxm", "nvidia-a100-pcie"]
    query = understand("У какой версии A100 меньше памяти — PCIe или SXM?", "ru", table)
    assert query.kind == "comparison" and set(query.entities) == {"nvidia-a100-sxm", "nvidia-a100-pcie"}


def test_slower_asks_for_the_lower_figure_and_a_bandwidth_of_nothing_cued_is_no_spec_question(table):
    for question, lang in (("which is slower at fp32, H100 or A100?", "en"), ("H100 和 A100 哪个 FP16 更慢？", "zh"),
                           ("Что медленнее в FP16: H100 или A100?", "ru")):
        assert understand(question, lang, table).direction == "lower", question
    # a bandwidth between parts no attribute measures is not answered with the peak compute "峰值" cued
    assert understand("MI250 的 CPU 和 GPU 之间的峰值带宽是多少？", "zh", table) is None
    assert understand("What is the peak bandwidth between the CPU and the GPU on an MI250?", "en", table) is None
    # between the dies of one chip is an attribute of its own, stated in prose the article's title names the chip of
    assert understand("MI250 两个 GCD 之间的峰值带宽是多少？", "zh", table).attribute == "die_link_bandwidth"
    assert understand("MI250 的峰值内存带宽是多少？", "zh", table).attribute == "memory_bandwidth"


def test_collective_communication_cores_are_read_from_tables_and_sentences(table):
    _, spec = lookup(table, "How many CC cores does a Trainium2 chip have, and how many did Trainium have?", "en")
    assert {(e.entity, e.value) for e in spec.entries} >= {("aws-trainium2", 16), ("aws-trainium", 6)}
    _, spec = lookup(table, "Сколько CC-ядер у Trainium3?", "ru")
    assert [e.value for e in spec.entries] == [16]  # "16 CC-Cores orchestrate ..." in a label/sentence table


def test_a_question_that_asks_why_asks_for_a_reason_not_a_figure(table):
    for question, lang in (("Why does the MI250X have to be halved against a matmul benchmark's TFLOPS?", "en"),
                           ("Почему у TPU v5e всего 16 GB HBM?", "ru"), ("为什么 H100 的 TFLOPS 比 A100 高这么多？", "zh")):
        assert understand(question, lang, table) is None, question
    assert understand("How much HBM does the TPU v5e have?", "en", table).attribute == "memory_capacity"


def test_an_attribute_of_a_product_the_table_has_no_entity_for_is_reported_absent(table):
    # "H800" is a name the corpus writes ("H800 带宽 300GB/s"); the table has no entity, hence no value, for it
    query = understand("What is the TDP of the NVIDIA H800?", "en", table, unlisted=("H800",))
    assert (query.kind, query.attribute, query.entities, query.unlisted) == ("lookup", "power", (), ("H800",))
    result = answer_spec(table, query, "en")
    assert result.missing and not result.entries and result.answer.text == "The corpus has no power for H800."
    # without such a name the question asks the attribute of nothing: no spec reading
    assert understand("What is the TDP of the NVIDIA H800?", "en", table) is None
    # a named entity is what is asked: an unlisted name beside it is not
    assert understand("What is the TDP of the H100?", "en", table, unlisted=("H800",)).unlisted == ()
    # unless the question compares them: then the unlisted one's own sentence may answer
    assert understand("H100 vs H800: which has the higher TDP?", "en", table, unlisted=("H800",)).unlisted == \
        ("H800",)


def test_two_classes_offered_as_alternatives_get_no_ranking(table):
    # "哪个" offers them as "or" does: a ranking over every chip with a value answers neither class
    assert understand("GPU 和 TPU 哪个片上快速缓存更大？", "zh", table) is None
    assert understand("哪个芯片的片上快速缓存最大？", "zh", table).kind == "superlative"


def test_each_in_chinese_matches_with_a_measure_word(table):
    assert loose_measure_words("每堆栈") == "每(?:一?[个条颗块台张])?堆栈"
    assert loose_measure_words("每个\\s*gpu") == "每个\\s*gpu"  # written with its measure word already
    assert loose_measure_words("每个?\\s*gpu") == "每(?:一?[个条颗块台张])?\\s*gpu"  # an optional one: any
    _, spec = lookup(table, "H100 每个 SM 的 SMEM 是多大？", "zh")
    assert [(e.value, e.unit, e.scope) for e in spec.entries] == [(256, "kB", None)]  # per SM, not "per chip"


def test_general_questions_are_not_spec_questions(table):
    assert understand("What are the limits of TPUs?", "en", table) is None
    assert understand("Что такое MAMF?", "ru", table) is None
    assert understand("Does Gaudi2 support FP8?", "en", table) is None  # a precision alone asks for no figure
    # the cost of doing something is no price of the hardware, in any language
    assert understand("does turning on SHARP really cut all-reduce cost on an H100 cluster?", "en", table) is None
    assert understand("Trainium2 用 CUDA 编程吗？迁移成本主要在哪？", "zh", table) is None
    assert understand("Какова стоимость миграции с A100 на Trainium?", "ru", table) is None
    assert understand("What does an H100 cost per hour?", "en", table).attribute == "price_per_hour"
    assert understand("What is the cost of migrating from CUDA to Trainium?", "en", table) is None
    # in the shared cue matching, so every caller (the unknown-name check too) sees no price there
    assert "price_per_hour" not in table.vocabulary.cue_spans("all-reduce cost on a gaudi2 cluster", "en")
    assert "price_per_hour" in table.vocabulary.cue_spans("cost of a gaudi2 cluster per hour", "en")
    # a precision with a word for speed asks a figure only when it asks how fast, or compares things
    assert understand("Does Gaudi2 support FP8 for faster training?", "en", table) is None
    assert understand("How much does FP8 speed up training on the H100?", "en", table) is None
    assert understand("How quickly does the H100 do FP8 math?", "en", table).attribute == "peak_compute"


def test_answers_are_in_the_question_language_with_sources(table):
    _, ru = lookup(table, "Сколько памяти у Gaudi в инстансе DL1?", "ru")
    assert ru.entries[0].display.startswith("Intel Gaudi: 32 GB (на процессор")
    assert ru.entries[0].label == "объём памяти"
    assert "32GB的HBM内存" in ru.entries[0].quote
    _, zh = lookup(table, "8个Gaudi处理器每小时多少钱？", "zh")
    price = zh.entries[0]
    assert (price.entity, price.value, price.unit, price.via) == ("aws-dl1", 13.11, "USD/h", "intel-gaudi")
    assert "美元/小时" in price.display and "13.11美元" in price.quote
    _, lost = lookup(table, "单个Gaudi处理器的ResNet-50成绩是多少？", "zh")
    assert lost.entries[0].status == "unknown" and lost.entries[0].value is None
    assert "650" not in lost.answer.text


def test_comparison_reconciles_units_and_states_the_difference(table):
    query = SpecQuery(kind="comparison", attribute="memory_capacity", entities=("aws-trainium2", "intel-gaudi2"))
    result = answer_spec(table, query, "en").answer
    # 96 GiB (and the 96 GB of another source) against Gaudi2's 96 GB: the sources overlap
    assert result.comparable and result.higher is None and "disagree" in result.text
    query = SpecQuery(kind="comparison", attribute="memory_bandwidth", entities=("aws-trainium2", "aws-trainium3"))
    result = answer_spec(table, query, "ru").answer
    assert result.higher == "aws-trainium3" and result.difference == (2.0, 2.0)
    assert result.text.startswith("У AWS Trainium3 больше: 4,9 TB/s против 2,9 TB/s")
    # per instance against per chip is said to be incomparable, not compared
    query = SpecQuery(kind="comparison", attribute="peak_compute", entities=("aws-trn1", "aws-trainium"), dtype="FP32")
    result = answer_spec(table, query, "en").answer
    assert not result.comparable and result.text.startswith("Not comparable")


def test_a_ranking_of_fewer_than_two_is_never_stated(table):
    # an attribute only one entity has a value of, and no stated relation ranks it against another: no ranking
    lonely = [a for a in table.vocabulary.attributes if len(table.entities_with(a)) == 1
              and table.relation_to_any(table.entities_with(a)[0], a) is None]
    assert lonely, "the test needs an attribute with one valued entity and no relation"
    for attribute in lonely:
        query = SpecQuery(kind="superlative", attribute=attribute, entities=(), direction="higher")
        result = answer_spec(table, query, "en")
        assert result.answer is None and not result.found, attribute


def test_three_or_more_named_with_a_ranking_word_are_ranked_among_themselves(table):
    # not a comparison of the first two named, nor a ranking over every chip of the table
    question = "Among V100, A100, H100, H200 and B200, which GPU has the largest L2 cache?"
    query, result = lookup(table, question, "en")
    assert query.kind == "superlative" and len(query.entities) == 5
    assert result.answer.best == "nvidia-b200-sxm" and set(result.answer.entities) <= set(query.entities)
    assert result.answer.text.startswith("Highest L2 cache: NVIDIA B200 SXM (126 MB), of the 5 asked about")
    _, slower = lookup(table, "У какого меньше памяти: H100, B200 или MI300X?", "ru")
    assert slower.answer.best == "nvidia-h100-sxm" and "из 3 названных" in slower.answer.text
    # a plain list of three asks each one's value; so does a factor, and a text attribute is never ranked
    for question, lang in [("Какой объём памяти у H100, A100 и MI300X?", "ru"), ("H100、A100 和 V100 的显存分别是多少？", "zh"),
                           ("How many times faster is the H100 than the A100 and V100?", "en"),
                           ("Which HBM type do the H100, A100 and MI300X use?", "en")]:
        assert lookup(table, question, lang)[0].kind != "superlative", question
    # a memory named beside a chip is no third thing ranked
    query, _ = lookup(table, "Which has more memory bandwidth, the H100 (HBM3) or the A100 (HBM2e)?", "en")
    assert query.kind == "comparison"
    # where not every one named has a figure in one scope, each one's value is given and the missing ones said
    _, node = lookup(table, "Which has the smallest process node: H100, A100 or V100?", "en")
    assert node.answer.kind == "lookup" and "7 nm" in node.answer.text and "no process node for" in node.answer.text
    # two named stay a comparison, and a chip named beside the instance built of it is part of that one
    assert lookup(table, "Which has more L2 cache, the A100 or the H100?", "en")[0].kind == "comparison"
    assert lookup(table, "which is cheaper per hour on aws, a dl1 (gaudi) instance or a p4d?", "en")[0].kind == \
        "comparison"


@pytest.mark.parametrize("question, lang, line, best", [
    ("Which TPU has the most memory?", "en", ("tpu",), "google-tpu-v7x"),
    ("У какого TPU больше всего памяти?", "ru", ("tpu",), "google-tpu-v7x"),
    ("哪款 TPU 内存最大？", "zh", ("tpu",), "google-tpu-v7x"),
    # a product named beside a word of generation, or right after "which", names its line
    ("Which Trainium generation has the largest SBUF?", "en", ("trainium",), "aws-trainium3"),
    ("AWS 的几代 Trainium 里，哪一代的 SBUF 容量最大？", "zh", ("trainium",), "aws-trainium3"),
    ("Какой Gaudi самый быстрый в BF16?", "ru", ("gaudi",), "intel-gaudi3"),
    # a maker is a group too
    ("which NVIDIA GPU has the most memory?", "en", ("nvidia",), "nvidia-b300-sxm"),
    # a plural, two words of one group (intersected), a maker before the line's name
    ("Which TPUs have the most memory?", "en", ("tpu",), "google-tpu-v7x"),
    ("Which Google TPU has the highest BF16 throughput?", "en", ("google", "tpu"), "google-tpu-v7x"),
    ("Which Intel Gaudi has the most memory?", "en", ("intel", "gaudi"), "intel-gaudi3"),
    # the instances built of the line's chips are of the line
    ("Which Gaudi instance is cheapest per hour?", "en", ("gaudi",), "aws-dl1"),
])
def test_a_ranking_asked_within_a_product_line_or_maker_ranks_that_group_only(table, question, lang, line, best):
    query, result = lookup(table, question, lang)
    assert (query.kind, query.line, query.entities) == ("superlative", line, ())
    assert result.answer.best == best
    assert {e.entity for e in result.entries} <= members(table.vocabulary, line)


def test_a_ranking_of_two_groups_or_of_none_ranks_every_entity(table):
    # a maker excluded, or named outside the phrase "which" asks about, restricts nothing
    for question, lang in (("Among NVIDIA and AMD chips, which has the most memory?", "en"),
                           ("which chip has the most memory?", "en"),
                           ("Which non-NVIDIA accelerator has the most memory?", "en"),
                           ("We use NVIDIA now. Which accelerator has the most memory?", "en"),
                           ("Какой ускоритель, кроме NVIDIA, имеет больше всего памяти?", "ru"),
                           ("除了 NVIDIA，哪款加速器显存最大？", "zh")):
        query, result = lookup(table, question, lang)
        assert query.line == () and result.answer.best == "amd-mi350x", question
    # a memory type, a word of an attribute's cue, a model number, one generation named by its ordinal
    for question in ("Which accelerator has the most HBM?", "Which chip has the fastest PCIe bandwidth?",
                     "Which H100 variant has the most memory?",
                     "What's the maximum memory bandwidth of the second-generation Trainium?"):
        assert lookup(table, question, "en")[0].line == (), question


@pytest.mark.parametrize("question, lang", [
    ("Including announced ones, which accelerator has the most memory?", "en"),
    ("Какой ускоритель с наибольшим объёмом памяти, включая анонсированные?", "ru"),
    ("包括已发布但还没上市的，哪款加速器显存最大？", "zh"),
])
def test_a_ranking_takes_in_announced_products_only_when_asked_to(table, question, lang):
    query, result = lookup(table, question, lang)
    assert query.announced and result.answer.best == "amd-mi455x"
    assert lookup(table, "which accelerator has the most memory?", "en")[1].answer.best == "amd-mi350x"


@pytest.mark.parametrize("question, lang, bare", [
    ("which option is cheaper?", "en", True), ("what's the cheapest option per hour?", "en", True),
    ("Какой вариант дешевле всего в час?", "ru", True), ("哪个选项每小时最便宜？", "zh", True),
    # a noun of anything else, however the ranking words stand round it
    ("which phone has more memory?", "en", False), ("which lawyer charges less per hour?", "en", False),
    ("Какой самолет дешевле в час?", "ru", False), ("哪个手机最便宜？", "zh", False),
])
def test_a_bare_ranking_is_nothing_but_the_ranking_words_and_the_attribute(table, question, lang, bare):
    query = understand(question, lang, table)
    assert query is not None and query.bare is bare, question


def test_closest_ranks_only_by_how_near_the_peak_a_figure_comes(table):
    for question, lang in (("Which chip has memory closest to 100 GB?", "en"),
                           ("У какого ускорителя объём памяти ближе всего к 100 ГБ?", "ru")):
        query = understand(question, lang, table)
        assert query is None or query.kind != "superlative", question


def test_a_ranking_of_one_value_and_a_stated_relation_is_a_ranking_of_two(table):
    # one instance has an hourly price in the corpus, and the corpus says it is 60% lower than P4d's:
    # "the cheapest of 1" would be no answer; the two the relation ranks are, said to be the only ones
    assert len(table.entities_with("price_per_hour")) == 1
    _, cheapest = lookup(table, "Какой чип дешевле в час?", "ru")
    answer = cheapest.answer
    assert answer.kind == "superlative" and (answer.best, answer.entities) == ("aws-dl1", ("aws-dl1", "aws-p4d"))
    assert answer.text.startswith("AWS EC2 DL1: на 60% дешевле, чем AWS EC2 P4d") and "13,11" in answer.text
    assert "Других сопоставимых значений" in answer.text and "60%" in cheapest.relation.quote
    # "дешёвый" asks for the lower figure as "дешевле" does (it was read as "the most", naming P4d)
    _, plain = lookup(table, "какой чип самый дешёвый в час?", "ru")
    assert plain.answer.best == "aws-dl1", plain.answer.text
    _, dearest = lookup(table, "Which instance is the most expensive per hour?", "en")
    assert dearest.answer.best == "aws-p4d" and dearest.answer.text.startswith("AWS EC2 P4d is more expensive")
    assert "13.11 USD/h" in dearest.answer.text  # the one value the corpus gives is shown, whichever side wins
    assert "among" not in dearest.answer.text  # never "among 2 with a value": P4d has none of its own
    _, zh = lookup(table, "哪个实例每小时最便宜？", "zh")
    assert "13.11 美元/小时。语料中没有" in zh.answer.text  # Chinese sentences join without a space


def test_a_relation_ranking_keeps_the_asked_data_type_and_shows_a_series_relation_for_its_member(table):
    # Trainium2 against Trainium is 6.7x in FP8 and 3.4x in BF16: a ranking in FP8 must not rest on the BF16 row
    assert table.relation_to_any("aws-trainium", "peak_compute", "FP8").factor == "6.7x"
    assert table.relation_to_any("aws-trainium", "peak_compute").factor == "3.4x"
    # "the MI300 series ... 40% more CUs than MI250X" ranks the MI300X (a member) under its own name
    assert table.vocabulary.entities["amd-mi300x"].family == "amd-mi300"
    fact = table.about("amd-mi250", "compute_units")[0].model_copy(update={"entity": "amd-mi300x"})
    query = SpecQuery(kind="superlative", attribute="compute_units", entities=(), direction="higher")
    shown, ranking, relation = _ranked_by_relation(table, query, [fact], fact.unit, fact.scope, "en")
    assert ranking.best == "amd-mi300x" and set(ranking.entities) == {"amd-mi300x", "amd-mi250x"}, ranking
    assert "40%" in relation.quote


def test_classes_compared_are_no_spec_question(table):
    """"TPU or GPU" names no entity on either side: the passage that compares the classes answers it."""
    for question, lang in (("Что дешевле для обучения: TPU или GPU?", "ru"), ("GPU 还是 TPU 更便宜？", "zh"),
                           ("Which is cheaper, TPUs or GPUs?", "en")):
        assert understand(question, lang, table) is None, question


def test_a_comparison_from_a_stated_relation(table):
    """DL1 has an hourly price, P4d none; the corpus says DL1's is 60% lower: that decides, winner first."""
    query = SpecQuery(kind="comparison", attribute="price_per_hour", entities=("aws-dl1", "aws-p4d"), direction="lower")
    ru = answer_spec(table, query, "ru").answer
    assert (ru.lower, ru.higher) == ("aws-dl1", "aws-p4d") and ru.comparable and "60%" in ru.relation
    assert ru.text.startswith("AWS EC2 DL1: на 60% дешевле, чем AWS EC2 P4d") and "13,11" in ru.text
    dearer = answer_spec(table, SpecQuery(kind="comparison", attribute="price_per_hour",
                                          entities=("aws-dl1", "aws-p4d"), direction="higher"), "en").answer
    assert dearer.text.startswith("AWS EC2 P4d is more expensive")  # the side asked for is named first


def test_a_chip_compared_by_the_instance_its_figure_belongs_to_uses_that_instances_stated_relation(table):
    # "8 Gaudi" are priced as the DL1 built of them; P4d has no price, but the corpus relates DL1's to it
    _, result = lookup(table, "насколько 8 Gaudi дешевле чем p4d по цене в час?", "ru")
    answer = result.answer
    assert answer.kind == "comparison" and (answer.lower, answer.higher) == ("aws-dl1", "aws-p4d"), answer.text
    assert "60%" in answer.text and "60%" in result.relation.quote


@pytest.mark.parametrize("question, lang", [("у кого fp64 слабее, b300 или b200?", "ru"),
                                            ("which is weaker at FP64, B300 or B200?", "en"),
                                            ("B300 和 B200 哪个 FP64 更弱", "zh")])
def test_a_word_of_weakness_asks_for_the_lower_figure(table, question, lang):
    _, result = lookup(table, question, lang)
    assert result.answer.lower == "nvidia-b300-sxm" and result.answer.text.removeprefix("У ").startswith("NVIDIA B300")


def test_weak_scaling_is_no_word_of_weakness_and_a_cloud_console_no_consumer_device(table):
    assert understand("which chip has the highest weak scaling memory bandwidth", "en", table).direction == "higher"
    assert understand("в консоли AWS какой чип самый дешёвый в час?", "ru", table).kind_filter == "chip"
    assert understand("Which smartphone chip has the most memory?", "en", table).kind_filter is None


@pytest.mark.parametrize(("question", "lang", "direction"), [
    ("h200 or h100, which has more HBM? we need less sharding", "en", "higher"),
    ("we need more nodes: which GPU has the least memory?", "en", "lower"),
    ("нужно меньше шардинга: у какого ускорителя больше памяти?", "ru", "higher"),
    ("想要更多卡：哪个芯片的显存最少？", "zh", "lower"),
])
def test_the_word_of_direction_nearer_the_attribute_decides(table, question, lang, direction):
    # a second clause may say "less" of something else; the asked attribute's own word wins
    assert understand(question, lang, table).direction == direction


def test_a_counted_part_is_the_whole_chips_make_up_not_a_scope_asked_for(table):
    assert understand("сколько CU максимум в ускорителе серии MI300 с 8 XCD?", "ru", table).scopes == ()
    assert understand("how many CUs does an MI300 with 8 XCDs have", "en", table).scopes == ()
    assert understand("有8个XCD的MI300一共有多少个CU", "zh", table).scopes == ()
    assert understand("How many CUs does each MI250 GCD have?", "en", table).scopes == ("per_gcd",)
    assert understand("how many CUs per XCD on MI300", "en", table).scopes == ("per_xcd",)
    assert understand("MI300 每个 XCD 有多少 CU", "zh", table).scopes == ("per_xcd",)


def test_a_latin_cue_written_against_han_characters_is_still_a_word(table):
    # "多少个CU", "有多少HBM": no space between the Chinese and the Latin word, yet a word boundary
    assert understand("MI300一共有多少个CU", "zh", table).attribute == "compute_units"
    assert understand("MI300X的HBM带宽是多少", "zh", table).attribute == "memory_bandwidth"
    assert understand("h100有多少个sm", "zh", table).attribute == "sm_count"


def test_russian_cue_words_in_their_inflected_and_shortened_forms(table):
    # the genitive plural of "ядро" drops its vowel ("ядер"); "пропускная" alone says "bandwidth"
    assert understand("сколько тензорных ядер в A100", "ru", table).attribute == "tensor_cores"
    assert understand("какая у gaudi3 пропускная памяти?", "ru", table).attribute == "memory_bandwidth"
    # "стоит" before an infinitive or "ли" is "is worth", no price; after "сколько" it is one
    assert understand("сколько стоит купить один MI300X?", "ru", table).attribute == "price_per_hour"
    assert understand("стоит ли брать H100 или A100?", "ru", table) is None
    # a count asked as "до какого числа" / "какое количество", not only with "сколько"
    assert understand("TPU7x: до какого числа чипов масштабируется один под?", "ru", table).attribute == "pod_size"
    assert understand("какое количество чипов в инстансе trn2.48xlarge?", "ru", table).attribute == "chip_count"
    # the names the corpus writes for a product are its aliases: "TPU7x (Ironwood)"
    assert understand("ironwood vs tpu v5p bf16 flops?", "en", table).entities == ("google-tpu-v7x", "google-tpu-v5p")


def test_a_question_about_an_attribute_gets_that_attribute(table):
    """A clock is not answered with TFLOPS, a memory clock not with memory size."""
    assert understand("What clock does the Trn1 run at?", "en", table).attribute == "clock"
    # a cue word before a part noun names the part ("compute engine"), not the attribute (peak compute)
    assert understand("what clock does the trn1 compute engine run at", "en", table).attribute == "clock"
    assert understand("how many compute units in MI250", "en", table).attribute == "compute_units"
    # alone, such a cue is still what is asked
    assert understand("what is the bandwidth of the H100 memory controllers", "en", table).attribute == \
        "memory_bandwidth"
    assert understand("what memory clock does a B200 run at", "en", table).attribute == "memory_clock"
    assert understand("How efficient is the MI300X in real matmuls, in %?", "en", table).attribute == "matmul_efficiency"
    assert understand("Сколько стоит DL1, сколько долларов?", "ru", table).attribute == "price_per_hour"
    _, none = lookup(table, "What is the die area of the TPU v5e?", "en")
    assert not none.found and none.answer.text == "The corpus has no die area for Google TPU v5e."


@pytest.mark.parametrize("question, lang, attribute", [
    # the object of "of" qualifies the head: a clock of compute units is a clock, not a count of them
    ("What is the clock frequency of the compute units in an MI250?", "en", "clock"),
    ("Tell me the clock of the NeuronCores on Trainium2", "en", "clock"),
    ("what's the peak clock frequency of the MI250 compute units?", "en", "clock"),  # a model name between
    ("What is the clock frequency of the MI250's compute units?", "en", "clock"),
    # the noun right after the question word is asked; a cue later in its clause is whom it is asked of
    ("At what peak clock do the MI250 compute units run?", "en", "clock"),
    ("What clock do the NeuronCores of Trainium2 run at?", "en", "clock"),
    ("На какой частоте работают вычислительные блоки MI250?", "ru", "clock"),
    # a conjunction is no word of the asked phrase: both are asked, and the bandwidth word decides
    ("Какую частоту и пропускную способность памяти имеет MI250?", "ru", "memory_bandwidth"),
    ("What is the performance of the tensor cores on H100?", "en", "peak_compute"),
    # a Russian head noun governs the genitive after it
    ("Какая частота вычислительных блоков MI250?", "ru", "clock"),
    # a bandwidth word asks for bytes per second: the memory's rate sibling, not the memory
    ("Какая пропускная способность HBM у Gaudi2?", "ru", "memory_bandwidth"),
    ("Gaudi2 显存的带宽是多少", "zh", "memory_bandwidth"),
    ("What's the HBM bw on an MI300X?", "en", "memory_bandwidth"),
    # a word of speed asks for a rate: the memory's bandwidth, not its size; "PCIe" of "A100 PCIe" is a name
    ("A100 SXM 和 A100 PCIe 哪个的 HBM 更快？", "zh", "memory_bandwidth"),
    ("which has faster memory, H100 or A100?", "en", "memory_bandwidth"),
    ("how much memory does the A100 PCIe have", "en", "memory_capacity"),
    ("What is the memory of the H100?", "en", "memory_capacity"),
])
def test_the_attribute_asked_is_the_head_of_the_phrase(table, question, lang, attribute):
    assert understand(question, lang, table).attribute == attribute


@pytest.mark.parametrize("question, lang, attribute", [
    # the noun after "how much" / "how many" is asked; the cue later in its clause is whom it is asked of
    ("How much L2 cache is shared by the compute units on a single XCD in the MI300 series?", "en", "l2_cache"),
    ("How many SMs do the tensor cores of the H100 sit in?", "en", "sm_count"),
    # a sentence that asks nothing says why the question is asked: its words ask no figure
    ("What's the peak clock frequency of the compute units on an AMD MI250? I'm trying to reason about wavefront "
     "throughput per GCD.", "en", "clock"),
    ("I only care about throughput. What is the memory bandwidth of the H100?", "en", "memory_bandwidth"),
    ("Какая частота у MI250? Меня интересует пропускная способность на GCD.", "ru", "clock"),
    # a request asks as a question does
    ("Give me the memory bandwidth of the H100. I care about throughput for my report.", "en", "memory_bandwidth"),
    ("Сколько L2-кэша разделяют вычислительные блоки одного XCD в MI300X?", "ru", "l2_cache"),
    ("Сколько NVLink у каждой H100?", "ru", "link_count"),
    # "what's the NP" asks the NP up to the clause it heads ("... the MI250 compute units run at")
    ("I'm reading up on CDNA 2. What's the peak clock frequency the MI250 compute units run at?", "en", "clock"),
    ("What's the L2 cache the MI300X XCD compute units share?", "en", "l2_cache"),
    ("Сколько чипов максимум может быть в одном поде TPU7x (Ironwood)?", "ru", "pod_size"),
    # a clause that qualifies the noun asked names whom it is of, past its comma
    ("How much SBUF memory is on a Trainium2 chip, shared by its NeuronCores?", "en", "sbuf_capacity"),
    ("What is the L2 cache of the MI300X, which its CUs share?", "en", "l2_cache"),
    ("Какой объём SBUF у Trainium2, который делят NeuronCore?", "ru", "sbuf_capacity"),
    # the kind of memory, not how much ("what HBM", "哪种 HBM", "какая память")
    ("What HBM does the MI250 use?", "en", "hbm_type"),
    ("What kind of memory does Gaudi2 have?", "en", "hbm_type"),
    ("H100用的是哪种HBM？", "zh", "hbm_type"),
    ("Gaudi3 的显存类型是什么？", "zh", "hbm_type"),
    ("MI300X 采用哪一代 HBM？", "zh", "hbm_type"),
    ("Gaudi 哪一代显存最大", "zh", "memory_capacity"),  # a generation of the chip, asked its memory
    # two memory types offered ask which one
    ("H200 用 HBM3 还是 HBM3e？", "zh", "hbm_type"), ("Does the H200 use HBM3 or HBM3e?", "en", "hbm_type"),
    ("Какая HBM у Gaudi 3?", "ru", "hbm_type"),
    ("What memory does Inferentia2 use?", "en", "memory_capacity"),  # may ask how much: no word of kind
    ("Какой объём памяти у Gaudi 3?", "ru", "memory_capacity"),
    ("What memory capacity does the H100 have?", "en", "memory_capacity"),
    # chips counted in a pod are the pod's size, however the count is asked
    ("Max number of chips you can get in one Ironwood (TPU7x) pod?", "en", "pod_size"),
    # a clock asked in MHz; NVLinks counted are links; since when a product can be had is its availability date
    ("Gaudi3 现在实际跑在多少MHz（MME）？", "zh", "clock"),
    ("how many nvlinks does each H100 have in an 8-GPU node", "en", "link_count"),
    ("since when has the H100 been available on all the tier-1 clouds?", "en", "release_date"),
    ("С какого времени H100 доступны у всех облачных провайдеров?", "ru", "release_date"),
    ("H100 什么时候在各大云上可用？", "zh", "release_date"),
])
def test_the_attribute_asked_is_the_one_the_asking_words_name(table, question, lang, attribute):
    assert understand(question, lang, table).attribute == attribute


@pytest.mark.parametrize("question, lang, start", [
    ("What was the planned MME clock of Gaudi 3?", "en", "Intel Gaudi3: 1,750 MHz (planned"),
    ("Какая частота MME у Gaudi 3 была запланирована?", "ru", "Intel Gaudi3: 1 750 MHz (заявлено"),
    ("Gaudi3 计划的频率是多少？", "zh", "Intel Gaudi3: 1750 MHz（计划"),
    # the plan set aside, or the figure reached asked: the one stated
    ("What clock does Gaudi 3 actually run at, not the planned one?", "en", "Intel Gaudi3: 1,600 MHz (per chip)"),
    ("на какой частоте реально работает MME у Intel Gaudi3? слышал что не на заявленной", "ru", "Intel Gaudi3: 1 600 MHz"),
    ("Gaudi3 实际频率是多少？不是计划的那个", "zh", "Intel Gaudi3: 1600 MHz（每芯片）"),
    ("What clock does Gaudi 3 run at?", "en", "Intel Gaudi3: 1,600 MHz (per chip)"),
])
def test_a_planned_figure_answers_only_where_the_plan_is_asked(table, question, lang, start):
    _, result = lookup(table, question, lang)
    text = result.answer.text.replace("\u202f", " ").replace("\xa0", " ")  # thousands grouped by a narrow space
    assert text.startswith(start), text
    if "1600" in start.replace(",", "").replace(" ", ""):  # never beside it as a disagreement
        assert "750" not in result.answer.text, result.answer.text


def test_a_chip_named_only_in_a_sentence_that_asks_nothing_is_context(table):
    for question, lang in (("I have an H100 cluster. What is the memory bandwidth of the B200?", "en"),
                           ("У нас кластер на H100. Какая пропускная способность памяти у B200?", "ru"),
                           ("我们有一个 H100 集群。B200 的显存带宽是多少？", "zh")):
        assert understand(question, lang, table).entities == ("nvidia-b200-sxm",), question
    # set side by side in the sentence that asks, both are asked
    for question in ("I use an A100. Is the H100 faster?", "I'm comparing to the A100. How much memory does the H100 have?"):
        assert set(understand(question, "en", table).entities) == {"nvidia-a100-sxm", "nvidia-h100-sxm"}, question


@pytest.mark.parametrize("question, lang", [
    ("把 CUDA 上的训练代码迁移到 AWS Trainium，主要的成本在哪里？", "zh"),
    ("В чём основные затраты при переходе с GPU на Trainium?", "ru"),
    ("Where does most of the cost of moving to Trainium come from?", "en"),
    # a way to find the figure out oneself is asked, not the figure
    ("My A100 never gets near its 312 TFLOPS spec. How do I figure out what throughput is realistically achievable?", "en"),
    ("How can I compute the theoretical HBM bandwidth of a GPU myself?", "en"),
    ("Как самому посчитать пропускную способность HBM у H100?", "ru"),
    ("怎么计算 H100 的理论显存带宽？", "zh"),
])
def test_where_a_cost_lies_or_how_to_work_a_figure_out_asks_no_figure(table, question, lang):
    assert understand(question, lang, table) is None
    # a difference asked is still a figure compared
    assert understand("В чём разница в цене между DL1 и P4d?", "ru", table) is not None


@pytest.mark.parametrize("question, lang", [
    ("What do I need to set in the Linux kernel so that the MI300X gets good matmul performance?", "en"),
    ("What should I configure for good MI300X matmul performance?", "en"),
    ("Что нужно настроить в ядре Linux, чтобы MI300X показывал нормальную производительность matmul?", "ru"),
    ("为了让 MI300X 的矩阵乘法性能正常，Linux 内核需要设置什么？", "zh"),
    # something to tune or check, asked as users put it
    ("MI300X 上 matmul 性能一直上不去，系统层面有什么要调的？", "zh"),
    ("Our MI300X matmul TFLOPS look way below spec. What should we check first?", "en"),
    ("MI300X: matmul TFLOPS низкие, что проверить в системе?", "ru")])
def test_a_thing_to_do_asked_is_no_figure_though_an_attribute_is_its_aim(table, question, lang):
    assert understand(question, lang, table) is None


@pytest.mark.parametrize("question, lang, attribute", [
    ("How much memory does the MI300X have so that a 70B model fits?", "en", "memory_capacity"),
    ("为了跑满 H100 需要多大的显存带宽？", "zh", "memory_bandwidth"),
    ("In order to fit a 70B model how much memory does the MI300X need?", "en", "memory_capacity"),
    ("Чтобы обучить модель 70B сколько памяти нужно на H100?", "ru", "memory_capacity"),
    ("What do I set so that the MI300X gets good matmul performance and what is its memory bandwidth?", "en",
     "memory_bandwidth"),
    ("I want to get the H100 memory bandwidth, what is it?", "en", "memory_bandwidth"),
    # the attribute named only as the aim is still the figure asked
    ("为了比较显存带宽，H100 和 MI300X 分别是多少？", "zh", "memory_bandwidth"),
    ("哪款芯片才能提供最高的显存带宽？", "zh", "memory_bandwidth"),
    ("How much did AMD manage to improve memory bandwidth from MI250 to MI300X?", "en", "memory_bandwidth")])
def test_a_purpose_or_aim_beside_a_figure_asked_keeps_the_figure(table, question, lang, attribute):
    assert understand(question, lang, table).attribute == attribute


def test_a_bare_chinese_count_counts_what_the_question_named_not_chips(table):
    # "其中几个" counts the ports named before it; a chip's name after 几个 is what is counted
    assert understand("Gaudi2 有 24 个以太网端口，其中几个用于节点内？", "zh", table) is None
    assert understand("Trn2 实例里有几个 Trainium2？", "zh", table).attribute == "chip_count"
    assert understand("一台 trn2 服务器有几个加速卡？", "zh", table).attribute == "chip_count"
    # a model number that is no chip counts no chips ("HBM3"), and a longer cue wins over the bare 几个
    assert understand("MI300X 有几个 HBM3 堆栈？", "zh", table) is None
    assert understand("Trainium2 有几个 NeuronCore-v3？", "zh", table).attribute == "neuron_cores"
    assert understand("一台 trn1.32xlarge 有几颗芯片？", "zh", table).attribute == "chip_count"


def test_superlative_ranks_like_with_like(table):
    _, most = lookup(table, "Which accelerator has the most HBM?", "en")
    assert most.answer.kind == "superlative" and most.answer.unit == "GB"
    assert most.answer.best in {"nvidia-b300-sxm", "amd-mi355x", "amd-mi350x"}
    assert "288 GB" in most.answer.text


def test_the_winner_of_a_ranking_is_shown_as_its_source_states_it(table):
    # the candidates are ranked in one unit, but the winner's value is not converted into it (96 GB, not 91552.7 MiB)
    _, ranked = lookup(table, "Which chip has the most fast on-chip memory?", "en")
    answer = ranked.answer
    winner = [f for f in table.about(answer.best, answer.attribute) if f.is_number]
    assert {f.unit for f in winner} != {answer.unit}, "the test needs a winner stated in another unit"
    assert any(fmt_range(f.value, f.value, f.unit, "en") in answer.text for f in winner), answer.text


def _corpus_copy(project_settings, tmp_path) -> Path:
    target = tmp_path / "corpus"
    shutil.copytree(project_settings.corpus_dir, target, ignore=shutil.ignore_patterns("sources"))
    return target


def test_a_bad_curated_fact_is_refused_naming_file_and_line(project_settings, tmp_path):
    corpus = _corpus_copy(project_settings, tmp_path)
    facts = corpus / "specs" / "facts.yaml"
    text = facts.read_text(encoding="utf-8")
    line = text.splitlines().index("  quote: 6912 CUDA Cores") + 1
    facts.write_text(text.replace("  quote: 6912 CUDA Cores", "  quote: 6913 CUDA Cores"), encoding="utf-8")
    with pytest.raises(SpecError, match=rf"facts\.yaml:{line - 3}: field 'quote': not found"):
        FactTable.build(corpus, load_corpus(corpus))
    facts.write_text(text.replace("  value: 6912\n", "  value: 6900\n"), encoding="utf-8")
    with pytest.raises(SpecError, match=r"facts\.yaml:\d+: the quote does not contain the value 6900"):
        FactTable.build(corpus, load_corpus(corpus))
    facts.write_text(text.replace("  value: 6912\n", "  value: lots\n"), encoding="utf-8")
    with pytest.raises(SpecError, match=rf"facts\.yaml:{line - 3}: field 'value': "):
        FactTable.build(corpus, load_corpus(corpus))
    lost = text.replace("  status: unknown\n  value_text: '[?]963'\n", "  value: 963\n")
    facts.write_text(lost, encoding="utf-8")
    with pytest.raises(SpecError, match=r"lost digits"):
        FactTable.build(corpus, load_corpus(corpus))


def test_a_wrong_table_mapping_is_refused_naming_the_article_line(project_settings, tmp_path):
    corpus = _corpus_copy(project_settings, tmp_path)
    attributes = corpus / "specs" / "attributes.yaml"
    # make "Memory Pool Size" read as memory capacity: its cells are chip counts, not bytes
    text = attributes.read_text(encoding="utf-8").replace("headers: ['^memory pool size']", "headers: []")
    attributes.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match=r"corpus/en/aws-trainium2-architecture\.md:\d+: 'Memory Pool Size' reads as "
                                        r"memory_capacity"):
        FactTable.build(corpus, load_corpus(corpus))


def test_a_build_with_a_bad_fact_fails_and_keeps_the_previous_index(project_settings, tmp_path):
    from kb.build import build_index
    from kb.index import load_index
    from tests.fakes import HashingEncoder

    corpus = _corpus_copy(project_settings, tmp_path)
    index_dir = tmp_path / "index"
    first = build_index(corpus, index_dir, HashingEncoder(), progress=False)
    assert first["counts"]["facts"] > 400 and first["counts"]["fact_conflicts"] >= 4
    facts = corpus / "specs" / "facts.yaml"
    facts.write_text(facts.read_text(encoding="utf-8").replace("  value: 6912\n", "  value: 6900\n"), encoding="utf-8")
    with pytest.raises(SpecError, match=r"facts\.yaml:\d+: the quote does not contain the value 6900 \(numbers in it: 6912\)"):
        build_index(corpus, index_dir, HashingEncoder(), progress=False)
    index = load_index(index_dir)
    assert index.manifest["build_id"] == first["build_id"] and index.facts.about("nvidia-a100-sxm", "cuda_cores")


def test_a_memory_figure_under_a_decimal_or_binary_prefix_is_one_figure():
    from kb.specs.units import capacity_twins

    assert capacity_twins("GB", "GiB") and capacity_twins("TiB", "TB") and capacity_twins("kB", "KiB")
    assert not capacity_twins("GB", "GB") and not capacity_twins("GB", "TiB")
    assert not capacity_twins("GB/s", "GiB/s")  # bandwidth is decimal


def _refused_after_edit(project_settings, tmp_path, name: str, old: str, new: str, match: str) -> None:
    """A copy of the corpus with ``old`` replaced by ``new`` in ``specs/name`` fails to build with ``match``."""
    corpus = _corpus_copy(project_settings, tmp_path)
    path = corpus / "specs" / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(SpecError, match=match):
        FactTable.build(corpus, load_corpus(corpus))


def test_a_cue_written_in_double_quotes_is_refused_naming_the_line(project_settings, tmp_path):
    # YAML reads "\b" in double quotes as a backspace: such a cue would silently never match
    _refused_after_edit(project_settings, tmp_path, "attributes.yaml", "'\\bmemory clock\\b'", '"\\bmemory clock\\b"',
                        r"attributes\.yaml:\d+: pattern '\\x08memory clock\\x08' holds a control")


def test_agreement_allows_half_a_last_digit_of_each_figure_in_its_own_unit():
    from kb.specs.facts import _agree
    from kb.specs.model import Fact

    def fact(value, unit, decimals):
        return Fact.model_construct(value=value, unit=unit, decimals=decimals, status="value", text=None)

    assert _agree(fact(0.8, "TB/s", 1), fact(800, "GB/s", 0)) and _agree(fact(47.5, "TFLOPS", 1), fact(48, "TFLOPS", 0))
    # 820 GiB/s is 0.88 TB/s: "820" is exact to a GiB/s, not to half a TB/s
    assert not _agree(fact(0.8, "TB/s", 1), fact(820, "GiB/s", 0))
    assert not _agree(fact(820, "GiB/s", 0), fact(0.8, "TB/s", 1))
    assert not _agree(fact(190, "TFLOPS", 0), fact(191, "TFLOPS", 0))


def test_a_comparison_weighs_figures_of_one_kind_against_each_other(table):
    # one-way and bidirectional ICI figures of both TPUs: one-way against one-way, not a range of both
    _, spec = lookup(table, "TPU v5e or TPU v5p: which one has more ICI bandwidth per link?", "en")
    assert spec.answer.higher == "google-tpu-v5p" and spec.answer.text.startswith("Google TPU v5p is higher: 90 GB/s")
    # a kind named in the question picks it
    _, both_ways = lookup(table, "TPU v5e or TPU v5p: which has more bidirectional ICI bandwidth per link?", "en")
    assert "180 GB/s against 90 GB/s" in both_ways.answer.text


def test_units_spelled_out_in_words_are_units(table):
    from kb.specs.units import canonical_unit

    assert [canonical_unit(u) for u in ("petaflops", "Teraflops", "watts", "gigabytes", "megahertz")] == \
        ["PFLOPS", "TFLOPS", "W", "GB", "MHz"]
    wse = table.about("cerebras-wse-3", "peak_compute")  # "rated at "125 petaflops of AI compute""
    assert [(f.value, f.unit) for f in wse] == [(125, "PFLOPS")]


def test_a_family_that_is_no_entity_is_refused_naming_the_file(project_settings, tmp_path):
    _refused_after_edit(project_settings, tmp_path, "entities.yaml", "family: amd-mi300}", "family: amd-mi900}",
                        r"entities\.yaml.*family 'amd-mi900' is not an entity")


def test_a_precision_and_a_word_for_power_compare_the_peak_in_that_precision(table):
    _, spec = lookup(table, "у кого FP64 мощнее, B300 или B200?", "ru")
    assert spec.answer.kind == "comparison" and spec.answer.higher == "nvidia-b200-sxm"
    assert spec.answer.text.startswith("У NVIDIA B200 SXM больше: 296 TFLOPS")


@pytest.mark.parametrize("question, lang", [
    ("What are the CC-Cores of Trainium2 used for?", "en"),
    ("What does a NeuronCore do?", "en"),
    ("Что такое Logical NeuronCore Configuration (LNC) в Trainium2?", "ru"),
    ("Для чего нужны CC-Cores в Trainium2?", "ru"),
    ("Trainium2 上的 CC-Core 是干什么用的？", "zh"),
    ("什么是 NeuronCore？", "zh"),
    ("Что делают CC-Cores в Trainium2?", "ru"),
    ("Trainium2 的 NeuronLink 除了芯片间互联还能干什么？", "zh"),
    # the main drawback is a reason, not a ranking ("最大" of "最大的问题" is no "highest")
    ("TPU 性能不差，那用 TPU 最大的问题是什么？", "zh"),
    ("What's the biggest drawback of the H100?", "en"),
    ("Какая самая большая проблема у TPU по производительности?", "ru"),
])
def test_what_a_thing_is_or_is_for_asks_a_definition_not_a_figure(table, question, lang):
    # "NeuronCore" and "CC-Core" are words of core counts; asked what they are, no count answers
    assert understand(question, lang, table) is None
    assert understand("How many CC-Cores does Trainium2 have?", "en", table).attribute == "cc_cores"


@pytest.mark.parametrize("question, lang, attribute", [
    # a figure asked beside a purpose is still a spec question
    ("What is the price for H100?", "en", "price_per_hour"),
    ("what is the memory bandwidth of the H100 used for training", "en", "memory_bandwidth"),
    ("Какой объём памяти у H100 и для чего он нужен?", "ru", "memory_capacity"),
    ("H100 的显存带宽是多少？用途是训练", "zh", "memory_bandwidth"),
    ("what is the max memory bandwidth of H100 and is it a problem?", "en", "memory_bandwidth"),
    # a clause of its own asks the figure beside the drawback or the purpose
    ("What is the H100's memory bandwidth, and what is its main drawback?", "en", "memory_bandwidth"),
    ("Какая пропускная способность памяти у H100 и какой у неё главный недостаток?", "ru", "memory_bandwidth"),
    ("Что делают тензорные ядра H100 и какая у них производительность в FP16?", "ru", "peak_compute"),
    ("TPU v5p 的内存最大是多少？", "zh", "memory_capacity"),
    # a polite request asks the figure all the same
    ("Can you tell me the memory bandwidth of the H100?", "en", "memory_bandwidth"),
    ("Можно ли узнать пропускную способность памяти у H100?", "ru", "memory_bandwidth"),
    ("能不能告诉我 H100 的显存带宽？", "zh", "memory_bandwidth"),
    # the new attributes' cues leave ordinary questions alone
    ("Какое потребление памяти у A100?", "ru", "memory_capacity"),  # memory consumption is no power
    ("Сколько каналов памяти у H100?", "ru", "memory_capacity"),  # memory channels are no links
    ("H100 每条 HBM 通道带宽多少？", "zh", "memory_bandwidth"),  # 每条 alone is no link
    ("How much memory do I need for KV cache storage on H100?", "en", "memory_capacity"),  # storage alone no disk
    ("Сколько памяти у дискретной видеокарты A100?", "ru", "memory_capacity"),  # дискретной is no disk
])
def test_ordinary_questions_keep_their_attribute_beside_a_purpose_or_a_new_attributes_word(table, question, lang,
                                                                                           attribute):
    assert understand(question, lang, table).attribute == attribute


def test_links_their_bandwidth_and_local_storage_are_attributes_asked_in_every_language(table):
    # the NVLink table's per-link bandwidth and ports per GPU were skipped while no attribute measured them
    assert {(f.attribute, f.value, f.unit) for f in table.about("nvlink-4", "link_bandwidth")} == {
        ("link_bandwidth", 25.0, "GB/s")}
    assert [(f.value, f.unit) for f in table.about("nvlink-4", "link_count")] == [(18.0, "links")]
    # a sentence with a sign that normalizes to two letters ("Infinity Fabric™ links") is read, not skipped
    assert [(f.value, f.unit) for f in table.about("amd-mi300x", "link_count")] == [(7, "links")]
    asked = {
        ("nvlink4 跟 nvlink5 单条 link 哪个快", "zh"): "link_bandwidth",
        ("What is the per-link bandwidth of NVLink 5?", "en"): "link_bandwidth",
        ("Какая пропускная способность одного линка NVLink 4?", "ru"): "link_bandwidth",
        ("How many links per GPU does NVLink 4.0 have?", "en"): "link_count",
        ("How much local NVMe storage does a DL1 instance have?", "en"): "local_storage",
        ("Сколько NVMe-хранилища у инстанса DL1?", "ru"): "local_storage",
        # a word between the two words of a cue, and a versioned acronym
        ("Какая площадь у кристалла Cerebras WSE-3 в мм²?", "ru"): "die_area",
        ("Какая пропускная способность EFAv3 у trn2.48xlarge?", "ru"): "network_bandwidth",
        # an interconnect's acronym with "per link" is that interconnect's own per-link figure
        ("Which TPU has more ICI bandwidth per link, v5e or v6e?", "en"): "ici_bandwidth",
        ("TPU v5e 每条 ICI 链路带宽是多少", "zh"): "ici_bandwidth",
        # between instances, where the interconnect's own name is a cue of the chip-to-chip bandwidth; a head
        # noun's phrase that holds the other cue is not governed by it
        ("Trn2 UltraServer 里，跨实例的 NeuronLink-v3 带宽每颗芯片是多少？", "zh"): "inter_instance_bandwidth",
        ("Какая пропускная способность NeuronLink между инстансами в Trn2 UltraServer?", "ru"):
            "inter_instance_bandwidth",
        ("What is the NeuronLink bandwidth of Trainium2?", "en"): "interchip_bandwidth",
        # a unit of area written in the question names the one attribute measured in it
        ("How big is the NVIDIA A100 die, in mm²?", "en"): "die_area",
        ("A100 芯片有多少平方毫米？", "zh"): "die_area",
        # a count with the measure word 个 is not a count of links unless links are named
        ("Trn2 有多少个 NeuronCore？", "zh"): "neuron_cores",
    }
    for (question, lang), attribute in asked.items():
        assert understand(question, lang, table).attribute == attribute, question


def test_what_the_corpus_states_of_registers_caches_and_memory_dies_are_attributes(table):
    # the memory-hierarchy table's register row and L2 bandwidth cell, the HBM table's per-pin rate and die size
    assert [(f.value, f.unit) for f in table.about("nvidia-h100-sxm", "register_file")][:1] == [(32.0, "MB")]
    assert [(f.value, f.unit) for f in table.about("nvidia-h100-sxm", "l2_bandwidth")] == [(5.5, "TB/s")]
    assert [(f.value, f.unit) for f in table.about("hbm3", "pin_data_rate")] == [(6.4, "Gbps")]
    assert [(f.value, f.unit) for f in table.about("hbm3e", "die_capacity")] == [(3.0, "GiB")]
    # the L2 row of the bandwidth column is not the memory's bandwidth
    assert 5.5 not in {f.value for f in table.about("nvidia-h100-sxm", "memory_bandwidth")}
    assert understand("Какой размер scale-up домена у GB200 NVL72?", "ru", table) is None  # a size, no bandwidth


@pytest.mark.parametrize("question, lang, attribute", [
    ("H100 的 L2 缓存带宽大概是多少？", "zh", "l2_bandwidth"),
    ("Какая пропускная способность кэша L2 у H100?", "ru", "l2_bandwidth"),
    ("H100 的 L2 缓存多大？", "zh", "l2_cache"),  # a size, not a rate
    ("How big is the H100 register file?", "en", "register_file"),
    ("TPU v5p 有多少寄存器？", "zh", "register_file"),
    ("What's the per-pin data rate of HBM3?", "en", "pin_data_rate"),
    ("Какая скорость на вывод у HBM3e?", "ru", "pin_data_rate"),
    ("What is the die capacity of HBM3e?", "en", "die_capacity"),
    ("Per Ascend 950DT, how much scale-up bandwidth is there?", "en", "interchip_bandwidth"),
    # the verb is no register file
    ("How much does a p4d instance cost per hour if I register for a savings plan?", "en", "price_per_hour"),
    ("Нужно ли регистрироваться, чтобы узнать цену trn1.32xlarge в час?", "ru", "price_per_hour"),
])
def test_the_new_attributes_are_asked_in_every_language(table, question, lang, attribute):
    assert understand(question, lang, table).attribute == attribute


def test_a_rate_said_one_way_is_read_with_its_direction(table):
    # "840GBps of unidirectional UB Link scale-up bandwidth each": the chip-to-chip figure, one way
    found = [(f.value, f.unit, f.basis) for f in table.about("huawei-ascend-950dt", "interchip_bandwidth")]
    assert (840.0, "GB/s", "one-way") in found and (1.68, "TB/s", "bidirectional") in found


def test_a_table_label_may_name_its_own_attribute_and_an_unknown_one_is_refused(project_settings, tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(project_settings.corpus_dir, corpus)
    tables = corpus / "specs" / "tables.yaml"
    text = tables.read_text(encoding="utf-8")
    assert '"L2 缓存": {attribute: l2_bandwidth}' in text
    tables.write_text(text.replace('"L2 缓存": {attribute: l2_bandwidth}', '"L2 缓存": {attribute: l2_speed}'),
                      encoding="utf-8")
    with pytest.raises(SpecError, match="unknown attribute 'l2_speed'"):
        FactTable.build(corpus, load_corpus(corpus))


@pytest.mark.parametrize("question, lang, attribute", [
    # a count word's gap holding another attribute's noun, with the count's noun its genitive: that noun is asked
    ("Сколько всего памяти ускорителей в одном Trn2 UltraServer?", "ru", "memory_capacity"),
    ("Сколько всего памяти ускорителей (device memory) в одном Trn2 UltraServer?", "ru", "memory_capacity"),
    ("Сколько всего чипов в Trn2 UltraServer?", "ru", "chip_count"),
    ("H100 每个 SM 的 SMEM 是多大？", "zh", "smem_per_sm"),  # a qualifier inside a cue stays a qualifier
])
def test_a_noun_inside_a_count_phrase_is_what_is_counted_when_the_count_word_qualifies_it(table, question, lang,
                                                                                         attribute):
    assert understand(question, lang, table).attribute == attribute


def test_a_nodes_total_is_never_answered_with_one_chips_figure(table):
    # a node's total NVLink bandwidth is the node's ("H100 节点：8 GPU，每 GPU 450GB/s，总 3.6TB/s"), never one GPU's
    for question, lang in (("8 卡 H100 节点的 NVLink 总带宽是多少？", "zh"),
                           ("Какая суммарная пропускная способность NVLink в узле из 8 H100?", "ru")):
        _, spec = lookup(table, question, lang)
        assert [(e.attribute, e.value) for e in spec.entries] == [("total_gpu_bandwidth", 3.6)], question
    # a node's total the table has no figure of: the passages answer it
    assert understand("8 卡 H100 节点的 HBM 总带宽是多少？", "zh", table) is None
    assert understand("What is the NVLink bandwidth of the H100?", "en", table).attribute == "gpu_bandwidth"
    assert understand("What's the HBM bandwidth of the H100 for multi-node training?", "en", table).attribute == \
        "memory_bandwidth"  # a node named, no total asked
    # a figure of a node by definition answers it, and so does an instance's or a system's own total
    query = understand("Which has more egress bandwidth per node: a GB200 NVL72 or an 8-GPU B200 node?", "en", table)
    assert (query.kind, query.attribute) == ("comparison", "node_egress_bandwidth")
    _, spec = lookup(table, "What's the total HBM in a Trn2 UltraServer?", "en")
    assert [(e.value, e.unit) for e in spec.entries] == [(6144.0, "GiB")]
    # a system's total is no figure of the chip it is built of
    _, spec = lookup(table, "What is the total memory of a GB200 NVL72?", "en")
    assert spec.missing and not spec.entries
    _, spec = lookup(table, "How much memory does the GB200 NVL72 have?", "en")  # no total asked: its chip's, labelled
    assert [e.entity for e in spec.entries] == ["nvidia-gb200-sxm"]
    # a process node, training over several nodes, one chip asked of, a bus (总线): no node's total
    for question, lang, attribute in (("What process node is the whole MI300X built on?", "en", "process_node"),
                                      ("For multi-node training, what is the total HBM capacity of one H100?", "en",
                                       "memory_capacity"),
                                      ("Сколько всего памяти у одного H100 при обучении на нескольких узлах?", "ru",
                                       "memory_capacity"),
                                      ("H100 采用 4N 工艺节点，总共有多少个晶体管？", "zh", "transistor_count"),
                                      ("单个 H100 的显存总共多少？多节点训练要用。", "zh", "memory_capacity"),
                                      ("H100 节点中每张卡的 PCIe 总线带宽是多少？", "zh", "pcie_bandwidth")):
        assert understand(question, lang, table).attribute == attribute, question


def test_a_memory_type_beside_a_product_is_its_make_up_not_a_second_subject(table):
    query = understand("What is the memory bandwidth of the 80GB HBM2e A100?", "en", table)
    assert (query.kind, query.entities) == ("lookup", ("nvidia-a100-sxm",))
    query = understand("Какая пиковая пропускная способность памяти у версии GH200 с 96 ГБ HBM3?", "ru", table)
    assert (query.kind, query.entities) == ("lookup", ("nvidia-gh200-sxm",))
    # unless it has a value of what is asked, and the product has none
    _, spec = lookup(table, "What's the per-link bandwidth of NVLink 4 on the H100?", "en")
    assert [(e.entity, e.value) for e in spec.entries] == [("nvlink-4", 25.0)]
    # with no product named, the memory types are the subjects
    assert set(understand("Which has the higher per-pin data rate, HBM3 or HBM3e?", "en", table).entities) == \
        {"hbm3", "hbm3e"}


def test_lowest_in_russian_and_a_rate_unit_in_cyrillic_are_read(table):
    query = understand("Какая из карт — A100 SXM, H100 PCIe или L40S — имеет самую низкую пропускную способность памяти?",
                       "ru", table)
    assert (query.kind, query.direction) == ("superlative", "lower")
    # "ГБ/с" is a rate, not an amount of memory
    query = understand("Какова пропускная способность PCIe у TPU v4 в каждую сторону, в ГБ/с?", "ru", table)
    assert query.attribute == "pcie_bandwidth"
    assert understand("Сколько памяти у H100 в ГБ?", "ru", table).attribute == "memory_capacity"


@pytest.mark.parametrize("question, attribute", [
    # the head of a Chinese phrase comes last, after 的 or a gloss's bracket
    ("在实测的 BF16 矩阵乘法（MAMF）效率对比中，哪款加速器的效率最低？", "matmul_efficiency"),
    ("MI250 同一个 OAM 封装里两个 GCD 之间的峰值传输带宽是多少？", "die_link_bandwidth"),  # the bandwidth is the head
    ("trn1.32xlarge 每小时几块钱", "price_per_hour"),  # written together, no phrase
    ("Trainium2 芯片的 SBUF 片上缓存容量是多少？", "sbuf_capacity"),  # a gloss of one dimension names one thing
    ("Gaudi 2 和 H100 SXM 的 BF16 实测 matmul 效率（MAMF）哪个更高？", "matmul_efficiency"),  # a bracket: what it is of
    ("Trainium2 芯片的 SBUF（片上缓存）容量是多少？", "sbuf_capacity"),
])
def test_a_chinese_phrase_is_about_its_last_cue(table, question, attribute):
    assert understand(question, "zh", table).attribute == attribute


def test_comparisons_read_smaller_a_count_written_onto_a_name_and_a_version_written_before_its_sibling(table):
    query = understand("Trainium2 vs Trainium3: which one has the smaller SBUF?", "en", table)
    assert (query.kind, query.direction) == ("comparison", "lower")
    # a smaller or lower thing of another kind is no direction of the figure, and "высокая" asks for the higher
    assert understand("Which is fastest at smaller precisions like FP8: H100 or MI300X?", "en", table).direction == \
        "higher"
    assert understand("У какого ускорителя самая высокая пропускная способность памяти при низкой загрузке: H100 или "
                      "MI300X?", "ru", table).direction == "higher"
    question = table.vocabulary.mend_names("у какого узла выше исходящая пропускная способность сети: 8xH100 или GB200 NVL72?")
    assert set(understand(question, "ru", table).entities) == {"nvidia-h100-sxm", "nvidia-gb200-nvl72"}
    assert table.vocabulary.mend_names("trn1.32xlarge or 8xlarge") == "trn1.32xlarge or 8xlarge"
    # "v4" alone before "v5p": the TPU v4, named as the full name of its sibling with its version replaced
    query = understand("У какого TPU больше максимальный размер пода (superpod): v4 или v5p?", "ru", table)
    assert set(query.entities) == {"google-tpu-v4", "google-tpu-v5p"}
    assert set(understand("v5p or v4: which TPU has more HBM?", "en", table).entities) == {"google-tpu-v4",
                                                                                           "google-tpu-v5p"}
    assert understand("How much HBM do 4 or v5p chips have?", "en", table).entities == ("google-tpu-v5p",)
    # a Russian factor agrees with its number
    _, spec = lookup(table, "у какого узла выше исходящая пропускная способность сети: 8x H100 или GB200 NVL72?", "ru")
    assert "в 9 раз)" in spec.answer.text


def test_russian_power_with_a_precision_is_compute_and_a_single_stack_is_per_stack(table):
    assert understand("мощность gaudi3 в bf16?", "ru", table).attribute == "peak_compute"
    assert understand("HBM4 单个堆栈的最大数据速率是多少 GBps？", "zh", table).attribute == "stack_bandwidth"
    assert understand("HBM4 单个堆栈最大容量多少？", "zh", table).attribute == "stack_capacity"


def test_a_ranking_of_listed_parts_is_no_ranking_of_products(table):
    # the things ranked are listed, and they are parts of one system: the passage that compares them answers
    for question, lang in (("on a TPU system, out of HBM, ICI and DCN which one is the slowest?", "en"),
                           ("TPU的HBM、ICI、DCN这三种带宽里哪个最慢？", "zh"),
                           ("Which is slowest: PCIe, ICI, DCN?", "en")):
        assert understand(question, lang, table) is None, question
    # listed precisions, makers, clouds or workloads are no parts: the ranking of products stands
    for question, lang in (("Which is the fastest GPU for FP8, BF16 and FP16?", "en"),
                           ("FP8、BF16 和 FP16 下哪款芯片算力最高？", "zh"),
                           ("Which chip has the most HBM among NVIDIA, AMD and Intel?", "en"),
                           ("What is the cheapest instance on AWS, GCP and Azure?", "en"),
                           ("Which GPU has the highest TFLOPS for AI, HPC and ML workloads?", "en"),
                           ("Which is the fastest FP16/BF16 GPU?", "en")):
        assert understand(question, lang, table).kind == "superlative", question


def test_a_kind_of_attribute_that_names_no_attribute_is_refused_naming_the_file(project_settings, tmp_path):
    _refused_after_edit(project_settings, tmp_path, "attributes.yaml", "kind_of: fast_onchip_memory",
                        "kind_of: fast_onchip_memroy", r"attributes\.yaml.*kind_of 'fast_onchip_memroy' is not an attribute")


def test_asked_a_broader_attribute_the_named_chips_have_only_the_narrower_one_answers(table):
    # a Trainium's on-chip SRAM is its SBUF: asked the SRAM, the SBUF answers, in every language
    for question, lang in (("Which one has more SRAM: Trainium2 or Trainium3?", "en"),
                           ("Сколько SRAM на чипе у Trainium2?", "ru"), ("Trainium3 的片上缓存有多大？", "zh")):
        assert understand(question, lang, table).attribute == "sbuf_capacity", question
    _, spec = lookup(table, "Which one has more SRAM: Trainium2 or Trainium3?", "en")
    assert spec.answer.text.startswith("AWS Trainium3"), spec.answer.text
    # a chip that has the broader one is asked that one
    assert understand("How much SRAM does the H100 have?", "en", table).attribute == "fast_onchip_memory"


@pytest.mark.parametrize(("question", "lang", "asked", "values"), [
    # a word of one clause ("per chip") no longer steers the other's reading ("how many chips in a pod")
    ("TPU v5p: how many chips in a pod and how much HBM per chip?", "en", ("pod_size", "memory_capacity"), (8960, 95)),
    ("What is the memory capacity and the memory bandwidth of the H100?", "en",
     ("memory_capacity", "memory_bandwidth"), (80, 3.35)),
    ("Какую частоту и пропускную способность памяти имеет MI250?", "ru", ("clock", "memory_bandwidth"), (1.7, 3.28)),
])
def test_each_clause_that_asks_an_attribute_of_its_own_is_answered(table, question, lang, asked, values):
    query, spec = lookup(table, question, lang)
    assert (query.attribute, *spec.answer.also) == asked
    assert all(any(e.attribute == a and e.value == v for e in spec.entries) for a, v in zip(asked, values, strict=True))
    first, second = (spec.answer.text.index(f"{v:,}".replace(",", " " if lang == "ru" else ",").replace(
        ".", "," if lang == "ru" else ".")) for v in values)
    assert first < second, spec.answer.text  # in question order
    # one attribute asked of two things, or two things compared, is one reading
    query, spec = lookup(table, "How much memory do the H100 and the A100 have?", "en")
    assert query.attribute == "memory_capacity" and not spec.answer.also


@pytest.mark.parametrize(("question", "lang", "difference"), [
    ("Which reaches a higher fraction of its theoretical bf16 peak in matmul benchmarks, Gaudi 2 or H100 SXM?", "en",
     "16.6 percentage points more"),
    ("У кого выше доля от теоретического пика в matmul: Gaudi 2 или H100?", "ru", "на 16,6 п. п. больше"),
    # asked how much less: by points, the share of a share beside them (36%); 低多少 asks the lower side
    ("How much lower is the MI300X matmul efficiency than the H100's?", "en", "28.9 percentage points (36%) lower"),
    ("MI300X 的 matmul 效率比 H100 低多少？", "zh", "低 28.9个百分点（36%）"),
])
def test_two_shares_differ_by_percentage_points(table, question, lang, difference):
    _, spec = lookup(table, question, lang)
    assert difference in spec.answer.text, spec.answer.text


def test_a_premise_a_total_of_chips_and_a_names_own_word_are_no_further_asks(table):
    # a clause that states a figure is the question's premise
    query, spec = lookup(table, "Since the H100 has 132 SMs, what is its L2 cache size?", "en")
    assert query.attribute == "l2_cache" and not spec.answer.also
    # a cue inside a product's name ("PCIe" of "the SXM and PCIe versions") is the name's
    query, spec = lookup(table, "What is the memory capacity of the H100 SXM and PCIe versions?", "en")
    assert query.attribute == "memory_capacity" and not spec.answer.also and \
        {e.entity for e in spec.entries} == {"nvidia-h100-sxm", "nvidia-h100-pcie"}
    # a total of an instance or system is its own figure, and is answered with the other clause
    query, spec = lookup(table, "What is the aggregate HBM bandwidth of a Trn2 UltraServer and how many chips does "
                                "it have?", "en")
    assert {e.entity for e in spec.entries} == {"aws-trn2-ultraserver"} and spec.answer.also
    # each clause keeps the things it names; a list of keywords asks each attribute of all of them
    _, spec = lookup(table, "What is the H100's memory capacity, and what is the A100's memory bandwidth?", "en")
    assert {(e.entity, e.attribute) for e in spec.entries} == {("nvidia-h100-sxm", "memory_capacity"),
                                                               ("nvidia-a100-sxm", "memory_bandwidth")}
    _, spec = lookup(table, "H100 and A100: memory capacity and memory bandwidth?", "en")
    assert {(e.entity, e.attribute) for e in spec.entries} >= {(a, b) for a in ("nvidia-h100-sxm", "nvidia-a100-sxm")
                                                               for b in ("memory_capacity", "memory_bandwidth")}


@pytest.mark.parametrize(("question", "lang", "attribute"), [
    ("Which chip is the slowest in BF16?", "en", "peak_compute"),
    ("What is the slowest step of BF16 training on a TPU v5e?", "en", None),  # a step of a job, no chip
    ("A100 比 H100 慢了多少？", "zh", "peak_compute"),
    ("What fraction of the peak TFLOPS does the H100 achieve in matmul?", "en", "matmul_efficiency"),
    ("H100 能跑到峰值的几成？", "zh", "matmul_efficiency"),
    # a share of the peak power is no figure the table holds: neither the power nor the matmul efficiency
    ("Сколько процентов от пиковой мощности потребляет H100?", "ru", None),
    ("What percentage of the peak power does the MI300X draw?", "en", None),
    ("H100 功耗是峰值的百分之几？", "zh", None),
    ("What is 80% of the peak TFLOPS of the H100?", "en", "peak_compute"),  # a share given, not asked
    ("What is the bandwidth of each x16 PCIe 4.0 link on the MI250?", "en", "pcie_bandwidth"),  # the host's link
    ("Какое количество чипов и хостов в поде TPU v5p?", "ru", "pod_size"),
    ("MI250 里 GPU 之间一条 Infinity Fabric 链路峰值带宽多少？", "zh", "link_bandwidth"),  # 一条 is "one link"
    # a count of processors is a count of chips ("стоит" there stands, no price); stream processors are cores
    ("сколько процесоров Gaudi стоит в суперкомпьютере Voyager", "ru", "chip_count"),
    ("How many Gaudi processors does a DL1 have?", "en", "chip_count"),
    # "стоит в суперкомпьютере" stands in a machine: no price ("стоит час работы на сервере" is one)
    ("Сколько гауди стоит в суперкомпьютере Voyager в SDSC?", "ru", None),
    ("Сколько гауди стоит в суперкомпе Voyager?", "ru", None),  # "суперкомп", as people shorten it
    ("Сколько ускорителей Gaudi стоит в экспериментальном суперкомпе Voyager?", "ru", "chip_count"),
    ("Сколько стоит час работы на сервере с H100?", "ru", "price_per_hour"),
    ("DL1 有多少个 Gaudi 处理器？", "zh", "chip_count"),
    ("How many stream processors does the MI250 have?", "en", "stream_processors"),
    ("Сколько потоковых процессоров у MI250?", "ru", "stream_processors"),
    ("How many Xeon processors does a DL1 instance have?", "en", None),  # a host's CPUs are no accelerator chips
    ("Сколько векторных процессоров у Trainium?", "ru", None),
    ("DL1用了几个Xeon处理器？", "zh", None),
    # a clock rate or a training loop is no clock cycle
    ("What is the peak compute of the TPU v5e at one clock rate?", "en", "peak_compute"),
    ("Сколько памяти нужно H100 на цикл обучения?", "ru", "memory_capacity"),
])
def test_words_of_speed_share_and_links_name_the_attribute(table, question, lang, attribute):
    query = understand(question, lang, table)
    assert (query.attribute if query else None) == attribute


def test_a_clause_cued_by_its_unit_alone_asks_an_attribute_of_its_own(table):
    # "in mm²" names the one attribute measured in area: the die's, asked beside the transistor count
    query, spec = lookup(table, "How big is the A100 die in mm²? Also how many transistors does it have?", "en")
    assert (query.attribute, *spec.answer.also) == ("die_area", "transistor_count")
    assert spec.answer.text.index("826 mm²") < spec.answer.text.index("54.2 billion")


@pytest.mark.parametrize(("question", "lang"), [
    ("Trainium2: how much HBM per chip and what is its bandwidth?", "en"),
    ("трейниум2: сколько HBM на чип и какая у неё пропускная способность?", "ru"),
    ("Trainium2 每颗芯片多少 HBM，它的带宽多少？", "zh"),
    ("Trainium2 每颗芯片多少 HBM？它的带宽呢？", "zh"),  # a follow-up asks with its particle alone
])
def test_a_bare_measure_asked_of_what_the_clause_before_named_is_its_own_ask(table, question, lang):
    query, spec = lookup(table, question, lang)
    assert (query.attribute, *spec.answer.also) == ("memory_capacity", "memory_bandwidth")
    # the same value written two ways by two sources ("2.90", "2.9") is one line
    assert sum(e.display in spec.answer.text for e in spec.entries if e.attribute == "memory_bandwidth") == 1, \
        spec.answer.text
    # a clause pointing back with no measure of its own asks nothing more
    query, spec = lookup(table, "How much HBM does the Trainium2 have and is it per chip?", "en")
    assert query.attribute == "memory_capacity" and not spec.answer.also


@pytest.mark.parametrize(("question", "lang"), [
    ("How many bf16 FLOPs can one H100 tensor core do per cycle?", "en"),
    ("Сколько FLOPs за такт делает тензорное ядро H100?", "ru"),
    ("H100 的 Tensor Core 每周期能做多少 bf16 FLOPs？", "zh"),
])
def test_a_figure_per_clock_cycle_is_no_count_of_the_part_nor_a_rate_per_second(table, question, lang):
    # the table's rates are per second: a figure per cycle is none of them, and the part named is no count asked
    assert understand(question, lang, table) is None
    # without the cycle the words cue an attribute: it is the cycle that leaves the question to the passages
    assert understand(question.replace("per cycle", "").replace("за такт ", "").replace("每周期", ""), lang,
                      table) is not None


@pytest.mark.parametrize(("question", "lang"), [
    ("How many GPUs are in a Vera Rubin NVL72?", "en"),
    ("Сколько GPU в Vera Rubin NVL72?", "ru"),
])
def test_a_machines_alias_after_a_chip_it_is_not_built_of_names_no_such_machine(table, question, lang):
    # "NVL72" alone is the GB200 NVL72; written after the Rubin it is the Rubin's rack, which the table lacks
    query = understand(question, lang, table)
    assert query is None or "nvidia-gb200-nvl72" not in query.entities
    assert "nvidia-gb200-nvl72" in understand(question.replace("Vera Rubin ", ""), lang, table).entities


@pytest.mark.parametrize(("question", "lang"), [
    ("How many Trainium2 chips are in a Trn2 UltraServer?", "en"),
    ("Trn2 UltraServer 有多少颗 Trainium2？", "zh"),
])
def test_the_chip_a_machine_counts_is_what_is_counted_not_a_further_thing_asked(table, question, lang):
    # the Trainium2 is counted: its instance's 16 chips are no answer about the UltraServer
    _, spec = lookup(table, question, lang)
    assert [(e.entity, e.value) for e in spec.entries] == [("aws-trn2-ultraserver", 64)]
    # another figure counted in chips is still the chip's ("the memory pool of Trainium2 in a Trn2 UltraServer")
    _, spec = lookup(table, "What is the memory pool size of Trainium2 in a Trn2 UltraServer?", "en")
    assert spec.found and any(e.entity == "aws-trainium2" for e in spec.entries)


def test_a_russian_count_agrees_with_its_number():
    assert [unit_name("chips", "ru", n) for n in (1, 24, 1024, 11, 12, 128, 21, 64)] == \
        ["чип", "чипа", "чипа", "чипов", "чипов", "чипов", "чип", "чипа"]
    assert unit_name("links", "ru", 24) == "линка" and unit_name("cores", "ru", 16896) == "ядер"
    assert unit_name("chips", "ru") == "чипов" and unit_name("chips", "en", 1) == "chips"


def test_an_interconnect_that_is_no_entity_is_refused_naming_the_file(project_settings, tmp_path):
    _refused_after_edit(project_settings, tmp_path, "entities.yaml", "interconnect: nvlink-3}", "interconnect: nvlink-9}",
                        r"entities\.yaml.*interconnect 'nvlink-9' is not an entity")


@pytest.mark.parametrize(("question", "lang", "shown"), [
    ("a100 每张卡有几个 NVLink 端口？", "zh", "NVLink 3.0: 12 条链路"),  # the row "| 3.0 | Ampere | 25GB/s | 12 | ..."
    ("Сколько линков NVLink у A100?", "ru", "NVLink 3.0: 12 линков"),
    ("What is the bandwidth per link of H200 NVLink?", "en", "NVLink 4.0: 25 GB/s"),
])
def test_a_link_figure_a_chip_lacks_is_its_link_generations(table, question, lang, shown):
    _, spec = lookup(table, question, lang)
    assert spec.answer.text.startswith(shown), spec.answer.text


def test_a_chips_own_figure_comes_before_its_link_generations_and_a_chip_of_none_has_none(table):
    _, spec = lookup(table, "What is the NVLink bandwidth per GPU of the H100?", "en")
    assert {e.entity for e in spec.entries} == {"nvidia-h100-sxm"}, spec.answer.text
    _, spec = lookup(table, "How many NVLink links does the A100 PCIe have?", "en")
    assert not spec.entries and spec.missing  # no link generation named for the PCIe card
