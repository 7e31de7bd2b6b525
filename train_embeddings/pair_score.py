"""A saved paranmt encoder's cosine between the English side and its back-translation, as a paraphrase score: a
corpus scored by a fast encoder trained on an earlier corpus (e.g. a ``static`` model, docs/embeddings.md).

    select:
      scores:
        - paranmt_model: {model: runs/static/model, column: static_cosine}
      rank_by: static_cosine

Any directory :func:`train_embeddings.models.model_io.load_model` reads (a saved model or a training run). The model is
loaded once per worker (:meth:`ParanmtModelCosine.setup`); the raw ``en`` and ``mt`` columns are encoded with the
model's own tokenisation (a static model reads the raw text with its teacher's tokenizer).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from pydantic import Field, PrivateAttr, model_validator

from filters.pair_cosine import PairCosine
from train_embeddings.models.model_dir import model_directory

__all__ = ["ParanmtModelCosine"]


class ParanmtModelCosine(PairCosine):
    """Cosine of a paranmt model's embeddings of ``en`` and ``mt`` (float32 in [-1, 1]; a null side: null; 0 where
    a sentence embeds to zero)."""

    key: ClassVar[str] = "paranmt_model"
    model: str = Field(min_length=1, description="A saved paranmt model directory or training run.")
    column: str = Field(default="model_cosine", min_length=1, description="The column the score is written to.")
    batch_size: int = Field(default=1000, ge=1, description="Sentences encoded at a time.")
    _encoder: Any = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _exists(self) -> ParanmtModelCosine:
        model_directory(Path(self.model))  # on the launcher: a wrong path stops the run before any work
        return self

    def setup(self) -> None:
        if self._encoder is None:
            from train_embeddings.models.model_io import load_model  # torch loads here, on the worker

            self._encoder = load_model(self.model)

    def cosines(self, left: list[str], right: list[str]) -> np.ndarray:
        return self._encoder.similarity(left, right, self.batch_size)
