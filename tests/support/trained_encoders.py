"""Two tiny encoders trained on the bundled Tatoeba pairs, for the tests that read a saved model: a WORD model on
the kumo vectors (its word table exports as paragram vectors) and a WORD + TRIGRAM + BLSTM model."""

from __future__ import annotations

from pathlib import Path

from tests.support.training_pairs import tiny
from train_embeddings.training.trainer import TrainResult, train


def word_run(pairs: Path, out: Path) -> TrainResult:
    config = tiny("word", pairs, word_vectors="kumo", keep_pretrained_vocab=False, max_steps=6)
    return train(config, out, evaluate_fn=None, progress=False)


def combined_run(pairs: Path, out: Path) -> TrainResult:
    return train(tiny("word,trigram,blstm-max", pairs), out, evaluate_fn=None, progress=False)
