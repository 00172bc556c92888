"""Sentence boundaries with exact character offsets, for English, Russian and Chinese.

Citations quote sentences character for character, so the splitter returns
spans into the original text rather than rewritten strings (which is why a
small rule set is used here instead of a library that normalizes text).
Rules: Chinese ends a sentence at 。！？ (and ！？ full-width forms) with
no space needed, not at ；, which joins the halves of one sentence as ";" does ("GPU 节点内带宽高，节点外带宽受限；TPU
带宽在各个方向更均匀。" read from its second half says nothing of the GPU); English and Russian end at . ! ? … followed by space and a
capital, digit, quote or bracket, unless the word before the dot is a
known abbreviation; a dot between digits ("13.11") never ends a sentence.
Scraped text sometimes loses the space after a full stop ("optical
switches.Note that"): a lower-case word, a dot and a capitalized word end a
sentence too, unless the dot is part of a link, a path or code.
A list item's number cut off its item ("2." before "交换机累积后发回") is no sentence.
A blank line always ends one: a figure caption or a heading without a full
stop is not the start of the next paragraph. So does a line that starts a
list item ("- ", "* ", "2. "): an item without a full stop is not the start
of the next item.
"""

from __future__ import annotations

import re

from kb.language import HAN, is_han

SENTENCE_RULES = 5  # bump when the rules change: chunks and sentence spans depend on them

_ABBREVIATIONS = {
    # English
    "e.g", "i.e", "etc", "vs", "approx", "fig", "figs", "no", "nos", "mr", "mrs", "dr", "prof", "inc", "ltd",
    "co", "corp", "jr", "sr", "st", "al", "cf", "eq", "sec", "vol", "ch", "p", "pp", "ca", "est",
    # Russian
    "т.е", "т.к", "т.д", "т.п", "др", "пр", "см", "рис", "г", "гг", "стр", "им", "тыс", "млн", "млрд", "руб",
    "т", "д", "п", "ок", "напр", "прим", "ред",
}
_CJK_END = re.compile(r"[。！？!?]+[”’」』）)]*")
_LATIN_END = re.compile(rf"[.!?…]+[\"'»”’)\]]*(?=\s+[\"'«“(\[*]?[A-ZА-ЯЁ0-9{HAN}`*\-])|[.!?…]+[\"'»”’)\]]*(?=\s*$)")

# "switches.Note that": a full stop that lost its space, between a lower-case word and a capitalized one
_LOST_SPACE = re.compile(r"(?<=[a-zа-яё]{2})\.(?=[A-ZА-ЯЁ][a-zа-яё]+\s)")
_LIST_NUMBER = re.compile(r"\d{1,2}[.)]")  # a list item's number alone ("2."), cut off its item: no sentence
_LINKED = re.compile(r"[/:@`\\_=]")  # a dot in a token with these is a link's, a path's or code's


def _is_abbreviation(text: str, dot: int) -> bool:
    start = dot
    while start > 0 and (text[start - 1].isalpha() or text[start - 1] == "."):
        start -= 1
    word = text[start:dot].lower()
    return word in _ABBREVIATIONS or (len(word) == 1 and word.isupper())


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Spans (start, end) of the sentences in ``text[start:end]``, whitespace trimmed."""
    end = len(text) if end is None else end
    cuts: set[int] = set()
    for match in _CJK_END.finditer(text, start, end):
        prev = text[match.start() - 1] if match.start() > start else ""
        # A full-width mark ends a sentence; an ASCII !/? only after Chinese text.
        if match.group(0)[0] in "。！？" or (prev and is_han(prev)):
            cuts.add(match.end())
    for match in re.finditer(r"\n[ \t]*\n|\n(?=[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t])", text[start:end]):
        cuts.add(start + match.start())
    for match in _LATIN_END.finditer(text, start, end):
        if match.group(0).startswith(".") and _is_abbreviation(text, match.start()):
            continue
        cuts.add(match.end())
    for match in _LOST_SPACE.finditer(text, start, end):
        token_start = max(start, text.rfind(" ", start, match.start()) + 1, text.rfind("\n", start, match.start()) + 1)
        token_end = next((k for k in range(match.end(), end) if text[k].isspace()), end)
        if not _LINKED.search(text, token_start, token_end) and not _is_abbreviation(text, match.start()):
            cuts.add(match.end())
    spans: list[tuple[int, int]] = []
    begin = start
    for cut in sorted(cuts) + [end]:
        if cut <= begin:
            continue
        s, e = begin, cut
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e and not _LIST_NUMBER.fullmatch(text, s, e):
            spans.append((s, e))
        begin = cut
    return spans


def split_sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


# A sentence that only introduces what follows says nothing read alone: a heading-like phrase before a colon
# ("**GPU vs TPU 网络对比**：", "Key numbers:") or one that announces a list ("The limits are as follows:"). A
# statement that ends in a colon ("GPU 使用 SIMT 而不是 TPU 的 SIMD：") still says something.
_COLON_END = re.compile(r"[:：]\W*$")
ANNOUNCES = re.compile(r"(?:\b(?:following|as follows|below|these)|(?<![а-яё])(?:следующ\w*|ниже|такие)|如下|以下|下面)\W*[:：]\W*$|"
                       r"^\W*(?:here(?:'s| are| is)\b|(?<![а-яё])вот(?![а-яё])(?!\s+почему)|以下是|下面是)")
LABEL_WORDS = 6  # a heading has a few words (a Chinese character counts half a word)


def size(sentence: str) -> float:
    """How many words a sentence has, a Chinese character counting half of one."""
    return len(re.findall(rf"[^\W\d_{HAN}]+|\d+", sentence)) + len(re.findall(f"[{HAN}]", sentence)) / 2


def is_label(sentence: str) -> bool:
    """A heading-like phrase before a colon or a sentence that announces a list: it introduces, says nothing."""
    if not _COLON_END.search(sentence):
        return False
    return size(sentence) <= LABEL_WORDS or bool(ANNOUNCES.search(sentence.lower()))


_ASKS = re.compile(r"[?？][\s*_]*$")  # ends on its question mark, bold or not


def asks(sentence: str) -> bool:
    return _ASKS.search(sentence) is not None


def leads_in(sentence: str) -> bool:
    """A sentence that is read with what follows it: a question (its answer follows) or a label."""
    return asks(sentence) or is_label(sentence)
