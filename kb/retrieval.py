"""Question to hits: dense, lexical or hybrid retrieval over the index.

Hybrid (the default) adds two calibrated signals per chunk:

- dense: the cosine of language-centered vectors (``kb.centering``),
  expressed in standard deviations above what the model gives unrelated
  text of that language pair (``kb.calibration``), so a Chinese passage can
  outrank English ones for an English question. A chunk is scored as a
  whole and by its best sentence, blended by ``dense_sentence_share``: a
  small model's vector of a long passage blurs the one sentence that
  answers, most of all across languages;
- lexical: BM25 over the question's tokens for chunks in the question's
  language, and over its anchor tokens only (numbers, identifiers, names
  shared across languages) for chunks in other languages, as the share of
  what the question's words can attain (``lexical_match``), weighted by
  ``fusion_lexical_weight``.

Near-duplicate chunks collapse into the best of them, and at most
``max_chunks_per_article`` chunks of one article are kept (0: no cap). The
knobs are one :class:`kb.params.RetrievalParams`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from kb.calibration import LanguageCalibration, calibrated, calibration_for
from kb.domain import domain_gate_for
from kb.embedding.encoder import Encoder
from kb.errors import QuestionError
from kb.glossary import Glossary, load_glossary, with_glossary_words
from kb.index import KnowledgeIndex
from kb.language import detect_language
from kb.lexical import LexicalIndex, tokenize
from kb.models import LANGS, Hit
from kb.params import Mode, RetrievalParams
from kb.textnorm import normalize_for_matching


@dataclass(frozen=True)
class QueryScores:
    """Everything computed for one question, kept for answer composition and debugging."""

    question: str
    lang: str | None
    tokens: list[str]  # the question's lexical tokens
    query_vector: np.ndarray
    dense: np.ndarray  # calibrated, per chunk (whole chunk and best sentence, blended)
    sentence_dense: np.ndarray  # calibrated, per sentence of the index
    lexical: np.ndarray  # in [0, 1], per chunk
    fused: np.ndarray  # the ranking mode's score, per chunk
    # The best hybrid score (dense + weight x lexical) whatever the ranking mode, so that one
    # calibrated threshold decides whether dense, lexical and hybrid requests are answerable.
    evidence: float
    domain: float | None = None  # the domain gate's log-odds (kb.domain); None for a model without a gate


def lexical_match(raw: np.ndarray, attainable: float, min_match: float) -> np.ndarray:
    """The share of the question's attainable BM25 a passage holds, counted above ``min_match``:
    sharing a few of the question's words is what every passage on the topic does (and, for a
    passage in the question's own language, what lets it outrank the answer written in another
    language); only a passage that matches most of them gets lexical credit, 1 for all of them."""
    if attainable <= 0:
        return np.zeros_like(raw, dtype=np.float32)
    share = np.clip(raw / attainable, 0.0, 1.0)
    return np.clip((share - min_match) / (1.0 - min_match), 0.0, 1.0).astype(np.float32)


def raw_lexical_scores(lex: LexicalIndex, tokens: list[str], lang: str | None, doc_langs: np.ndarray,
                       glossary: Glossary | None) -> np.ndarray:
    same = lex.scores(tokens)
    if lang is None:
        return same
    scores = same.copy()
    anchors = lex.anchor_tokens(tokens)
    for target in LANGS:
        if target == lang:
            continue
        mask = doc_langs == target
        if mask.any():
            translated = glossary.translate(tokens, lang, target) if glossary else []
            scores[mask] = lex.scores(anchors + translated)[mask]
    return np.where(doc_langs == lang, same, scores)


def best_sentence(sentence_scores: np.ndarray, owners: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Per passage (last axis), the best score among its sentences; ``owners`` is each sentence's
    passage, in ascending order. A passage without sentences keeps its ``fallback`` score."""
    out = np.array(fallback, dtype=np.float32, copy=True)
    if owners.size:
        starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
        out[..., owners[starts]] = np.maximum.reduceat(sentence_scores, starts, axis=-1)
    return out


def blend_dense(whole: np.ndarray, best_sentence: np.ndarray, sentence_share: float) -> np.ndarray:
    """A passage's dense score: its own calibrated score and that of its best sentence, weighted."""
    return ((1.0 - sentence_share) * whole + sentence_share * best_sentence).astype(np.float32)


