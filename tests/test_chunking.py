"""Sentences, sections and chunks over the real corpus, counted in the real model's tokens."""

from __future__ import annotations

import pytest

from kb.chunking import ChunkerSettings, chunk_article
from kb.corpus import load_corpus
from kb.markdown import parse_article
from kb.sentences import sentence_spans, split_sentences


@pytest.mark.parametrize("text, expected", [
    ("Gaudi costs 13.11 USD per hour. That is cheaper, e.g. vs. the P4d! Is it?",
     ["Gaudi costs 13.11 USD per hour.", "That is cheaper, e.g. vs. the P4d!", "Is it?"]),
    ("TPU v4 и v5p могут быть в 2.8 раз быстрее, т.е. заметно. См. рис. 3 ниже. Да.",
     ["TPU v4 и v5p могут быть в 2.8 раз быстрее, т.е. заметно.", "См. рис. 3 ниже.", "Да."]),
    ("每小时价格为13.11美元，比前者低了60%。针对特定的模型；结果如下！真的吗？是的",
     ["每小时价格为13.11美元，比前者低了60%。", "针对特定的模型；结果如下！", "真的吗？", "是的"]),
    # a semicolon joins the halves of one sentence: the second alone says nothing of what the first contrasts
    ("GPU 节点内带宽高，节点外带宽受限；TPU 带宽在各个方向更均匀。", ["GPU 节点内带宽高，节点外带宽受限；TPU 带宽在各个方向更均匀。"]),
    # a list item without a full stop ends where the next item starts; a wrapped line does not end it
    ("- B300 cut FP64 hard - not a strict upgrade\n- H200 - mainly the same as H100\n  with more memory\n2. last",
     ["- B300 cut FP64 hard - not a strict upgrade", "- H200 - mainly the same as H100\n  with more memory", "2. last"]),
    # a full stop that lost its space in scraping still ends a sentence; one inside a link, a path or code does not
    ("provided by the optical switches.Note that a `2x2x4` won't. Это важно.Обратите внимание.",
     ["provided by the optical switches.", "Note that a `2x2x4` won't.", "Это важно.", "Обратите внимание."]),
    ("See https://example.com/docs.Html now, or `torch.Tensor` on docs.Google.com here.",
     ["See https://example.com/docs.Html now, or `torch.Tensor` on docs.Google.com here."]),
    # a list item's number cut off its item is no sentence, in Chinese or in English
    ("**答案：**\n\n1. 每 GPU 发送 `B/N`，入口 `B`\n2. 交换机累积后发回", ["**答案：**", "每 GPU 发送 `B/N`，入口 `B`", "交换机累积后发回"]),
    ("19. Gaudi3 runs at 1600MHz. Next one.\n20. Trainium", ["Gaudi3 runs at 1600MHz.", "Next one.", "Trainium"]),
    ("It was 1. Then came 2.", ["It was 1.", "Then came 2."]),
])
def test_sentences(text, expected):
    assert split_sentences(text) == expected


@pytest.fixture(scope="module")
def corpus_chunks(project_settings, default_encoder):
    settings = ChunkerSettings(project_settings.chunk_target_tokens, project_settings.chunk_max_tokens)
    articles = load_corpus(project_settings.corpus_dir)
    return [(a, chunk_article(a, default_encoder.count_tokens, settings)) for a in articles]


def test_offsets_slice_back_exactly(corpus_chunks):
    for article, chunks in corpus_chunks:
        assert chunks, article.path
        for chunk in chunks:
            assert article.body[chunk.char_start:chunk.char_end] == chunk.text
            assert chunk.text.strip() == chunk.text and chunk.text


def test_no_chunk_exceeds_the_token_limit(corpus_chunks, default_encoder, project_settings):
    for _, chunks in corpus_chunks:
        for chunk in chunks:
            tokens = default_encoder.count_tokens(chunk.embed_text)
            assert tokens <= project_settings.chunk_max_tokens < default_encoder.max_tokens, (chunk.chunk_id, tokens)


