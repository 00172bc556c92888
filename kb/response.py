"""What a question gets back: typed, frozen values.

``kb.answer.ask`` returns an :class:`AskResponse`; the CLI prints it, the
service serializes it as it is (these models are also its OpenAPI schema) and
the evaluation scores it. The field names are a public contract with the
widget and outside clients: change them only with a new API version.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from kb.params import Mode


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AbstainReason(StrEnum):
    """Why a question is declined."""

    OFF_TOPIC = "off_topic"  # the question is not about the knowledge base's subject (kb.domain)
    WEAK_EVIDENCE = "weak_evidence"  # the best passage scores below answer_min_score
    UNKNOWN_NAME = "unknown_name"  # the question names something the corpus never mentions
    NO_FACT = "no_fact"  # a known entity and attribute, but the fact table has no such fact


class Citation(Frozen):
    n: int = Field(description="the number used by [n] markers")
    chunk_id: str = Field(description="stable id of the passage: article id and body offsets")
    article_id: str = Field(description="the curated article the passage is from")
    title: str = Field(description="the article's title")
    lang: str = Field(description="the article's language: en, ru or zh")
    section: str = Field(description="the heading path of the passage's section, joined by ' > '")
    anchor: str = Field(description="the section's anchor in the curated article")
    text: str = Field(description="the passage, exactly body[char_start:char_end]")
    score: float = Field(description="the passage's score in the ranking mode (calibrated dense + weighted lexical "
                                     "for hybrid); not a probability")
    url: str | None = Field(description="the source the article was curated from, when known")
    char_start: int = Field(description="offset of the passage in the article body")
    char_end: int = Field(description="end offset of the passage in the article body")
    role: Literal["evidence", "related"] = Field(
        description="evidence for the answer, or only related when the question is unanswerable")
    quote_start: int | None = Field(None, description="article offsets of the sentence the answer quotes from this passage")
    quote_end: int | None = Field(None, description="end offset of that sentence")


class Answer(Frozen):
    text: str = Field(description="sentences copied from the cited passages, each followed by its [n] marker")
    source_lang: str = Field(description="the language the answer is written in: that of its first quoted passage, "
                             "which may differ from the question's")
    citations: tuple[int, ...] = Field(description="the [n] numbers the answer quotes, in order")


class SpecSource(Frozen):
    article_id: str = Field(description="the article that states the fact")
    title: str = Field(description="the article's title")
    url: str | None = Field(description="the article's source, when known")
    anchor: str = Field(description="the anchor of the section that states the fact")
    char_start: int = Field(description="offset of the quote in the article body")
    char_end: int = Field(description="end offset of the quote in the article body")
    origin: Literal["table", "curated", "prose"] = Field(
        description="table: read from a Markdown table; prose: read from a sentence; curated: corpus/specs/facts.yaml")
    location: str = Field(description="file:line of the fact's source, for curators")
    context: str | None = Field(description="for a table row: the table's header row")
    value_start: int | None = Field(None, description="offset of the value in the article body, where the quote "
                                    "begins in an earlier sentence (the one that names the entity)")


class SpecRepeat(Frozen):
    """Another place in the same article that states the same value."""

    char_start: int = Field(description="offset of the repeated statement in the article body")
    char_end: int = Field(description="its end offset")
    quote: str = Field(description="the repeated statement, character for character")
    anchor: str = Field(description="the anchor of its section")
    location: str = Field(description="file:line of its source, for curators")


class SpecEntry(Frozen):
    """One fact of the fact table, shown in the question's language."""

    entity: str = Field(description="the entity's id in corpus/specs/entities.yaml")
    entity_name: str = Field(description="the entity's name in the question's language")
    attribute: str = Field(description="the attribute's id in corpus/specs/attributes.yaml")
    label: str = Field(description="the attribute's name in the question's language")
    status: Literal["value", "unknown", "unsupported", "unpublished"] = Field(
        description="value | unknown (the source has or lost no number) | unsupported | unpublished")
    value: float | None = Field(description="null unless status is value; never a guessed number")
    text: str | None = Field(description="a text value, such as a memory type")
    unit: str = Field(description="the canonical unit of value (GB and GiB stay distinct)")
    value_text: str = Field(description="the value as the source writes it")
    display: str = Field(description="one line in the question's language: entity, value, qualifiers")
    value_display: str = Field(description="the display without the entity name")
    qualifier: str = Field(description="data type, basis, scope and variant, in the question's language")
    dtype: str | None = Field(description="the data type of a compute figure: FP16, BF16, FP8, ...")
    scope: str | None = Field(description="what the value is counted over: per_chip, per_instance, per_gcd, ...")
    basis: str | None = Field(description="dense, sparse, matrix, vector, measured, one-way, ...")
    variant: str | None = Field(description="which version of the part the value is for")
    note: str | None = Field(description="a quality note of the source")
    approx: bool = Field(description="the source gives the value as approximate (~)")
    bound: Literal["at_least", "at_most"] | None = Field(description="the source gives a bound, not the value")
    as_of: str | None = Field(description="the date the source states the value as of (ISO 8601)")
    conflict: bool = Field(description="another source gives a different value for the same quantity")
    via: str | None = Field(description="the entity the question named, when the fact is about a related one")
    quote: str = Field(description="the source sentence or table row, character for character")
    citation: SpecSource = Field(description="where the quote is")
    also: tuple[SpecRepeat, ...] = Field((), description="other places in the same article that state the same value")
    citation_n: int | None = Field(None, description="the `citations` entry whose passage holds this fact, if cited")


