"""What a spec question asks: which entities, which attribute, and whether it compares or ranks them.

Everything here is matching against the vocabulary: entity names (with
Russian inflections and Chinese written without spaces), attribute cues in
the question's language (units count as cues: "TFLOPS", "GB/s"), data types,
and words that make a question a comparison ("or", "или", "还是") or a
superlative ("the most", "дешевле всего", "最"). A question that names no
attribute is not a spec question, and gets passages only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from kb.specs.facts import FactTable
from kb.specs.tables import DTYPE
from kb.textnorm import normalize_for_matching

Kind = Literal["lookup", "comparison", "superlative"]

_COMPARE = {
    "en": r"\b(?:vs\.?|versus|compared?|than|which|or|difference)\b",
    "ru": r"(?<![а-яё])(?:или|чем|против|сравнени\w*|как\w{1,3}|кто|у кого|что|насколько)(?![а-яё])",
    "zh": r"还是|和|与|比|相比|哪个|哪款|谁|对比|提升",
}
_SUPERLATIVE = {
    "en": r"\b(?:most|highest|largest|biggest|fastest|least|lowest|cheapest|smallest|slowest|best|maximum|minimum)\b|"
          r"\bwhich\b.*\b(?:cheaper|faster|larger|bigger|more|higher|less|lower|smaller)\b",
    "ru": r"(?<![а-яё])(?:сам\w+|больше всего|меньше всего|наибольш\w*|наименьш\w*|максимальн\w*|минимальн\w*|"
          r"дешевле|дороже|быстрее|больше|меньше)(?![а-яё])",
    "zh": r"最|更便宜|更贵|更大|更多|更快",
}
_LOWER = {
    "en": r"\b(?:least|lowest|cheap\w*|smallest|slowest|minimum|less|fewer|lower)\b",
    "ru": r"(?:меньш\w*|наименьш\w*|минимальн\w*|дешевл\w*|ниже|медленн\w*)",
    "zh": r"最少|最低|最小|最便宜|便宜|更少|更低|更小",
}
_SCOPE_WORDS = {
    "per_gcd": r"\bgcds?\b",
    "per_instance": r"\binstances?\b|инстанс\w*|实例",
    "per_chip": r"\bchips?\b|\bper chip\b|чип\w*|芯片",
}
_KIND_WORDS = {
    "chip": r"\bchips?\b|\bgpus?\b|\baccelerators?\b|чип\w*|ускорител\w*|芯片|加速器",
    "instance": r"\binstances?\b|инстанс\w*|实例",
}


@dataclass(frozen=True)
class SpecQuery:
    kind: Kind
    attribute: str
    entities: tuple[str, ...] = ()
    dtype: str | None = None
    direction: Literal["higher", "lower"] = "higher"
    sparse: bool = False
    kind_filter: str | None = None
    scopes: tuple[str, ...] = ()  # scopes the question names ("each MI250 GCD")
    cued: tuple[str, ...] = field(default=(), compare=False)  # every attribute the question cued, best first


def understand(question: str, lang: str | None, table: FactTable) -> SpecQuery | None:
    """The spec reading of a question, or None when it asks about no attribute."""
    lang = lang or "en"
    text = normalize_for_matching(question)
    low = text.lower()
    vocabulary = table.vocabulary
    entities = tuple(dict.fromkeys(m.entity for m in vocabulary.mentions(text)))
    cues = vocabulary.attribute_cues(low, lang)
    if not cues:
        return None
    dtype_match = DTYPE.search(text)
    dtype = dtype_match.group(1).upper() if dtype_match else None
    cued = tuple(a for _, a in cues)

    def has_facts(attribute: str) -> bool:
        pool = entities or tuple(table.entities_with(attribute))
        return any(table.about(e, attribute) or any(table.about(r, attribute) for r in table.related(e))
                   for e in pool)

    # The longest cue that the table can answer wins; when none can, the longest cue stands,
    # so that "a known chip, an attribute the corpus lacks" can be told apart.
    attribute = next((a for a in cued if has_facts(a)), cued[0])
    compare = re.search(_COMPARE.get(lang, _COMPARE["en"]), low) or re.search(_COMPARE["en"], low)
    superlative = re.search(_SUPERLATIVE.get(lang, _SUPERLATIVE["en"]), low)
    lower = re.search(_LOWER.get(lang, _LOWER["en"]), low)
    better = vocabulary.attributes[attribute].better
    direction = "lower" if lower else ("higher" if superlative or compare else better)
    kind_filter = next((k for k, pattern in _KIND_WORDS.items() if re.search(pattern, low)), None)
    sparse = bool(re.search(r"sparse|稀疏|разрежен", low))
    if len(entities) >= 2 and compare:
        kind: Kind = "comparison"
    elif not entities and superlative:
        kind = "superlative"
    elif not entities:
        return None
    else:
        kind = "lookup"
    scopes = tuple(s for s, pattern in _SCOPE_WORDS.items() if re.search(pattern, low))
    return SpecQuery(kind=kind, attribute=attribute, entities=entities, dtype=dtype, direction=direction,
                     sparse=sparse, kind_filter=kind_filter, scopes=scopes, cued=cued)
