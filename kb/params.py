"""The knobs of retrieval and of answering, each set as one frozen value.

Both are built once from :class:`kb.settings.Settings` at the edges (the
service, the CLI, the evaluation runner) and passed whole. Their field names
are the settings' own, so ``KB_FUSION_LEXICAL_WEIGHT`` is
``RetrievalParams.fusion_lexical_weight`` everywhere; a sweep makes variants
with :func:`dataclasses.replace`. The values themselves live in the settings
alone: nothing here has a default.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal, get_args

Mode = Literal["dense", "lexical", "hybrid"]
MODES: tuple[str, ...] = get_args(Mode)


def _from(cls, settings):  # a kb.settings.Settings (not imported: the settings import Mode from here)
    return cls(**{f.name: getattr(settings, f.name) for f in fields(cls)})


@dataclass(frozen=True)
class RetrievalParams:
    """How a question is scored against the index (see ``kb.retrieval`` for what each does)."""

    retrieval_mode: Mode
    dense_sentence_share: float
    fusion_lexical_weight: float
    lexical_min_match: float
    fusion_dense_window: float | None
    diversify_margin: float
    max_chunks_per_article: int
    translated_queries: bool

    @classmethod
    def from_settings(cls, settings) -> RetrievalParams:
        return _from(cls, settings)


@dataclass(frozen=True)
class AnswerPolicy:
    """When a question is answered, and how much of the passages the answer quotes."""

    answer_min_score: float
    answer_max_sentences: int
    answer_min_domain: float
    answer_lang_bonus: float
    pin_spec_evidence: bool

    @classmethod
    def from_settings(cls, settings) -> AnswerPolicy:
        return _from(cls, settings)
