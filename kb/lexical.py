"""The lexical leg: BM25 (bm25s) over text tokenized per language.

Tokens: NFKC and case folded, Chinese in Simplified script and segmented
with jieba, Russian and English words stemmed with Snowball (PyStemmer),
stop words dropped. Identifiers survive whole: "H100", "v5p", "MI300X",
"trn2.48xlarge" (also split into its parts), and a number keeps its unit,
so "32GB", "32 GB" and "32 gb" are one token, as are "13,11" and "13.11".

Across languages only *anchors* count: tokens with a digit, and Latin-script
words that occur in articles of two or more languages (product names such
as "gaudi", "tpu", "tensorflow"). An English question must not reach a
Russian passage through a stray English word.
"""

from __future__ import annotations

import json
import logging
import re
from functools import lru_cache
from pathlib import Path

import numpy as np

from kb.language import HAN, RUSSIAN_LOWER, has_cyrillic, rare_word
from kb.textnorm import normalize_for_matching

_UNITS = r"gib|gb|tib|tb|mib|mb|kb|gbps|tbps|mbps|gt/s|tflops?|pflops?|tops|ghz|mhz|nm|mm2|w|usd"
_RATE = re.compile(r"\b(tb|gb|mb|gib|tib)\s*/\s*s(?:ec)?\b")
_NUMBER_UNIT = re.compile(rf"(\d(?:[\d.]*\d)?)\s+({_UNITS})\b")
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d{1,2}(?!\d))")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_TOKEN = re.compile(rf"[{HAN}]+|[a-z0-9{RUSSIAN_LOWER}]+(?:[-./][a-z0-9{RUSSIAN_LOWER}]+)*")
_HAN = re.compile(f"[{HAN}]")
_LATIN_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}(?![A-Za-z0-9])")

STOPWORDS = frozenset("""
a an the of and or is are was were be been to in on at by for with from as it its this that these those what which
who how does do did much many can could should would will about into than then there their them they we you your
i me my our per via vs not no yes also such any all some more most between over under up down out has have had each
и в во на с со по к ко у о об от до для что как какой какая какое какие каков какова каково каковы сколько ли не
это этот эта эти из за а но или же его её их мы вы он она они есть был была были будет при между чем чтобы
的 了 是 和 与 在 有 吗 呢 吧 什么 多少 哪些 哪个 如何 怎么 怎样 为什么 这 那 个 也 都 就 还 及 或 对 把 被 其 之
""".split())


@lru_cache(maxsize=1)
def _jieba():
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


@lru_cache(maxsize=2)
def _stemmer(lang: str):
    import Stemmer

    return Stemmer.Stemmer(lang)


def tokenize(text: str) -> list[str]:
    text = normalize_for_matching(text).casefold()
    text = _THOUSANDS.sub("", _DECIMAL_COMMA.sub(".", text))
    text = _RATE.sub(lambda m: m.group(1) + "ps", text)
    text = _NUMBER_UNIT.sub(r"\1\2", text)
    tokens: list[str] = []
    for match in _TOKEN.finditer(text):
        piece = match.group()
        if _HAN.match(piece):
            tokens.extend(w for w in _jieba().lcut(piece) if w.strip() and w not in STOPWORDS)
        elif any(ch.isdigit() for ch in piece):
            tokens.append(piece.strip(".-/"))
            parts = [p for p in re.split(r"[-/]|\.(?!\d)", piece) if p]
            if len(parts) > 1:
                tokens.extend(parts)
        elif piece not in STOPWORDS and len(piece) > 1:
            tokens.append(_stemmer("russian" if has_cyrillic(piece) else "english").stemWord(piece))
    return tokens


def is_anchor_candidate(token: str) -> bool:
    return any(ch.isdigit() for ch in token) or (token.isascii() and token.isalpha() and len(token) > 1)


def _weight(token: str) -> float:
    """An identifier, letters and digits together ("2x2x1", "v6e", "h100"), weighs three plain words; a bare number
    ("2" of "Gaudi 2", "51") one."""
    return 3.0 if any(ch.isdigit() for ch in token) and any(ch.isalpha() for ch in token) else 1.0


