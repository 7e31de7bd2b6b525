"""A training run's report: ``metrics.json`` (settings, facts of the run, every log entry and evaluation, the best
model, timings) and ``curves.png`` (loss and evaluation scores against the update step)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import torch

from configs.schema import TrainConfig
from core.plotting import pyplot
from train_embeddings.training.data import PairSource
from train_embeddings.training.training_state import Schedule, TrainingState
from train_embeddings.training.vocab_building import Vocabularies

__all__ = ["MetricsWriter", "epochs_done", "plot_curves", "run_facts"]


def epochs_done(step: int, steps_per_epoch: int) -> float:
    """Epochs done after ``step`` updates, 4 decimals (0 for an empty epoch)."""
    return round(step / steps_per_epoch, 4) if steps_per_epoch else 0.0


def run_facts(n_pairs: int, schedule: Schedule, device: torch.device, seed: int, source: PairSource,
              vocabularies: Vocabularies, encoder: torch.nn.Module) -> dict[str, Any]:
    """What ``metrics.json`` says about the run besides its settings and progress: pairs, updates per epoch,
    device, seed, data (path and files), vocabulary sizes and parameters."""
    return {"n_pairs": n_pairs, "steps_per_epoch": schedule.steps_per_epoch, "device": str(device), "seed": seed,
            "data": source.path, "files": len(source.files), "vocab": vocabularies.sizes(),
            "parameters": sum(p.numel() for p in encoder.parameters())}


class MetricsWriter:
    """The trainer's metrics sink: at the end of a call (:meth:`write`), ``metrics.json`` and ``curves.png`` in
    ``out``.

    Inputs: the run folder, the settings ``cfg`` (echoed as ``config``), the run's ``facts`` (:func:`run_facts`)
    and ``started``, the ``time.perf_counter()`` the call's clock started at (``timing_this_call.wall_s``).
    Requirements: everything but the timings (``timing_this_call``, the log's ``pairs_per_second``) follows from
    the settings and the data, so the same run writes the same file.
    """

    def __init__(self, out: Path, cfg: TrainConfig, facts: dict[str, Any], started: float) -> None:
        self.out = out
        self.cfg = cfg
        self.facts = facts
        self.started = started

    def write(self, state: TrainingState, schedule: Schedule, timing: dict[str, float],
              finished: bool) -> tuple[Path, Path | None]:
        """Add ``wall_s`` to ``timing`` and write both files: (``metrics.json``, ``curves.png`` or None when there
        is nothing to plot)."""
        cfg, history, step = self.cfg, state.history, state.step
        timing["wall_s"] = time.perf_counter() - self.started
        history.pop("_noted_metric", None)
        metrics = {"config": cfg.model_dump(mode="json"), **self.facts,
                   "total_steps": schedule.steps_per_epoch * cfg.epochs, "steps": step,
                   "epochs_done": epochs_done(step, schedule.steps_per_epoch), "finished": finished,
                   "warnings": history.get("warnings", []), "log": history["log"],
                   "evaluations": history["evaluations"], "best": state.best,
                   "timing_this_call": {k: round(v, 3) for k, v in timing.items()}}
        metrics_path = self.out / "metrics.json"
        metrics_path.write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
        return metrics_path, plot_curves(history, self.out / "curves.png", title=f"{cfg.model} (M={cfg.megabatch})")


def plot_curves(history: dict[str, Any], path: Path, title: str = "") -> Path | None:
    """Loss (and every evaluation score) against the update step, as a PNG (matplotlib Agg)."""
    if not history["log"] and not history["evaluations"]:
        return None
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    if history["log"]:
        steps = [e["step"] for e in history["log"]]
        axes[0].plot(steps, [e["loss"] for e in history["log"]], label="loss")
        if all("positive_nearer" in e for e in history["log"]):  # is the paraphrase nearer than the negative?
            axes[0].plot(steps, [e["positive_nearer"] for e in history["log"]], label="paraphrase nearer (fraction)")
            axes[0].legend()
    axes[0].set(xlabel="update", ylabel="margin loss", title="training loss")
    keys = sorted({k for e in history["evaluations"] for k, v in e.items()
                   if k not in ("step", "epoch") and isinstance(v, int | float)})
    for key in keys:
        points = [(e["step"], e[key]) for e in history["evaluations"] if key in e]
        axes[1].plot([p[0] for p in points], [p[1] for p in points], marker="o", label=key)
    axes[1].set(xlabel="update", ylabel="score", title="evaluation")
    if keys:
        axes[1].legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
