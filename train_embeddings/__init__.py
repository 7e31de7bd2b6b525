"""Paraphrastic sentence embeddings trained on ParaNMT-style pairs (Wieting & Gimpel, ACL 2018, §4–5).

    from train_embeddings import load_model
    from train_embeddings.train import train             # train(config, out_dir) -> TrainResult
    model = load_model("runs/emb/word")                  # a saved model directory or a training run
    vectors = model.encode(["A man plays a guitar."])    # float32 n x dim
    model.similarity(["a man plays"], ["someone plays"]) # cosine per pair

Training: ``python -m train_embeddings --data DIR --model word|trigram|lstm|blstm|word,trigram|... --out RUN``
(:mod:`train_embeddings.train`). Modules: :mod:`~train_embeddings.data` (streamed, filtered, shuffled pairs),
:mod:`~train_embeddings.vocab` (word and character-trigram vocabularies), :mod:`~train_embeddings.models`
(WORD, TRIGRAM, LSTM, BLSTM, the ICLR'16 encoders, CSE, and combinations), :mod:`~train_embeddings.losses`
(mega-batch miner, margin loss, training statistics), :mod:`~train_embeddings.model_io` (save, load, export word
vectors), :mod:`~train_embeddings.sif` (SIF models), :mod:`~train_embeddings.sick` (SICK relatedness and
entailment heads), :mod:`~train_embeddings.sts` and :mod:`~train_embeddings.evaluate` (STS evaluation).
"""

from __future__ import annotations

from typing import Any

__all__ = ["EmbeddingModel", "export_word_vectors", "load_model", "save_model"]


def __getattr__(name: str) -> Any:  # lazy: importing the package (e.g. for .sts) does not load torch
    if name in ("load_model", "save_model", "export_word_vectors"):
        from train_embeddings import model_io

        return getattr(model_io, name)
    if name == "EmbeddingModel":
        from train_embeddings.models import EmbeddingModel

        return EmbeddingModel
    raise AttributeError(f"module 'train_embeddings' has no attribute {name!r}")
