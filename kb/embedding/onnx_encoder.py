"""The e5-small question encoder on onnxruntime: the same vectors as torch, a few times faster.

It reads the exported graph (``kb.embedding.onnx_export``) and the model
folder's own ``tokenizer.json``, applies the model's prompts, mean-pools over
the attention mask and L2-normalizes, as sentence-transformers does. Its
``weights_hash`` is the torch folder's: the graph is that model, so an index
built by torch is this encoder's index too (the export's manifest ties the
two, and a mismatch refuses to load).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from kb.centering import CenteredVectors, Langs
from kb.embedding.onnx_export import ONNX_FILES, file_sha256, onnx_folder, read_manifest
from kb.errors import ModelNotInstalledError

MAX_TOKENS = 512
INSTALL = "Create it with `make model` (or `KB_EMBEDDING_BACKEND=e5-small kb model`)."


class OnnxEncoder(CenteredVectors):
    """e5-small through onnxruntime; ``runtime`` is ``onnx`` (fp32) or ``onnx-int8``."""

    def __init__(self, model_folder: Path, model_id: str, weights_hash: str, runtime: str = "onnx",
                 threads: int | None = None, batch_size: int = 16, verify: bool = True) -> None:
        if runtime not in ONNX_FILES:
            raise ValueError(f"unknown ONNX runtime {runtime!r}; one of {sorted(ONNX_FILES)}")
        self.folder = Path(model_folder)
        self.model_id = model_id
        self.runtime = runtime
        self.threads = threads
        self.verify = verify
        self.dimension = 384
        self.max_tokens = MAX_TOKENS
        self.batch_size = batch_size
        self._weights_hash = weights_hash
        self._manifest = self._checked_manifest()
        self._sessions: dict[str, object] = {}
        self._session(runtime)  # fail at start, not at the first question
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=self._tokenizer.token_to_id("<pad>"), pad_token="<pad>")
        config = json.loads((self.folder / "config_sentence_transformers.json").read_text(encoding="utf-8"))
        self._prompts = config.get("prompts", {})

    def _checked_manifest(self) -> dict:
        folder = onnx_folder(self.folder)
        manifest = read_manifest(folder)
        if manifest is None:
            state = "is damaged" if (folder / "manifest.json").exists() else "is missing"
            raise ModelNotInstalledError(f"the ONNX export of '{self.model_id}' is not installed: "
                                         f"{folder / 'manifest.json'} {state}. {INSTALL}")
        if manifest.get("source_weights_hash") != self._weights_hash:
            raise ModelNotInstalledError(
                f"{folder} was exported from other weights ({manifest.get('source_weights_hash')}; the model folder "
                f"is {self._weights_hash}). Re-export it with `make model` (or `KB_EMBEDDING_BACKEND=e5-small kb model`).")
        return manifest

    def _session(self, runtime: str):
        """The onnxruntime session of one graph, checked against the manifest and loaded once."""
        if runtime not in self._sessions:
            path = onnx_folder(self.folder) / ONNX_FILES[runtime]
            if not path.exists():
                raise ModelNotInstalledError(f"the ONNX export of '{self.model_id}' is not installed: "
                                             f"{path} is missing. {INSTALL}")
            if self.verify and file_sha256(path) != self._manifest["files"][runtime]["sha256"]:
                raise ModelNotInstalledError(f"{path} does not match its manifest (edited or truncated). {INSTALL}")
            import onnxruntime

            options = onnxruntime.SessionOptions()
            if self.threads:
                options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            self._sessions[runtime] = onnxruntime.InferenceSession(str(path), options,
                                                                   providers=["CPUExecutionProvider"])
        return self._sessions[runtime]

    def weights_hash(self) -> str:
        return self._weights_hash

    def _embed(self, texts: list[str], runtime: str, progress: bool = False) -> np.ndarray:
        session = self._session(runtime)
        blocks = []
        starts = range(0, len(texts), self.batch_size)
        if progress:
            from tqdm import tqdm

            starts = tqdm(starts, desc="Batches", unit="batch")
        for start in starts:
            # transformers' tokenizer strips the text before encoding; without that a trailing space or
            # newline costs one more token and chunks would be cut differently from torch's.
            encodings = self._tokenizer.encode_batch([t.strip() for t in texts[start:start + self.batch_size]])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / weights.sum(axis=1).clip(1e-9)
            blocks.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True).clip(1e-12))
        if not blocks:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.vstack(blocks).astype(np.float32)

    def encode_queries(self, texts: list[str], langs: Langs = None) -> np.ndarray:
        prompt = self._prompts.get("query", "")
        return self._centered(self._embed([prompt + t for t in texts], self.runtime), langs, "query")

    def encode_documents(self, texts: list[str], langs: Langs = None, progress: bool = False) -> np.ndarray:
        # Passages always go through the fp32 graph: one index then serves every question runtime.
        prompt = self._prompts.get("document", "")
        return self._centered(self._embed([prompt + t for t in texts], "onnx", progress), langs, "passage")

    def count_tokens(self, text: str) -> int:
        prompt = self._prompts.get("document", "")
        return len(self._tokenizer.encode((prompt + text).strip()).ids)
