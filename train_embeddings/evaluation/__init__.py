"""Evaluation of sentence encoders.

* :mod:`~train_embeddings.evaluation.sts` — STS 2012–2016, STS-B and the STS2017 dev set: data, evaluator,
  results, baselines (torch-free until a model is encoded);
* :mod:`~train_embeddings.evaluation.dev_evaluation` — the trainer's evaluation callback: dev scoring and ``best/``;
* :mod:`~train_embeddings.evaluation.sick` — SICK relatedness and entailment heads;
* :mod:`~train_embeddings.evaluation.thread_pools` — what "N threads" means in a speed figure.
"""
