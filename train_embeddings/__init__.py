"""Paraphrastic sentence embeddings trained on ParaNMT-style pairs (Wieting & Gimpel, ACL 2018, §4–5).

    from train_embeddings.models.model_io import load_model
    from train_embeddings.training.trainer import train     # train(config, out_dir) -> TrainResult
    model = load_model("runs/emb/word")                   # a saved model directory or a training run
    vectors = model.encode(["A man plays a guitar."])     # float32 n x dim
    model.similarity(["a man plays"], ["someone plays"])  # cosine per pair

Training: ``paranmt train --input DIR --model word|trigram|lstm|blstm|word,trigram|... --out RUN``.

Subpackages, grouped as sentence-transformers groups its own (each ``__init__`` lists its modules):

* :mod:`~train_embeddings.models` — the encoders, one family per module (WORD, TRIGRAM / SP, LSTM / BLSTM, the
  ICLR'16 encoders, CSE, STATIC), the :class:`~train_embeddings.models.encoder.SentenceEncoder` that combines them,
  the user-facing :class:`~train_embeddings.models.embedding_model.EmbeddingModel`, SIF models, and saved-model
  directories (``model_io``: save, the generic ``load_model``, word-vector export);
* :mod:`~train_embeddings.losses` — mega-batch negative mining and the margin loss;
* :mod:`~train_embeddings.training` — the :class:`~train_embeddings.training.trainer.Trainer` loop and everything
  a run sets up: its pairs, vocabularies, encoder, optimiser state, checkpoints, log and metrics;
* :mod:`~train_embeddings.evaluation` — STS (``sts``), SICK heads, the trainer's dev scoring, thread pools for
  speed figures;
* :mod:`~train_embeddings.export` — ``paranmt export``: sentence-transformers and model2vec directories;
* :mod:`~train_embeddings.static` — the ``static`` component's teacher, its distillation and its pieces.

Beside them: :mod:`~train_embeddings.vocab` (vocabularies and featurisation, what every encoder reads),
:mod:`~train_embeddings.train_command` (``paranmt train`` / ``python -m train_embeddings``),
:mod:`~train_embeddings.st_modules` (the sentence-transformers modules an exported directory names by this path,
so it stays here) and :mod:`~train_embeddings.pair_score` (the ``paranmt_model`` pipeline score).
"""
