"""A small domain glossary (corpus/glossary.yaml) that carries question terms across languages.

The lexical leg uses it: a Russian question's "память" adds "memory" to the
tokens searched in English passages, "内存" in Chinese ones. So does the dense
leg (``written_in``): the question with its terms written in a passage's
language also scores that language's passages.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import yaml

from kb.coverage import CorpusWords, corpus_words
from kb.lexical import tokenize
from kb.models import LANGS


class Glossary:
    def __init__(self, entries: list[dict[str, list[str]]]) -> None:
        # For every entry and language: the token sequences its terms become.
        self._entries = [{lang: [tuple(tokenize(term)) for term in entry.get(lang, [])] for lang in LANGS}
                         for entry in entries]
        self.terms = tuple(term for entry in entries for lang in LANGS for term in entry.get(lang, []))
        self._written = entries

    @classmethod
    def load(cls, path: Path) -> Glossary:
        if not path.exists():
            return cls([])
        return cls(yaml.safe_load(path.read_text(encoding="utf-8")) or [])

    def translate(self, tokens: list[str], source: str, target: str) -> list[str]:
        """Tokens of the target-language terms of every entry whose source term occurs in ``tokens``."""
        present = set(tokens)
        out: list[str] = []
        for entry in self._entries:
            if any(term and set(term) <= present for term in entry.get(source, [])):
                for term in entry.get(target, []):
                    out.extend(term)
        return out

    def written_in(self, text: str, source: str) -> dict[str, str]:
        """Per other language, the (normalized) question with each glossary term of its own language written as
        that language's first term of the entry ("stay compute-bound across nodes" -> "stay 计算受限 跨节点"); only
        the languages it changed. A model that links "计算受限" to a Chinese passage may not link "compute-bound"."""
        out = {}
        for target in LANGS:
            if target == source:
                continue
            written = text
            for pattern, term in self._term_patterns(source, target):
                written = pattern.sub(f" {term} ", written)
            if written != text:
                out[target] = " ".join(written.split())
        return out

    @lru_cache(maxsize=8)  # noqa: B019 - one glossary per process; compiled once per language pair, not per question
    def _term_patterns(self, source: str, target: str) -> tuple[tuple[re.Pattern, str], ...]:
        found = []
        for entry in self._written:
            into = next(iter(entry.get(target, [])), None)
            for term in entry.get(source, []) if into else ():
                if term.lower() != into.lower():
                    edge = "{}" if source == "zh" else r"(?<![\w-]){}(?![\w-])"
                    found.append((len(term), re.compile(edge.format(re.escape(term)), re.IGNORECASE), into))
        return tuple((pattern, into) for _, pattern, into in sorted(found, key=lambda f: -f[0]))  # longest first

    def in_english(self, text: str, words: set[str] | frozenset[str]) -> str:
        """The text with the Russian and Chinese terms of each entry whose English term is one of ``words``
        (lower case) written as that term: "英伟达的哪款 GPU" → " NVIDIA 的哪款 GPU", for readings that know makers
        only by the Latin names the fact table gives them."""
        for pattern, english in self._english_patterns(frozenset(words)):
            text = pattern.sub(f" {english} ", text)
        return text

    @lru_cache(maxsize=4)  # noqa: B019 - one glossary and one set of makers per process; compiled once, not per question
    def _english_patterns(self, words: frozenset[str]) -> tuple[tuple[re.Pattern, str], ...]:
        found = []
        for entry in self._written:
            english = next((t for t in entry.get("en", []) if t.lower() in words), None)
            for lang in ("ru", "zh") if english else ():
                # a Russian word stands alone; a Chinese one runs into what follows ("英伟达A100")
                edge = r"(?<![A-Za-zА-Яа-яЁё]){}(?![A-Za-zА-Яа-яЁё])" if lang == "ru" else "{}"
                found += [(re.compile(edge.format(re.escape(t)), re.IGNORECASE), english)
                          for t in entry.get(lang, []) if t != english]
        return tuple(found)


@lru_cache(maxsize=4)
def load_glossary(path: Path) -> Glossary:
    return Glossary.load(path)


def with_glossary_words(words: CorpusWords, glossary: Glossary) -> CorpusWords:
    """The corpus's words and the glossary's terms in every language: a maker or a term the articles write in
    one script ("Google") is no unknown name written in another ("谷歌", "Гугл")."""
    extra = corpus_words(glossary.terms)
    return replace(words, words=words.words | extra.words, han_text=words.han_text + "\u3000" + extra.han_text,
                   pairs=words.pairs | extra.pairs)

