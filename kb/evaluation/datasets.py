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
    """What a spec or comparison answer must contain to count as right.

    entity, value, unit  an entry of ``specs`` about that entity has exactly this value and unit, and the
                         text a user reads first states the value
    lost                 the source lost the number: an entry says unknown and none gives a number
    winner, loser,       a comparison: ``spec_answer`` names ``winner`` on the ``direction`` side ("higher":
    direction            the winner has the higher value, "lower": the lower one, as in "which is cheaper")
                         and cites every one of ``values``; the text read first names the winner (before
                         the loser where both appear). ``names`` are the surface forms that name a side
                         that is not an entity of the fact table ("tpu", "gpu"), or extra ones.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    entity: str | tuple[str, ...] | None = None  # several: any of them (the tied winners of a superlative)
    value: float | None = None
    unit: str | None = None
    lost: bool = False
    winner: str | None = None
    loser: str | None = None
    direction: Literal["higher", "lower"] | None = None
    names: dict[str, tuple[str, ...]] = {}
    values: tuple[ExpectedValue, ...] = ()

    @model_validator(mode="after")
    def _one_form(self) -> Expected:
        value, comparison = self.value is not None, self.winner is not None
        if value + self.lost + comparison != 1:
            raise ValueError("expected is one of: entity, value and unit; lost: true; or winner, loser, direction")
        if value and not (self.unit and self.entity):
            raise ValueError("a value needs its unit and the entity it is about")
        if comparison and not (self.loser and self.direction):
            raise ValueError("a comparison needs winner, loser and direction")
        return self

    @property
    def entities(self) -> tuple[str, ...]:
        return (self.entity,) if isinstance(self.entity, str) else tuple(self.entity or ())

    @property
    def form(self) -> str:
        return "lost" if self.lost else ("comparison" if self.winner else "value")


Split = Literal["dev", "test"]
Category = Literal["off_topic", "unknown_entity", "missing_attribute"]
Tag = Literal["incidental_name", "new_attribute", "relative_fact", "class_comparison", "typo", "mixed_script"]


class KbQuestion(BaseModel):
    """One labelled question; relevance is by evidence, so labels survive re-chunking.

    ``need`` is the information need: the same fact asked in several languages is one need, and
    needs (not questions) are what the ``dev`` / ``test`` split and the statistics resample.
    ``source`` tells the questions curated with the system in view ("curated", the first 171,
    which earlier tuning looked at) from those written blind, before any result was seen ("blind").
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    lang: Lang
    need: str = Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
    split: Split
    source: Literal["curated", "blind"]
    kind: Kind
    question: str = Field(min_length=2)
    evidence: tuple[Evidence, ...] = ()
    expected: Expected | None = None
    category: Category | None = None
    tags: tuple[Tag, ...] = ()
    absent: tuple[str, ...] = ()  # for a near miss: the names the corpus must not contain (a test greps)

    @model_validator(mode="after")
    def _consistent(self) -> KbQuestion:
        if (self.kind == "unanswerable") != (not self.evidence):
            raise ValueError("unanswerable questions have no evidence, and all others have some")
        if (self.kind == "unanswerable") != (self.category is not None):
            raise ValueError("unanswerable questions, and only they, have a category")
        if bool(self.absent) != (self.category == "unknown_entity"):
            raise ValueError("a question about an unknown entity, and only it, lists the absent names")
        if self.expected is not None and self.kind not in ("spec", "comparison"):
            raise ValueError("only spec and comparison questions carry an expected value")
        return self

    @property
    def answerable(self) -> bool:
        return bool(self.evidence)


def read_jsonl(path: Path, model: type[BaseModel]) -> list:
    """One validated ``model`` per non-blank line; a bad line is an error naming the file and the line."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(model.model_validate_json(line))
            except ValueError as exc:
                raise ValueError(f"{path}:{number}: {exc}") from None
    return rows


def load_kb_questions(path: Path, split: Split | None = None) -> list[KbQuestion]:
    """The questions of the file, or of one split; a need in both splits is an error."""
    questions = read_jsonl(path, KbQuestion)
    ids = [q.id for q in questions]
    if len(ids) != len(set(ids)):
        raise ValueError(f"{path}: duplicate question ids")
    splits: dict[str, set[str]] = {}
    for q in questions:
        splits.setdefault(q.need, set()).add(q.split)
    straddling = sorted(need for need, found in splits.items() if len(found) > 1)
    if straddling:
        raise ValueError(f"{path}: needs in both dev and test: {straddling[:5]}")
    return [q for q in questions if split is None or q.split == split]


def tuning_questions(questions: list[KbQuestion]) -> list[KbQuestion]:
    """What a tuning step may read: ``dev`` only. Handing it a ``test`` question is an error, so no
    setting, threshold or vocabulary entry is ever chosen on the held-out split."""
    held_out = [q.id for q in questions if q.split != "dev"]
    if held_out:
        raise ValueError(f"tuning may read the dev split only; got {len(held_out)} test questions ({held_out[:3]}...)")
    return questions


def assign_splits(needs: list[tuple[str, str]], dev_share: float = 0.6) -> dict[str, Split]:
    """A split for each need, given (need, stratum) pairs (stratum: kind and article, say). Strata are
    taken in turn and, within one, needs in the order of a hash of their id; each need goes to ``dev``
    while the running count of dev needs is below ``dev_share`` of those dealt so far, so every stratum
    of a few needs and the whole set come out close to the share. Deterministic."""
    import hashlib
    import math

    strata: dict[str, set[str]] = {}
    for need, stratum in needs:
        strata.setdefault(stratum, set()).add(need)
    out: dict[str, Split] = {}
    for stratum in sorted(strata):
        for need in sorted(strata[stratum] - set(out), key=lambda n: hashlib.sha256(n.encode()).hexdigest()):
            dev = sum(v == "dev" for v in out.values())
            out[need] = "dev" if dev < math.floor(dev_share * (len(out) + 1) + 0.5) else "test"
    return out


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
