"""Create the embedding model folders from the packages that carry the weights."""

from __future__ import annotations

from pathlib import Path

from kb.settings import MODEL_FOLDERS, EmbeddingBackend


def model_folder(models_dir: Path, backend: EmbeddingBackend) -> Path:
    return models_dir / MODEL_FOLDERS[backend]


def ensure_model(models_dir: Path, backend: EmbeddingBackend, force: bool = False) -> tuple[Path, bool]:
    """Create the model folder if it is missing; return it and whether it was made now."""
    folder = model_folder(models_dir, backend)
    if (folder / "modules.json").exists() and not force:
        return folder, False
    if backend is EmbeddingBackend.E5_SMALL:
        from kb.embedding.e5_convert import convert

        convert(folder)
    else:
        from kb.embedding.usem3_module import write_model_folder

        write_model_folder(folder)
    return folder, True
