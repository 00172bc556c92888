"""Chinese attribute words typed wrong with a pinyin input method, mended before cues are matched.

A pinyin keyboard offers every word that sounds the same, so "显存" (video memory)
comes out as "现存" and "带宽" as "贷款"; a fast typist also swaps two characters
("宽带" for "带宽"). A run of Chinese characters that is no cue word but sounds like
exactly one (tones ignored), or is one with its two characters swapped, is read as
that cue word. The cue words come from the ``zh`` cues of ``attributes.yaml``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.language import HAN

_HAN = re.compile(f"[{HAN}]+")
# escapes, character classes and optional characters are no part of a word
_OPTIONAL = re.compile(r"\\.|\[[^\]]*\]|" + f"[{HAN}]" + r"[?*]")


@lru_cache(maxsize=4096)
def _sounds(text: str) -> tuple[str, ...]:
    from pypinyin import Style, lazy_pinyin

    return tuple(lazy_pinyin(text, style=Style.NORMAL, errors="ignore"))


def cue_words(patterns: list[str]) -> list[str]:
    """The words of two to four Chinese characters written in cue patterns ('多少个?(?:芯片|gpu)': 多少, 芯片)."""
    words = set()
    for pattern in patterns:
        words.update(w for w in _HAN.findall(_OPTIONAL.sub(" ", pattern)) if 2 <= len(w) <= 4)
    return sorted(words)


class HanSpelling:
    """Mends the cue words of ``words`` in a question (see the module's docstring)."""

    def __init__(self, words: list[str]) -> None:
        self.words = frozenset(words)
        by_sound: dict[tuple[str, ...], set[str]] = {}
        for w in words:
            by_sound.setdefault(_sounds(w), set()).add(w)
        # a sound two cue words share says neither
        self._by_sound = {s: next(iter(ws)) for s, ws in by_sound.items() if len(ws) == 1}
        self._swapped = {w[::-1]: w for w in words if len(w) == 2 and w[::-1] not in self.words}

    def mend(self, text: str) -> str:
        if not self.words or not _HAN.search(text):
            return text
        return _HAN.sub(lambda m: self._mend_run(m.group(0)), text)

    def _mend_run(self, run: str) -> str:
        # characters already inside a cue word stay as written
        kept = [False] * len(run)
        for w in self.words:
            for m in re.finditer(re.escape(w), run):
                kept[m.start():m.end()] = [True] * len(w)
        out, i = [], 0
        while i < len(run):
            for n in (4, 3, 2):
                piece = run[i:i + n]
                if len(piece) < n or any(kept[i:i + n]):
                    continue
                word = self._swapped.get(piece) or self._by_sound.get(_sounds(piece))
                if word is not None and len(word) == n:
                    out.append(word)
                    i += n
                    break
            else:
                out.append(run[i])
                i += 1
        return "".join(out)
