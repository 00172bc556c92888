"""Names written in Chinese characters, as the words of a question show them.

Chinese writes no capitals and no spaces, so a name is read from what jieba
makes of the question: a proper noun it tags ("寒武纪", "摩尔线程"), unless its
HMM made it of ordinary words ("张卡" of 多少张卡), and the nouns written right
before a generation or a series ("昆仑芯二代", "燧原第三代", "X系列"), whatever
jieba tags them (it splits the brand 昆仑芯 into the place 昆仑 and 芯).
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

from kb.language import HAN

_HAN_RUN = re.compile(f"[{HAN}]+")
_PROPER = {"nr", "nt", "nz", "nrfg"}  # jieba's tags of person, organization and other proper names
RARE_NAME, COMMON_PIECE = 10, 20  # a name jieba counts at most this often; a word this many times more frequent
# not a relative generation (新一代, 上一代, 哪一代, 每一代); a number before 代 is one ("2代")
_SERIES = re.compile(r"(?<![新上下这那哪每同首前后])(?:第?[一二三四五六七八九十两]|\d+)代|系列")


@lru_cache(maxsize=1)
def tagger():
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


def ordinary_compound(word: str) -> bool:
    """A proper noun jieba's HMM invented from ordinary words of its dictionary ("张卡" of 多少张卡: the
    classifier 张 and 卡) is no name; one its dictionary lists ("寒武纪") or built on a name ("华为X") is, unless
    the dictionary lists it as a rare name that two common ordinary words spell ("连接成": 连接 and 成)."""
    import jieba

    tags = tagger().dt.word_tag_tab  # loading it loads the dictionary
    jieba.dt.check_initialized()
    freq = jieba.dt.FREQ
    if freq.get(word):
        return freq[word] <= RARE_NAME and tags.get(word) == "nr" and any(
            min(freq.get(word[:i], 0), freq.get(word[i:], 0)) >= COMMON_PIECE * freq[word] and
            not {tags.get(word[:i]), tags.get(word[i:])} & (_PROPER | {"nrt", "ns"}) for i in range(1, len(word)))
    pieces = jieba.lcut(word, HMM=False)
    return len(pieces) > 1 and all(jieba.dt.FREQ.get(p) and tags.get(p) not in _PROPER | {"nrt", "ns"} for p in pieces)


def _noun_at(words: list[tuple[str, str]], k: int, offset: int) -> bool:
    """Whether the word that starts ``offset`` characters after the start of word ``k`` is a noun."""
    for word, flag in words[k:]:
        if offset <= 0:
            return offset == 0 and flag[:1] == "n"
        offset -= len(word)
    return False


def han_names(question: str) -> list[tuple[str, int, int]]:
    """(name, start, end) of the names the question writes in Chinese characters."""
    found = []
    for run in _HAN_RUN.finditer(question):
        pos, nouns = run.start(), []  # the starts of the nouns just read
        words = [(w, flag) for w, flag in tagger().cut(run.group(0))]
        for k, (word, flag) in enumerate(words):
            if flag in _PROPER and len(word) >= 2 and not ordinary_compound(word):
                found.append((word, pos, pos + len(word)))
            series = _SERIES.match(question, pos)
            # the generation of what follows it ("谷歌第二代 TPU", "第二代芯片") is not of the words before
            if series and nouns and pos - nouns[0] >= 2 and not re.match(r"\s*[A-Za-z0-9]", question[series.end():]) \
                    and not _noun_at(words, k, series.end() - pos):
                found.append((question[nouns[0]:pos], nouns[0], pos))
            nouns = [*nouns, pos] if flag[:1] in ("n", "g") or flag == "vg" else []
            pos += len(word)
    return found
