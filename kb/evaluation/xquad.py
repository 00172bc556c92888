"""XQuAD-R: 240 paragraphs x 3 languages, 1,190 questions x 3 languages.

Settings (nDCG@10, Recall@1/5/10, MRR@10, mAP@20 each):
- ``pool``: every question against all 720 paragraphs; its paragraph is relevant in all three languages.
- ``mono``: each question against the 240 paragraphs of its own language (MTEB's setting).
- ``x2y``: questions in X against the 240 paragraphs in Y, for the six X != Y.
- ``pool_no_own``: the pool without the question's own-language copy of its paragraph; the two
  other-language copies are relevant. This mirrors a knowledge base whose answer exists in
  another language only.
Only ``text`` is embedded: ``title`` is the English title in every language and would leak.
"""

from __future__ import annotations

import hashlib
import time
from itertools import product
from pathlib import Path

import numpy as np

from kb.embedding.encoder import ConcatenatedEncoder, Encoder
from kb.evaluation.datasets import XquadData
from kb.evaluation.metrics import XQUAD_METRICS, latency_summary, mean_with_ci, per_query_scores
from kb.textnorm import normalize_for_matching

LANGS = ("en", "ru", "zh")
DEPTH = 20  # mAP@20 needs 20 results
# Per-query rows keep the metrics a paired comparison uses (the file would be 5 MB with all six).
ROW_METRICS = ("ndcg@10", "recall@5", "recall@10")
SQUAD_NOTE = ("multilingual-e5 was trained with SQuAD data, which XQuAD is drawn from: for e5 configurations "
              "this benchmark is not zero-shot. The *_calibrated settings use per-language score offsets that were "
              "themselves measured on XQuAD-R's unrelated question/paragraph pairs, so they are not an independent test.")


def embed_cached(encoder: Encoder, texts: list[str], role: str, cache_dir: Path, progress: bool) -> np.ndarray:
    """Embeddings of ``texts``, cached on disk per model and text set (they take a minute to make)."""
    if isinstance(encoder, ConcatenatedEncoder):
        return ConcatenatedEncoder._join([embed_cached(p, texts, role, cache_dir, progress) for p in encoder.parts])
    digest = hashlib.sha256("\x1e".join(texts).encode()).hexdigest()[:12]
    path = cache_dir / f"{encoder.model_id}-{encoder.weights_hash()}-{role}-{digest}.npy"
    if path.exists():
        return np.load(path)
    if role == "query":
        vectors = np.vstack([encoder.encode_queries(texts[i:i + 256]) for i in range(0, len(texts), 256)])
    else:
        vectors = encoder.encode_documents(texts, progress=progress)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors.astype(np.float32))
    return vectors


def _ranked(scores: np.ndarray, allowed: np.ndarray, depth: int) -> np.ndarray:
    masked = np.where(allowed, scores, -np.inf)
    top = np.argpartition(-masked, min(depth, masked.size - 1))[:depth]
    top = top[np.argsort(-masked[top])]
    return top[np.isfinite(masked[top])]


def raw_lexical(data: XquadData, glossary, progress: bool) -> np.ndarray:
    """BM25 of every question against every paragraph as the service scores it (same language in full,
    other languages through anchors and the glossary), unscaled; the lexical index is built over XQuAD-R."""
    from tqdm import tqdm

    from kb.language import detect_language
    from kb.lexical import LexicalIndex, tokenize
    from kb.retrieval import raw_lexical_scores

    lex = LexicalIndex.build([normalize_for_matching(t) for t in data.doc_texts], list(data.doc_langs))
    doc_langs = np.array(data.doc_langs)
    out = np.empty((len(data.query_texts), len(data.doc_texts)), dtype=np.float32)
    for i, text in enumerate(tqdm(data.query_texts, desc="xquad-r lexical", disable=not progress, unit="q")):
        out[i] = raw_lexical_scores(lex, tokenize(normalize_for_matching(text)), detect_language(text), doc_langs,
                                    glossary)
    return out


