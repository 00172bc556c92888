"""XQuAD-R: 240 paragraphs x 3 languages, 1,190 questions x 3 languages.

Settings (nDCG@10, Recall@1/5/10, MRR@10, mAP@20 each):
- ``pool``: every question against all 720 paragraphs; its paragraph is relevant in all three languages.
- ``mono``: each question against the 240 paragraphs of its own language (MTEB's setting).
- ``x2y``: questions in X against the 240 paragraphs in Y, for the six X != Y.
- ``pool_no_own``: the pool without the question's own-language copy of its paragraph; the two
  other-language copies are relevant. This mirrors a knowledge base whose answer exists in
  another language only.
Each setting is scored three ways: the model's raw cosine (``pool``), the service's dense
scores (``pool_calibrated``: language-centered vectors, calibrated scores, each paragraph's
blended with its best sentence's) and its hybrid scores (``pool_hybrid``).
Only ``text`` is embedded: ``title`` is the English title in every language and would leak.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

import numpy as np

from kb.calibration import LanguageCalibration
from kb.centering import LanguageCentering
from kb.embedding.encoder import ConcatenatedEncoder, Encoder
from kb.evaluation.datasets import XquadData
from kb.evaluation.metrics import XQUAD_METRICS, latency_summary, mean_with_ci, per_query_scores
from kb.models import LANGS
from kb.params import RetrievalParams
from kb.sentences import split_sentences
from kb.textnorm import normalize_for_matching

DEPTH = 20  # mAP@20 needs 20 results
# Per-query rows keep the metrics a paired comparison uses (the file would be 5 MB with all six).
ROW_METRICS = ("ndcg@10", "recall@5", "recall@10")
SQUAD_NOTE = ("multilingual-e5 was trained with SQuAD data, which XQuAD is drawn from: for e5 configurations "
              "this benchmark is not zero-shot. The *_calibrated and *_hybrid settings score as the service does "
              "(language-centered vectors, calibrated scores); the language means and score offsets they need are "
              "measured on XQuAD-R itself, so each question is scored with statistics fitted on the other half "
              "of the paragraphs (two-fold cross-fitting).")


def model_parts(encoder: Encoder) -> tuple[list[Encoder], tuple[float, ...]]:
    if isinstance(encoder, ConcatenatedEncoder):
        return encoder.parts, encoder.shares
    return [encoder], (1.0,)


def embed_cached(encoder: Encoder, texts: list[str], role: str, cache_dir: Path, progress: bool) -> np.ndarray:
    """Raw (uncentered) embeddings of ``texts`` by a single model, cached on disk per model and text set
    (they take a minute to make)."""
    digest = hashlib.sha256("\x1e".join(texts).encode()).hexdigest()[:12]
    # Questions are embedded by the configured runtime (passages always in fp32): one cache per runtime.
    runtime = getattr(encoder, "runtime", "torch") if role == "query" else "torch"
    kind = role if runtime == "torch" else f"{role}-{runtime}"
    path = cache_dir / f"{encoder.model_id}-{encoder.weights_hash()}-{kind}-{digest}.npy"
    if path.exists():
        return np.load(path)
    if role == "query":
        vectors = np.vstack([encoder.encode_queries(texts[i:i + 256]) for i in range(0, len(texts), 256)])
    else:
        vectors = encoder.encode_documents(texts, progress=progress)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors.astype(np.float32))
    return vectors


@dataclass(frozen=True)
class XquadVectors:
    """Raw embeddings of every question, paragraph and paragraph sentence, one block per model of the encoder."""

    queries: list[np.ndarray]
    passages: list[np.ndarray]
    shares: tuple[float, ...]
    sentences: list[np.ndarray] = field(default_factory=list)
    sentence_owner: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # paragraph of each

    def _join(self, blocks: list[np.ndarray]) -> np.ndarray:
        return blocks[0] if len(blocks) == 1 else ConcatenatedEncoder.join(blocks, self.shares)

    def joined(self, centerings: list[LanguageCentering] | None = None, data: XquadData | None = None):
        """(query vectors, passage vectors) as the encoder joins them; centered with ``centerings``."""
        q, p = self.queries, self.passages
        if centerings is not None:
            q = [c.apply(v, data.query_langs, "query") for c, v in zip(centerings, q, strict=True)]
            p = [c.apply(v, data.doc_langs, "passage") for c, v in zip(centerings, p, strict=True)]
        return self._join(q), self._join(p)

    def joined_sentences(self, centerings: list[LanguageCentering], data: XquadData) -> np.ndarray:
        """Sentence vectors as the index holds them: centered like passages, joined."""
        langs = list(np.array(data.doc_langs)[self.sentence_owner])
        return self._join([c.apply(v, langs, "passage") for c, v in zip(centerings, self.sentences, strict=True)])


def paragraph_sentences(data: XquadData) -> tuple[list[str], np.ndarray]:
    """Every paragraph's sentences as the index splits a chunk, and the paragraph each belongs to."""
    texts, owner = [], []
    for i, text in enumerate(data.doc_texts):
        for sentence in split_sentences(normalize_for_matching(text)):
            texts.append(sentence)
            owner.append(i)
    return texts, np.array(owner, dtype=np.int64)


