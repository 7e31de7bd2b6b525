"""Paraphrastic sentence embeddings trained on ParaNMT-style pairs (Wieting & Gimpel, ACL 2018, §4–5).

    from train_embeddings import load_model
    from train_embeddings.trainer import train             # train(config, out_dir) -> TrainResult
    model = load_model("runs/emb/word")                  # a saved model directory or a training run
    vectors = model.encode(["A man plays a guitar."])    # float32 n x dim
    model.similarity(["a man plays"], ["someone plays"]) # cosine per pair

Training: ``paranmt train --input DIR --model word|trigram|lstm|blstm|word,trigram|... --out RUN``.

Modules:

* training — :mod:`~train_embeddings.trainer` (the :class:`~train_embeddings.trainer.Trainer` loop, ``train``
  and the CLI), :mod:`~train_embeddings.training_setup` (``prepare_training``: builds what a Trainer is given),
  :mod:`~train_embeddings.training_pairs` (the run's pairs; TSV converted once),
  :mod:`~train_embeddings.vocab_building` (vocabularies from the pairs), :mod:`~train_embeddings.encoder_setup`
  (a new or a checkpointed encoder), :mod:`~train_embeddings.training_start` (device, optimiser, generator),
  :mod:`~train_embeddings.training_state` (position, history, model and optimiser; the schedule),
  :mod:`~train_embeddings.checkpoint` (``checkpoint.pt``, the run-folder rule, resume),
  :mod:`~train_embeddings.megabatches` (the loop's data loader), :mod:`~train_embeddings.dev_evaluation` (dev
  scoring, ``best/``), :mod:`~train_embeddings.progress_log` (loss log, progress bar),
  :mod:`~train_embeddings.run_metrics` (``metrics.json``, ``curves.png``), :mod:`~train_embeddings.data`
  (streamed, filtered, shuffled pairs), :mod:`~train_embeddings.losses` (mega-batch miner, margin loss, training
  statistics);
* models — :mod:`~train_embeddings.vocab` (word and character-trigram vocabularies),
  :mod:`~train_embeddings.models` (WORD, TRIGRAM, LSTM, BLSTM, the ICLR'16 encoders, CSE, and combinations),
  :mod:`~train_embeddings.pairing` (paired cosines);
* saved models — :mod:`~train_embeddings.model_dir` (``model.json``, ``ModelLoadError``, finding the model in a
  run), :mod:`~train_embeddings.model_io` (save, the generic ``load_model`` and its loader registry, export word
  vectors), :mod:`~train_embeddings.sif` (SIF models), :mod:`~train_embeddings.files` (atomic directory writes);
* evaluation — :mod:`~train_embeddings.sts` (STS data, results, evaluator, baselines),
  :mod:`~train_embeddings.evaluate_sts` (STS command line), :mod:`~train_embeddings.sick` (SICK relatedness and
  entailment heads).
"""

from __future__ import annotations

from typing import Any

__all__ = ["EmbeddingModel", "export_word_vectors", "load_model", "save_model"]


def __getattr__(name: str) -> Any:  # lazy: importing the package (e.g. for .sts, .sif) must not load torch
    if name in ("load_model", "save_model", "export_word_vectors"):
        from train_embeddings import model_io

        return getattr(model_io, name)
    if name == "EmbeddingModel":
        from train_embeddings.models import EmbeddingModel

        return EmbeddingModel
    raise AttributeError(f"module 'train_embeddings' has no attribute {name!r}")
