"""Domain types, in the order data flows through them.

article -> sections -> chunks -> (vectors) -> index -> hits -> answer.
Every type is frozen: a stage produces new values and never edits old ones.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import AnyHttpUrl, BaseModel, ConfigDict, Field, model_validator

Lang = Literal["en", "ru", "zh"]
LANGS: tuple[str, ...] = ("en", "ru", "zh")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SourceRef(Frozen):
    """Where an article came from: a web page, or a file at a commit of a repository."""

    url: AnyHttpUrl | None = None
    repository: str | None = Field(None, pattern=r"^[\w.-]+/[\w.-]+$")
    path: str | None = None
    commit: str | None = Field(None, pattern=r"^[0-9a-f]{40}$")
    lines: str | None = Field(None, pattern=r"^\d+-\d+$", description="line range of an excerpt")
    note: str | None = Field(None, description="why no address is given, when none is known")
    raw_file: str = Field(description="the file in corpus/sources/ this article is curated from")

    @model_validator(mode="after")
    def _url_or_repository(self) -> SourceRef:
        if self.url is None and not (self.repository and self.path and self.commit) and not self.note:
            raise ValueError("needs 'url', or 'repository' + 'path' + 'commit', or a 'note' saying why neither is known")
        return self

    def link(self) -> str | None:
        """A URL a reader can open, when one can be made."""
        if self.url is not None:
            return str(self.url)
        if self.repository and self.path and self.commit:
            return f"https://github.com/{self.repository}/blob/{self.commit}/{self.path}"
        return None


class ArticleMeta(Frozen):
    """The YAML front matter of a curated article."""

    id: str = Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
    title: str = Field(min_length=1)
    lang: Lang
    source: SourceRef
    publisher: str = Field(min_length=1)
    author: str | None = None
    published: dt.date | None = None
    as_of: dt.date | None = None
    license: str = Field(min_length=1)
    tags: tuple[str, ...] = ()
    quality_notes: tuple[str, ...] = ()


class Article(Frozen):
    meta: ArticleMeta
    body: str
    path: str = Field(description="path relative to the corpus folder, e.g. zh/elecfans-ai-training-chips.md")


class Section(Frozen):
    """A heading and the body text under it, up to the next heading."""

    article_id: str
    heading_path: tuple[str, ...]
    anchor: str
    char_start: int
    char_end: int


Span = tuple[int, int]


class Chunk(Frozen):
    """A span of whole sentences (or whole table rows) of one article body."""

    chunk_id: str
    article_id: str
    lang: Lang
    section: tuple[str, ...]
    anchor: str
    char_start: int
    char_end: int
    text: str
    embed_text: str = Field(description="what the model sees: context header + text")
    kind: Literal["prose", "table"] = "prose"
    sentences: tuple[Span, ...] = Field((), description="body offsets of what an answer may quote: each "
                                        "sentence, or each table row (its prose cells when it has some); never a header row")
    sentence_context: str = Field("", description="what each sentence is embedded under: the context line, and "
                                  "for a table row the column names")

    def span_text(self, start: int, end: int) -> str:
        """The body text of a span inside the chunk (a sentence, say)."""
        return self.text[start - self.char_start:end - self.char_start]


class Hit(Frozen):
    """A chunk found for a question, with its score."""

    chunk: Chunk
    score: float
    rank: int
    dense_score: float | None = None
    lexical_score: float | None = None
