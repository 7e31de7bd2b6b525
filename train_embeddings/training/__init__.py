"""Training (``paranmt train``): the :class:`~train_embeddings.training.trainer.Trainer` loop and everything a run
sets up, one module per step of the data flow.

* :mod:`~train_embeddings.training.data` — streamed, filtered, shuffled pairs (Parquet or ParaNMT TSV);
* :mod:`~train_embeddings.training.preparation` — ``prepare_training``: sets a run up from the settings and its
  folder, in the order the data flows: the run's pairs (TSV converted once), vocabularies, encoder (new or
  checkpointed; what a ``static`` component adds), optimiser state and schedule, and what a Trainer is given;
* :mod:`~train_embeddings.training.state` — position, history, model and optimiser, the schedule;
  :mod:`~train_embeddings.training.checkpoint` — ``checkpoint.pt``, the run-folder rule, resume;
* :mod:`~train_embeddings.training.megabatches` — the loop's data loader;
* :mod:`~train_embeddings.training.trainer` — the loop and ``train``: runs what ``prepare_training`` built;
  :mod:`~train_embeddings.training.unseen_words` — the trained words' map carried to the pretrained words never
  seen;
* :mod:`~train_embeddings.training.reporting` — the trainer's log and progress bar, ``metrics.json``,
  ``curves.png``.
"""
