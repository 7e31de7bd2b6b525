"""Training (``paranmt train``): the :class:`~train_embeddings.training.trainer.Trainer` loop and everything a run
sets up.

* :mod:`~train_embeddings.training.trainer` — the loop and ``train``;
  :mod:`~train_embeddings.training.training_setup` — ``prepare_training``: builds what a Trainer is given;
* :mod:`~train_embeddings.training.data` — streamed, filtered, shuffled pairs (Parquet or ParaNMT TSV);
  :mod:`~train_embeddings.training.training_pairs` — the run's pairs (TSV converted once);
* :mod:`~train_embeddings.training.vocab_building` — vocabularies from the pairs;
  :mod:`~train_embeddings.training.encoder_setup` — a new or a checkpointed encoder;
  :mod:`~train_embeddings.training.unseen_words` — the trained words' map carried to the pretrained words never
  seen; :mod:`~train_embeddings.training.static_training` — what a ``static`` component adds;
* :mod:`~train_embeddings.training.training_start` — device, optimiser, generator;
  :mod:`~train_embeddings.training.training_state` — position, history, model and optimiser, the schedule;
  :mod:`~train_embeddings.training.checkpoint` — ``checkpoint.pt``, the run-folder rule, resume;
* :mod:`~train_embeddings.training.megabatches` — the loop's data loader;
  :mod:`~train_embeddings.training.progress_log` — the trainer's log and progress bar;
  :mod:`~train_embeddings.training.run_metrics` — ``metrics.json``, ``curves.png``.
"""
