"""Which sentences of the top passages an answer quotes, and which sentence beside each comes with it.

Sentences are chosen by score (``choose_sentences``), never a label; what the question asks decides what
joins the best one: the answer to a quote that asks a question, its reason (asked why), the next sentence of its paragraph (asked a drawback), the sentence
that states a figure (asked how much); asked when, a sentence that states a time gains. Each quote is a span
of its passage, copied character for character.
"""

from __future__ import annotations

import re

import numpy as np

from kb.index import KnowledgeIndex
from kb.models import Hit
from kb.retrieval import QueryScores, Retriever
from kb.sentences import ANNOUNCES, LABEL_WORDS, asks, is_label, size
from kb.specs.dates import states_time
from kb.specs.quantities import MEASURE_WORDS, quantities
from kb.statements import ANSWER_FROM_TOP

SENTENCE_MARGIN = 1.0  # a further sentence joins when it scores within this of the best (calibrated units)
WHEN_BONUS = 0.5  # asked when, added to a sentence that states a time: half the margin, it decides among near ones
PAIR_BONUS = 0.5  # asked about two named things, added to a sentence that names both ("Trainium2 < H100")

# a sentence that announces more to come ("The following tables compare ...")
_ANNOUNCES_MORE = re.compile(r"\b(?:following|below)\b|(?<![а-яё])(?:следующ\w*|ниже)(?![а-яё])|以下|如下|下面")
# A sentence that relates two things: a sign ("Trainium2 < H100", "MI250 ~= A100") or a word of comparison
_RELATES = re.compile(r"\s(?:<|>|~=|≈|=)\s|\b(?:vs\.?|versus|than|same as|similar|equivalent|compared?)\b|"
                      r"(?<![а-яё])(?:чем|против|как и|аналог\w*|сравн\w*|похож\w*)(?![а-яё])|比|相当|不如|优于|相比|一样",
                      re.IGNORECASE)


def relates_two(sentence: str) -> bool:
    """Whether a sentence relates things by a sign or a word of comparison ("Trainium2 < H100", "MI250 ~= A100",
    "the same as H100 but ..."), and announces no table of them ("The following tables compare ...")."""
    return _RELATES.search(sentence) is not None and not _ANNOUNCES_MORE.search(sentence)


def choose_sentences(retriever: Retriever, scores: QueryScores, hits: list[Hit], limit: int,
                     lang_bonus: float = 0.0, why: bool = False, drawback: bool = False, figure: bool = False,
                     when: bool = False, pair: tuple[str, ...] = ()) -> list[tuple[int, int, int]]:
    """(hit position, body start, body end) of the sentences to quote, in reading order. A sentence in the
    question's language gains ``lang_bonus``: one that says nearly as much is read without translating. Asked
    why, the best one comes with the sentence that gives its reason (``with_reason``); asked a drawback, with
    the next one of its paragraph (``with_next_in_paragraph``); asked how much (a ``figure``), each comes with
    the one beside it that states a figure where it states none (``with_figure``); asked when, one that states
    a time gains ``WHEN_BONUS``; asked about two entities (the ids of ``pair``), one that names both gains
    ``PAIR_BONUS``: it is where a source relates them."""
    index = retriever.index
    top = {index.chunk_position[h.chunk.chunk_id]: pos for pos, h in enumerate(hits[:ANSWER_FROM_TOP])}
    rows, value = retriever.sentence_evidence(scores, list(top))
    if rows.size == 0:
        return []
    if lang_bonus and scores.lang:
        value = value + lang_bonus * (index.sentence_langs[rows] == scores.lang)
    def gains(bonus: float, says) -> np.ndarray:  # the bonus to each sentence near the best that ``says``
        near = np.flatnonzero(value >= value.max() - SENTENCE_MARGIN)
        out = value.copy()
        out[near] += bonus * np.array([says(index.sentence_text(int(k))) for k in rows[near]])
        return out

    if when:  # asked when, a sentence that states a time says more than one that does not
        value = gains(WHEN_BONUS, states_time)
    vocabulary = index.facts.vocabulary

    def names_pair(text: str) -> bool:  # a sentence that relates the two (not one that announces a table of them)
        return len(pair) == 2 and relates_two(text) and set(pair) <= {m.entity for m in vocabulary.mentions(text)}
    best = float(value.max())  # the bonuses reorder sentences near the best, and push none out of the margin
    if len(pair) == 2:
        value = gains(PAIR_BONUS, names_pair)
    chosen, used_chunks = [], set()
    for k in np.argsort(-value, kind="stable"):
        c, s, e = (int(x) for x in index.sentence_spans[rows[k]])
        if value[k] < best - SENTENCE_MARGIN or len(chosen) == limit:
            break
        if c in used_chunks or is_label(index.chunks[c].span_text(s, e)):  # one quote per citation
            continue
        used_chunks.add(c)
        chosen.append((top[c], s, e))
    # a quote that asks is read with its answer; the rest extend a quote that is one sentence
    chosen = [with_antecedent(index, hits, with_answer(index, hits, quote)) for quote in chosen]
    if why and chosen:
        chosen[0] = with_reason(index, hits, chosen[0])
    elif drawback and chosen:
        chosen[0] = with_next_in_paragraph(index, hits, chosen[0])
    elif figure:
        chosen = [with_figure(index, hits, quote) for quote in chosen]
    # in reading order, except that a sentence relating the two things asked about is read first
    return sorted(chosen, key=lambda q: (not names_pair(hits[q[0]].chunk.span_text(q[1], q[2])), q))