def fuse(dense: np.ndarray, lexical: np.ndarray, weight: float, window: float | None) -> np.ndarray:
    """Calibrated dense + weight x lexical. With a window, lexical evidence only counts for passages
    whose dense score is within ``window`` of the best: it re-ranks what the meaning already found
    plausible, and cannot lift a passage the model ranks far below (the same-language distractor
    that shares words with the question, while the answer sits in another language)."""
    if window is None or not dense.size:
        return dense + weight * lexical
    near = dense >= float(dense.max()) - window
    return dense + weight * lexical * near


def query_form(question: str) -> tuple[str, str | None]:
    """What the encoder is given for a question: its normalized text and the language of its letters."""
    return normalize_for_matching(question).strip(), detect_language(question)


class Retriever:
    def __init__(self, index: KnowledgeIndex, encoder: Encoder, params: RetrievalParams,
                 glossary: Glossary | None = None) -> None:
        self.index = index
        self.encoder = encoder
        self.params = params
        self.glossary = glossary
        # the words no question's name is unknown for: the corpus's, and the glossary's in every script
        self.words = with_glossary_words(index.words, glossary) if glossary is not None else index.words
        self.calibration: LanguageCalibration | None = calibration_for(encoder.model_id, encoder.weights_hash())
        # a model calibrated before sentences were: its passage offsets are the nearer guess
        self.sentence_calibration = calibration_for(encoder.model_id, encoder.weights_hash(), "sentence") \
            or self.calibration
        self.domain_gate = domain_gate_for(encoder.model_id, encoder.weights_hash())

    @classmethod
    def from_settings(cls, index: KnowledgeIndex, encoder: Encoder, settings) -> Retriever:
        glossary = load_glossary(settings.corpus_dir / "glossary.yaml") if settings.use_glossary else None
        return cls(index, encoder, RetrievalParams.from_settings(settings), glossary)

    @property
    def mode(self) -> Mode:
        return self.params.retrieval_mode

    def score(self, question: str, mode: Mode | None = None) -> QueryScores:
        text, lang = query_form(question)
        if not text:
            raise QuestionError("the question is empty")
        mode = mode or self.mode
        p = self.params
        written = self.glossary.written_in(text, lang) if self.glossary and lang and p.translated_queries else {}
        # each written form is centred as a question of the language it is written in; scores stay calibrated
        # for the question's own language against the passage's
        vectors = self.encoder.encode_queries([text, *written.values()], [lang, *written])
        vector = vectors[0]
        whole, sentence_dense = self._dense(vector, lang)
        for target, other in zip(written, vectors[1:], strict=True):
            # the question as written in a passage's language scores that language's passages too: the higher counts
            theirs, their_sentences = self._dense(other, lang)
            whole = np.where(self.index.chunk_langs == target, np.maximum(whole, theirs), whole)
            sentence_dense = np.where(self.index.sentence_langs == target,
                                      np.maximum(sentence_dense, their_sentences), sentence_dense)
        best = best_sentence(sentence_dense, self.index.sentence_spans[:, 0], fallback=whole)
        dense = blend_dense(whole, best, p.dense_sentence_share)
        # BM25 in all question tokens for the question's language, and in other languages only the
        # anchors (numbers, identifiers, names) plus the glossary's translations
        tokens = tokenize(text)
        bm25 = raw_lexical_scores(self.index.lexical, tokens, lang, self.index.chunk_langs, self.glossary)
        attainable = self.index.lexical.attainable(tokens)
        lexical = lexical_match(bm25, attainable, p.lexical_min_match)
        if mode == "hybrid":
            fused = fuse(dense, lexical, p.fusion_lexical_weight, p.fusion_dense_window)
        elif mode == "lexical":  # the floor is for fusion; ranking by words alone needs every partial match
            fused = lexical_match(bm25, attainable, 0.0)
        else:
            fused = dense
        evidence = float((dense + p.fusion_lexical_weight * lexical).max()) if dense.size else float("-inf")
        domain = self.domain_gate.score(vector) if self.domain_gate else None
        return QueryScores(question=text, lang=lang, tokens=tokens, query_vector=vector, dense=dense,
                           sentence_dense=sentence_dense, lexical=lexical, fused=fused, evidence=evidence, domain=domain)

    def _dense(self, vector: np.ndarray, lang: str | None) -> tuple[np.ndarray, np.ndarray]:
        """Calibrated scores of every passage and every sentence for one query vector."""
        chunk_scores, sentence_scores = self.index.dense_scores(vector)
        return (calibrated(self.calibration, chunk_scores, lang, self.index.chunk_langs),
                calibrated(self.sentence_calibration, sentence_scores, lang, self.index.sentence_langs))

    def sentence_evidence(self, scores: QueryScores, chunks: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The sentences of these chunk positions (rows of ``index.sentence_spans``) and how well each
        answers the question: its calibrated dense score plus the weighted share of the question's
        words it holds (across languages, only the anchors count, as in passage scoring)."""
        rows = self.index.sentences_of(chunks)
        overlap = np.zeros(rows.size, dtype=np.float32)
        if scores.tokens:
            spans = self.index.sentence_spans
            for k, r in enumerate(rows):
                chunk = self.index.chunks[spans[r, 0]]
                text = chunk.span_text(int(spans[r, 1]), int(spans[r, 2]))
                overlap[k] = self.index.lexical.overlap(scores.tokens, text, chunk.lang == scores.lang)
        return rows, scores.sentence_dense[rows] + self.params.fusion_lexical_weight * overlap

    def domain_term_spans(self, text: str) -> list[tuple[int, int]]:
        """Where the text names things the corpus is about across its languages (see ``LexicalIndex.anchor_spans``)."""
        return self.index.lexical.anchor_spans(text)

    def rank(self, scores: QueryScores, top_k: int, pinned: Sequence[int] = ()) -> list[Hit]:
        """The top passages by fused score; ``pinned`` chunk positions go first, in their order
        (the passages that hold the facts of a spec answer). Among passages whose scores are within
        ``diversify_margin`` of the best one left, one from the least-cited article goes first."""
        margin, cap = self.params.diversify_margin, self.params.max_chunks_per_article
        hits: list[Hit] = []
        per_article: dict[str, int] = {}
        seen_texts: set[str] = set()
        fused = scores.fused
        pinned = list(dict.fromkeys(pinned))
        first = set(pinned)
        queue = [i for i in np.argsort(-fused, kind="stable").tolist() if i not in first]
        candidates = pinned + queue
        while candidates and len(hits) < top_k:
            pick = 0
            if margin > 0 and candidates[0] not in first:
                best = float(fused[candidates[0]])
                window = [k for k, i in enumerate(candidates[:top_k * 4]) if fused[i] >= best - margin]
                pick = min(window, key=lambda k: (per_article.get(self.index.chunks[candidates[k]].article_id, 0), k))
            i = candidates.pop(pick)
            chunk = self.index.chunks[i]
            key = " ".join(chunk.text.split()).casefold()
            if key in seen_texts:  # a near-duplicate of a better hit
                continue
            taken = per_article.get(chunk.article_id, 0)
            if cap and taken >= cap:
                continue
            seen_texts.add(key)
            per_article[chunk.article_id] = taken + 1
            hits.append(Hit(chunk=chunk, score=float(fused[i]), rank=len(hits) + 1,
                            dense_score=float(scores.dense[i]), lexical_score=float(scores.lexical[i])))
        return hits

    @cached_property
    def sentence_entities(self) -> list[frozenset[str]]:
        """The fact-table entities each sentence of the index names (found once, on first use: ~0.4 s; the service finds them at start)."""
        vocabulary = self.index.facts.vocabulary
        return [frozenset(m.entity for m in vocabulary.mentions(self.index.sentence_text(k)))
                for k in range(len(self.index.sentence_spans))]

    def relating(self, scores: QueryScores, pair: tuple[str, str], relates: Callable[[str], bool]) -> list[int]:
        """The best-scored passage with a sentence that names both entities of ``pair`` and ``relates`` them (a
        sign or a word of comparison: "Trainium2 < H100"): asked about two named things, that is where a source
        relates them. [] where none does."""
        rows = [k for k, named in enumerate(self.sentence_entities)
                if set(pair) <= named and relates(self.index.sentence_text(k))]
        chunks = {int(self.index.sentence_spans[k][0]) for k in rows}
        return [max(chunks, key=lambda i: float(scores.fused[i]))] if chunks else []

    def search(self, question: str, top_k: int, mode: Mode | None = None) -> list[Hit]:
        return self.rank(self.score(question, mode), top_k)
