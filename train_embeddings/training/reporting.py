"""What a training run reports: the running log (mean loss, pairs/s and margin statistics every ``log_every``
updates, the progress bar, and a one-time warning when most mined negatives are nearer than the paraphrases) and,
at the end of each call, ``metrics.json`` (settings, facts of the run, every log entry and evaluation, the best
model, timings) and ``curves.png`` (loss and evaluation scores against the update step)."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from configs.schema import TrainConfig
from paranmt.core.plotting import pyplot
from train_embeddings.losses.margin_loss import MARGIN_STATISTICS
from train_embeddings.models.model_dir import METRICS_JSON
from train_embeddings.training.state import Schedule, TrainingState

__all__ = ["TRAINER_LOG", "MetricsWriter", "ProgressLog", "epochs_done", "plot_curves"]

# The trainer's log, whichever module of a run writes: records keep the name they always had.
TRAINER_LOG = "train_embeddings.trainer"
log = logging.getLogger(TRAINER_LOG)


class ProgressLog:
    """Collects each update's loss and :func:`~train_embeddings.losses.margin_loss.margin_statistics`; :meth:`flush`
    turns the window into one ``history["log"]`` entry and updates the progress bar."""

    def __init__(self, cfg: TrainConfig, schedule: Schedule, state: TrainingState, progress: bool | None) -> None:
        self.cfg = cfg
        self.schedule = schedule
        self.state = state
        self.window: list[float] = []
        self.statistics: list[torch.Tensor] = []  # margin_statistics per update, reduced once per log entry
        self.started = time.perf_counter()
        step, total = state.step, schedule.total_steps
        self.bar = tqdm(total=total, initial=min(step, total), unit="step", dynamic_ncols=True,
                        disable=(not progress) if progress is not None else None, desc=f"train {cfg.model}")

    def add_statistics(self, statistics: torch.Tensor) -> None:
        """Record one update's margin statistics (before its loss is checked: that may be NaN)."""
        self.statistics.append(statistics)

    def record(self, loss: float) -> None:
        """Count a finite loss; log an entry once ``log_every`` of them are in the window."""
        self.window.append(loss)
        self.bar.update(1)
        if len(self.window) >= self.cfg.log_every:
            self.flush()

    def flush(self) -> None:
        state = self.state
        elapsed = time.perf_counter() - self.started
        entry = {"step": state.step, "epoch": state.position.epoch_progress(self.schedule.steps_per_epoch),
                 "loss": float(np.mean(self.window)),
                 "pairs_per_second": len(self.window) * self.cfg.batch_size / max(elapsed, 1e-9)}
        if self.statistics:
            means = torch.stack(self.statistics).nanmean(0).tolist()
            entry.update({name: round(value, 4) for name, value in zip(MARGIN_STATISTICS, means, strict=True)})
            self.statistics.clear()
            self._warn_if_false_negatives(entry)
        state.history["log"].append(entry)
        self.bar.set_postfix(loss=f"{entry['loss']:.4f}", pairs_s=f"{entry['pairs_per_second']:.0f}",
                             pos_nearer=f"{entry.get('positive_nearer', float('nan')):.2f}")
        self.window, self.started = [], time.perf_counter()

    def close(self) -> None:
        self.bar.close()

    def _warn_if_false_negatives(self, entry: dict[str, Any]) -> None:
        """Once per run, after a fifth of the steps: most mined negatives closer than the paraphrases."""
        nearer, step, cfg, history = entry["positive_nearer"], self.state.step, self.cfg, self.state.history
        if history.get("warnings") or step < 0.2 * self.schedule.total_steps or not nearer < 0.5:
            return
        collapsed = entry["positive_cos"] > 0.98 and entry["negative_cos"] > 0.98
        message = (f"step {step}: only {100 * nearer:.0f}% of sentences have their paraphrase nearer than the "
                   f"negative mined from the mega-batch (M={cfg.megabatch}, {2 * cfg.megabatch * cfg.batch_size} "
                   "sentences)" + ("; the embeddings have collapsed (mean cosines of positives and negatives "
                                   f"{entry['positive_cos']:.3f} / {entry['negative_cos']:.3f})" if collapsed
                                   else "") +
                   ". The hardest negatives are probably paraphrases themselves (e.g. near-identical captions "
                   "of other images): try a smaller --megabatch, --negatives mix, or pairs filtered by "
                   "paraphrase score (the paper's training set is the top two deciles).")
        log.warning(message)
        history["warnings"] = [message]



def epochs_done(step: int, steps_per_epoch: int) -> float:
    """Epochs done after ``step`` updates, 4 decimals (0 for an empty epoch)."""
    return round(step / steps_per_epoch, 4) if steps_per_epoch else 0.0


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
        metrics_path = self.out / METRICS_JSON
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