def xquad_vectors(data: XquadData, encoder: Encoder, cache_dir: Path, progress: bool) -> XquadVectors:
    docs = [normalize_for_matching(t) for t in data.doc_texts]
    queries = [normalize_for_matching(t) for t in data.query_texts]
    sentences, owner = paragraph_sentences(data)
    parts, shares = model_parts(encoder)
    return XquadVectors([embed_cached(m, queries, "query", cache_dir, progress) for m in parts],
                        [embed_cached(m, docs, "passage", cache_dir, progress) for m in parts], shares,
                        [embed_cached(m, sentences, "passage", cache_dir, progress) for m in parts], owner)


def fit_centerings(data: XquadData, vectors: XquadVectors, groups: set[str] | None = None) -> list[LanguageCentering]:
    """One centering per model, from the questions and paragraphs of ``groups`` (all when None)."""
    qmask = np.array([groups is None or g in groups for g in data.query_groups])
    dmask = np.array([groups is None or g in groups for g in data.doc_groups])
    qlangs, dlangs = np.array(data.query_langs), np.array(data.doc_langs)
    return [LanguageCentering.fit(q[qmask], qlangs[qmask], p[dmask], dlangs[dmask])
            for q, p in zip(vectors.queries, vectors.passages, strict=True)]


def calibration_from_scores(data: XquadData, scores: np.ndarray, groups: set[str] | None = None,
                            columns: np.ndarray | None = None) -> LanguageCalibration:
    """Mean and spread of scores between X questions and unrelated Y paragraphs, for every X, Y
    (questions and paragraphs of ``groups`` only, all when None). ``columns``: the paragraph each
    column of ``scores`` belongs to, when the columns are sentences."""
    columns = np.arange(len(data.doc_ids)) if columns is None else columns
    qlang, dlang = np.array(data.query_langs), np.array(data.doc_langs)[columns]
    qg, dg = np.array(data.query_groups), np.array(data.doc_groups)[columns]
    unrelated = qg[:, None] != dg[None, :]
    if groups is not None:
        unrelated &= np.isin(qg, list(groups))[:, None] & np.isin(dg, list(groups))[None, :]
    offsets, scales = {}, {}
    for x, y in product(LANGS, LANGS):
        block = scores[np.ix_(qlang == x, dlang == y)][unrelated[np.ix_(qlang == x, dlang == y)]]
        offsets[f"{x}->{y}"] = round(float(block.mean()), 5)
        scales[f"{x}->{y}"] = round(float(block.std()), 5)
    return LanguageCalibration(offsets, scales)


