"""The trainer's running log: mean loss, pairs/s and margin statistics every ``log_every`` updates, the progress
bar, and a one-time warning when most mined negatives are nearer than the paraphrases."""

from __future__ import annotations

import logging
import time
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from configs.schema import TrainConfig
from train_embeddings.losses.margin_loss import MARGIN_STATISTICS
from train_embeddings.training.training_state import Schedule, TrainingState

__all__ = ["ProgressLog"]

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