class LexicalIndex:
    """BM25 over chunk texts, plus the anchor vocabulary shared across languages."""

    FILE = "lexical.json"

    def __init__(self, bm25, anchors: frozenset[str]) -> None:
        self._bm25 = bm25
        self.anchors = anchors
        # The best score each token gives any chunk: the most a question's words can attain.
        data, starts = bm25.scores["data"], np.asarray(bm25.scores["indptr"])
        ends = np.append(starts[1:], len(data))
        filled = ends > starts  # a token id with no postings (bm25s keeps one) can attain nothing
        self._token_best = np.zeros(len(starts), dtype=np.float32)
        if filled.any():
            self._token_best[filled] = np.maximum.reduceat(data, starts[filled])

    @classmethod
    def build(cls, texts: list[str], langs: list[str]) -> LexicalIndex:
        import bm25s

        corpus = [tokenize(t) for t in texts]
        seen_in: dict[str, set[str]] = {}
        for tokens, lang in zip(corpus, langs, strict=True):
            for token in tokens:
                if is_anchor_candidate(token):
                    seen_in.setdefault(token, set()).add(lang)
        # A Latin word is a name (TPU, Gaudi, PyTorch) where Russian or Chinese text writes it with a
        # capital; lowercase Latin words there are stray English ("unit", "process") or URL pieces.
        names = {tokenize(word)[0] for text, lang in zip(texts, langs, strict=True) if lang != "en"
                 for word in _LATIN_WORD.findall(normalize_for_matching(text))
                 if any(ch.isupper() for ch in word) and tokenize(word)}
        anchors = frozenset(t for t, ls in seen_in.items()
                            if any(ch.isdigit() for ch in t) or (len(ls) >= 2 and t in names))
        bm25 = bm25s.BM25()
        bm25.index(corpus, show_progress=False)
        return cls(bm25, anchors)

    def save(self, folder: Path) -> None:
        self._bm25.save(str(folder / "bm25"))
        (folder / self.FILE).write_text(json.dumps({"anchors": sorted(self.anchors)}, ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> LexicalIndex:
        import bm25s

        anchors = json.loads((folder / cls.FILE).read_text(encoding="utf-8"))["anchors"]
        return cls(bm25s.BM25.load(str(folder / "bm25")), frozenset(anchors))

    def scores(self, tokens: list[str]) -> np.ndarray:
        """BM25 score of every chunk for these query tokens (unknown tokens ignored)."""
        vocab = self._bm25.vocab_dict
        known = [t for t in tokens if t in vocab]
        if not known:
            return np.zeros(self._bm25.scores["num_docs"], dtype=np.float32)
        return np.asarray(self._bm25.get_scores(known), dtype=np.float32)

    def attainable(self, tokens: list[str]) -> float:
        """The BM25 score a chunk would get if it were the best match for every one of these tokens;
        no chunk scores more, so a score over it is the share of the question's evidence a chunk holds."""
        vocab = self._bm25.vocab_dict
        return float(sum(self._token_best[vocab[t]] for t in tokens if t in vocab))

    def anchor_tokens(self, tokens: list[str]) -> list[str]:
        return [t for t in tokens if t in self.anchors]

    def anchor_spans(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` writes a name the corpus shares across its languages ("GPU", "HBM", "NVLink"),
        with a capital as names are written, or in lower case where general English rarely writes the word
        ("tpus", "nvlink"; not "cloud" of "Google Cloud"); numbers do not count."""
        spans = []
        for m in _LATIN_WORD.finditer(text):
            word = m.group(0)
            tokens = tokenize(word)
            if tokens and (tokens[0] in self.anchors or tokens[0].removesuffix("s") in self.anchors) and \
                    (any(ch.isupper() for ch in word) or rare_word(word)):
                spans.append(m.span())
        return spans

    def overlap(self, question: list[str], text: str, same_language: bool) -> float:
        """The share of the question's distinct tokens that ``text`` holds, an identifier (letters and digits:
        "2x2x1", "v6e") weighing three plain words: a sentence naming the slice or model asked beats one that
        shares only common words with the question. In another language's text only the anchors can match."""
        asked = set(question)
        if not asked:
            return 0.0
        wanted = asked if same_language else asked & self.anchors
        held = set(tokenize(text)) & wanted
        return sum(map(_weight, held)) / sum(map(_weight, asked))