def service_dense_scores(data: XquadData, vectors: XquadVectors, sentence_share: float = 0.0) -> np.ndarray:
    """What the service's dense mode scores (language-centered vectors, calibrated scores, each
    paragraph's blended with its best sentence's), with the statistics fitted on the other half of the
    paragraphs (and their questions): two-fold cross-fitting, so no question is scored with means or
    offsets measured on its own paragraph."""
    from kb.retrieval import best_sentence, blend_dense

    groups = sorted(set(data.doc_groups))
    folds = [set(groups[0::2]), set(groups[1::2])]
    qg, qlangs, dlangs = np.array(data.query_groups), np.array(data.query_langs), np.array(data.doc_langs)
    slangs = dlangs[vectors.sentence_owner]
    use_sentences = sentence_share > 0 and len(vectors.sentences) > 0
    out = np.empty((len(data.query_ids), len(data.doc_ids)), dtype=np.float32)
    for fit, held_out in (folds, folds[::-1]):
        centerings = fit_centerings(data, vectors, fit)
        q, p = vectors.joined(centerings, data)
        scores = q @ p.T
        calibration = calibration_from_scores(data, scores, fit)
        if use_sentences:
            sentence_scores = q @ vectors.joined_sentences(centerings, data).T
            sentence_calibration = calibration_from_scores(data, sentence_scores, fit, vectors.sentence_owner)
        for i in np.flatnonzero(np.isin(qg, list(held_out))):
            out[i] = calibration.apply(scores[i], qlangs[i], dlangs)
            if use_sentences:
                sentences = sentence_calibration.apply(sentence_scores[i], qlangs[i], slangs)
                out[i] = blend_dense(out[i], best_sentence(sentences, vectors.sentence_owner, out[i]), sentence_share)
    return out


def question_group(key: str) -> str:
    """The question a row is about in all three languages ("56beb43..._ru@en" -> "56beb43..."): the
    unit the suite's intervals and paired tests resample, 1,190 of them."""
    return key.split("@")[0].rsplit("_", 1)[0]


def _ranked(scores: np.ndarray, allowed: np.ndarray, depth: int) -> np.ndarray:
    masked = np.where(allowed, scores, -np.inf)
    top = np.argpartition(-masked, min(depth, masked.size - 1))[:depth]
    top = top[np.argsort(-masked[top])]
    return top[np.isfinite(masked[top])]


def raw_lexical(data: XquadData, glossary, progress: bool) -> tuple[np.ndarray, np.ndarray]:
    """BM25 of every question against every paragraph as the service scores it (same language in full,
    other languages through anchors and the glossary), unscaled, and what each question's words can
    attain; the lexical index is built over XQuAD-R."""
    from tqdm import tqdm

    from kb.language import detect_language
    from kb.lexical import LexicalIndex, tokenize
    from kb.retrieval import raw_lexical_scores

    lex = LexicalIndex.build([normalize_for_matching(t) for t in data.doc_texts], list(data.doc_langs))
    doc_langs = np.array(data.doc_langs)
    out = np.empty((len(data.query_texts), len(data.doc_texts)), dtype=np.float32)
    attainable = np.empty(len(data.query_texts), dtype=np.float32)
    for i, text in enumerate(tqdm(data.query_texts, desc="xquad-r lexical", disable=not progress, unit="q")):
        tokens = tokenize(normalize_for_matching(text))
        out[i] = raw_lexical_scores(lex, tokens, detect_language(text), doc_langs, glossary)
        attainable[i] = lex.attainable(tokens)
    return out, attainable


def hybrid_row(dense: np.ndarray, lexical: np.ndarray, attainable: float, allowed: np.ndarray,
               params: RetrievalParams) -> np.ndarray:
    """The service's hybrid score over the passages of one setting, as if they were the whole corpus
    (the dense window is measured from their best)."""
    from kb.retrieval import fuse, lexical_match

    out = np.full(dense.shape, -np.inf, dtype=np.float32)
    out[allowed] = fuse(dense[allowed], lexical_match(lexical[allowed], attainable, params.lexical_min_match),
                        params.fusion_lexical_weight, params.fusion_dense_window)
    return out


