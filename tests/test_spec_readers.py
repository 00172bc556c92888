"""Facts read from prose and tables of any article, how sure each reading is, and the coverage report."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.corpus import load_corpus, parse_article
from kb.specs.facts import FactTable
from kb.specs.present import lookup
from kb.specs.prose import FACT_CONFIDENCE, read_prose
from kb.specs.quantities import quantities
from kb.specs.questions import understand
from kb.specs.report import COVERAGE_TARGET, coverage, table_statements
from kb.specs.units import format_count, numbers_in
from kb.textnorm import normalize_for_matching, normalize_keeping_offsets

HEAD = """---
id: test-article
title: {title}
lang: {lang}
source: {{url: 'https://example.com/a', raw_file: a.en.md}}
publisher: Example
license: CC-BY-4.0
---
"""


def _article(body: str, lang: str = "en", title: str = "A test article"):
    return parse_article(HEAD.format(lang=lang, title=title) + "\n" + body, f"{lang}/test-article.md")


def _read(body, vocabulary, lang="en", title="A test article"):
    facts, candidates, relations, statements = read_prose(_article(body, lang, title), vocabulary, Path("corpus"))
    return facts, candidates, relations, statements


def test_a_list_takes_its_entity_from_the_line_that_leads_into_it(vocabulary):
    facts, _, _, _ = _read("## Cores\n\nH100 has:\n\n- 528 Tensor Cores (Gen 4)\n- 132 Streaming Multiprocessors (SM)\n",
                           vocabulary)
    found = {(f.entity, f.attribute, f.value) for f in facts}
    assert ("nvidia-h100-sxm", "tensor_cores", 528) in found and ("nvidia-h100-sxm", "sm_count", 132) in found
    quote = next(f for f in facts if f.attribute == "tensor_cores").source.quote
    assert quote.startswith("H100 has:") and "528 Tensor Cores" in quote  # the quote shows whose cores they are


def test_a_sentence_with_a_sign_that_normalizes_to_several_letters_is_read_in_place(vocabulary):
    # NFKC writes "™" as "TM": the sentence was skipped whole, since offsets would no longer match the source
    text = "The MI250 comes with 128 GB of HBM2e™ memory."
    assert normalize_keeping_offsets(text) == text and len(normalize_keeping_offsets("ＭＩ２５０™")) == 6
    facts, _, _, _ = _read(text + "\n", vocabulary)
    memory = [f for f in facts if f.attribute == "memory_capacity"]
    assert memory and memory[0].value == 128 and memory[0].source.quote.endswith("HBM2e™ memory.")


def test_chips_counted_of_a_chip_are_a_machines_count_never_the_chips_fact(vocabulary):
    # "8-GPU system" beside the MI300X counts the system's chips: for curators, never a fact of the chip
    facts, candidates, _, _ = _read("The MI300X has 192 GB of HBM3. The GPUs are linked to form a fully connected "
                                    "8-GPU system.\n", vocabulary)
    assert not [f for f in facts if f.attribute == "chip_count"]
    (candidate,) = [c for c in candidates if c.attribute == "chip_count"]
    assert candidate.entity == "amd-mi300x" and "a machine's count" in candidate.note
    # an instance's chips are its own
    facts, _, _, _ = _read("The DL1 instance has 8 Gaudi accelerators.\n", vocabulary)
    assert [(f.entity, f.value) for f in facts if f.attribute == "chip_count"] == [("aws-dl1", 8)]


def test_an_entity_named_only_sentences_before_makes_a_candidate_not_a_fact(vocabulary):
    facts, candidates, _, _ = _read("The MI250 GCD has 104 active CUs. Each unit runs at a peak clock frequency "
                                    "of 1.7 GHz.\n", vocabulary)
    assert ("amd-mi250", "compute_units", 104) in {(f.entity, f.attribute, f.value) for f in facts}
    clock = [c for c in candidates if c.attribute == "clock"]
    assert clock and clock[0].entity == "amd-mi250" and clock[0].confidence < FACT_CONFIDENCE
    assert not [f for f in facts if f.attribute == "clock"]


def test_a_memory_type_beside_a_number_names_the_attribute(vocabulary):
    facts, _, _, _ = _read("The 80GiB H100-SXM comes with HBM3 at 3.35TBps.\n", vocabulary)
    assert ("nvidia-h100-sxm", "memory_bandwidth", 3.35) in {(f.entity, f.attribute, f.value) for f in facts}
    # the memory's word with no generation names it as well
    facts, _, _, _ = _read('TPU7x per chip: 192GB HBM at "approximately 7.37 TB/s".\n', vocabulary)
    assert ("google-tpu-v7x", "memory_bandwidth", 7.37) in {(f.entity, f.attribute, f.value) for f in facts}


def test_a_number_no_cue_explains_is_a_guess_for_curators(vocabulary):
    facts, candidates, _, statements = _read("Gaudi3 ships with 128GB.\n", vocabulary)
    assert not facts
    assert candidates and candidates[0].attribute == "memory_capacity" and candidates[0].confidence < 0.5
    assert "guess" in statements[0].reason


def test_a_figure_restated_after_or_keeps_the_attribute_of_the_one_it_restates(vocabulary):
    sentence = ("The MI250 GCDs are connected via four links, giving 200 GB/sec peak transfer bandwidth between the two "
                "GCDs, or a bidirectional peak transfer bandwidth of 400 GB/sec for the same.\n")
    facts, candidates, _, _ = _read(sentence, vocabulary)
    found = {(f.entity, f.attribute, f.value, f.basis) for f in facts}
    assert ("amd-mi250", "die_link_bandwidth", 200, None) in found
    assert ("amd-mi250", "die_link_bandwidth", 400, "bidirectional") in found
    # without "or" the second figure is no restatement: no cue names it, so it stays a guess for curators
    facts, candidates, _, _ = _read(sentence.replace(", or a", ". A"), vocabulary)
    assert 400 not in {f.value for f in facts if f.attribute == "die_link_bandwidth"}
    # a figure of its own after "or" (another scope, a variant) or not twice the first is no restatement: the
    # per-link figure is the bandwidth per link, not the per-GPU one
    link = {(f.attribute, f.value) for f in _read("The H100 has 900 GB/s of NVLink bandwidth per GPU, or 50 GB/s per "
                                                  "link.\n", vocabulary)[0]}
    assert ("gpu_bandwidth", 900) in link and ("gpu_bandwidth", 50) not in link and ("link_bandwidth", 50) in link
    for other, value in (("The H100 SXM has 80 GB of HBM3 memory, or 94 GB in the NVL version.\n", 94),
                         ("The MI250 GCDs are linked at 200 GB/sec between the two GCDs, or a bidirectional 300 GB/sec.\n",
                          300)):
        assert value not in {f.value for f in _read(other, vocabulary)[0]}, other


def test_a_word_of_direction_belongs_to_the_figure_it_stands_by(vocabulary):
    sentence = ("Each MI250 link operates at 25 GT/sec, which corresponds to a theoretical peak transfer rate of "
                "50 GB/sec per link (or 100 GB/sec bidirectional peak transfer bandwidth).\n")
    found = {(f.value, f.basis) for f in _read(sentence, vocabulary)[0] if f.attribute == "link_bandwidth"}
    assert found == {(50, None), (100, "bidirectional")}
    # before its figure, with none between, it is that figure's
    found = {(f.value, f.basis) for f in _read("The MI250 has a bidirectional peak transfer bandwidth of 400 GB/sec "
                                               "between the GCDs.\n", vocabulary)[0]}
    assert (400, "bidirectional") in found


def test_a_unit_in_brackets_before_a_figure_is_its_unit_and_per_chip_is_no_per_link_attribute(vocabulary):
    sentence = ('TPU7x (Ironwood) per chip: 192GB HBM, and a "Bidirectional inter-chip interconnect (ICI) bandwidth '
                'per chip (GBps)" of 1200.\n')
    found = {(f.attribute, f.value, f.unit, f.basis) for f in _read(sentence, vocabulary)[0]}
    # "ICI" stands nearest, but its attribute is per link: the chip's interconnect bandwidth, cued further off
    assert ("interchip_bandwidth", 1200, "GB/s", "bidirectional") in found
    assert not [f for f in found if f[0] == "ici_bandwidth"]


def test_relations_are_read_with_their_direction_and_factor(vocabulary):
    _, _, relations, _ = _read("The H100 is 2-3x faster than the A100 for training.\n", vocabulary)
    r = relations[0]
    assert (r.subject, r.object, r.attribute, r.direction, r.factor) == \
        ("nvidia-h100-sxm", "nvidia-a100-sxm", "peak_compute", "higher", "2-3x")
    assert r.ratio == (2.0, 3.0)


def test_a_prose_reading_a_table_contradicts_is_a_candidate(table):
    # the vendors page gives GH200's H100 96 GiB and 144 GiB: not a disagreement with the H100's 80 GB tables
    h100 = {f.value for f in table.about("nvidia-h100-sxm", "memory_capacity")}
    assert 80 in h100 and not {96, 144} & h100
    doubted = [c for c in table.candidates if c.entity == "nvidia-h100-sxm" and c.attribute == "memory_capacity"]
    assert any("disagrees with" in (c.note or "") for c in doubted)


def test_numbers_grouped_with_no_break_spaces_are_one_number():
    assert [n.value for n in numbers_in("3\u00a0996 MHz")] == [3996]
    assert [n.value for n in numbers_in("1\u202f536 GiB, 3,200 Gbps")] == [1536, 3200]
    assert [n.value for n in numbers_in("12 345")] == [12, 345]  # a plain space separates two numbers
    # a decimal part after grouped thousands, in either style, and scale words up to a trillion
    assert [(n.value, n.decimals) for n in numbers_in("2\u00a0614,9 TFLOPS; 2,614.9 TFLOPS")] == [(2614.9, 1)] * 2
    assert [n.value for n in numbers_in("1,299, and 4 trillion, 4万亿, 3 трлн")] == [1299, 4e12, 4e12, 3e12]
    assert format_count(4e12, "en") == "4 trillion" and format_count(4e12, "zh") == "4万亿"


def test_a_misspelled_attribute_word_is_mended_but_a_real_word_is_not(table, vocabulary):
    known = frozenset({"lower", "power"})
    assert vocabulary.mend_spelling("mi250 peak clcok speed?", known) == "mi250 peak clock speed?"
    assert vocabulary.mend_spelling("memroy bandwdith of h100", known) == "memory bandwidth of h100"
    assert vocabulary.mend_spelling("which is lower", known) == "which is lower"  # "lower" is no "power"
    # a word common in general usage is no misspelling, whatever the corpus writes ("wants" is no "watts")
    assert vocabulary.mend_spelling("our team wants the process node", known) == "our team wants the process node"
    assert understand("mi250 peak clcok speed?", "en", table, known).attribute == "clock"


def test_the_last_of_equally_long_cues_is_the_head_of_the_phrase(table):
    assert understand("mi250 峰值主频是多少", "zh", table).attribute == "clock"  # 峰值 modifies 主频
    assert understand("MI250 的主频峰值算力", "zh", table).attribute == "peak_compute"


def test_taiwan_phrasing_is_folded_to_mainland_words_and_simplified_text_is_left_alone():
    assert normalize_for_matching("記憶體頻寬") == "内存带宽"
    assert normalize_for_matching("晶片記憶體") == "芯片内存"  # whole phrases, once the text is Traditional
    assert normalize_for_matching("程序员写的向量核心") == "程序员写的向量核心"  # tw2sp would make it 进程员


def test_an_attribute_the_table_lacks_is_said_so_with_the_passage_that_may_state_it(project_settings, table):
    """MI250's clock, read from prose with its entity in doubt (the article's title no longer names the MI250):
    not stated as a value, but its sentence is offered, and the question is not declined for lack of a fact."""
    articles = [a if a.meta.id != "amd-instinct-mi250-microarchitecture" else
                a.model_copy(update={"meta": a.meta.model_copy(update={"title": "A GPU microarchitecture"})})
                for a in load_corpus(project_settings.corpus_dir)]
    _, spec = lookup(FactTable.build(project_settings.corpus_dir, articles), "What is the peak clock of the MI250?", "en")
    assert not spec.found and spec.missing and not spec.entries
    assert spec.unsure and "1.7" in spec.unsure[0].quote
    assert spec.answer.text.startswith("The fact table has no clock frequency for AMD Instinct MI250")
    _, none = lookup(table, "What is the die area of the TPU v5e?", "en")
    assert none.missing and not none.unsure and none.answer.text == "The corpus has no die area for Google TPU v5e."
    # SRAM is the fast on-chip memory; the corpus gives the WSE-3's transistors and area, not its SRAM
    query, sram = lookup(table, "Какой объём встроенной SRAM у Cerebras WSE-3?", "ru")
    assert query.attribute == "fast_onchip_memory" and sram.missing and not sram.entries
    _, transistors = lookup(table, "How many transistors does the Cerebras WSE-3 have?", "en")
    assert [e.value for e in transistors.entries] == [4e12] and "4 trillion" in transistors.answer.text


def test_a_kind_of_unit_named_in_the_question_picks_its_figures(table):
    _, matrix = lookup(table, "Пиковая матричная производительность MI300X в FP8?", "ru")
    assert {e.basis for e in matrix.entries} == {"matrix"} and 2614.9 in {e.value for e in matrix.entries}
    _, plain = lookup(table, "Пиковая производительность MI300X в FP8?", "ru")
    assert {e.basis for e in plain.entries} == {"dense", "matrix"}  # no kind named: both figures


@pytest.mark.parametrize("question, lang, attribute", [
    # a figure the question gives is a premise: the attribute asked is the other one cued
    ("Если NVIDIA заявляет 80 TFLOPS векторного fp32 для B200, какая у него получается тактовая частота?", "ru", "clock"),
    ("If the H100 does 990 TFLOPS, what is its clock?", "en", "clock"),
    ("H100 80GB 的显存带宽是多少？", "zh", "memory_bandwidth"),
    # a unit without a number still says what is asked
    ("How many TFLOPS does the H100 have?", "en", "peak_compute"),
    ("Which accelerator has more than 100 TFLOPS?", "en", "peak_compute"),
])
def test_a_unit_after_a_number_in_the_question_is_a_figure_given_not_asked(table, question, lang, attribute):
    assert understand(question, lang, table).attribute == attribute
    _, result = lookup(table, question, lang)
    assert result.answer is not None and "TFLOPS" not in result.answer.text or attribute == "peak_compute"


def test_coverage_counts_every_statement_and_meets_its_target(project_settings, table):
    report = coverage(project_settings.corpus_dir, load_corpus(project_settings.corpus_dir), table)
    assert report["statements"] == sum(report["kinds"].values()) > 300
    assert report["by_origin"]["table"] and report["by_origin"]["prose"]
    assert report["accounted"] >= COVERAGE_TARGET, report["reasons"][:5]
    assert all(s["kind"] == "unresolved" for s in report["unresolved"])
    assert {r["kind"] for r in report["reasons"]} <= {"candidate", "judged", "unresolved"}


def test_the_sentence_subject_owns_its_figures_though_another_entity_is_named_after_them(vocabulary):
    facts, _, _, _ = _read("MI350X is the same silicon at 2200MHz and 1000W, with everything scaled by the clock "
                           "ratio; it is left out because MI355X is the part you can rent.\n", vocabulary)
    found = {(f.entity, f.attribute, f.value) for f in facts}
    # a bare MHz is the chip's clock: the memory clock is read only beside its cue
    assert ("amd-mi350x", "power", 1000) in found and ("amd-mi350x", "clock", 2200) in found
    assert not any(f.entity == "amd-mi355x" for f in facts)


def test_each_refers_to_the_nearest_entity_and_a_count_of_chips_belongs_to_the_instance(vocabulary):
    facts, candidates, _, _ = _read("At the heart of each Inf2 instance are up to twelve Inferentia2 chips (each "
                                    "with two NeuronCore-v2 cores).\n", vocabulary)
    found = {(f.entity, f.attribute, f.value) for f in facts}
    assert ("aws-inf2", "chip_count", 12) in found and ("aws-inferentia2", "neuron_cores", 2) in found
    assert not candidates


def test_a_value_read_sentences_after_its_entity_points_at_its_own_sentence(vocabulary):
    article = _article("The MI250 GCD has 104 active CUs. Each unit runs at a peak clock frequency of 1.7 GHz.\n")
    _, candidates, _, _ = read_prose(article, vocabulary, Path("corpus"))
    clock = next(c for c in candidates if c.attribute == "clock")
    assert clock.source.quote.startswith("The MI250 GCD")  # the quote shows whose clock it is
    assert article.body[clock.source.value_start:].startswith("1.7 GHz")  # the answer quotes this sentence


@pytest.mark.parametrize(("question", "lang", "attribute"), [
    ("How fast can a TPU v4 move data to/from host RAM over PCIe?", "en", "pcie_bandwidth"),  # a rate, not a size
    ("скока L2 кэша в B200", "ru", "l2_cache"),
    ("B200 的 L2 缓存有多大", "zh", "l2_cache"),
    # the first cache level is its own attribute, not any on-chip memory ("кэш" alone is)
    ("What is the L1 cache size per CU on MI300X?", "en", "l1_cache"),
    ("Какой размер L1-кэша у каждого CU в MI300X?", "ru", "l1_cache"),
    ("MI300X 每个 CU 的一级缓存多大？", "zh", "l1_cache"),
    ("B200 顯存時脈多少", "zh", "memory_clock"),  # Taiwan's word for a clock
    ("how many inferentia2 chips can you get in one inf2 instance?", "en", "chip_count"),
    ("一台 Inf2 最多能塞几颗 Inferentia2", "zh", "chip_count"),
    ("Максимальное число чипов Inferentia2 в одном инстансе Inf2?", "ru", "chip_count"),  # "число" as "number of"
    ("Количество чипов TPU v5p в одном поде?", "ru", "pod_size"),
    # a pod or host of GPUs is asked as one of chips ("SuperPod": a pod by another name)
    ("How many GPUs are in an H100 SuperPod?", "en", "pod_size"),
    ("Сколько GPU в H100 SuperPod?", "ru", "pod_size"),
    ("H100 SuperPod 一共多少块 GPU？", "zh", "pod_size"),
    ("how many accelerators per host on a TPU v5e?", "en", "host_size"),
    # a count of chips asked beside the whole it is of is that whole's
    ("TPU v5p pod size: how many chips?", "en", "pod_size"),
    ("Размер пода TPU v5p — сколько чипов?", "ru", "pod_size"),
    ("How many chips does the TPU v5p have?", "en", "chip_count"),
    # a word of what kind of on-chip memory between "on-chip" and "memory" keeps it on the chip, no HBM
    ("which has more fast on-chip scratch memory: H100 (SMEM) or TPU v5p (VMEM)?", "en", "fast_onchip_memory"),
    ("H100 on chip scratchpad memory size?", "en", "fast_onchip_memory"),
    # the share of the peak a measured figure reaches is the efficiency, named as a share
    ("Which reaches a higher fraction of its theoretical bf16 peak in matmul benchmarks, Gaudi 2 or H100 SXM?", "en",
     "matmul_efficiency"),
    ("У кого выше доля от теоретического пика в matmul: Gaudi 2 или H100?", "ru", "matmul_efficiency"),
    # a version number may stand in the link's name
    ("What is the bandwidth of one NVLink 5.0 link on Blackwell GPUs?", "en", "link_bandwidth"),
    ("Какая скорость у каждого NVLink 5.0 линка?", "ru", "link_bandwidth"),
])
def test_question_words_name_the_attribute(table, question, lang, attribute):
    assert understand(question, lang, table).attribute == attribute


def test_precision_written_in_words_is_a_data_type(table):
    assert understand("double precision TFLOPS of the MI250X", "en", table).dtype == "FP64"
    assert understand("MI250X 的双精度算力", "zh", table).dtype == "FP64"
    assert understand("производительность MI250X в одинарной точности", "ru", table).dtype == "FP32"


LABEL_TABLE = """## Chip

