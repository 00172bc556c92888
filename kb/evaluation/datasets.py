"""Loading the evaluation datasets, and turning evidence quotes into spans."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kb.models import Lang

Kind = Literal["factual", "spec", "comparison", "faq", "unanswerable"]


class Evidence(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    article: str
    quote: str = Field(min_length=3)


class ExpectedValue(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    entity: str
    value: float
    unit: str


class Expected(BaseModel):
    """What a spec or comparison answer must contain to count as exact.

    value + unit    one entry of ``specs`` has exactly this value and unit
    lost            the source lost the number: an entry says unknown and none gives a number
    higher, values  a comparison names ``higher`` as the higher one and cites every value
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: float | None = None
    unit: str | None = None
    lost: bool = False
    higher: str | None = None
    values: tuple[ExpectedValue, ...] = ()

    @model_validator(mode="after")
    def _one_form(self) -> Expected:
        forms = [self.value is not None, self.lost, self.higher is not None]
        if sum(forms) != 1 or (self.value is not None) != (self.unit is not None):
            raise ValueError("expected is one of: value with unit, lost: true, or higher with values")
        return self


class KbQuestion(BaseModel):
    """One labelled question; relevance is by evidence, so labels survive re-chunking."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    lang: Lang
    kind: Kind
    question: str = Field(min_length=2)
    evidence: tuple[Evidence, ...] = ()
    expected: Expected | None = None

    @model_validator(mode="after")
    def _consistent(self) -> KbQuestion:
        if (self.kind == "unanswerable") != (not self.evidence):
            raise ValueError("unanswerable questions have no evidence, and all others have some")
        if self.expected is not None and self.kind not in ("spec", "comparison"):
            raise ValueError("only spec and comparison questions carry an expected value")
        return self

    @property
    def answerable(self) -> bool:
        return bool(self.evidence)


def load_kb_questions(path: Path) -> list[KbQuestion]:
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                questions.append(KbQuestion.model_validate_json(line))
            except ValueError as exc:
                raise ValueError(f"{path}:{number}: {exc}") from None
    ids = [q.id for q in questions]
    if len(ids) != len(set(ids)):
        raise ValueError(f"{path}: duplicate question ids")
    return questions


def quote_spans(body: str, quote: str) -> list[tuple[int, int]]:
    """Where a quote occurs in an article body.

    Whitespace runs match any whitespace run: tables in the corpus are
    column-aligned and some sources hard-wrap their lines, so a quote is
    written with single spaces. Everything else must match exactly.
    """
    pattern = r"\s+".join(re.escape(part) for part in quote.split())
    return [m.span() for m in re.finditer(pattern, body)]


# ---- XQuAD-R ----

class XquadData(BaseModel):
    model_config = ConfigDict(frozen=True)

    doc_ids: list[str]
    doc_langs: list[str]
    doc_groups: list[str]
    doc_texts: list[str]
    query_ids: list[str]
    query_langs: list[str]
    query_groups: list[str]
    query_texts: list[str]


def load_xquad(folder: Path) -> XquadData:
    """Paragraphs and questions; the ``title`` field is ignored (it is English in every language)."""
    docs = [json.loads(line) for line in (folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines() if line]
    queries = [json.loads(line) for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return XquadData(
        doc_ids=[d["id"] for d in docs], doc_langs=[d["lang"] for d in docs],
        doc_groups=[d["group"] for d in docs], doc_texts=[d["text"] for d in docs],
        query_ids=[q["id"] for q in queries], query_langs=[q["lang"] for q in queries],
        query_groups=[q["group"] for q in queries], query_texts=[q["text"] for q in queries],
    )
