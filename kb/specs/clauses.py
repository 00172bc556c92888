"""What the prose and relation readers share: a sentence's clauses, and what a figure may be about."""

from __future__ import annotations

import re

from kb.specs.vocabulary import Vocabulary

CLAUSE = re.compile(r"[,，;；:：]|\s-\s|\s—\s| and | but | which |，而|，并")  # an aside in brackets stays in its clause
WINDOW = 48  # characters around a number that its attribute cue may stand in
SUBJECT_KINDS = ("chip", "instance", "system")  # memory types and interconnects are rarely what a figure is about
# the other side of a comparison is never what a figure is about
COMPARED = re.compile(r"(?:than|compared (?:to|with)|versus|vs\.?|against|чем|比|相比)\s*(?:the\s+|an?\s+)?$", re.IGNORECASE)


def clause(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the clause of ``text`` that holds ``text[start:end]``."""
    left = max((m.end() for m in CLAUSE.finditer(text, 0, start)), default=0)
    right = next((m.start() for m in CLAUSE.finditer(text, end)), len(text))
    return left, right


def hourly_instance(entity: str, attribute: str, vocabulary: Vocabulary) -> str:
    """A chip's hourly price is the price of the instance built of it, when there is one such instance."""
    if attribute != "price_per_hour" or vocabulary.entities[entity].kind != "chip":
        return entity
    built = [e.id for e in vocabulary.entities.values() if e.parts and e.parts.chip == entity]
    return built[0] if len(built) == 1 else entity
