"""`kb curate`: the committed corpus is exactly what the sources and the catalog produce."""

from __future__ import annotations

import re
import shutil

import pytest

from kb.corpus import load_corpus, render_article
from kb.curate import curate_corpus
from kb.curate.catalog import load_catalog
from kb.errors import CurationError
from kb.textnorm import to_simplified


@pytest.fixture(scope="module")
def curated(project_settings):
    results = curate_corpus(project_settings.corpus_dir / "sources", project_settings.corpus_dir, write=False)
    return {r.article.meta.id: r.article for r in results}


def test_regenerating_reproduces_committed_files(project_settings, curated, tmp_path):
    shutil.copytree(project_settings.corpus_dir / "sources", tmp_path / "sources")
    curate_corpus(tmp_path / "sources", tmp_path)
    committed = sorted(p.relative_to(project_settings.corpus_dir) for p in project_settings.corpus_dir.glob("*/*.md"))
    regenerated = sorted(p.relative_to(tmp_path) for p in tmp_path.glob("*/*.md"))
    assert committed == regenerated
    for rel in committed:
        assert (tmp_path / rel).read_bytes() == (project_settings.corpus_dir / rel).read_bytes(), rel


def test_every_source_has_an_article(project_settings, curated):
    entries = load_catalog(project_settings.corpus_dir / "sources")
    raw_files = {p.name for p in (project_settings.corpus_dir / "sources").iterdir()} - {"README.md", "PROVENANCE.md", "catalog.yaml"}
    assert {e.raw_file for e in entries} == raw_files
    assert len(curated) == len(raw_files) == 13
    loaded = load_corpus(project_settings.corpus_dir)
    assert {a.meta.id for a in loaded} == set(curated)


def test_chinese_scrape_is_clean(curated):
    body = curated["elecfans-ai-training-chips-2021"].body
    assert body.startswith("# AI训练势起，GPU要让位了？")
    for junk in ("搜索历史", "会员中心", "相关推荐", "声明：", "关注", "举报投诉", "次阅读", "<b class"):
        assert junk not in body, junk
    assert not re.search(r"\((?:[a-zü]|[\u00e0-\u01dc])+\)", body), "pinyin annotation left"
    assert to_simplified(body) == body, "mixed scripts: Traditional characters left"
    assert "13.11美元" in body and "FP32的算力为840TFLOPS" in body


def test_lost_digits_stay_marked(curated):
    body = curated["elecfans-ai-training-chips-2021"].body
    assert "[?]963张图片每秒" in body and "[?]650张图片每秒" in body
    # never as plain numbers: each occurrence of 963/650 is preceded by the marker
    for number in ("963", "650"):
        for match in re.finditer(number, body):
            assert body[match.start() - 3:match.start()] == "[?]", body[match.start() - 10:match.end()]
    notes = " ".join(curated["elecfans-ai-training-chips-2021"].meta.quality_notes)
    assert "[?]963" in notes and "[?]650" in notes


def test_russian_headings_and_faq(curated):
    body = curated["gpu-vs-tpu-transformer-training"].body
    assert "\n## Практические случаи использования и ограничения\n" in body
    assert "\n### 2. Каковы основные ограничения TPU?\n" in body


def test_rst_becomes_markdown_with_whole_sentence_cells(curated):
    body = curated["aws-trainium-architecture"].body
    for markup in (":ref:", ".. image", ".. _", "+---", "list-table"):
        assert markup not in body
    assert "| Device Memory | 32 GiB of device memory (for storing model state), with 820 GiB/sec of bandwidth. |" in body
    trn2 = curated["aws-trainium2-architecture"].body
    assert "| HBM Bandwidth (TB/sec) | 0.8 | 2.9 | 3.6x |" in trn2
    assert "\x00" not in trn2 and ">1x (Benefit DMA-size dependent)" in trn2


def test_myst_liquid_distill_and_links_are_converted(curated):
    for article in curated.values():
        body = article.body
        for markup in ("{list-table}", "{figure}", "{%", "<d-cite", "<d-footnote", "](../", "](images/", "<span", "<br>"):
            assert markup not in body, (article.meta.id, markup)
    mi300 = curated["amd-instinct-mi300-microarchitecture"].body
    assert "| Matrix FP8 | 4096 | 2614.9 |" in mi300
    tpus = curated["scaling-book-how-to-think-about-tpus"].body
    assert "layout: distill" not in tpus and "(TPU v6e (Trillium) has a 256x256 MXU" in tpus
    assert tpus.count("\n# ") == 0 and tpus.startswith("# How to Think About TPUs\n")


def test_front_matter_round_trips(curated):
    from kb.corpus import parse_article

    for article in curated.values():
        again = parse_article(render_article(article), article.path)
        assert again == article


def test_repair_that_matches_nothing_fails(project_settings, tmp_path):
    shutil.copytree(project_settings.corpus_dir / "sources", tmp_path / "sources")
    catalog = tmp_path / "sources" / "catalog.yaml"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace('find: "F(xiàn)P32"', 'find: "no such text"'),
                       encoding="utf-8")
    with pytest.raises(CurationError, match="no such text"):
        curate_corpus(tmp_path / "sources", tmp_path)
