"""Which of the corpus languages a question is written in.

The three languages use three scripts, so counting letters per script is
exact where it matters (Han for Chinese, Cyrillic for Russian, Latin for
English). Product names are written in Latin letters in all three, so in a
mixed question ("Trn1的FP32算力是多少？", "Когда выйдет NVIDIA Rubin Ultra?")
any Han or Cyrillic letters decide: Latin counts only when there is nothing
else. Between Han and Cyrillic, one Han character weighs as three letters.
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
    if han or cyrillic:
        return "zh" if han * _HAN_WEIGHT >= cyrillic else "ru"
    return "en" if latin else None
