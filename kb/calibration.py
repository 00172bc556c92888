"""Per-language calibration of dense scores.

A multilingual model gives a question higher cosine scores against text in
its own language than against the same content in another (raw e5-small
ranks a same-language XQuAD-R paragraph first for 100% of questions).
Language centering (``kb.centering``) removes most of that pull from the
vectors; what is left differs in spread per language pair. For each
question language X and passage language Y the calibration file holds the
mean and spread of scores between unrelated X questions and Y passages
(centered vectors), measured on XQuAD-R's parallel data by ``kb eval
--calibrate``; a score is then expressed as standard deviations above that
mean, which puts passages of all languages on one scale.

Two units are calibrated apart: whole passages (chunks) and the single
sentences a passage is also scored by (``kb.retrieval``); a sentence is
shorter, so its cosines spread differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from kb.model_data import model_entry, write_model_entry
from kb.models import LANGS

CALIBRATION_FILE = Path(__file__).parent / "data" / "language_calibration.json"
Unit = Literal["passage", "sentence"]


@dataclass(frozen=True)
class LanguageCalibration:
    offsets: dict[str, float]  # "X->Y": mean score
    scales: dict[str, float]  # "X->Y": standard deviation

    def _pair(self, table: dict[str, float], qlang: str | None, dlang: str) -> float:
        if qlang in LANGS:
            return table[f"{qlang}->{dlang}"]
        return float(np.mean([table[f"{x}->{dlang}"] for x in LANGS]))  # language unknown: average over X

    def apply(self, scores: np.ndarray, qlang: str | None, doc_langs: np.ndarray) -> np.ndarray:
        out = np.empty_like(scores, dtype=np.float32)
        for dlang in LANGS:
            mask = doc_langs == dlang
            if mask.any():
                out[mask] = (scores[mask] - self._pair(self.offsets, qlang, dlang)) / self._pair(self.scales, qlang, dlang)
        return out


def calibrated(calibration: LanguageCalibration | None, raw: np.ndarray, qlang: str | None,
               doc_langs: np.ndarray) -> np.ndarray:
    """Calibrated scores; for a model without a calibration, plain standardization over ``raw``."""
    if calibration is not None:
        return calibration.apply(raw, qlang, doc_langs)
    return ((raw - raw.mean()) / (raw.std() or 1.0)).astype(np.float32)


def calibration_for(model_id: str, weights_hash: str, unit: Unit = "passage",
                    path: Path = CALIBRATION_FILE) -> LanguageCalibration | None:
    """The calibration of ``unit`` scores measured for this exact model, or None when it has none."""
    entry = model_entry(path, model_id, weights_hash)
    if not entry or unit not in entry:
        return None
    return LanguageCalibration(entry[unit]["offsets"], entry[unit]["scales"])


def write_calibration(model_id: str, weights_hash: str, units: dict[str, LanguageCalibration], source: str,
                      path: Path = CALIBRATION_FILE) -> None:
    entry: dict = {unit: {"offsets": c.offsets, "scales": c.scales} for unit, c in units.items()}
    write_model_entry(path, model_id, weights_hash, {**entry, "source": source})
