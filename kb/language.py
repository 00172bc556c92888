"""Which of the corpus languages a text is written in, and the scripts that tell them apart.

The three languages use three scripts, so counting letters per script is
exact where it matters (Han for Chinese, Cyrillic for Russian, Latin for
English). Product names are written in Latin letters in all three, so in a
mixed question ("Trn1的FP32算力是多少？", "Когда выйдет NVIDIA Rubin Ultra?")
any Han or Cyrillic letters decide: Latin counts only when there is nothing
else. Between Han and Cyrillic, one Han character weighs as three letters.

The character classes here are the one definition of each script for the
whole package (tokenizers, name matching, normalization).
"""

from __future__ import annotations

import re
from functools import lru_cache

# Regular-expression class bodies: CJK unified ideographs (with extension A and the
# compatibility block), the Cyrillic block, and the lower-case Russian letters that
# case-folded text is matched with.
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CYRILLIC = "\u0400-\u04ff"
RUSSIAN_LOWER = "\u0430-\u044f\u0451"

_HAN_CHAR = re.compile(f"[{HAN}]")
_CYRILLIC_CHAR = re.compile(f"[{CYRILLIC}]")
_HAN_WEIGHT = 3


def is_han(ch: str) -> bool:
    return bool(_HAN_CHAR.match(ch))


def has_han(text: str) -> bool:
    return _HAN_CHAR.search(text) is not None


def has_cyrillic(text: str) -> bool:
    return _CYRILLIC_CHAR.search(text) is not None


def detect_language(text: str) -> str | None:
    """'en', 'ru' or 'zh'; None when the text has no letters of those scripts."""
    han = len(_HAN_CHAR.findall(text))
    cyrillic = len(_CYRILLIC_CHAR.findall(text))
    if han or cyrillic:
        return "zh" if han * _HAN_WEIGHT >= cyrillic else "ru"
    return "en" if any(ch.isascii() and ch.isalpha() for ch in text) else None


# A word this common in general usage (wordfreq's Zipf scale: 3 is once per million words) is a word of the
# language, not a misspelling of a rarer one ("wants" is no "watts").
COMMON_WORD = 3.0


@lru_cache(maxsize=8192)
def word_frequency(word: str) -> float:
    """How common a Latin or Cyrillic word is in general English or Russian (Zipf scale, 0 when unknown)."""
    from wordfreq import zipf_frequency  # loads its word list on first use: kb.coverage.prepare warms it

    return zipf_frequency(word, "ru" if has_cyrillic(word) else "en")


# A Latin word rarer than this in general English ("ipu" 1.9, "tpu" 2.3, "kubernetes" 2.3; "bow" 4.3, "cheapest"
# 3.8) is jargon or a name even when typed in lower case.
RARE_WORD = 2.5


def rare_word(word: str) -> bool:
    return word_frequency(word) < RARE_WORD