# A sentence that draws a conclusion ("So ...", "结论：", "Поэтому ...", or anywhere "... , this explains why")
# follows its reasons; any other states a claim that the sentences after it explain.
_CONCLUDES = re.compile(r"^\W*(?:so|thus|hence|therefore|in short|as a result|that is why|this is why|"
                        r"(?:that|this|which) means)\b|\b(?:this|that|which) explains why\b|"
                        r"^\W*(?:поэтому|итак|таким образом|в итоге|следовательно|это (?:значит|означает)|значит)"
                        r"(?![а-яё])|(?<![а-яё])(?:это|что) объясняет(?![а-яё])|"
                        r"^\W*(?:(?:вот|именно) поэтому|вот почему)(?![а-яё])|"
                        r"^\W*(?:结论|总结|所以|因此|因而|综上|这意味着|也就是说)|这(?:就)?解释了|"
                        r"^\W*(?:这|那)(?:就|也|正)?是(?:为什么|原因)(?![^。]*[？?]\W*$)", re.IGNORECASE)


_HAS_LETTER = re.compile(r"[^\W\d_]")
ANSWER_SENTENCES = 3  # the most sentences after a question that come with it as its answer
# Between two sentences of one paragraph: no blank line, and no line that starts a list item, a table row or a caption.
_NEW_BLOCK = re.compile(r"\n\s*\n|\n\s*(?:[-*+|]|\d+[.)])")
_BLOCK_START = re.compile(r"\s*(?:[-+|]|\*(?!\*)|\d+[.)]\s)")  # a sentence that opens a list item, a row or a caption
# Figures the quantity reader does not take: scientific notation ("10e10 bytes/second", "`1.5e10`").
_SCIENTIFIC = re.compile(r"\d(?:\.\d+)?e[+-]?\d+", re.IGNORECASE)


def _sentences_around(index: KnowledgeIndex, hits: list[Hit],
                      quote: tuple[int, int, int]) -> tuple[list[tuple[int, int]], int | None]:
    """The (start, end) of every sentence of the quote's passage, and the quote's place among them (None if not one)."""
    pos, start, end = quote
    spans = index.sentence_spans[index.sentences_of([index.chunk_position[hits[pos].chunk.chunk_id]])]
    # markup or a list number alone ("*" closing a caption, "16.") is no sentence to read
    spans = [(int(s), int(e)) for _, s, e in spans if _HAS_LETTER.search(hits[pos].chunk.span_text(int(s), int(e)))]
    return spans, next((k for k, span in enumerate(spans) if span == (start, end)), None)


def with_reason(index: KnowledgeIndex, hits: list[Hit], quote: tuple[int, int, int]) -> tuple[int, int, int]:
    """For a question that asks why: the quote with the sentence of its passage that gives the reason. The
    sentence most like the question often restates its claim ("it's not enough to rent the most powerful
    accelerator", "结论：B200 在跨节点场景更难计算受限"); the reason stands after a claim and before a conclusion."""
    pos, start, end = quote
    spans, k = _sentences_around(index, hits, quote)
    if k is None:
        return quote
    chunk_text = hits[pos].chunk.span_text

    def neighbour(step: int, labels: bool) -> tuple[int, int] | None:  # the sentence beside the quote, if any
        if not 0 <= k + step < len(spans):
            return None
        return None if not labels and is_label(chunk_text(*spans[k + step])) else spans[k + step]

    step = -1 if _CONCLUDES.search(chunk_text(start, end)) else 1
    # where the passage ends (or starts) there, or that side is a label: the other side
    found = neighbour(step, labels=False) or neighbour(-step, labels=True)
    return (pos, min(start, found[0]), max(end, found[1])) if found else quote


