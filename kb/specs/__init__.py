"""Structured spec lookups: a fact table with provenance, and answers to spec questions.

    vocabulary.py  entities and attributes (corpus/specs/*.yaml), names found in text
    tables.py      facts read from the Markdown tables of curated articles
    curated.py     facts from prose (corpus/specs/facts.yaml), checked against the text
    facts.py       the validated table with disagreements marked; facts.json in the index
    questions.py   what a question asks: entities, attribute, comparison or superlative
    present.py     entries in the question's language, comparisons and rankings
"""

from __future__ import annotations

from kb.specs.facts import FactTable
from kb.specs.present import SpecAnswer, answer_spec
from kb.specs.questions import SpecQuery, understand

__all__ = ["FactTable", "SpecAnswer", "SpecQuery", "answer_spec", "lookup", "understand"]


def lookup(table: FactTable, question: str, lang: str | None) -> tuple[SpecQuery | None, SpecAnswer | None]:
    """The spec reading of a question and its answer; (None, None) when it is not a spec question."""
    query = understand(question, lang, table)
    if query is None:
        return None, None
    return query, answer_spec(table, query, lang if lang in ("en", "ru", "zh") else "en")
