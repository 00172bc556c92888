"""Product names written in Cyrillic letters, read as the Latin names they stand for.

Russian users write names they know in Latin letters the way they say them ("Трн2 ультрасервер" for "Trn2
UltraServer", "нвидиа") or type them on a Russian keyboard with letters that look Latin ("а100" for "A100",
"Н100" for "H100"). Neither reaches a name, a passage or a fact written in Latin letters. A word with Cyrillic
letters that is no word of the corpus is read as the name word it can be spelled as, letter by letter, by sound
or by look, with a Russian case ending allowed after it ("ультрасервере"); an ordinary Russian word of letters
alone is not ("рубин" is a ruby, "инстинкт" an instinct), nor is anything else.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.language import word_frequency

# each Cyrillic letter: the Latin letters it is said as, and the one it looks like
_SOUND = {"а": "a", "б": "b", "в": "v|w", "г": "g", "д": "d", "е": "e", "ё": "e|yo", "ж": "zh|j", "з": "z", "и": "i",
          "й": "y|i|j", "к": "k|c", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s|c", "т": "t",
          "у": "u", "ф": "f", "х": "kh|h|x", "ц": "ts|c", "ч": "ch", "ш": "sh", "щ": "sch", "ъ": "", "ы": "y|i", "ь": "",
          "э": "e", "ю": "yu|u", "я": "ya|a"}
_LOOK = {"а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
         "у": "y", "х": "x", "і": "i"}
_ENDING = r"(?:а|е|у|ом|ой|ою|ы|и|ов|ам|ами|ах|ям|ях)?"  # "у трейниума", "на ультрасервере"
_COMMON = 3.0  # Zipf frequency from which a word of letters alone is an ordinary Russian word, no name
_WORD = re.compile(r"[0-9A-Za-zА-Яа-яЁёІі]*[А-Яа-яЁёІі][0-9A-Za-zА-Яа-яЁёІі]*")


def _spelling(word: str) -> re.Pattern:
    """The Latin spellings a word with Cyrillic letters can stand for, as one pattern."""
    parts = []
    for ch in word:
        if ch in _SOUND or ch in _LOOK:
            options = set(_SOUND.get(ch, "").split("|")) | ({_LOOK[ch]} if ch in _LOOK else set())
            parts.append(f"(?:{'|'.join(sorted(options, key=len, reverse=True))})")
        else:
            parts.append(re.escape(ch))
    return re.compile("".join(parts))


@lru_cache(maxsize=4)
def name_words(vocabulary) -> dict[str, str]:
    """The words of the table's names in Latin letters, lower case, to how the name writes them ("trn2": "Trn2",
    "ultraserver": "UltraServer"): a model number, or a word of five letters or more (shorter ones are too easily
    spelled by chance)."""
    found = {}
    for entity in vocabulary.entities.values():
        for name in (entity.name, *entity.aliases):
            for word in re.findall(r"[A-Za-z0-9]+", name):
                if re.search(r"[A-Za-z]", word) and (re.search(r"\d", word) or len(word) >= 5) and \
                        (word.lower() not in found or found[word.lower()].islower()):  # "Trn2", not "trn2.48xlarge"'s
                    found[word.lower()] = word
    return found


@lru_cache(maxsize=8192)
def _name_spelled(low: str, vocabulary) -> str | None:
    """The name word a lower-case word with Cyrillic letters spells, or None; kept, since words recur across
    questions and spelling one out compiles patterns."""
    if not re.search(r"\d", low) and word_frequency(low) >= _COMMON:  # "рубин" is a ruby, "ультра" a word
        return None
    names = name_words(vocabulary)
    # the whole word, or the word less a case ending, spelled as a name word
    stems = [_spelling(low[:len(low) - k]) for k in range(4)
             if len(low) - k >= 3 and (k == 0 or re.fullmatch(_ENDING, low[len(low) - k:]))]
    found = {name for name in names for stem in stems if stem.fullmatch(name)}
    return names[found.pop()] if len(found) == 1 else None


def latin_names(text: str, vocabulary, known: frozenset[str] = frozenset()) -> str:
    """``text`` with each word in Cyrillic letters that spells a name word of the table (and is no word of
    ``known``, the corpus's) written as that name word."""
    def read(m: re.Match) -> str:
        word = m.group(0)
        low = word.lower()
        return word if low in known or len(low) < 3 else _name_spelled(low, vocabulary) or word
    return _WORD.sub(read, text)
