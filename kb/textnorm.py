"""Text normalization shared by curation, indexing and questions.

Chinese is folded to Simplified script with OpenCC so that a Traditional
question ("訓練") finds a Simplified passage ("训练") and the reverse.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from kb.language import has_han


@lru_cache(maxsize=1)
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """Traditional Chinese characters to Simplified; other text unchanged."""
    return _t2s().convert(text)


def normalize_for_matching(text: str) -> str:
    """What the index and the question both see: NFKC (full-width folded) and one Chinese script.

    The output has the same meaning but not the same offsets as the input, so
    it is only ever used for embedding and matching, never for citations.
    """
    text = unicodedata.normalize("NFKC", text)
    return to_simplified(text) if has_han(text) else text
