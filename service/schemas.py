"""Request bodies of the HTTP API, and the responses that are not a ``kb.response`` value.

``POST /v1/ask`` answers with :class:`kb.response.AskResponse` itself: the
library's typed answer is the wire format, so its shape is declared once.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kb.params import Mode
from kb.response import ComparisonAnswer, LookupAnswer, SpecEntry


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(description="the question, in English, Russian or Chinese",
                          examples=["What are the limitations of TPUs?"])
    top_k: int = Field(5, description="how many passages to return", examples=[5])
    mode: Mode | None = Field(None, description="retrieval mode; by default the service's configured one (hybrid)")

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question is empty")
        return value


class ReadyResponse(BaseModel):
    status: str = Field(description="ready once the index is loaded")
    build_id: str = Field(description="the loaded index build")
    built_at: str = Field(description="when that build was made (ISO 8601)")
    model: dict = Field(description="the embedding model that made the index: id, weights hash, dimension, centering")
    counts: dict = Field(description="articles, chunks (per language), sentences and facts in the index")
    corpus_hash: str = Field(description="digest of the curated articles the index was built from")
    encoder_runtime: str = Field(description="what computes question vectors: torch, onnx or onnx-int8")
    pid: int = Field(description="the worker process that answered (several with `kb serve --workers N`)")
    answer_cache: dict = Field(description="this worker's answer cache: size, entries, hits, misses")
    batcher: dict | None = Field(None, description="this worker's question batcher: window, batches made and "
                                 "questions they carried")


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=1000, description="the question the answer was for")
    rating: Literal["up", "down"] = Field(description="whether the answer helped")
    chunk_ids: list[str] = Field(default_factory=list, max_length=50, description="the citations shown with the answer")
    answer: str | None = Field(None, max_length=5000, description="the answer text shown")


class FeedbackResponse(BaseModel):
    id: int = Field(description="the stored feedback row")
    index_build: str = Field(description="the index build the answer came from")


class EntitySummary(BaseModel):
    id: str = Field(description="entity id")
    name: str = Field(description="its name in the requested language")
    kind: str = Field(description="chip, instance, system, interconnect or memory")
    vendor: str = Field(description="who makes it")
    aliases: list[str] = Field(description="other names it is found by in questions")
    attributes: list[str] = Field(description="the attributes the fact table has values of")
    facts: int = Field(description="how many facts are about it")


class AttributeSummary(BaseModel):
    id: str = Field(description="attribute id")
    label: str = Field(description="its name in the requested language")
    unit: str = Field(description="the canonical unit its values are compared in")
    better: Literal["higher", "lower"] = Field(description="which direction wins a ranking")
    entities: int = Field(description="how many entities have a value of it")


class SpecTableResponse(BaseModel):
    entities: list[EntitySummary] = Field(description="every entity of the fact table")
    attributes: list[AttributeSummary] = Field(description="every attribute of the fact table")
    facts: int = Field(description="facts in the table")
    conflicts: int = Field(description="facts that disagree with another source")


class SpecComparisonResponse(BaseModel):
    attribute: str = Field(description="the attribute compared")
    entities: list[str] = Field(description="the entities compared")
    specs: list[SpecEntry] = Field(description="the facts compared, each with its source")
    comparison: ComparisonAnswer | LookupAnswer | None = Field(description="which is higher, by how much")


class EntitySpecsResponse(BaseModel):
    entity: str = Field(description="entity id")
    name: str = Field(description="its name in the requested language")
    kind: str = Field(description="chip, instance, system, interconnect or memory")
    vendor: str = Field(description="who makes it")
    aliases: list[str] = Field(description="other names it is found by in questions")
    parts: dict | None = Field(description="for an instance or system: the chip it is built of, and how many")
    related: list[str] = Field(description="instances built of this chip, or the chip this is built of")
    specs: list[SpecEntry] = Field(description="every fact about it, each with its source")
