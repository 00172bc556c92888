"""Question to hits: dense retrieval over the index."""

from __future__ import annotations

from kb.embedding.encoder import Encoder
from kb.errors import QuestionError
from kb.index import KnowledgeIndex
from kb.models import Hit
from kb.textnorm import normalize_for_matching


class Retriever:
    """Embeds a question and returns the nearest chunks, best first.

    At most ``max_per_article`` chunks of one article enter the list (0: no
    cap). Dense models rank passages in the question's own language first,
    and one long article can fill the whole list; the cap leaves room for the
    other articles, often the only ones in another language that hold the
    answer.
    """

    def __init__(self, index: KnowledgeIndex, encoder: Encoder, max_per_article: int = 2) -> None:
        self.index = index
        self.encoder = encoder
        self.max_per_article = max_per_article

    def search(self, question: str, top_k: int) -> list[Hit]:
        text = normalize_for_matching(question).strip()
        if not text:
            raise QuestionError("the question is empty")
        vector = self.encoder.encode_queries([text])
        pool = top_k if not self.max_per_article else len(self.index.chunks)
        scores, ids = self.index.search_vectors(vector, pool)
        hits: list[Hit] = []
        per_article: dict[str, int] = {}
        for score, i in zip(scores[0], ids[0], strict=True):
            if i < 0:
                continue
            chunk = self.index.chunks[i]
            taken = per_article.get(chunk.article_id, 0)
            if self.max_per_article and taken >= self.max_per_article:
                continue
            per_article[chunk.article_id] = taken + 1
            hits.append(Hit(chunk=chunk, score=float(score), rank=len(hits) + 1))
            if len(hits) == top_k:
                break
        return hits
