"""Saved-model directories, whatever the model: the ``model.json`` every one holds, finding the model in a
directory or a training run, and writing a directory so that a reader never sees it half-written.

Torch-free, so that SIF models (:mod:`train_embeddings.models.sif`, NumPy) and exports can use it without loading
torch: ``paranmt train``'s checks and the STS baselines import SIF before torch is needed. What needs torch — saving
and loading neural models, and the generic ``load_model`` — is :mod:`train_embeddings.models.model_io`.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from paranmt.core.errors import ParanmtError

__all__ = ["METRICS_JSON", "MODEL_JSON", "ModelLoadError", "model_directory", "staged_directory"]

MODEL_JSON = "model.json"
METRICS_JSON = "metrics.json"  # a training run's record, beside its best/ and model/


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


@contextmanager
def staged_directory(directory: str | Path) -> Iterator[Path]:
    """Yield an empty sibling folder to write into; on success it replaces ``directory`` (an existing one is moved
    aside first, then removed), on an exception it is deleted and ``directory`` stays as it was."""
    directory = Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = directory.with_name(f".{directory.name}.{uuid.uuid4().hex[:8]}.tmp")
    staging.mkdir()
    try:
        yield staging
        old = directory.with_name(f".{directory.name}.{uuid.uuid4().hex[:8]}.old")
        if directory.exists():
            os.replace(directory, old)
        os.replace(staging, directory)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