def test_every_sentence_lands_in_a_chunk(corpus_chunks):
    """Every sentence is in a chunk, except labels alone right before a table: they name it, as the last step
    of its chunks' section path ("**内存容量**：" before the memory table)."""
    from kb.sentences import leads_in

    captions = 0
    for article, chunks in corpus_chunks:
        _, blocks = parse_article(article)
        spans = sorted((c.char_start, c.char_end) for c in chunks)
        for block, after in zip(blocks, [*blocks[1:], None], strict=True):
            sentences = sentence_spans(article.body, block.char_start, block.char_end)
            if after is not None and after.table is not None and block.section_index == after.section_index and \
                    block.kind == "prose" and all(leads_in(article.body[s:e]) for s, e in sentences):
                table = [c for c in chunks if c.kind == "table" and after.char_start <= c.char_start < after.char_end]
                label = article.body[sentences[0][0]:sentences[-1][1]].strip("*：: ")
                if not any(s <= sentences[0][0] and sentences[-1][1] <= e for s, e in spans):
                    assert table and all(c.section[-1].endswith(label) for c in table), (label, table[:1])
                    captions += 1
                    continue
            for start, end in sentences:
                inside = any(s <= start and end <= e for s, e in spans)
                # a sentence longer than the limit is cut, but every piece is covered
                covered = inside or all(any(s <= i < e for s, e in spans)
                                        for i in range(start, end) if not article.body[i].isspace())
                assert covered, (article.path, article.body[start:end][:80])
    assert captions >= 3


def test_a_question_or_a_label_opens_the_chunk_that_answers_it(corpus_chunks):
    """Where a section's prose goes on in the next chunk, a chunk never ends on what leads into it: a question
    (its answer follows) or a label ("**答案：**")."""
    from kb.sentences import leads_in

    checked = 0
    for article, chunks in corpus_chunks:
        for this, after in zip(chunks, chunks[1:], strict=False):
            joined = this.kind == after.kind == "prose" and this.section == after.section and \
                not article.body[this.char_end:after.char_start].strip()
            if not joined:
                continue
            checked += 1
            texts = [this.span_text(s, e) for s, e in this.sentences]
            assert not leads_in(texts[-1]) or all(leads_in(t) for t in texts), (this.chunk_id, texts[-1])
    assert checked > 50
    cn = next(chunks for a, chunks in corpus_chunks if a.meta.id == "scaling-book-cn-gpus")
    sharp = next(c for c in cn if "使用 SHARP 时交换机处理多少字节" in c.text)
    assert "交换机累积后发回" in sharp.text and "总共" in sharp.text


def test_chunk_ids_are_stable_and_unique(corpus_chunks, default_encoder, project_settings):
    ids = [c.chunk_id for _, chunks in corpus_chunks for c in chunks]
    assert len(ids) == len(set(ids))
    article, chunks = corpus_chunks[0]
    again = chunk_article(article, default_encoder.count_tokens,
                          ChunkerSettings(project_settings.chunk_target_tokens, project_settings.chunk_max_tokens))
    assert [c.chunk_id for c in again] == [c.chunk_id for c in chunks]


def test_table_chunks_are_whole_rows_with_their_header(corpus_chunks):
    specs = next(chunks for a, chunks in corpus_chunks if a.meta.id == "ml-engineering-accelerator-specs")
    tables = [c for c in specs if c.kind == "table"]
    assert len(tables) > 5
    for chunk in tables:
        lines = chunk.text.split("\n")
        assert all(line.startswith("|") and line.endswith("|") for line in lines), chunk.chunk_id
    def is_separator(line: str) -> bool:
        return set(line.replace("|", "").replace(" ", "")) <= set("-:") and "-" in line

    first = [c for c in tables if len(c.text.split("\n")) > 1 and is_separator(c.text.split("\n")[1])]
    continued = [c for c in tables if c not in first]
    assert first and continued, "long tables are split over several chunks"
    for chunk in continued:
        header, separator = chunk.embed_text.split("\n")[1:3]
        assert header.startswith("|") and is_separator(separator) and header not in chunk.text


