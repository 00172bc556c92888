"""Errors the knowledge base raises, and who reads their messages.

    KnowledgeBaseError            base class; the CLI prints its message, the
    |                             service maps it to a problem-details body
    +-- ArticleError              a curated article is malformed (names file and field)
    +-- CurationError             a raw source cannot be turned into an article
    +-- ModelNotInstalledError    an embedding model folder is missing
    +-- IndexArtifactError        the index directory is missing, partial or stale
    +-- QuestionError             a question is empty, too long or otherwise unusable
    +-- SpecError                 a fact or the spec vocabulary is wrong (names file and line)

Every message says what went wrong and what to do next, because the person
reading it is a curator or an operator, not the author of this code.
"""

from __future__ import annotations

__all__ = [
    "ArticleError",
    "CurationError",
    "IndexArtifactError",
    "KnowledgeBaseError",
    "ModelNotInstalledError",
    "QuestionError",
    "SpecError",
]


class KnowledgeBaseError(Exception):
    """Base class for every error this package raises on purpose."""


class ArticleError(KnowledgeBaseError):
    """A curated article cannot be loaded: the message names the file and the field."""

    def __init__(self, path: str, field: str, problem: str) -> None:
        self.path, self.field, self.problem = path, field, problem
        super().__init__(f"{path}: front matter field '{field}': {problem}")


class CurationError(KnowledgeBaseError):
    """A raw source cannot be curated (unknown format, missing provenance)."""


class ModelNotInstalledError(KnowledgeBaseError):
    """The configured embedding model is not on disk."""


class IndexArtifactError(KnowledgeBaseError):
    """The index artifact is missing, incomplete, or built for another model."""


class QuestionError(KnowledgeBaseError):
    """A question cannot be answered as asked (empty, too long)."""


class SpecError(KnowledgeBaseError):
    """A fact, table reading or vocabulary entry is wrong: the message names the file and line."""

    def __init__(self, location: str, problem: str) -> None:
        self.location, self.problem = location, problem
        super().__init__(f"{location}: {problem}")
