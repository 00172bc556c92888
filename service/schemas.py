"""Request bodies of the HTTP API, and the responses that are not a ``kb.response`` value.

``POST /v1/ask`` answers with :class:`kb.response.AskResponse` itself: the
library's typed answer is the wire format, so its shape is declared once.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kb.params import Mode
from kb.response import ComparisonAnswer, LookupAnswer, SpecEntry

# Blank means white space by either definition: JSON Schema's (ECMA-262 \s, which a client's validator uses) and
# Python's (str.strip, which the answer stage applies), so the document and the service agree on what is blank.
_SPACE_CODES = [9, 10, 11, 12, 13, 0x1C, 0x1D, 0x1E, 0x1F, 32, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028,
                0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF]
_SPACE_CHARS = "".join(chr(c) for c in _SPACE_CODES)
SPACE = "".join(f"\\u{c:04x}" for c in _SPACE_CODES)  # for a regex character class
NOT_BLANK = f"[^{SPACE}]"


def strip_space(text: str) -> str:
    return text.strip(_SPACE_CHARS)


class AskRequest(BaseModel):
    # strict: "5" or true is not a top_k (lax parsing read them as 5 and 1)
    model_config = ConfigDict(extra="forbid", strict=True)

    question: str = Field(description="the question, in English, Russian or Chinese; at most question_max_chars "
                          "(1000) characters", examples=["What are the limitations of TPUs?"],
                          json_schema_extra={"pattern": NOT_BLANK},
                          max_length=1000)
    top_k: int = Field(5, ge=1, le=50, description="how many passages to return (at most top_k_max)", examples=[5])
    mode: Mode | None = Field(None, description="retrieval mode; by default the service's configured one (hybrid)")

    @field_validator("top_k", mode="before")
    @classmethod
    def _integral_number(cls, value):
        # JSON Schema's "integer" is any number with no fraction, 5.0 included; "5" and true stay refused
        return int(value) if isinstance(value, float) and value.is_integer() else value

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not strip_space(value):
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
    feedback: dict = Field(description="feedback storage: backend, status ok or unavailable, and the last failure")
    dependencies: dict = Field(description="each dependency (feedback store, redis when configured): status ok or "
                               "unavailable, and the last failure")
    index_reload: dict = Field(description="the index watcher: the build folder served, builds loaded since start, "
                               "and the last published build it refused (with why)")
    rate_limit: dict = Field(description="requests per minute per client, where they are counted, refusals here")
    shared_answer_cache: dict | None = Field(None, description="hits and misses of the Redis answer cache")


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    question: str = Field(min_length=1, max_length=1000, description="the question the answer was for")
    rating: Literal["up", "down"] = Field(description="whether the answer helped")
    chunk_ids: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=50,
                                                                  description="the citations shown with the answer")
    answer: str | None = Field(None, max_length=4000, description="the answer text shown")


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


class ProblemDetails(BaseModel):
    """An RFC 9457 problem: every 4xx and 5xx answer of the API has this body (application/problem+json)."""

    type: str = Field("about:blank", description="always about:blank: the status says what kind of problem")
    title: str = Field(description="a short, fixed summary of the status")
    status: int = Field(description="the HTTP status code")
    detail: str = Field(description="what went wrong and what to change")
    instance: str = Field(description="the path that was requested")
    errors: list[dict] | None = Field(None, description="for 422: each invalid field and why")


def problem_responses(*statuses: int) -> dict:
    """OpenAPI entries for the problem statuses a route can answer with."""
    from litestar.openapi.datastructures import ResponseSpec

    meaning = {400: "malformed JSON, an empty body or a bad Host header", 404: "no such entity or attribute",
               413: "the body is over the size limit", 415: "the body is not application/json",
               422: "a field is missing, of the wrong type or out of range", 429: "too many requests from this "
               "address (Retry-After says when to retry)", 503: "the service cannot do this now (Retry-After)"}
    return {s: ResponseSpec(data_container=ProblemDetails, description=meaning[s], media_type="application/problem+json")
            for s in statuses}


CLOSED_BODIES = ("AskRequest", "FeedbackRequest")


def declare_closed_bodies(app) -> None:
    """Say in the OpenAPI document what the models enforce: unknown fields in a request body are refused (422).

    Litestar's schema generation drops a model's ``extra="forbid"``; without ``additionalProperties: false``
    the document promised that any extra field was accepted."""
    schemas = app.openapi_schema.components.schemas
    for name in CLOSED_BODIES:
        schemas[name].additional_properties = False