def test_sections_have_paths_and_anchors(project_settings):
    article = next(a for a in load_corpus(project_settings.corpus_dir) if a.meta.id == "aws-trainium2-architecture")
    sections, _ = parse_article(article)
    paths = {s.heading_path[-1]: s for s in sections}
    compute = paths["Compute"]
    assert compute.heading_path == ("Trainium2 Architecture", "Trainium2 performance improvements", "Compute")
    assert compute.anchor == "compute"
    assert len({s.anchor for s in sections}) == len(sections)


def test_sentences_are_embedded_under_their_chunk_context(corpus_chunks):
    """A sentence vector scores its passage: "it has 96 GB" must carry the chip it is about."""
    from kb.chunking import sentence_texts
    from kb.textnorm import normalize_for_matching

    chunks = [c for _, article_chunks in corpus_chunks for c in article_chunks]
    for chunk in chunks:
        assert chunk.sentences, chunk.chunk_id
        assert all(chunk.char_start <= s < e <= chunk.char_end for s, e in chunk.sentences)
        assert list(chunk.sentences) == sorted(chunk.sentences)
        for (start, end), text in zip(chunk.sentences, sentence_texts(chunk), strict=True):
            assert text.startswith(chunk.embed_text.split("\n")[0] + "\n")
            assert text.endswith(normalize_for_matching(chunk.span_text(start, end)))


def test_table_sentences_are_rows_never_the_header(corpus_chunks):
    """A row is quoted whole, unless it holds prose cells (four words or more): then each such cell."""
    from kb.chunking import sentence_texts
    from kb.textnorm import normalize_for_matching

    tables = [c for _, chunks in corpus_chunks for c in chunks if c.kind == "table"]
    for chunk in tables:
        lines = chunk.text.split("\n")
        quoted = {chunk.span_text(s, e) for s, e in chunk.sentences}
        opens = len(lines) > 1 and "-" in lines[1] and set(lines[1].replace("|", "").replace(" ", "")) <= set("-:")
        if opens:
            assert lines[0] not in quoted and lines[1] not in quoted  # header and separator answer nothing
        # every row that says something is quoted (whole, or by its prose cells); an empty row is not
        for line in lines[2 if opens else 0:]:
            said = line.replace("|", "").strip()
            assert (line in quoted or any(q in line for q in quoted)) == bool(said), (chunk.chunk_id, line[:60])
        for s, e in chunk.sentences:
            text = chunk.span_text(s, e)
            assert (text.startswith("|") and text.endswith("|")) or (len(text.split()) >= 4 and "|" not in text)
        # every sentence is embedded with the column names: the chunk's own header row, or the repeated one
        header = normalize_for_matching(lines[0]) if opens else chunk.embed_text.split("\n")[1]
        assert all(t.split("\n")[1] == header for t in sentence_texts(chunk))


def test_an_html_comment_is_a_note_to_the_editors_and_never_a_passage(corpus_chunks):
    # the MI300 page keeps "<!--- We need performance data about the P2P communication here. -->": it was quoted
    # as the answer to how the GPUs of a node talk to each other
    texts = [c.text for _, chunks in corpus_chunks for c in chunks]
    assert not any("<!--" in t or "We need performance data" in t for t in texts)
    assert any("fully connected 8-GPU system" in t for t in texts)


def test_text_between_two_html_comments_is_kept(project_settings):
    from kb.corpus import parse_article as parse_text
    path = project_settings.corpus_dir / "en" / "amd-instinct-mi300-microarchitecture.md"
    head = "---" + path.read_text(encoding="utf-8").split("---")[1] + "---\n"  # a real article's front matter
    body = "Intro.\n\n<!-- a --> The MI300X has 192 GB. <!-- b -->\n\n<!-- note -->\n"
    article = parse_text(head + body, "en/amd-instinct-mi300-microarchitecture.md")
    _, blocks = parse_article(article)
    kept = [article.body[b.char_start:b.char_end] for b in blocks]
    assert any("192 GB" in k for k in kept) and not any(k.strip() == "<!-- note -->" for k in kept)
