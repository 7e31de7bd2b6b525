"""The trainer's evaluation callback (train_embeddings/evaluation/dev_evaluation.py): every result goes to the
history, the best score's model to ``best/``, a missing metric is said once; the default scores STS2017, read from
the STS folder the environment names, and stops early when its files are missing. On a real model set up from real
pairs (the whole loop with evaluations: tests/train_embeddings/training/test_trainer.py)."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

from tests.support.training_pairs import tiny
from train_embeddings.evaluation.dev_evaluation import DevEvaluator, default_evaluate_fn
from train_embeddings.evaluation.sts.datasets import StsDataMissing, load_stsb
from train_embeddings.training.preparation import prepare_training
from train_embeddings.training.reporting import TRAINER_LOG


@pytest.fixture
def setup(tatoeba_129_pairs, tmp_path):
    return prepare_training(tiny("word", tatoeba_129_pairs), tmp_path / "run", evaluate_fn=None, progress=False)


def test_every_score_is_recorded_and_the_best_model_kept(setup, tmp_path):
    scores = iter([{"dev": 0.3, "other": 1.0}, {"dev": 0.5}, {"dev": 0.4}, {"dev": float("nan")}])
    timing = {"eval_s": 0.0}
    evaluate = DevEvaluator(lambda model: next(scores), "dev", tmp_path / "best", steps_per_epoch=10, timing=timing)
    state = setup.state
    bests = []
    for step in (5, 10, 15, 20):
        state.position.step = step
        evaluate(setup.model, state)
        bests.append(json.loads((tmp_path / "best" / "model.json").read_text())["best"]["step"])
    assert bests == [5, 10, 10, 10]  # 0.4 is no better than 0.5, NaN never is
    assert [(e["step"], e["epoch"], e["dev"]) for e in state.history["evaluations"]][:3] == \
        [(5, 0.5, 0.3), (10, 1.0, 0.5), (15, 1.5, 0.4)]
    assert state.history["evaluations"][0]["other"] == 1.0
    assert state.best == {"step": 10, "epoch": 1.0, "metric": "dev", "score": 0.5}
    assert state.encoder.training and timing["eval_s"] > 0  # back in training mode after scoring


def test_a_missing_metric_keeps_no_best_model_and_is_said_once(setup, tmp_path, caplog):
    evaluate = DevEvaluator(lambda model: {"sick": 0.7}, "dev", tmp_path / "best", 10, {"eval_s": 0.0})
    with caplog.at_level(logging.WARNING, logger=TRAINER_LOG):
        for step in (5, 10):
            setup.state.position.step = step
            evaluate(setup.model, setup.state)
    assert [r.getMessage() for r in caplog.records] == ["evaluation gave no 'dev' (got ['sick']): no best/ model is "
                                                        "kept"]
    assert setup.state.best is None and not (tmp_path / "best").exists()


def test_the_default_scores_sts2017_of_the_folder_the_environment_names(setup, toy_root, tmp_path, monkeypatch):
    monkeypatch.setenv("PARANMT_STS_DIR", str(tmp_path / "absent"))
    with pytest.raises(StsDataMissing, match="absent"):
        default_evaluate_fn()
    monkeypatch.setenv("PARANMT_STS_DIR", str(toy_root))
    result = default_evaluate_fn()(setup.model)
    # by hand: the track5.en-en rows of dev then test, cosines of the model's vectors, Pearson with the gold
    rows = [(a, b, g) for split in ("dev", "test") for a, b, g, f in zip(*_columns(load_stsb(split, toy_root)),
                                                                          strict=True) if f == "track5.en-en"]
    left, right = setup.model.encode([a for a, _, _ in rows]), setup.model.encode([b for _, b, _ in rows])
    cosines = (left * right).sum(1) / np.linalg.norm(left, axis=1) / np.linalg.norm(right, axis=1)
    assert list(result) == ["dev"]
    assert result["dev"] == pytest.approx(np.corrcoef(cosines, [g for _, _, g in rows])[0, 1], abs=1e-6)


def _columns(dataset):
    return dataset.sentences1, dataset.sentences2, dataset.scores, dataset.metadata["file"]
