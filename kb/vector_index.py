"""Which FAISS index holds the chunk vectors, chosen by corpus size, and how a question is scored with it.

Up to ``EXACT_MAX_CHUNKS`` every chunk and every sentence is scored exactly
(a flat index): the fusion, the calibration and the answer stage see every
score. Retrieval without encoding costs about 5 ms so at 30k chunks
(eval/results/scale.md; exact search grows linearly, 50 ms at 1M), so the
limit is 30k.
Above, an inverted-file index is chosen (the best recall per millisecond at
1M chunks in that report): the ``CANDIDATES`` nearest chunks get their
exact inner products, their sentences are scored exactly, and every other
chunk and sentence gets the lowest candidate score, a floor that lexical
evidence can still lift. The choice is recorded in the manifest and read
back at load, so an index is always searched as it was built.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

EXACT_MAX_CHUNKS = 30_000
CANDIDATES = 1000


@dataclass(frozen=True)
class VectorIndexSpec:
    kind: str  # "flat" (exact) or "ivf"
    factory: str  # faiss.index_factory string
    params: dict = field(default_factory=dict)  # search-time parameters

    @property
    def exact(self) -> bool:
        return self.kind == "flat"

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_manifest(cls, manifest: dict) -> VectorIndexSpec:
        found = manifest.get("vector_index")
        return cls(**found) if found else FLAT  # builds from before the choice existed are flat


FLAT = VectorIndexSpec("flat", "Flat")


def choose(n: int, exact_max: int = EXACT_MAX_CHUNKS) -> VectorIndexSpec:
    if n <= exact_max:
        return FLAT
    lists = max(1, min(int(4 * np.sqrt(n)), n // 40))  # 4·sqrt(n) lists, each trained on >= 40 points
    return VectorIndexSpec("ivf", f"IVF{lists},Flat", {"nprobe": min(lists, 64)})


def build_vector_index(vectors: np.ndarray, spec: VectorIndexSpec):
    import faiss

    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    index = faiss.index_factory(vectors.shape[1], spec.factory, faiss.METRIC_INNER_PRODUCT)
    if not index.is_trained:
        # 64 training points per list, as eval/results/scale.md measured; a fixed sample, so the same
        # corpus gives the same index
        rng = np.random.default_rng(0)
        points = min(len(vectors), 64 * index.nlist)
        index.train(vectors[np.sort(rng.choice(len(vectors), points, replace=False))])
    index.add(vectors)
    return index


def configure(index, spec: VectorIndexSpec) -> None:
    import faiss

    for key, value in spec.params.items():
        faiss.ParameterSpace().set_index_parameter(index, key, value)


def every_score(index, query: np.ndarray) -> np.ndarray:
    """Exact inner product of one query with every vector of a flat index, in insertion order."""
    n = index.ntotal
    out = np.empty(n, dtype=np.float32)
    if n:
        scores, ids = index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), n)
        out[ids[0]] = scores[0]
    return out


def candidate_scores(index, query: np.ndarray, k: int = CANDIDATES) -> tuple[np.ndarray, np.ndarray]:
    """The approximate nearest ``k`` (ids, inner products), best first; ids of -1 (too few found) dropped."""
    scores, ids = index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), min(k, index.ntotal))
    keep = ids[0] >= 0
    return ids[0][keep], scores[0][keep]