def hybrid_row(dense: np.ndarray, lexical: np.ndarray, allowed: np.ndarray, weight: float,
               window: float | None) -> np.ndarray:
    """The service's hybrid score over the passages of one setting, as if they were the whole corpus:
    BM25 scaled by its best over them, and the dense window measured from their best."""
    from kb.retrieval import fuse

    out = np.full(dense.shape, -np.inf, dtype=np.float32)
    top = float(lexical[allowed].max()) if allowed.any() else 0.0
    scaled = lexical[allowed] / top if top > 0 else np.zeros(int(allowed.sum()), dtype=np.float32)
    out[allowed] = fuse(dense[allowed], scaled, weight, window)
    return out


def run_xquad(data: XquadData, encoder: Encoder, cache_dir: Path, progress: bool = True,
              fusion: tuple[float, float | None, object] | None = None) -> dict:
    """Every setting on raw dense scores; with a calibration, the pool settings calibrated; with
    ``fusion`` (lexical weight, dense window, glossary), every setting again on hybrid scores."""
    docs = [normalize_for_matching(t) for t in data.doc_texts]
    queries = [normalize_for_matching(t) for t in data.query_texts]
    doc_vectors = embed_cached(encoder, docs, "passage", cache_dir, progress)
    query_vectors = embed_cached(encoder, queries, "query", cache_dir, progress)
    scores = query_vectors @ doc_vectors.T
    result_calibrated = None
    from kb.calibration import calibration_for

    calibration = calibration_for(encoder.model_id, encoder.weights_hash())
    doc_langs_arr = np.array(data.doc_langs)
    if calibration is not None:
        # What the service does in dense mode. Per-pair affine maps leave the mono and X->Y rankings
        # as they are, so only the pool settings change.
        scores_calibrated = np.vstack([calibration.apply(scores[i], ql, doc_langs_arr)
                                       for i, ql in enumerate(data.query_langs)])
        result_calibrated = scores_calibrated
    hybrid = lexical = None
    if fusion is not None:
        hybrid = result_calibrated if result_calibrated is not None else scores
        lexical = raw_lexical(data, fusion[2], progress)

    doc_lang = np.array(data.doc_langs)
    doc_group = np.array(data.doc_groups)
    doc_ids = data.doc_ids
    names = ["pool", "mono", "x2y", "pool_no_own"] + (["pool_calibrated", "pool_no_own_calibrated"]
                                                      if result_calibrated is not None else []) + \
        (["pool_hybrid", "mono_hybrid", "x2y_hybrid", "pool_no_own_hybrid"] if hybrid is not None else [])
    settings: dict[str, dict] = {name: {"qrels": {}, "run": {}, "pairs": {}} for name in names}

    def add(setting: str, key: str, pair: str, relevant: np.ndarray, allowed: np.ndarray, row: np.ndarray) -> None:
        top = _ranked(row, allowed, DEPTH)
        block = settings[setting]
        block["qrels"][key] = {doc_ids[j]: 1 for j in np.flatnonzero(relevant & allowed)}
        block["run"][key] = {doc_ids[j]: float(row[j]) for j in top}
        block["pairs"][key] = pair

    own_first = {lang: 0 for lang in LANGS}
    for i, (qid, qlang, group) in enumerate(zip(data.query_ids, data.query_langs, data.query_groups, strict=True)):
        row = scores[i]
        relevant = doc_group == group
        everything = np.ones_like(relevant)
        add("pool", qid, f"{qlang}->all", relevant, everything, row)
        own_first[qlang] += int(doc_lang[int(np.argmax(row))] == qlang)
        for target in LANGS:
            in_target = doc_lang == target
            # within the pool: how well the target-language copy ranks among all 720
            add("pool", f"{qid}@{target}", f"{qlang}->{target}", relevant & in_target, everything, row)
            if target == qlang:
                add("mono", qid, f"{qlang}->{qlang}", relevant, in_target, row)
            else:
                add("x2y", f"{qid}@{target}", f"{qlang}->{target}", relevant, in_target, row)
        not_own = ~(relevant & (doc_lang == qlang))
        add("pool_no_own", qid, f"{qlang}->others", relevant & not_own, not_own, row)
        if result_calibrated is not None:
            calibrated = result_calibrated[i]
            add("pool_calibrated", qid, f"{qlang}->all", relevant, everything, calibrated)
            for target in LANGS:
                add("pool_calibrated", f"{qid}@{target}", f"{qlang}->{target}", relevant & (doc_lang == target),
                    everything, calibrated)
            add("pool_no_own_calibrated", qid, f"{qlang}->others", relevant & not_own, not_own, calibrated)
        if hybrid is not None:
            def fused(allowed, row=hybrid[i], lex=lexical[i]):
                return hybrid_row(row, lex, allowed, fusion[0], fusion[1])
            pool_row = fused(everything)
            add("pool_hybrid", qid, f"{qlang}->all", relevant, everything, pool_row)
            for target in LANGS:
                in_target = doc_lang == target
                add("pool_hybrid", f"{qid}@{target}", f"{qlang}->{target}", relevant & in_target, everything, pool_row)
                if target == qlang:
                    add("mono_hybrid", qid, f"{qlang}->{qlang}", relevant, in_target, fused(in_target))
                else:
                    add("x2y_hybrid", f"{qid}@{target}", f"{qlang}->{target}", relevant, in_target, fused(in_target))
            add("pool_no_own_hybrid", qid, f"{qlang}->others", relevant & not_own, not_own, fused(not_own))

    result: dict = {"settings": {}, "rows": {}}
    for name, block in settings.items():
        per_query = per_query_scores(block["qrels"], block["run"], XQUAD_METRICS)
        by_pair: dict[str, list[dict]] = {}
        for key, values in per_query.items():
            by_pair.setdefault(block["pairs"][key], []).append(values)
        overall_keys = [k for k in per_query if "@" not in k] or list(per_query)
        result["settings"][name] = {
            "overall": {m: mean_with_ci([per_query[k][m] for k in overall_keys]) for m in XQUAD_METRICS},
            "by_pair": {pair: {m: mean_with_ci([v[m] for v in group]) for m in XQUAD_METRICS}
                        for pair, group in sorted(by_pair.items())},
        }
        if name.startswith("x2y"):
            means = [v["ndcg@10"]["mean"] for v in result["settings"][name]["by_pair"].values()]
            result["settings"][name]["x2y_mean_ndcg@10"] = round(float(np.mean(means)), 4)
        result["rows"][name] = {k: [round(values[m], 4) for m in ROW_METRICS] for k, values in per_query.items()}
    counts = {lang: data.query_langs.count(lang) for lang in LANGS}
    result["row_metrics"] = list(ROW_METRICS)
    result["own_language_first_in_pool"] = {lang: round(own_first[lang] / counts[lang], 4) for lang in LANGS}
    result["latency"] = _latency(encoder, queries, doc_vectors)
    result["note"] = SQUAD_NOTE
    return result


