"""Names written in Chinese characters, as the words of a question show them.

Chinese writes no capitals and no spaces, so a name is read from what jieba
makes of the question: a proper noun it tags ("寒武纪", "摩尔线程"), unless its
HMM made it of ordinary words ("张卡" of 多少张卡), and the nouns written right
before a generation or a series ("昆仑芯二代", "燧原第三代", "X系列") where one
of them is a proper or place name or a word jieba's dictionary lacks: jieba
splits the brand 昆仑芯 into the place 昆仑 and 芯, and a run of ordinary nouns
("张量处理单元第五代", "显卡系列") names no product.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

from kb.language import HAN

HAN_RUN = re.compile(f"[{HAN}]+")
_PROPER = {"nr", "nt", "nz", "nrfg"}  # jieba's tags of person, organization and other proper names
_NAMING = _PROPER | {"nrt", "ns"}  # and of transliterated names and places: the pieces a brand is made of
_RARE_NAME, _COMMON_PIECE = 10, 20  # a name jieba counts at most this often; a word this many times more frequent
# not a relative generation (新一代, 上一代, 哪一代, 每一代, 老一代); a number before 代 is one ("2代")
_SERIES = re.compile(r"(?<![新上下这那哪每同首前后老旧本近])(?:第?[一二三四五六七八九十两]|\d+)代|系列")
_LATIN_AFTER = re.compile(r"\s*[A-Za-z0-9]")  # "谷歌第二代 TPU": the generation is of the product that follows


@lru_cache(maxsize=1)
def tagger():
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


def _ordinary_compound(word: str) -> bool:
    """A proper noun jieba's HMM invented from ordinary words of its dictionary ("张卡" of 多少张卡: the
    classifier 张 and 卡) is no name; one its dictionary lists ("寒武纪") or built on a name ("华为X") is, unless
    the dictionary lists it as a rare name that two common ordinary words spell ("连接成": 连接 and 成)."""
    import jieba

    tags = tagger().dt.word_tag_tab  # loading it loads the dictionary
    jieba.dt.check_initialized()
    freq = jieba.dt.FREQ
    if freq.get(word):
        return freq[word] <= _RARE_NAME and tags.get(word) == "nr" and any(
            min(freq.get(word[:i], 0), freq.get(word[i:], 0)) >= _COMMON_PIECE * freq[word] and
            not {tags.get(word[:i]), tags.get(word[i:])} & _NAMING for i in range(1, len(word)))
    pieces = jieba.lcut(word, HMM=False)
    return len(pieces) > 1 and all(jieba.dt.FREQ.get(p) and tags.get(p) not in _NAMING for p in pieces)


def _noun_at(words: list[tuple[str, str]], k: int, offset: int) -> bool:
    """Whether the word that starts ``offset`` characters after the start of word ``k`` is a noun."""
    for word, flag in words[k:]:
        if offset <= 0:
            return offset == 0 and flag[:1] == "n"
        offset -= len(word)
    return False


def _name_like(word: str, flag: str) -> bool:
    """A proper or place name, or a word jieba's dictionary lacks (its HMM made it up: "燧原")."""
    import jieba

    return flag in _NAMING or not jieba.dt.FREQ.get(word)


def han_names(question: str) -> list[tuple[str, int, int, bool]]:
    """(name, start, end, before a series) of the names the question writes in Chinese characters."""
    found = []
    for run in HAN_RUN.finditer(question):
        # where the nouns just read start, and where the last name-like one of them ends
        pos, start, named_end = run.start(), None, None
        words = list(tagger().cut(run.group(0)))
        for k, (word, flag) in enumerate(words):
            if flag in _PROPER and len(word) >= 2 and not _ordinary_compound(word):
                found.append((word, pos, pos + len(word), False))
            series = _SERIES.match(question, pos)
            # the name-like word ends the name, or one character does ("芯" of 昆仑芯); ordinary nouns after a
            # maker describe its product ("谷歌张量处理单元第五代": Google's tensor processing unit)
            if series and named_end is not None and pos - named_end <= 1 and pos - start >= 2 and \
                    not _LATIN_AFTER.match(question, series.end()) and not _noun_at(words, k, series.end() - pos) and \
                    not any(f[1] == start and f[2] == pos for f in found):  # a proper noun found already
                found.append((question[start:pos], start, pos, True))
            # a noun, or a character jieba leaves untagged as a noun ("g", "vg": 芯 of 昆仑芯, 沐 of 沐曦)
            if flag[:1] in ("n", "g") or flag == "vg":
                start = pos if start is None else start
                named_end = pos + len(word) if _name_like(word, flag) else named_end
            else:
                start, named_end = None, None
            pos += len(word)
    return found