def with_answer(index: KnowledgeIndex, hits: list[Hit], quote: tuple[int, int, int]) -> tuple[int, int, int]:
    """A quote that asks a question ("**为什么不全用 PP？**", "**问题 1 [B200 Roofline]**：... 这如何影响 Roofline？")
    comes with the sentences after it that answer it, up to ``ANSWER_SENTENCES`` of them that say something (not
    a label, "**答案：**", nor a few words without a figure), and never past the next question (one that goes on in
    the same line, "B200 呢？", is part of it): the question a passage asks is most like the one a user asks,
    and read alone it answers nothing."""
    pos, start, end = quote
    text = hits[pos].chunk.span_text
    spans, k = _sentences_around(index, hits, quote)
    if k is None or not asks(text(start, end)):
        return quote
    last, said = end, 0
    for s, e in spans[k + 1:]:
        if not said and asks(text(s, e)) and "\n" not in text(last, s) and size(text(s, e)) <= LABEL_WORDS:
            last = e  # a short question that goes on in its line ("...临界强度是多少？B200 呢？") is one question
            continue
        if said == ANSWER_SENTENCES or asks(text(s, e)):
            break
        if _says_something(text(s, e)):  # a label or a few words ("Давайте разберемся.") is read only in between
            last, said = e, said + 1
    return pos, start, last


def _says_something(sentence: str) -> bool:
    return not is_label(sentence) and (size(sentence) > LABEL_WORDS or states_figure(sentence))


# A sentence that opens with a word pointing back ("It's mainly what they do and they do it well.", "Это ...", "它 ...")
_POINTS_BACK = re.compile(r"^\W*(?:it|it's|its|they|they're|this|that|these|those)\b|"
                          r"^\W*(?:это|они|оно|эти|этот|эта)(?![а-яё])|^\W*(?:它|这|那|其|该)", re.IGNORECASE)
LEANING_WORDS = 12  # the most words of a sentence that leans on the one before


def with_antecedent(index: KnowledgeIndex, hits: list[Hit], quote: tuple[int, int, int]) -> tuple[int, int, int]:
    """A quote that opens with a short sentence pointing back and stating no figure ("It's mainly what they do
    and they do it well.") comes with the sentence before it in its paragraph, which says what it is about: read
    alone it says nothing, though its few words may look like any question."""
    pos, start, end = quote
    text = hits[pos].chunk.span_text
    spans, k = _sentences_around(index, hits, quote)
    first = text(start, spans[k][1]) if k is not None else ""
    if not k or size(first) > LEANING_WORDS or not _POINTS_BACK.match(first) or states_figure(first) or \
            _NEW_BLOCK.search(text(spans[k - 1][1], start)) or is_label(text(*spans[k - 1])):
        return quote
    return pos, spans[k - 1][0], end


def with_next_in_paragraph(index: KnowledgeIndex, hits: list[Hit], quote: tuple[int, int, int]) -> tuple[int, int, int]:
    """For a question that asks a drawback: the quote with the next sentence of its paragraph, which says why the
    drawback matters ("albeit with no wraparounds. This is an important caveat, since it typically doubles the time
    of most communication."); never a sentence across a paragraph, list item or caption, nor a label."""
    pos, start, end = quote
    spans, k = _sentences_around(index, hits, quote)
    if k is None or k + 1 == len(spans):
        return quote
    s, e = spans[k + 1]
    text = hits[pos].chunk.span_text
    # a sentence of a few words or one that announces what follows says nothing on its own ("Давайте разберемся.",
    # "Here's a diagram of part of the system.")
    if _NEW_BLOCK.search(text(end, s)) or _BLOCK_START.match(text(s, e)) or is_label(text(s, e)) or \
            size(text(s, e)) <= LABEL_WORDS or ANNOUNCES.search(text(s, e).lower()):
        return quote
    return pos, start, e


# a count in Chinese with its measure word, whatever it counts ("336个Gaudi训练处理器")
_MEASURED_COUNT = re.compile(rf"(?<![A-Za-z0-9.])\d[\d,.]*\s*[{MEASURE_WORDS}]")


def states_figure(sentence: str) -> bool:
    return bool(quantities(sentence)) or _SCIENTIFIC.search(sentence) is not None or \
        _MEASURED_COUNT.search(sentence) is not None


def with_figure(index: KnowledgeIndex, hits: list[Hit], quote: tuple[int, int, int]) -> tuple[int, int, int]:
    """For a question that asks how much: a quote that states no quantity (a caption's title, "8xH100 节点的
    AllReduce 带宽。") comes with the sentence beside it that does: the one after it, else the one before."""
    pos, start, end = quote
    chunk_text = hits[pos].chunk.span_text
    spans, k = _sentences_around(index, hits, quote)
    if k is None or states_figure(chunk_text(start, end)):
        return quote
    for step in (1, -1):
        if 0 <= k + step < len(spans) and states_figure(chunk_text(*spans[k + step])):
            s, e = spans[k + step]
            return pos, min(start, s), max(end, e)
    return quote