SCORINGS = ("raw", "calibrated", "hybrid")


def run_xquad(data: XquadData, encoder: Encoder, cache_dir: Path, params: RetrievalParams, glossary=None,
              progress: bool = True, lexical: tuple[np.ndarray, np.ndarray] | None = None,
              scorings: tuple[str, ...] = SCORINGS, dense: np.ndarray | None = None) -> dict:
    """Every setting on the model's raw scores, again on the service's dense scores (centered and
    calibrated, cross-fitted, with the params' share of the best sentence's score), and once more on
    hybrid scores when the params' mode is hybrid; ``scorings`` picks among the three (a sweep needs
    only some), ``lexical`` is the output of :func:`raw_lexical` and ``dense`` that of
    :func:`service_dense_scores` when the caller has them already."""
    queries = [normalize_for_matching(t) for t in data.query_texts]
    vectors = xquad_vectors(data, encoder, cache_dir, progress)
    query_vectors, doc_vectors = vectors.joined()
    scores = query_vectors @ doc_vectors.T
    calibrated = dense if dense is not None else service_dense_scores(data, vectors, params.dense_sentence_share)
    hybrid = None
    if params.retrieval_mode == "hybrid" and "hybrid" in scorings:
        hybrid = calibrated
        lexical = lexical if lexical is not None else raw_lexical(data, glossary, progress)

    doc_lang = np.array(data.doc_langs)
    doc_group = np.array(data.doc_groups)
    doc_ids = data.doc_ids
    base_names = ["pool", "mono", "x2y", "pool_no_own"]
    names = ([*base_names] if "raw" in scorings else []) + \
        ([f"{n}_calibrated" for n in base_names] if "calibrated" in scorings else []) + \
        ([f"{n}_hybrid" for n in base_names] if hybrid is not None else [])
    settings: dict[str, dict] = {name: {"qrels": {}, "run": {}, "pairs": {}} for name in names}

    def add(setting: str, key: str, pair: str, relevant: np.ndarray, allowed: np.ndarray, row: np.ndarray) -> None:
        top = _ranked(row, allowed, DEPTH)
        block = settings[setting]
        block["qrels"][key] = {doc_ids[j]: 1 for j in np.flatnonzero(relevant & allowed)}
        block["run"][key] = {doc_ids[j]: float(row[j]) for j in top}
        block["pairs"][key] = pair

    def add_settings(suffix: str, qid: str, qlang: str, group: str, score_for) -> None:
        """The four settings for one question; ``score_for(allowed)`` scores every paragraph."""
        relevant = doc_group == group
        everything = np.ones_like(relevant)
        not_own = ~(relevant & (doc_lang == qlang))
        pool_row = score_for(everything)
        add(f"pool{suffix}", qid, f"{qlang}->all", relevant, everything, pool_row)
        for target in LANGS:
            in_target = doc_lang == target
            # within the pool: how well the target-language copy ranks among all 720
            add(f"pool{suffix}", f"{qid}@{target}", f"{qlang}->{target}", relevant & in_target, everything, pool_row)
            if target == qlang:
                add(f"mono{suffix}", qid, f"{qlang}->{qlang}", relevant, in_target, score_for(in_target))
            else:
                add(f"x2y{suffix}", f"{qid}@{target}", f"{qlang}->{target}", relevant, in_target, score_for(in_target))
        add(f"pool_no_own{suffix}", qid, f"{qlang}->others", relevant & not_own, not_own, score_for(not_own))

    own_first = {lang: 0 for lang in LANGS}
    for i, question in enumerate(zip(data.query_ids, data.query_langs, data.query_groups, strict=True)):
        own_first[question[1]] += int(doc_lang[int(np.argmax(scores[i]))] == question[1])
        if "raw" in scorings:
            add_settings("", *question, lambda allowed, row=scores[i]: row)
        if "calibrated" in scorings:
            add_settings("_calibrated", *question, lambda allowed, row=calibrated[i]: row)
        if hybrid is not None:
            add_settings("_hybrid", *question, lambda allowed, row=hybrid[i], lex=lexical[0][i],
                         attainable=float(lexical[1][i]): hybrid_row(row, lex, attainable, allowed, params))

    result: dict = {"settings": {}, "rows": {}}
    for name, block in settings.items():
        per_query = per_query_scores(block["qrels"], block["run"], XQUAD_METRICS)
        by_pair: dict[str, list[str]] = {}
        for key in per_query:
            by_pair.setdefault(block["pairs"][key], []).append(key)
        overall_keys = [k for k in per_query if "@" not in k] or list(per_query)

        def cell(keys: list[str], metric: str, scores=per_query) -> dict:
            return mean_with_ci([scores[k][metric] for k in keys], [question_group(k) for k in keys])

        result["settings"][name] = {
            "overall": {m: cell(overall_keys, m) for m in XQUAD_METRICS},
            "by_pair": {pair: {m: cell(keys, m) for m in XQUAD_METRICS} for pair, keys in sorted(by_pair.items())},
        }
        if name.startswith("x2y"):
            means = [v["ndcg@10"]["mean"] for v in result["settings"][name]["by_pair"].values()]
            result["settings"][name]["x2y_mean_ndcg@10"] = round(float(np.mean(means)), 4)
        result["rows"][name] = {k: [round(values[m], 4) for m in ROW_METRICS] for k, values in per_query.items()}
    counts = {lang: data.query_langs.count(lang) for lang in LANGS}
    result["row_metrics"] = list(ROW_METRICS)
    result["own_language_first_in_pool"] = {lang: round(own_first[lang] / counts[lang], 4) for lang in LANGS}
    if scorings == SCORINGS:  # a full report; a sweep's partial runs skip the timing
        centerings = fit_centerings(data, vectors)
        result["latency"] = _latency(encoder, queries, data.query_langs, vectors.joined(centerings, data)[1],
                                     vectors.joined_sentences(centerings, data))
    result["note"] = SQUAD_NOTE
    return result


