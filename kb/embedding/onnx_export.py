"""Export the converted e5-small to ONNX and quantize it, from the local folder only.

Two files come out beside the model folder (never inside it: the folder's hash
names the model an index was built with, and must not change):
``model.onnx`` (fp32, the same arithmetic as torch) and ``model-int8.onnx``
(onnxruntime dynamic quantization, weights int8 per channel). A manifest
records the source weights' hash and each file's sha256, so a stale or
hand-edited export is noticed when it is loaded.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path

ONNX_FILES = {"onnx": "model.onnx", "onnx-int8": "model-int8.onnx"}
MANIFEST = "manifest.json"
OPSET = 17


def onnx_folder(model_folder: Path) -> Path:
    return model_folder.parent / f"{model_folder.name}.onnx"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(folder: Path) -> dict | None:
    """The export's manifest; None when it is missing or damaged (then `kb model` exports again)."""
    path = folder / MANIFEST
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def export_onnx(model_folder: Path, source_weights_hash: str, force: bool = False) -> tuple[Path, bool]:
    """Write both ONNX files for ``model_folder`` unless an export of these very weights exists.

    Returns the folder and whether it was written now. Files are written under
    temporary names and renamed, so an interrupted export leaves no half file.
    """
    folder = onnx_folder(model_folder)
    manifest = read_manifest(folder)
    if not force and manifest and manifest.get("source_weights_hash") == source_weights_hash and \
            all((folder / name).exists() and file_sha256(folder / name) == manifest["files"][runtime]["sha256"]
                for runtime, name in ONNX_FILES.items()):
        return folder, False
    folder.mkdir(parents=True, exist_ok=True)
    fp32 = folder / ONNX_FILES["onnx"]
    int8 = folder / ONNX_FILES["onnx-int8"]
    _export_fp32(model_folder, fp32)
    _quantize(fp32, int8)
    import onnxruntime
    import torch

    manifest = {"source_weights_hash": source_weights_hash, "opset": OPSET, "torch": torch.__version__,
                "onnxruntime": onnxruntime.__version__,
                "files": {runtime: {"name": name, "sha256": file_sha256(folder / name)}
                          for runtime, name in ONNX_FILES.items()}}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return folder, True


def _export_fp32(model_folder: Path, target: Path) -> None:
    import torch
    from transformers import AutoModel

    class LastHidden(torch.nn.Module):
        # Traced by keyword: transformers 5's forward() takes more positional arguments than the
        # two we feed, and positional tracing collides with them.
        def __init__(self, model: torch.nn.Module) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            return self.model(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    model = AutoModel.from_pretrained(str(model_folder), local_files_only=True).eval()
    ids = torch.tensor([[0, 100, 200, 2], [0, 300, 2, 1]], dtype=torch.long)
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]], dtype=torch.long)
    partial = target.with_suffix(".partial")
    with torch.no_grad(), warnings.catch_warnings():
        # Tracing warns about every Python-side shape check in the model; none applies to a fixed graph.
        warnings.simplefilter("ignore")
        torch.onnx.export(LastHidden(model), (ids, mask), str(partial), dynamo=False, opset_version=OPSET,
                          input_names=["input_ids", "attention_mask"], output_names=["last_hidden_state"],
                          dynamic_axes={"input_ids": {0: "batch", 1: "tokens"},
                                        "attention_mask": {0: "batch", 1: "tokens"},
                                        "last_hidden_state": {0: "batch", 1: "tokens"}})
    partial.replace(target)


def _quantize(source: Path, target: Path) -> None:
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    # The quantizer suggests a pre-processing pass for static shapes; dynamic int8 does not need it.
    logging.getLogger().setLevel(logging.ERROR)
    partial = target.with_suffix(".partial")
    quantize_dynamic(str(source), str(partial), weight_type=QuantType.QInt8, per_channel=True)
    partial.replace(target)
