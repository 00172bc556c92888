"""Structured spec lookups: a fact table with provenance, and answers to spec questions.

    vocabulary.py  entities and attributes (corpus/specs/*.yaml), names found in text
    tables.py      facts read from the Markdown tables of curated articles
    curated.py     facts from prose (corpus/specs/facts.yaml), checked against the text
    facts.py       the validated table with disagreements marked; facts.json in the index
    questions.py   what a question asks: entities, attribute, comparison or superlative
    present.py     entries in the question's language, comparisons and rankings (``lookup``)
"""