def _latency(encoder: Encoder, queries: list[str], langs: list[str], doc_vectors: np.ndarray,
             sentence_vectors: np.ndarray, sample: int = 100) -> dict:
    """One question at a time, embedding (centered, as the service does) plus exact search over the
    720-paragraph pool and the scores of every paragraph sentence."""
    import faiss

    paragraphs, sentences = faiss.IndexFlatIP(doc_vectors.shape[1]), faiss.IndexFlatIP(doc_vectors.shape[1])
    paragraphs.add(np.ascontiguousarray(doc_vectors, dtype=np.float32))
    sentences.add(np.ascontiguousarray(sentence_vectors, dtype=np.float32))
    rng = np.random.default_rng(0)
    timings = []
    for i in rng.choice(len(queries), size=min(sample, len(queries)), replace=False):
        started = time.perf_counter()
        vector = encoder.encode_queries([queries[i]], [langs[i]])
        paragraphs.search(vector, 10)
        sentences.search(vector, sentences.ntotal)  # every sentence's score, as the service takes them
        timings.append(time.perf_counter() - started)
    return latency_summary(timings)


def measure_language_statistics(data: XquadData, encoder: Encoder, cache_dir: Path, progress: bool = True):
    """The language centering of each model of ``encoder`` and the score calibrations of the centered
    vectors (paragraphs, and sentences), all from all of XQuAD-R: what ``kb eval --calibrate`` stores
    for the service."""
    vectors = xquad_vectors(data, encoder, cache_dir, progress)
    centerings = fit_centerings(data, vectors)
    q, p = vectors.joined(centerings, data)
    sentences = vectors.joined_sentences(centerings, data)
    return centerings, {"passage": calibration_from_scores(data, q @ p.T),
                        "sentence": calibration_from_scores(data, q @ sentences.T, columns=vectors.sentence_owner)}