Each Trainium3 chip consists of:

|  |  |
| --- | --- |
| Compute | Eight NeuronCore-v4 cores that deliver 671 BF16/FP16/TF32 TFLOPS and 183 FP32 TFLOPS. |
| Device memory | 144 GiB of device memory, with 4.9 TB/sec of bandwidth. |
| NeuronLink | NeuronLink-v4 for device-to-device interconnect provides 2.56 TB/sec bandwidth per device. |
"""


def test_the_sentence_cells_of_a_label_table_are_read_with_the_lead_in_entity_and_the_label(vocabulary):
    facts, _, _, statements = _read(LABEL_TABLE, vocabulary)
    found = {(f.entity, f.attribute, f.value, f.unit, f.dtype) for f in facts}
    assert ("aws-trainium3", "neuron_cores", 8, "cores", None) in found
    # the precision written between the number and its unit is the fact's data type
    assert ("aws-trainium3", "peak_compute", 671, "TFLOPS", "BF16/FP16/TF32") in found
    assert ("aws-trainium3", "peak_compute", 183, "TFLOPS", "FP32") in found
    assert ("aws-trainium3", "memory_capacity", 144, "GiB", None) in found
    # no cue beside these rates: the row's label says which ("Device memory" is the memory's bandwidth)
    assert ("aws-trainium3", "memory_bandwidth", 4.9, "TB/s", None) in found
    assert ("aws-trainium3", "interchip_bandwidth", 2.56, "TB/s", None) in found
    quote = next(f for f in facts if f.attribute == "interchip_bandwidth").source.quote
    assert quote.startswith("NeuronLink-v4") and "|" not in quote  # the cell's sentence, not the table markup
    assert all(s.outcome == "fact" for s in statements)
    # without the line that leads into it the table names no entity: nothing is a fact
    facts, _, _, _ = _read(LABEL_TABLE.replace("Each Trainium3 chip consists of:", "The components:"), vocabulary)
    assert not facts


def test_a_table_of_values_is_not_read_as_sentences(vocabulary):
    facts, _, _, statements = _read("## Chips\n\nTrainium3 has:\n\n| Chip | Memory |\n| --- | --- |\n"
                                    "| Trainium3 | 144 GiB |\n", vocabulary)
    assert not facts and not statements  # the spec tables read it (tables.yaml), the prose reader does not


def test_coverage_counts_the_sentence_cells_of_label_tables_once(project_settings, table):
    article = next(a for a in load_corpus(project_settings.corpus_dir) if a.meta.id == "aws-inferentia2-architecture")
    _, _, _, statements = read_prose(article, table.vocabulary, project_settings.corpus_dir)
    cells = {s.quantity: s.outcome for s in statements if s.quantity.startswith(("380", "820", "1 TB"))}
    assert cells == {"380 INT8 TOPS": "fact", "820 GiB/sec": "fact", "1 TB/sec": "fact"}
    assert not table_statements(article, table)  # the prose reader counts them; the table count does not
    assert ("aws-inferentia2", 380) in {(f.entity, f.value) for f in table.about("aws-inferentia2", "peak_compute")}


def test_a_sentence_restating_a_dense_table_figure_is_the_same_entry(table):
    # the spec table says "dense" BF16, the sentence under it says nothing of sparsity: one statement
    _, spec = lookup(table, "What is the peak BF16 compute of the A100?", "en")
    here = [e for e in spec.entries if e.citation.article_id == "ml-engineering-accelerator-specs"]
    assert len(here) == 1 and here[0].value == 312 and here[0].also


def test_an_empty_row_of_a_label_table_is_skipped(vocabulary):
    facts, _, _, _ = _read(LABEL_TABLE + "| |\n", vocabulary)
    assert ("aws-trainium3", "memory_capacity", 144) in {(f.entity, f.attribute, f.value) for f in facts}


def test_a_sentence_restating_a_table_of_its_article_is_one_entry_that_cites_both(table):
    # "144 GiB of device memory" in the chip summary and "144" in the comparison table below it
    prose = [f for f in table.about("aws-trainium3", "memory_capacity") if f.source.origin == "prose"]
    assert prose and prose[0].source.quote.startswith("144 GiB of device memory")
    _, spec = lookup(table, "How much device memory does a Trainium3 chip have?", "en")
    entries = [e for e in spec.entries if e.value == 144 and e.citation.article_id == "aws-trainium3-architecture"]
    assert len(entries) == 1 and entries[0].also  # the other place is listed, not a second value
    assert {entries[0].citation.char_start, *(a.char_start for a in entries[0].also)} >= {prose[0].source.char_start}


def test_the_term_a_list_item_defines_names_the_attribute_of_its_figures(vocabulary):
    body = ("## Memory\n\n* **VMEM** (Vector Memory) is an on-chip scratchpad. It is much smaller than HBM "
            "(for example, 128 MiB on TPU v5e) but much faster.\n* The TPU v5e ships with 96 GB.\n")
    facts, candidates, _, _ = _read(body, vocabulary)
    assert ("google-tpu-v5e", "fast_onchip_memory", 128, "MiB") in {(f.entity, f.attribute, f.value, f.unit) for f in facts}
    # an item with no term: the bare size stays a guess for curators
    assert [(c.attribute, c.value) for c in candidates] == [("memory_capacity", 96)]


def _scopes(body, vocabulary):
    facts, candidates, _, _ = _read(body, vocabulary)
    return [(f.attribute, f.value, f.scope) for f in facts + candidates]


def test_a_figure_stated_for_a_part_of_the_chip_is_per_that_part(table, vocabulary):
    assert _scopes("The MI250 GCD has 104 active CUs.\n", vocabulary) == [("compute_units", 104, "per_gcd")]
    assert ("memory_bandwidth", 1.6, "per_gcd") in _scopes(
        "The MI250 offers 1.6 TB/sec of HBM2e memory bandwidth per GCD.\n", vocabulary)
    # the plural is the whole chip (its default scope comes later); a part named for the nearer figure is its own
    both = _scopes("AMD Instinct MI250 GPUs offer 3.2 TB/sec of memory bandwidth for both GCDs together.\n", vocabulary)
    assert both == [("memory_bandwidth", 3.2, None)]
    bracket = _scopes("The MI250 memory bandwidth is 3.2 TB/sec (1.6 TB/sec per GCD).\n", vocabulary)
    assert ("memory_bandwidth", 3.2, None) in bracket and ("memory_bandwidth", 1.6, "per_gcd") in bracket
    # a part word that describes ("dual-GCD design") is no part the figure is per
    assert _scopes("The MI250X is a dual-GCD design with 220 CUs.\n", vocabulary) == [("compute_units", 220, None)]
    # a question naming the part gets the part's figure; one about the chip, or both parts, reads the whole chip's
    _, gcd = lookup(table, "How many CUs does each MI250 GCD have?", "en")
    assert [(e.value, e.scope) for e in gcd.entries] == [(104, "per_gcd")]
    _, zh = lookup(table, "MI250 每个 GCD 有多少 CU？", "zh")
    assert [(e.value, e.scope) for e in zh.entries] == [(104, "per_gcd")]
    _, chip = lookup(table, "How many compute units does the MI250 have?", "en")
    assert chip.entries[0].scope == "per_chip" and chip.entries[0].value == 208
    query, both = lookup(table, "How many CUs do both GCDs of the MI250 have together?", "en")
    assert "per_gcd" not in query.scopes and both.entries[0].value == 208


def test_a_series_speaks_for_its_members_but_not_the_other_way(table):
    assert "amd-mi300" in table.related("amd-mi300x") and "amd-mi300x" not in table.related("amd-mi300")
    query, _ = lookup(table, "какой L2 кеш на один XCD у ускорителей серии MI300", "ru")
    assert query.entities == ("amd-mi300",) and query.scopes == ("per_xcd",) and query.attribute == "l2_cache"
    # a relation whose sentence names only the other side is about the article's subject (its title's entity),
    # and a relation of a series answers a comparison of its member, shown under the member's name
    _, spec = lookup(table, "Does the MI300X have more compute units than the MI250X?", "en")
    assert spec.answer.higher == "amd-mi300x" and spec.answer.text.startswith("AMD Instinct MI300X: 40% higher")
    assert "40% more than MI250X" in spec.relation.quote


def test_a_figure_after_a_possessive_is_its_owners_and_keeps_the_precision_named_before_it(vocabulary):
    facts, candidates, _, _ = _read("Worth knowing that B300 cut FP64 hard - 10TFLOPS against B200's 296TFLOPS per the "
                                    "same table.\n", vocabulary)
    found = {(f.entity, f.value, f.dtype) for f in facts + candidates}
    assert {("nvidia-b300-sxm", 10, "FP64"), ("nvidia-b200-sxm", 296, "FP64")} <= found
    # a precision in another clause, across a comma or a semicolon, is not the figure's
    facts, candidates, _, _ = _read("Unlike FP64 on older parts, the H100 delivers 989 TFLOPS. MI300X supports FP8 "
                                    "and sparsity; its peak dense compute is 1307 TFLOPS.\n", vocabulary)
    assert {f.value: f.dtype for f in facts + candidates} == {989: None, 1307: None}


def test_a_figure_of_a_system_built_of_a_chip_is_not_the_chips(vocabulary):
    facts, candidates, _, statements = _read("- B200 - official HGX B200 platform specs published (144PFLOPS FP4 sparse, "
                                             "1.4TB total memory)\n- H100 has 80 GB of HBM3.\n", vocabulary)
    assert not [f for f in facts + candidates if f.entity == "nvidia-b200-sxm"]
    assert any("system built of the chip" in s.reason for s in statements if s.quantity == "144PFLOPS")
    assert ("nvidia-h100-sxm", "memory_capacity", 80) in {(f.entity, f.attribute, f.value) for f in facts}
    # a system's own name owns its figures, and so does a chip in a sentence about its node's GPUs
    facts, _, _, _ = _read("The GB200 NVL72 system delivers 1440 PFLOPS of FP4 compute. On an H100 node, the GPUs "
                           "deliver 989 TFLOPS of BF16 compute.\n", vocabulary)
    assert {("nvidia-gb200-nvl72", 1440), ("nvidia-h100-sxm", 989)} <= {(f.entity, f.value) for f in facts}


def test_the_paragraphs_entity_is_sure_when_the_article_is_about_it(vocabulary):
    body = "The MI250 GCD has 104 active CUs. Each unit runs at a peak clock frequency of 1.7 GHz.\n"
    facts, _, _, _ = _read(body, vocabulary, title="AMD Instinct MI250 microarchitecture")
    assert ("amd-mi250", "clock", 1.7) in {(f.entity, f.attribute, f.value) for f in facts}
    # a member of the series the title names, too; an article about another chip lends no such trust
    facts, _, _, _ = _read("The MI300X has 192 GB of HBM3. The peak memory bandwidth of the GPU is 5.3 TB per second.\n",
                           vocabulary, title="AMD Instinct MI300 series microarchitecture")
    assert ("amd-mi300x", "memory_bandwidth", 5.3, "TB/s") in {(f.entity, f.attribute, f.value, f.unit) for f in facts}
    facts, candidates, _, _ = _read(body, vocabulary, title="Intel Gaudi 3 white paper")
    assert not [f for f in facts if f.attribute == "clock"] and [c for c in candidates if c.attribute == "clock"]


def test_a_paragraph_about_one_part_of_the_chip_states_that_parts_figures(table, vocabulary):
    title = "AMD Instinct MI300 series microarchitecture"
    body = ("On the XCD, four engines send work to the CUs. The CUs all share a 4 MB L2 cache that serves the die. "
            "The processor can include 8 XCDs and 256 MB of Infinity Cache.\n")
    facts, candidates, _, _ = _read(body, vocabulary, title=title)
    read = {(f.attribute, f.value, f.scope) for f in facts}
    # the paragraph turned to the XCD: its L2 cache is per XCD, and a figure stated per a part of the article's
    # chip is sure; once it names the parts in the plural, figures are the whole chip's again
    assert ("l2_cache", 4, "per_xcd") in read
    assert [c.scope for c in candidates if c.value == 256] == [None]
    # a breakdown ("40 CUs: 38 active and 2 disabled") leaves each figure in doubt; a clock is no sum of parts
    facts, candidates, _, _ = _read("The XCD has 40 CUs: 38 active CUs and 2 disabled CUs. It runs at 2.1 GHz.\n",
                                    vocabulary, title=title)
    assert not [f for f in facts if f.attribute == "compute_units"]
    assert sorted(c.value for c in candidates if c.attribute == "compute_units") == [2, 38, 40]
    # a sentence naming a chip, a total, or the part named only in passing ends the topic
    facts, _, _, _ = _read("On the XCD, four engines send work to the CUs. The MI300X offers 192 GB of HBM3 memory. "
                           "It has 5.3 TB/s of memory bandwidth.\n", vocabulary, title=title)
    assert {(f.attribute, f.scope) for f in facts} == {("memory_capacity", None), ("memory_bandwidth", None)}
    _, candidates, _, _ = _read("Each GCD connects to four HBM stacks. In total there is 3.2 TB/s of memory "
                                "bandwidth.\n", vocabulary, title="AMD Instinct MI250 microarchitecture")
    assert [(c.value, c.scope) for c in candidates] == [(3.2, None)]
    facts, _, _, _ = _read("The MI250 has 128 GB of memory, 64 GB for each GCD. It delivers 3.2 TB/s of memory "
                           "bandwidth.\n", vocabulary, title="AMD Instinct MI250 microarchitecture")
    assert ("memory_bandwidth", 3.2, None) in {(f.attribute, f.value, f.scope) for f in facts}
    # a part's figure is sure only for the chip the article is about
    facts, candidates, _, _ = _read("The MI250X is big. The GCD has 110 CUs.\n", vocabulary, title="NVIDIA H100 overview")
    assert not facts and [(c.value, c.scope) for c in candidates] == [(110, "per_gcd")]
    assert all(f.scope != "per_xcd" for f in facts + candidates if f.attribute == "clock")
    # a question about a part of a member of the series gets the series' figure for that part
    _, result = lookup(table, "how much L2 cache does each XCD on the MI300X get?", "en")
    assert [(e.entity, e.value, e.unit, e.scope) for e in result.entries] == [("amd-mi300", 4, "MB", "per_xcd")]
    # a relation of whole chips ("40% more CUs than MI250X") shows no part's figure beside it
    _, related = lookup(table, "does the mi300x have more compute units than the mi250x", "en")
    assert related.answer.text.startswith("AMD Instinct MI300X: 40% higher") and "40 CUs" not in related.answer.text


@pytest.mark.parametrize(("text", "lang", "dtype"), [
    ("For FP64, the peak performance of the MI250 matrix units amounts to 90.5 TFLOPS.", "en", "FP64"),
    ("Для FP64, пиковая производительность MI250 составляет 90,5 TFLOPS.", "ru", "FP64"),
    ("在 FP64 下，MI250 的峰值性能为 90.5 TFLOPS。", "zh", "FP64"),
    ("For training, the MI250 delivers 90.5 TFLOPS.", "en", None),
    ("For FP64, MI250 is strong; in BF16 the MI250 delivers 362 TFLOPS.", "en", "BF16"),
])
def test_a_precision_that_leads_the_sentence_is_its_figures(vocabulary, text, lang, dtype):
    facts, candidates, _, _ = _read(text + "\n", vocabulary, lang)
    assert [f.dtype for f in facts + candidates if f.attribute == "peak_compute"] == [dtype]


@pytest.mark.parametrize(("text", "unit"), [
    ("5.3 TB per second", "TB/s"), ("3,2 ТБ в секунду", "TB/s"), ("5.3 TB 每秒", "TB/s"), ("900 GB a second", "GB/s"),
    ("96 GB per GPU", "GB"), ("90 TFLOPS per second", "TFLOPS"),
])
def test_a_size_per_second_is_a_rate(text, unit):
    from kb.specs.quantities import quantities
    found = quantities(text)
    assert len(found) == 1 and found[0].unit == unit and found[0].end == len(text) - (7 if unit == "GB" else 0) \
        or unit in ("GB", "TFLOPS") and found[0].unit == unit


def test_a_sentence_naming_only_the_far_side_of_a_comparison_states_the_articles_chips_figures(vocabulary):
    title = "AMD Instinct MI300 series microarchitecture"
    facts, _, _, _ = _read("However, the processor can include 8 XCDs for up to 304 CUs, roughly 40% more than "
                           "MI250X.\n", vocabulary, title=title)
    assert ("amd-mi300", "compute_units", 304) in {(f.entity, f.attribute, f.value) for f in facts}
    # with no word referring back to the article's chip ("the processor"), the title's chip stays in doubt
    facts, candidates, _, _ = _read("Up to 304 CUs fit, roughly 40% more than MI250X.\n", vocabulary, title=title)
    assert not [f for f in facts if f.attribute == "compute_units"]
    assert [(c.entity, c.value) for c in candidates if c.attribute == "compute_units"] == [("amd-mi300", 304)]


def test_a_count_written_as_a_compound_adjective_counts_per_the_noun_it_qualifies(vocabulary):
    facts, _, _, _ = _read("TPU v5p comes in 4-chip hosts, up to an 8960-chip pod.\n", vocabulary)
    found = {(f.entity, f.attribute, f.value) for f in facts}
    assert ("google-tpu-v5p", "host_size", 4) in found and ("google-tpu-v5p", "pod_size", 8960) in found


@pytest.mark.parametrize("body, lang, attribute, value", [
    ("*（图片缺失）1024 GPU 的 H100 SuperPod。\n", "zh", "pod_size", 1024),
    ("An H100 SuperPod holds 1024 GPUs.\n", "en", "pod_size", 1024),
    ("A TPU v4 pod has 4096 chips.\n", "en", "pod_size", 4096),  # "N chips" counts chips as "N GPUs" does
    ("TPU v4 scales out: a single pod of 4096 chips does 1.1 exaflops.\n", "en", "pod_size", 4096),
    ("- H100 节点：8 GPU，每 GPU 450GB/s\n", "zh", "host_size", 8),
    ("A TPU v5p host has 4 chips.\n", "en", "host_size", 4),
])
def test_chips_counted_beside_a_chips_pod_or_host_count_per_that_whole(vocabulary, body, lang, attribute, value):
    # a chip named with the whole it makes up ("H100 SuperPod") owns the whole's count: no machine's count of a chip
    facts, _, _, _ = _read(body, vocabulary, lang)
    assert attribute in {f.attribute for f in facts}
    assert [f.value for f in facts if f.attribute == attribute] == [value]
    assert not [f for f in facts if f.attribute == "chip_count"]


def test_chips_counted_with_no_whole_after_the_chips_name_stay_no_fact_of_the_chip(vocabulary):
    facts, _, _, _ = _read("8 H100 GPUs are linked by NVSwitch.\n", vocabulary)
    assert not [f for f in facts if f.attribute in ("chip_count", "pod_size", "host_size")]


@pytest.mark.parametrize("body, lang, entity", [
    ("H100 节点有 4 个 NVSwitch，每个 GPU 18 条 NVLink。\n", "zh", "nvidia-h100-sxm"),
    ("H100 有 18 个 NVLink 链路。\n", "zh", "nvidia-h100-sxm"),
    ("Each H100 has 18 NVLink links.\n", "en", "nvidia-h100-sxm"),
    ("The H100 has 18 NVLink 4.0 links.\n", "en", "nvidia-h100-sxm"),  # a version in the name, no count
    ("Each H100 has 18 NVLink links between it and the switches.\n", "en", "nvidia-h100-sxm"),
    ("У H100 18 линков NVLink.\n", "ru", "nvidia-h100-sxm"),
    ("H100 имеет 18 NVLink-линков.\n", "ru", "nvidia-h100-sxm"),
])
def test_a_count_of_links_in_prose_is_the_chips_link_count(vocabulary, body, lang, entity):
    facts, _, _, _ = _read(body, vocabulary, lang)
    assert {(f.entity, f.value) for f in facts if f.attribute == "link_count"} == {(entity, 18)}


def test_links_joining_two_parts_a_width_or_a_generation_are_no_link_count(vocabulary):
    facts, _, _, statements = _read(
        "The two GCDs of the MI250 are connected via four AMD Infinity Fabric links. Each of these 16-wide links of "
        "the MI250 runs at 25 GT/sec. The MI300X attaches via PCIe Gen 5 x16 links. Both interfaces of the MI250 "
        "can drive four links. The GCD pairs of the MI250 connect via two XGMI links. The TPU v5e uses only 2 of its "
        "links. The TPU v5e reaches any chip within 2 hops over links.\n", vocabulary)
    assert not [f for f in facts if f.attribute == "link_count"]
    assert [s.reason for s in statements if s.quantity == "four AMD Infinity Fabric links"] == \
        ["links of a part or between two parts, not a chip's count"]


@pytest.mark.parametrize("body, lang, entity", [
    # chips glossed in brackets after a machine are its own, though the sentence compares it with another
    ("在对比AWS EC2 P4d实例（8个英伟达A100 GPU）时，8个Gaudi处理器的每小时价格为13.11美元。\n", "zh", "aws-p4d"),
    ("Each DGX A100 server has 8 x A100 80GB GPU inside.\n", "en", "nvidia-dgx-a100"),
    ("A p4d.24xlarge (8 A100 GPU) is the baseline.\n", "en", "aws-p4d"),
    ("EC2 DL1训练实例最多可配置8个Gaudi处理器。\n", "zh", "aws-dl1"),  # the corpus's chips are processors too
])
def test_a_count_of_named_gpus_is_the_machines_chip_count(vocabulary, body, lang, entity):
    facts, _, _, _ = _read(body, vocabulary, lang)
    assert {(f.entity, f.value) for f in facts if f.attribute == "chip_count"} == {(entity, 8)}


def test_a_factor_or_another_chips_count_is_no_machines_chip_count(vocabulary):
    # "2x faster chips" is a factor; the GB200 NVL72 is built of GB200s, so Rubin GPUs are no count of its chips
    facts, _, _, statements = _read("The DGX A100 has 2x faster chips. The NVL72 rack of Vera Rubin is 36x blocks "
                                    "of 2x Rubin GPU.\n", vocabulary)
    assert not [f for f in facts if f.attribute == "chip_count"]
    # a machine's alias right after another chip's name is that chip's machine ("Vera Rubin NVL72", not the GB200's)
    facts, _, _, _ = _read("- Vera Rubin NVL72 - the 72 GPUs supernode at NVLink speed\n", vocabulary)
    assert not [f for f in facts if f.attribute == "chip_count"]
    assert "2x faster chips" not in {s.quantity for s in statements}


def test_ethernet_ports_on_a_chip_are_its_links_and_a_ports_speed_is_no_count(vocabulary):
    assert [(q.value, q.unit) for q in quantities("24x 100 Gigabit Ethernet (RoCEv2) integrated on chip")] == \
        [(24, "links")]
    assert [(q.value, q.unit) for q in quantities("Gaudi2 集成了 24 个 100G 以太网口")] == [(24, "links")]
    assert not quantities("a 100 Gigabit Ethernet port") and not quantities("400G Ethernet ports")
    # a chip named only after the figure, in brackets ("per Gaudi chip"), stays in doubt even under a heading that
    # names it: "### Intel Gaudi" names a line whose section describes a later generation (its 96 GiB is Gaudi2's)
    facts, candidates, _, _ = _read("### Intel Gaudi\n\n- 24x 100 Gigabit Ethernet (RoCEv2) integrated on chip - 21 of "
                                    "which are used for intra-node (262.5GBps per Gaudi chip), and 3 for inter-node "
                                    "(2.4Tbps between nodes)\n", vocabulary)
    assert not [f for f in facts if f.attribute == "link_count"]
    assert [(c.entity, c.value) for c in candidates if c.attribute == "link_count"] == [("intel-gaudi", 24)]


@pytest.mark.parametrize(("body", "lang", "kept", "set_aside", "planned"), [
    ("Gaudi3 as of 2026-08 is running at 1600MHz (MME) and not the planned 1750MHz.\n", "en", 1600, 1750, True),
    ("Gaudi3 работает на 1600 МГц, а не заявленных 1750 МГц.\n", "ru", 1600, 1750, True),
    ("Gaudi3 目前运行在 1600MHz，而不是计划的 1750MHz。\n", "zh", 1600, 1750, True),
    ("The H100 ships with 80GB instead of the rumored 120GB.\n", "en", 80, 120, False),
    ("Gaudi3 runs at 1600MHz, not 1750MHz.\n", "en", 1600, 1750, False),
])
def test_a_figure_the_sentence_sets_aside_is_no_value_but_a_plan_said_so_is_the_planned_one(vocabulary, body, lang, kept,
                                                                                            set_aside, planned):
    facts, candidates, _, statements = _read(body, vocabulary, lang)
    values = {(f.value, f.basis) for f in facts + candidates}
    assert (kept, None) in values, values
    # the plan is another quantity ("planned"), never a second value of the one stated; any other figure set aside
    # is none at all
    assert ((set_aside, "planned") in values) == planned and (set_aside, None) not in values, values
    assert planned or any(s.reason.startswith("a figure set aside") for s in statements)
    # "does not exceed" states a bound of the entity's own, not a figure set aside
    facts, _, _, _ = _read("The MI300X does not exceed 750W.\n", vocabulary)
    assert [f.value for f in facts if f.attribute == "power"] == [750]


@pytest.mark.parametrize(("question", "lang", "not_attribute"), [
    # a pod's nodes, units or switches are no count of its chips
    ("H100 SuperPod 有多少个节点？", "zh", "pod_size"), ("H100 SuperPod 有多少个 SU？", "zh", "pod_size"),
    ("TPU v5p 的 pod 有多少台主机？", "zh", "pod_size"),
    # "примерно" (about) is no "пример" (a sample)
    ("Стоимость примерно какая у DL1 в час?", "ru", "cost_per_sample"),
])
def test_words_near_a_cue_that_ask_something_else_do_not_name_it(table, question, lang, not_attribute):
    query = understand(question, lang, table)
    assert query is None or query.attribute != not_attribute


def test_a_russian_pod_is_a_whole_but_the_preposition_under_is_not(vocabulary):
    facts, _, _, _ = _read("Поды TPU v4 под нагрузкой держат 4096 чипов.\n", vocabulary, "ru")
    assert not [f for f in facts if f.attribute == "pod_size"]


def test_a_formulas_result_in_code_counts_and_a_line_that_leaves_the_noun_out_counts_what_the_line_before_does(
        vocabulary):
    body = ("**H100**：`132 SM × 4 子分区 × 32 核心 = 16,896` 个 CUDA 核心\n\n**B200**：`148 × 4 × 32 = 18,944` 个\n\n"
            "**TPU v5p**：`2 TensorCore × 4 ALU = 8,192` 个 ALU\n")
    facts, _, _, _ = _read(body, vocabulary, "zh")
    assert {(f.entity, f.value) for f in facts if f.attribute == "cuda_cores"} == \
        {("nvidia-h100-sxm", 16896), ("nvidia-b200-sxm", 18944)}
    # with no line before it naming the noun, a count ending on its measure word counts nothing
    facts, _, _, _ = _read("**B200**：`148 × 4 × 32 = 18,944` 个\n", vocabulary, "zh")
    assert not [f for f in facts if f.attribute == "cuda_cores"]


def test_a_data_type_asked_of_a_count_does_not_filter_it(table):
    _, spec = lookup(table, "How many FP32 CUDA cores does the H100 have?", "en")
    assert [(e.entity, e.value) for e in spec.entries if e.attribute == "cuda_cores"] == [("nvidia-h100-sxm", 16896)]


@pytest.mark.parametrize("question, lang", [
    ("How does GB200 NVL72 get around the problem that B200 is hard to keep compute-bound across nodes?", "en"),
    ("How do TPUs avoid the bandwidth limits of HBM?", "en"),
    ("B200 трудно загрузить вычислениями между узлами — как это решает GB200 NVL72?", "ru"),
    ("B200 跨节点难以计算受限，GB200 NVL72 怎么解决的？", "zh"),
])
def test_how_a_problem_is_got_around_asks_a_means_not_a_figure(table, question, lang):
    assert understand(question, lang, table) is None


def test_a_figure_asked_beside_a_means_word_is_still_a_figure(table):
    assert understand("How much memory does the GB200 have?", "en", table).attribute == "memory_capacity"
    assert understand("How does the H100 compare to the A100 in memory?", "en", table).kind == "comparison"


@pytest.mark.parametrize("question, egress", [
    ("Какая пропускная способность между узлами у H100?", True),
    ("Какая пропускная способность на выходе из узла у GB200 NVL72?", True),
    ("Сколько ГБ/с на узел у H100?", True),
    # inside a node is no node's egress, and a figure the question gives ("450 ГБ/с") names nothing asked
    ("на практике какую полосу реально выдает AllReduce внутри узла 8xH100? в теории же 450 ГБ/с", False),
])
def test_a_russian_node_bandwidth_is_the_egress_only_when_said_between_nodes(table, question, egress):
    query = understand(question, "ru", table)
    assert (query is not None and query.attribute == "node_egress_bandwidth") is egress


def test_a_data_type_filters_only_figures_given_per_data_type(table):
    # the FP64 of the second sentence is what the questioner checks, not a kind of clock
    _, clock = lookup(table, "What's the peak clock of the compute units on the MI250? Trying to sanity-check the 45.3 "
                             "TF fp64 vector number.", "en")
    assert clock.found and "1.7 GHz" in clock.answer.text
    _, fp64 = lookup(table, "What's the FP64 TFLOPS of the MI250?", "en")
    assert fp64.entries and all("FP64" in e.display for e in fp64.entries)


@pytest.mark.parametrize("question, lang, attribute", [
    # a count cued only after "one" or "each" counts something else per that thing: no SM count
    ("H100 一个 SM 最多能同时调度多少个 warp？", "zh", None),
    ("How many warps can one SM of the H100 schedule at once?", "en", None),
    ("Сколько warp может одновременно планировать один SM у H100?", "ru", None),
    ("How many SMs does the H100 have?", "en", "sm_count"),
    # a count asked per one part another attribute counts: the table counts a chip's parts, not a part's
    ("How many CUDA cores per SM does the H100 have?", "en", None),
    ("H100 每个 SM 有多少个 CUDA 核心？", "zh", None),
    ("Сколько ядер CUDA на один SM у H100?", "ru", None),
    ("How many CUDA cores does the H100 have?", "en", "cuda_cores"),
    ("How many CUs per XCD does the MI300X have?", "en", "compute_units"),  # a part the facts are scoped to
    # a count defined per a whole is what "one pod" asks; "на ResNet-50" is no "one"
    ("Ironwood（TPU7x）一个 pod 最多多少颗芯片？", "zh", "pod_size"),
    ("ponte vecchio на resnet-50 сколько картинок в секунду при обучении выдаёт?", "ru", "resnet50_throughput"),
])
def test_a_count_cued_after_one_of_a_thing_counts_something_per_it(table, question, lang, attribute):
    query = understand(question, lang, table)
    assert (query.attribute if query else None) == attribute


@pytest.mark.parametrize("question, lang, attribute", [
    # the digits of a name ("FP8", "A100") are no figure given; "192GB HBM" after "with its" is
    ("Which has more FP8 TFLOPS, the H100 or the MI300X with its 192GB HBM?", "en", "peak_compute"),
    ("What's the int8 TOPS of the TPU v5e with 16GB HBM?", "en", "peak_compute"),
    ("A100 GB/s HBM?", "en", "memory_bandwidth"),
    # "80GB of HBM": a figure given with what it is of; when every attribute named is given, none is asked
    ("With 80GB of HBM, how many FP8 TFLOPS does the H100 have?", "en", "peak_compute"),
    ("The TPU v5p has 2.5 TB/s of HBM bandwidth; what is its ICI bandwidth per axis?", "en", "ici_bandwidth"),
    ("With 192GB of memory, what's the MI300X FP8 speed?", "en", None),
    # how fast or how much it copes is a figure, not a means
    ("Как быстро H100 справляется с bf16?", "ru", "peak_compute"),
    ("How does the H100 handle FP8 in terms of TFLOPS?", "en", "peak_compute"),
    ("Как сильно MI300X обходит H100 по объёму памяти?", "ru", "memory_capacity"),
    # a GPU's output is no node's egress; speed between nodes is
    ("Какая пропускная способность на выходе NVLink у H100?", "ru", "gpu_bandwidth"),
    ("Какая скорость передачи между узлами у H100?", "ru", "node_egress_bandwidth"),
])
def test_a_figure_given_a_means_and_a_node_are_told_apart_from_what_is_asked(table, question, lang, attribute):
    query = understand(question, lang, table)
    assert (query.attribute if query else None) == attribute


def test_a_data_type_filters_the_figures_of_an_attribute_given_per_data_type_whatever_one_product_has(table):
    # the WSE-3's one compute figure ("125 petaflops of AI compute") has no data type: it answers no FP64 question
    _, fp64 = lookup(table, "What is the FP64 performance of the Cerebras WSE-3?", "en")
    assert not fp64.entries
    _, compared = lookup(table, "Which is faster in FP64, the WSE-3 or the MI300X?", "en")
    assert compared.answer is None or not getattr(compared.answer, "comparable", False)


def test_cores_of_no_named_kind_are_a_core_count_and_a_calculations_terms_are_not(vocabulary):
    facts, _, _, _ = _read('WSE-3 delivers compute through "900,000 AI-optimized cores".\n', vocabulary)
    assert {(f.entity, f.attribute, f.value) for f in facts} == {("cerebras-wse-3", "core_count", 900000)}
    # a factor of a product or the sum a sentence works out is no count of the chip's cores; a named kind is
    facts, _, _, statements = _read("**H100**：`132 SM × 4 子分区 × 32 核心 = 16,896` 个 CUDA 核心\n", vocabulary, "zh")
    assert {(f.attribute, f.value) for f in facts if f.attribute.endswith("cores")} == {("cuda_cores", 16896)}
    assert [s.reason for s in statements if s.quantity.startswith("32")] == \
        ["a factor or result of a calculation, not a count of the whole"]
    facts, _, _, _ = _read("The TPU v5e has only 1 core per chip, giving us 8 chips = 8 cores.\n", vocabulary)
    assert {(f.attribute, f.value) for f in facts if f.attribute == "core_count"} == {("core_count", 1)}


@pytest.mark.parametrize("question, lang, attribute", [
    ("number of cores on Cerebras WSE-3?", "en", "core_count"),
    ("Сколько вычислительных ядер у Cerebras WSE-3?", "ru", "core_count"),
    ("Cerebras WSE-3 上有多少个 AI 核心？", "zh", "core_count"),
    # a kind named is asked, though its words cue cores too
    ("H100 有多少个 CUDA 核心？", "zh", "cuda_cores"),
    ("сколько ядер NeuronCore у Trainium2?", "ru", "neuron_cores"),
    # cores only as where a figure is ("on the matrix cores"), a kernel, a chief advantage: no count
    ("What's the peak FP64 on the MI250 matrix cores?", "en", "peak_compute"),
    ("Какую настройку ядра Linux нужно поменять для MI300X?", "ru", None),
    ("TPU v5p 的核心优势是什么？", "zh", None),
])
def test_a_count_of_cores_is_asked_in_counting_words_and_a_named_kind_wins(table, question, lang, attribute):
    query = understand(question, lang, table)
    assert (query.attribute if query else None) == attribute


@pytest.mark.parametrize("question, lang", [
    # two words qualify the Russian noun after the question word; the CUs named after it are whose clock
    ("На какой пиковой тактовой частоте работают вычислительные блоки MI250?", "ru"),
    ("С какой максимальной тактовой частотой работают CU у MI250?", "ru"),
    # a Chinese question word with its noun after it: the CUs before it are whose clock
    ("MI250 的计算单元运行在多高的频率？", "zh"),
    ("MI250 里的 CU 跑在什么样的主频上？", "zh"),
])
def test_the_noun_a_question_word_asks_is_asked_not_the_thing_named_before_it(table, question, lang):
    assert understand(question, lang, table).attribute == "clock"


@pytest.mark.parametrize("question, lang, winner", [
    # faster or stronger, with no attribute named: two chips are compared in their peak compute
    ("Trainium2 vs H100, which one is faster?", "en", "NVIDIA H100 SXM"),
    ("Что мощнее: TPU v5e или TPU v5p?", "ru", "Google TPU v5p"),
    ("Trainium2 和 H100 谁更强？", "zh", "NVIDIA H100 SXM"),
    # faster is the better way of the attribute named: fewer instances to train GPT-3
    ("Which is faster for training GPT-3, Trn1 or P4d?", "en", "AWS EC2 Trn1"),
])
def test_faster_or_stronger_compares_the_better_way_of_what_is_compared(table, question, lang, winner):
    query, spec = lookup(table, question, lang)
    assert query.kind == "comparison" and spec.answer.text.removeprefix("У ").startswith(winner), spec.answer.text


@pytest.mark.parametrize("question, lang", [
    ("Во сколько раз TPU v4 и v5p быстрее предыдущих версий TPU?", "ru"),  # both against the older ones
    ("How much faster are TPU v4 and v5p than earlier TPU generations?", "en"),
    ("Who is usually faster on big training runs, TPU v4/v5p or A100?", "en"),  # three named: a stated claim answers
])
def test_two_things_named_on_one_side_are_not_compared_with_each_other(table, question, lang):
    query = understand(question, lang, table)
    assert query is None or query.kind != "comparison", query


def test_a_total_after_a_per_gpu_figure_is_the_whole_nodes_gpu_bandwidth(vocabulary):
    facts, _, _, _ = _read("- GB200 NVL72：72 GPU，每 GPU 900GB/s，总 32.4TB/s\n", vocabulary, "zh")
    assert {(f.attribute, f.value) for f in facts if f.unit == "TB/s"} == {("total_gpu_bandwidth", 32.4)}
    assert not [f for f in facts if f.attribute == "total_gpu_bandwidth" and f.value == 900]


@pytest.mark.parametrize("question, lang, attribute", [
    ("What's the total NVLink bandwidth across a whole GB200 NVL72 domain?", "en", "total_gpu_bandwidth"),
    ("Какая суммарная пропускная способность NVLink у узла из 8×H100?", "ru", "total_gpu_bandwidth"),
    ("GB200 NVL72 整个 NVLink 域的总带宽是多少", "zh", "total_gpu_bandwidth"),
    # one chip's total over its links is its bandwidth per GPU
    ("What is the total NVLink bandwidth of the H100?", "en", "gpu_bandwidth"),
    ("H100 的 NVLink 总带宽是多少？", "zh", "gpu_bandwidth"),
])
def test_a_total_gpu_bandwidth_is_asked_of_a_whole(table, question, lang, attribute):
    assert understand(question, lang, table).attribute == attribute


@pytest.mark.parametrize("question, lang, ranked", [
    # the fastest or most powerful of a kind the table holds, no attribute named: a ranking of peak compute
    ("Which chip is the fastest?", "en", True), ("Какой ускоритель самый мощный?", "ru", True),
    ("哪个芯片最快？", "zh", True),
    ("Which smartphone chip is the fastest?", "en", False),  # no kind the table holds
])
def test_the_fastest_of_a_kind_ranks_its_peak_compute(table, question, lang, ranked):
    query = understand(question, lang, table)
    assert (query is not None and (query.kind, query.attribute) == ("superlative", "peak_compute")) is ranked, query


@pytest.mark.parametrize("question, lang, attribute", [
    # cores of no kind, of a chip with several kinds counted or none: the passages answer, no false "no cores"
    ("How many cores does the H100 have?", "en", None), ("Trainium2 有多少个核心？", "zh", None),
    ("How many cores does a TPU v4 chip have?", "en", None),
    ("How many cores does the MI250 have?", "en", "stream_processors"),  # its one kind counted
])
def test_cores_of_no_kind_fall_back_to_the_one_kind_counted_or_to_the_passages(table, question, lang, attribute):
    query = understand(question, lang, table)
    assert (query.attribute if query else None) == attribute


@pytest.mark.parametrize("question", ["Which has the faster interconnect, TPU v5p or TPU v4?",
                                      "Which is faster at all-reduce, TPU v5p or TPU v4?"])
def test_faster_at_something_named_is_no_compute_comparison(table, question):
    query = understand(question, "en", table)
    assert query is None or query.attribute != "peak_compute", query


def test_the_same_figures_on_both_sides_are_equal_not_a_disagreement(table):
    _, spec = lookup(table, "Is the H100 faster than the H200?", "en")
    assert spec.answer.text.startswith("NVIDIA H100 SXM and NVIDIA H200 SXM are equal: 989–990 TFLOPS"), spec.answer.text


@pytest.mark.parametrize(("body", "lang", "each"), [
    ("The XCD shows 40 Compute Units, each with 32 KB L1 cache, and a shared 4 MB L2 cache.\n", "en", 32),
    ("Каждый XCD содержит 40 вычислительных блоков, каждый с 32 KB кэша L1.\n", "ru", 32),
    ("每个 XCD 有 40 个 CU，每个有 32KB 的 L1 缓存。\n", "zh", 32),
])
def test_a_figure_of_each_of_the_parts_a_sentence_counts_is_no_figure_of_the_chip(vocabulary, body, lang, each):
    title = "AMD Instinct MI300 series microarchitecture"
    facts, candidates, _, statements = _read(body, vocabulary, lang, title)
    # per one compute unit, which no scope of the table holds: skipped with its reason, never the chip's or XCD's
    assert not [f for f in facts + candidates if f.value == each]
    assert [s.reason for s in statements if s.quantity.startswith(str(each))] == \
        ["a figure of each of a chip's parts (\"40 CUs, each with 32 KB\"), which no scope holds"]



@pytest.mark.parametrize("body", ["An Inf2 instance holds 12 Inferentia2 chips, each with 32 GB of HBM.\n",
                                  "An Inf2 instance holds twelve Inferentia2 chips (each with 32 GB of HBM).\n"])
def test_a_figure_of_each_chip_a_sentence_counts_is_read_as_before(vocabulary, body):
    facts, candidates, _, statements = _read(body, vocabulary, title="AWS Inferentia2")
    assert not [s for s in statements if s.reason.startswith("a figure of each")]
    assert [f for f in facts + candidates if f.value == 32 and f.attribute == "memory_capacity"]


@pytest.mark.parametrize(("text", "counted"), [
    ("MI300A (left) with 6 XCDs and 3 CCDs, while the MI300X (right) has 8 XCDs.", [(6, "xcds"), (3, "ccds"), (8, "xcds")]),
    ("The MI300 Series integrate 8 stacks of HBM3 and 4 I/O dies.", [(4, "io dies")]),
    ("The OAM holds two GCDs; the links join the two GPU dies.", [(2, "gcds"), (2, "dies")]),
    ("The chip is split across two chiplets.", [(2, "dies")]),
    ("the AMD CDNA™ 3 XCD die is a smaller building block", []),  # the architecture's generation, no count
    ("The MI300A's Zen 4 CCDs sit beside its XCDs.", []),
    ("H100 — это 4-нм кристалл, у 4-нм кристалла", []),  # a size between the number and the die
    ("The package can include 6 or 8 XCDs.", []),  # one of two, no count of one chip
    ("Два кристалла GCD и 8 кристаллов.", [(2, "gcds"), (8, "dies")]),
    ("The B200 has 8 stacks of HBM3e, each of 12 dies.", [(12, "dies")]),  # a count (the reader skips it, below)
])
def test_the_dies_a_package_is_built_of_are_counted_by_their_kind(text, counted):
    assert [(q.value, q.counted) for q in quantities(text) if q.unit == "dies"] == counted


def test_a_figure_joined_by_and_to_a_figure_of_a_chip_is_that_chips_too(vocabulary):
    # the second figure's clause ("and 3 CCDs") names nothing: it goes on the clause before, whose chip owns both
    facts, candidates, _, _ = _read("*Figure (image not included): MI300 series system architecture showing MI300A "
                                    "(left) with 6 XCDs and 3 CCDs, while the MI300X (right) has 8 XCDs.*\n", vocabulary)
    found = {(f.entity, f.attribute, f.value) for f in facts}
    assert {("amd-mi300a", "xcd_count", 6), ("amd-mi300a", "ccd_count", 3), ("amd-mi300x", "xcd_count", 8)} <= found
    assert not [f for f in candidates if f.attribute in ("xcd_count", "ccd_count")]


@pytest.mark.parametrize("body", ["NVIDIA B200 physically has 8 stacks of 24GiB, a stack of 8x 24Gbit dies.\n",
                                  "The B200 has 8 stacks of HBM3e, each of 12 dies.\n",
                                  "The MI300X uses 12-Hi stacks with 12 dies.\n"])
def test_dies_of_a_memory_stack_are_no_dies_of_the_package(vocabulary, body):
    facts, candidates, _, statements = _read(body, vocabulary)
    assert not [f for f in facts + candidates if f.unit == "dies"]
    assert {s.reason for s in statements if "dies" in s.quantity} == {"dies of a memory stack, not the package's"}


@pytest.mark.parametrize("body", [
    "The MI300X, built to rival the H100 and with 192GB of HBM3, ships in 2023.\n",
    "NVIDIA launched the B200 in 2024, succeeding the H100 and offering 192GB of HBM3e.\n",
])
def test_a_clause_after_and_goes_on_the_one_before_only_where_that_one_lists_a_figure(vocabulary, body):
    # the H100 is named before "and" but owns no figure there: the 192GB stays in doubt, never the H100's fact
    facts, _, _, _ = _read(body, vocabulary)
    assert not [f for f in facts if f.attribute == "memory_capacity" and f.entity == "nvidia-h100-sxm"]


@pytest.mark.parametrize(("question", "lang", "attribute"), [
    ("How many XCDs does the MI300X have?", "en", "xcd_count"),
    ("Подскажите, сколько XCD в APU MI300A?", "ru", "xcd_count"),
    ("AMD MI300A 这颗 APU 里集成了几个 CPU 的 CCD？", "zh", "ccd_count"),
    ("Сколько I/O-кристаллов (IOD) в ускорителях серии MI300?", "ru", "io_die_count"),
    ("MI250X 有几个 GCD？", "zh", "gcd_count"),
    ("How many chiplets is a TPU7x made of?", "en", "die_count"),
    ("Сколько кристаллов у TPU7x?", "ru", "die_count"),
    ("TPU7x 由几个芯粒组成？", "zh", "die_count"),
    # a die a figure is per or in is no count of dies, nor is the Russian "кристалл", the whole chip
    ("mi250 gcd active CU count?", "en", "compute_units"),
    ("What is the memory bandwidth per GCD of the MI250?", "en", "memory_bandwidth"),
    ("How many CUs per XCD does the MI300X have?", "en", "compute_units"),
    ("Number of CUs in XCD for MI300X?", "en", "compute_units"),
    ("Сколько CU в XCD MI300X?", "ru", "compute_units"),
    ("MI300X 有多少个 CU 在 XCD 上？", "zh", "compute_units"),
    ("MI300X 多少 TFLOPS 一个 XCD？", "zh", "peak_compute"),
    ("MI300X 有多少 TFLOPS，XCD 频率多少？", "zh", "peak_compute"),
    ("Сколько SM в кристалле H100?", "ru", "sm_count"),
    ("Сколько транзисторов содержит кристалл H100?", "ru", "transistor_count"),
    ("H100 有多少晶体管在一个裸片上？", "zh", "transistor_count"),
    ("How many SMs across dies in B200?", "en", "sm_count"),
])
def test_a_count_of_dies_is_asked_by_counting_words_beside_the_kind_of_die(table, question, lang, attribute):
    assert understand(question, lang, table).attribute == attribute


@pytest.mark.parametrize(("body", "lang"), [
    ("Gaudi is used in AWS EC2 DL1 instances, with up to 8 Gaudi processors, 32GB of HBM each and 4TB of NVMe "
     "storage.\n", "en"),
    ("目前Gaudi已经用于亚马逊云服务AWS的EC2 DL1训练实例中，最多可配置8个Gaudi处理器，每个处理器配有32GB的HBM内存，并支持4TB的NVMe存储。\n", "zh"),
])
def test_a_figure_only_a_machine_has_is_the_machines_where_its_chips_are_named_too(vocabulary, body, lang):
    facts, candidates, _, _ = _read(body, vocabulary, lang)
    storage = [(f.entity, f.value, f.unit) for f in facts + candidates if f.attribute == "local_storage"]
    assert storage == [("aws-dl1", 4, "TB")] and [f for f in facts if f.attribute == "local_storage"]
    # a chip's own figure in the sentence stays the chip's
    assert [f.entity for f in facts + candidates if f.attribute == "memory_capacity"] == ["intel-gaudi"]
