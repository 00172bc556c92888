"""Names in a question that the corpus never mentions.

A question about "the Graphcore Bow IPU" or "the Cerebras CS-3" finds
passages about other accelerators that score like real answers; no
retrieval score tells them apart. What does tell them apart is that the
product's name occurs nowhere in the corpus. Names here are model numbers
(letters and digits: "CS-3", "910B") and capitalized Latin words after the
first word of an English question ("Graphcore").
"""

from __future__ import annotations

import re

_MODEL_NUMBER = re.compile(r"(?<![A-Za-z0-9\-])(?=[A-Za-z0-9\-]*[A-Za-z])(?=[A-Za-z0-9\-]*\d)[A-Za-z0-9][A-Za-z0-9\-]*")
_CAPITALIZED = re.compile(r"(?<![A-Za-z0-9\-])[A-Z][a-z]{2,}(?![A-Za-z0-9])")
_TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def corpus_words(texts) -> frozenset[str]:
    """Every Latin token of the corpus, lower-cased, with and without hyphens."""
    words: set[str] = set()
    for text in texts:
        for token in _TOKEN.findall(text.lower()):
            words.add(token)
            words.add(token.replace("-", ""))
            words.update(token.split("-"))
    return frozenset(words)


def unknown_names(question: str, words: frozenset[str], lang: str | None = "en") -> list[str]:
    """Names in the question that occur nowhere in the corpus, in question order."""
    # English capitalizes its first word whatever it is; in a Russian or Chinese question a
    # capitalized Latin word is a name wherever it stands.
    first = re.match(r"\s*\S+", question) if lang in (None, "en") else None
    skip_to = first.end() if first else 0
    names = [m for m in _MODEL_NUMBER.finditer(question)]
    names += [m for m in _CAPITALIZED.finditer(question) if m.start() >= skip_to]
    out = []
    for m in sorted(names, key=lambda m: m.start()):
        name = m.group(0).strip("-")
        key = name.lower()
        if key and key not in words and key.replace("-", "") not in words and name not in out:
            out.append(name)
    return out
