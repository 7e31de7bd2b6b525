"""Saved-model directories: the ``model.json`` file every saved model holds, and finding the model in a directory.

:mod:`train_embeddings.models.model_io` (neural models, the generic loader) and :mod:`train_embeddings.models.sif` (SIF
models) both write and read ``model.json``; this module is what they share, so neither needs the other for it.
"""

from __future__ import annotations

from pathlib import Path

from core.errors import ParanmtError

__all__ = ["MODEL_JSON", "ModelLoadError", "model_directory"]

MODEL_JSON = "model.json"


class ModelLoadError(ParanmtError, ValueError):
    """A directory is not a saved model (or a training run with one); the message says what is missing."""


def model_directory(path: Path) -> Path:
    """``path`` when it holds a ``model.json``; for a training run its ``best/`` (the best checkpoint on dev), else
    its ``model/`` (the final model). Raises :class:`ModelLoadError` when it is none of these."""
    if (path / MODEL_JSON).is_file():
        return path
    for name in ("best", "model"):  # a training run: the best checkpoint on dev, else the final model
        if (path / name / MODEL_JSON).is_file():
            return path / name
    raise ModelLoadError(f"{path} is not a saved model (no {MODEL_JSON}) nor a training run with best/ or model/")