def _latency(encoder: Encoder, queries: list[str], doc_vectors: np.ndarray, sample: int = 100) -> dict:
    """One question at a time, embedding plus exact search over the 720-paragraph pool."""
    import faiss

    index = faiss.IndexFlatIP(doc_vectors.shape[1])
    index.add(np.ascontiguousarray(doc_vectors, dtype=np.float32))
    rng = np.random.default_rng(0)
    timings = []
    for i in rng.choice(len(queries), size=min(sample, len(queries)), replace=False):
        started = time.perf_counter()
        index.search(encoder.encode_queries([queries[i]]), 10)
        timings.append(time.perf_counter() - started)
    return latency_summary(timings)


def pair_keys() -> list[str]:
    return [f"{a}->{b}" for a, b in product(LANGS, LANGS)]


def measure_language_calibration(data: XquadData, encoder: Encoder, cache_dir: Path, progress: bool = True):
    """Mean and spread of scores between X questions and unrelated Y paragraphs, for every X, Y."""
    docs = [normalize_for_matching(t) for t in data.doc_texts]
    queries = [normalize_for_matching(t) for t in data.query_texts]
    scores = embed_cached(encoder, queries, "query", cache_dir, progress) @ \
        embed_cached(encoder, docs, "passage", cache_dir, progress).T
    qlang, dlang = np.array(data.query_langs), np.array(data.doc_langs)
    unrelated = np.array(data.query_groups)[:, None] != np.array(data.doc_groups)[None, :]
    offsets, scales = {}, {}
    for x, y in product(LANGS, LANGS):
        block = scores[np.ix_(qlang == x, dlang == y)][unrelated[np.ix_(qlang == x, dlang == y)]]
        offsets[f"{x}->{y}"] = round(float(block.mean()), 5)
        scales[f"{x}->{y}"] = round(float(block.std()), 5)
    return offsets, scales
