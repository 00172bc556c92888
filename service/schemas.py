"""Wire types of the HTTP API, separate from the domain types in ``kb.models``.

Field names are a contract with the widget, the evaluation suite and outside
clients: change them only with a new API version.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(description="the question, in English, Russian or Chinese",
                          examples=["What are the limitations of TPUs?"])
    top_k: int = Field(5, description="how many passages to return", examples=[5])
    mode: Literal["dense", "lexical", "hybrid"] | None = Field(
        None, description="retrieval mode; by default the service's configured one (hybrid)")

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question is empty")
        return value


class CitationOut(BaseModel):
    n: int = Field(description="the number used by [n] markers")
    chunk_id: str
    article_id: str
    title: str
    lang: str
    section: str
    anchor: str = Field(description="the section's anchor in the curated article")
    text: str = Field(description="the passage, exactly body[char_start:char_end]")
    score: float
    url: str | None = Field(description="the source the article was curated from, when known")
    char_start: int
    char_end: int
    role: Literal["evidence", "related"] = Field(
        description="evidence for the answer, or only related when the question is unanswerable")
    quote_start: int | None = Field(None, description="article offsets of the sentence the answer quotes from this passage")
    quote_end: int | None = None


class AnswerOut(BaseModel):
    text: str = Field(description="sentences copied from the cited passages, each followed by its [n] marker")
    lang: str
    citations: list[int]


class SpecCitationOut(BaseModel):
    article_id: str
    title: str
    url: str | None
    anchor: str
    char_start: int
    char_end: int
    origin: str = Field(description="table: read from a Markdown table; curated: corpus/specs/facts.yaml")
    location: str = Field(description="file:line of the fact's source, for curators")
    context: str | None = Field(description="for a table row: the table's header row")


class SpecOut(BaseModel):
    entity: str
    entity_name: str
    attribute: str
    label: str = Field(description="the attribute's name in the question's language")
    status: str = Field(description="value | unknown (the source has or lost no number) | unsupported | unpublished")
    value: float | None = Field(description="null unless status is value; never a guessed number")
    text: str | None = Field(description="a text value, such as a memory type")
    unit: str
    value_text: str = Field(description="the value as the source writes it")
    display: str = Field(description="one line in the question's language: entity, value, qualifiers")
    value_display: str = Field(description="the display without the entity name")
    qualifier: str
    dtype: str | None
    scope: str | None
    basis: str | None
    variant: str | None
    note: str | None
    approx: bool
    bound: str | None
    as_of: str | None
    conflict: bool = Field(description="another source gives a different value for the same quantity")
    via: str | None = Field(description="the entity the question named, when the fact is about a related one")
    citation_n: int | None = Field(description="the `citations` entry whose passage holds this fact, if cited")
    quote: str = Field(description="the source sentence or table row, character for character")
    citation: SpecCitationOut
    also: list[dict] = Field(description="other places in the same article that state the same value")


class AskResponse(BaseModel):
    question: str
    lang: str | None = Field(description="detected language of the question: en, ru, zh, or null")
    mode: str
    answerable: bool
    abstain_reason: str | None = Field(description="null when answerable; weak_evidence, unknown_name (the question "
                                                    "names something the corpus never mentions) or no_fact")
    unknown_names: list[str] = Field(description="names in the question that occur nowhere in the corpus")
    evidence_score: float | None = Field(description="hybrid score of the best passage; below answer_min_score the question is unanswerable")
    answer: AnswerOut | None
    citations: list[CitationOut]
    specs: list[SpecOut]
    spec_answer: dict | None = Field(description="kind (lookup, comparison, superlative), text in the question's "
                                                 "language, and for comparisons higher/lower/difference/ratio")
    took_ms: float


class ReadyResponse(BaseModel):
    status: str
    build_id: str
    built_at: str
    model: dict
    counts: dict
    corpus_hash: str


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=1000)
    rating: Literal["up", "down"]
    chunk_ids: list[str] = Field(default_factory=list, max_length=50, description="the citations shown with the answer")
    answer: str | None = Field(None, max_length=5000)


class FeedbackResponse(BaseModel):
    id: int
    index_build: str
