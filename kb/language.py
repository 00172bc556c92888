"""Which of the corpus languages a question is written in.

The three languages use three scripts, so counting letters per script is
exact where it matters (Han for Chinese, Cyrillic for Russian, Latin for
English) and handles mixed questions such as "Trn1的FP32算力是多少？":
one Han character carries more meaning than one Latin letter, so Han
letters are weighted up.
"""

from __future__ import annotations

_HAN_WEIGHT = 3


def detect_language(text: str) -> str | None:
    """'en', 'ru' or 'zh'; None when the text has no letters of those scripts."""
    han = cyrillic = latin = 0
    for ch in text:
        if "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or "\uf900" <= ch <= "\ufaff":
            han += 1
        elif "\u0400" <= ch <= "\u04ff":
            cyrillic += 1
        elif ch.isascii() and ch.isalpha():
            latin += 1
    scores = {"zh": han * _HAN_WEIGHT, "ru": cyrillic, "en": latin}
    best = max(scores, key=scores.get)
    return best if scores[best] > 0 else None