class LookupAnswer(Frozen):
    kind: Literal["lookup"] = Field(description="the values of one attribute for the named entities")
    attribute: str = Field(description="the attribute asked for")
    lang: str = Field(description="the language of text")
    entities: tuple[str, ...] = Field(description="the entities looked up")
    text: str = Field(description="the answer in the question's language")
    also: tuple[str, ...] = Field((), description="further attributes the question asked in clauses of their own "
                                                 "(\"how many chips in a pod and how much HBM per chip\"), answered "
                                                 "after the first in text; their values are among the specs entries")
    relation: str | None = Field(None, description="when the entity has no value: the source sentence that states "
                                                   "how it relates to a class of products (\"40% higher than the "
                                                   "latest GPU instances\")")


class ComparisonAnswer(Frozen):
    kind: Literal["comparison"] = Field(description="two entities compared on one attribute, or two classes of "
                                                    "product (tpu, gpu) on an aspect a source sentence compares them on")
    attribute: str = Field(description="the attribute compared; for two classes the aspect: cost, speed, better, ...")
    entities: tuple[str, ...] = Field(description="the two entities compared, or the two classes (tpu, gpu)")
    lang: str = Field(description="the language of text")
    higher: str | None = Field(description="the entity with the higher value, when the values can be compared")
    lower: str | None = Field(description="the entity with the lower value")
    comparable: bool = Field(description="false when units or qualifiers (per chip against per instance) differ, "
                                         "or a value is missing")
    difference: tuple[float, float] | None = Field(description="higher minus lower, as a range over the sources")
    ratio: tuple[float, float] | None = Field(description="higher over lower, as a range over the sources")
    unit: str | None = Field(description="the unit of the difference")
    text: str = Field(description="the comparison in the question's language")
    relation: str | None = Field(None, description="when a side has no value of its own: the source sentence that "
                                                   "states how the two relate (\"60% lower than P4d\")")


class SuperlativeAnswer(Frozen):
    kind: Literal["superlative"] = Field(description="the entity with the most or least of an attribute")
    attribute: str = Field(description="the attribute ranked")
    direction: Literal["higher", "lower"] = Field(description="whether the most or the least wins")
    lang: str = Field(description="the language of text")
    entities: tuple[str, ...] = Field(description="the best entities, best first")
    best: str = Field(description="the winner")
    unit: str = Field(description="the unit values were ranked in")
    scope: str | None = Field(description="the scope values were ranked in (like is ranked with like)")
    text: str = Field(description="the ranking in the question's language")


SpecAnswer = Annotated[LookupAnswer | ComparisonAnswer | SuperlativeAnswer, Field(discriminator="kind")]


class AskResponse(Frozen):
    question: str = Field(description="the question as asked")
    lang: str | None = Field(description="detected language of the question: en, ru, zh, or null")
    mode: Mode = Field(description="the retrieval mode that ranked the passages")
    answerable: bool = Field(description="false when the service declines the question (see abstain_reason)")
    abstain_reason: AbstainReason | None = Field(
        description="null when answerable; off_topic (not about AI hardware), weak_evidence, unknown_name (the "
                    "question is about something the corpus never mentions) or no_fact (a known entity and attribute, "
                    "but no such fact)")
    unknown_names: tuple[str, ...] = Field(description="names in the question that occur nowhere in the corpus")
    evidence_score: float | None = Field(
        description="hybrid score of the best passage; below answer_min_score the question is unanswerable")
    domain_score: float | None = Field(None, description="log-odds that the question is about AI hardware at all; "
                                                         "below answer_min_domain it is declined as off-topic")
    domain_judged: bool = Field(False, description="whether domain_score decided: the gate judges only a question "
                                                   "that names nothing the corpus knows and finds no fact of a name "
                                                   "it gives (nor ranks a kind of thing the fact table holds)")
    answer: Answer | None = Field(description="the extractive answer; null when the question is unanswerable")
    citations: tuple[Citation, ...] = Field(description="the passages, numbered; spec evidence first")
    specs: tuple[SpecEntry, ...] = Field(description="fact-table entries for a spec question")
    spec_answer: SpecAnswer | None = Field(description="the lookup, comparison or ranking stated in the question's "
                                                       "language; null when the question is not a spec question")
    took_ms: float = Field(description="time spent answering, in milliseconds")
    cached: bool = Field(False, description="true when the answer came from the answer cache (the same question, "
                         "top_k and mode, answered by the same index build)")


def spec_leads(response: AskResponse) -> bool:
    """Whether the spec answer is what a reader reads first (the widget, ``kb ask`` and the answer metric
    agree): it states a value of the fact table, or a relation the corpus states ("MI300X: 40% more compute
    units than MI250X"); a note that the table has no value does not lead, nor does a comparison one side of which
    has none."""
    answer = response.spec_answer
    if answer is not None and getattr(answer, "relation", None):
        return True
    return bool(response.specs) and not one_sided(answer, response.specs)


def one_sided(answer: SpecAnswer | None, specs: tuple[SpecEntry, ...] | list[SpecEntry]) -> bool:
    """A comparison one side of which has no value and no stated relation: a passage may still say how the two
    compare ("a performance gain of 6.8 times for INT8"), so the passages answer, not the one value."""
    return isinstance(answer, ComparisonAnswer) and not answer.comparable and not answer.relation and \
        len({s.entity for s in specs if s.value is not None}) < 2
