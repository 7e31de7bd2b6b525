"""The trainer's evaluation callback: dev scoring (STS2017 by default), best-model selection, the ``best/`` model.

:func:`default_evaluate_fn` scores a model with :func:`train_embeddings.evaluation.sts.evaluator.dev_score` (Pearson's r
on the 250 STS2017 pairs). :class:`DevEvaluator` runs an evaluate function at the trainer's evaluation points,
appends each result to the run's history, and writes the model to ``best/`` whenever the selection metric
improves.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from pathlib import Path

from train_embeddings.evaluation.sts.datasets import check_dev_data
from train_embeddings.evaluation.sts.evaluator import dev_score
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_io import save_model
from train_embeddings.training.reporting import TRAINER_LOG
from train_embeddings.training.state import TrainingState

__all__ = ["DevEvaluator", "EvaluateFn", "default_evaluate_fn"]

log = logging.getLogger(TRAINER_LOG)

EvaluateFn = Callable[[EmbeddingModel], dict[str, float]]


def default_evaluate_fn() -> EvaluateFn | None:
    """``{"dev": Pearson r on STS 2017}`` through :func:`train_embeddings.evaluation.sts.evaluator.dev_score`;
    checks the STS data first (:func:`~train_embeddings.evaluation.sts.datasets.check_dev_data`)."""
    check_dev_data()

    def evaluate(model: EmbeddingModel) -> dict[str, float]:
        result = dev_score(model.encode)
        if isinstance(result, dict):
            return {str(k): float(v) for k, v in result.items() if isinstance(v, int | float)}
        return {"dev": float(result)}

    return evaluate


class DevEvaluator:
    """Called at each evaluation point: scores ``model`` with ``evaluate_fn``, records the scores in the
    history, and keeps the model with the best ``select_metric`` (higher is better) in ``best_dir``."""

    def __init__(self, evaluate_fn: EvaluateFn, select_metric: str, best_dir: Path, steps_per_epoch: int,
                 timing: dict[str, float]) -> None:
        self.evaluate_fn = evaluate_fn
        self.select_metric = select_metric
        self.best_dir = best_dir
        self.steps_per_epoch = steps_per_epoch
        self.timing = timing

    def __call__(self, model: EmbeddingModel, state: TrainingState) -> None:
        t0 = time.perf_counter()
        scores = self.evaluate_fn(model)
        state.encoder.train()
        step, history = state.step, state.history
        entry = {"step": step, "epoch": state.position.epoch_progress(self.steps_per_epoch), **scores}
        history["evaluations"].append(entry)
        value = scores.get(self.select_metric)
        best = state.best
        if value is not None and math.isfinite(value) and (best is None or value > best["score"]):
            best = {"step": step, "epoch": entry["epoch"], "metric": self.select_metric, "score": value}
            history["best"] = best
            save_model(model, self.best_dir, extra={"trained_steps": step, "best": best})
        elif value is None and not history.get("_noted_metric"):
            log.warning("evaluation gave no %r (got %s): no best/ model is kept", self.select_metric, sorted(scores))
            history["_noted_metric"] = True
        self.timing["eval_s"] += time.perf_counter() - t0
        log.info("step %d: %s", step, ", ".join(f"{k} {v:.4f}" for k, v in scores.items()))
