"""Text normalization shared by curation, indexing and questions.

Chinese is folded to Simplified script with OpenCC so that a Traditional
question ("訓練") finds a Simplified passage ("训练") and the reverse. Curation
converts characters only (``t2s``: the curated text keeps its author's words);
matching of text written in Traditional characters also folds Taiwan phrasing
to mainland words (``tw2sp``: "記憶體頻寬" -> "内存带宽", "晶片" -> "芯片"), so a
question asked in Taiwan's terms finds the same passages and attribute cues.
Text already in Simplified is left alone: ``tw2sp`` would read its mainland
words as Taiwan's ("程序" -> "进程").
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from kb.language import has_han


@lru_cache(maxsize=2)
def _converter(config: str):
    import opencc

    return opencc.OpenCC(config)


def to_simplified(text: str) -> str:
    """Traditional Chinese characters to Simplified; other text unchanged."""
    return _converter("t2s").convert(text)


def normalize_for_matching(text: str) -> str:
    """What the index and the question both see: NFKC (full-width folded) and one Chinese script.

    The output has the same meaning but not the same offsets as the input, so
    it is only ever used for embedding and matching, never for citations.
    """
    text = unicodedata.normalize("NFKC", text)
    if not has_han(text):
        return text
    simplified = _converter("t2s").convert(text)
    return simplified if simplified == text else _converter("tw2sp").convert(text)


def normalize_keeping_offsets(text: str) -> str:
    """``normalize_for_matching`` where it keeps every character's place, which reading facts off a sentence needs
    (a value's offsets are the source's); otherwise each character normalized alone, one that would become several
    ("™" -> "TM") left as written, so that such a sentence is still read."""
    norm = normalize_for_matching(text)
    if len(norm) == len(text):
        return norm
    return "".join(n if len(n := normalize_for_matching(ch)) == 1 else ch for ch in text)


_BRACKET = "()[]（）【】"


def plain_words(text: str) -> tuple[str, list[int]]:
    """``text`` with the punctuation that splits a phrase people read as one taken out, and where each of its
    characters stood: a hyphen between words becomes a space ("L2-кэш" is "L2 кэш"), brackets go ("shared
    memory (SMEM) на один SM" reads "shared memory SMEM на один SM"). Cues match either form."""
    out: list[str] = []
    at: list[int] = []
    for i, ch in enumerate(text):
        if ch in _BRACKET:
            continue
        if ch == "-" and 0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum():
            ch = " "
        if ch.isspace() and (not out or out[-1] == " "):
            continue
        out.append(" " if ch.isspace() else ch)
        at.append(i)
    return "".join(out), at
