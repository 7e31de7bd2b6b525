"""A trained ``static`` model as a model2vec directory (``StaticModel.from_pretrained(dir)``; the ``static``
extra's model2vec): its trained table and its teacher's tokenizer, the same mean over pieces, so model2vec's
``encode(..., normalize=False)`` equals paranmt's ``encode`` (model2vec's default normalises the vectors, which
leaves every cosine unchanged)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_dir import staged_directory
from train_embeddings.static.teacher import STATIC, import_model2vec

__all__ = ["export_model2vec", "static_table"]


def static_table(model: EmbeddingModel) -> np.ndarray:
    """The trained table (float32, one row per teacher token) of a static-only model."""
    if not isinstance(model, EmbeddingModel) or model.spec.components != [STATIC] or model.static is None:
        raise ValueError(f"{model!r} is not a static-only model: only --model static exports as a static table")
    return model.encoder.parts[STATIC].embedding.weight.detach().float().cpu().numpy()


def export_model2vec(model: EmbeddingModel, directory: str | Path) -> Path:
    """Write ``model`` (static only) as a model2vec directory (replacing one that exists); returns it."""
    table = static_table(model)
    from tokenizers import Tokenizer  # with the static extra, like model2vec

    exported = import_model2vec().StaticModel(vectors=table, tokenizer=Tokenizer.from_str(model.static.tokenizer_json),  # type: ignore[union-attr]
                           config={"model_type": "model2vec", "architectures": ["StaticModel"],
                                   "hidden_dim": int(table.shape[1]), "normalize": True, "pooling": "mean"},
                           normalize=True, base_model_name=None)
    directory = Path(directory)
    with staged_directory(directory) as staging:
        exported.save_pretrained(staging)
    return directory
