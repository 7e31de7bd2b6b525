"""What a training run tracks between updates: the data position, the history, the model and its optimiser.

:class:`TrainingState` is what :mod:`train_embeddings.training.checkpoint` saves and restores (with the global RNG
states); :class:`Schedule` is what follows from the settings and the number of pairs (updates per epoch, evaluation
points). Both are used by :class:`train_embeddings.training.trainer.Trainer`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import torch

from train_embeddings.losses.negative_mining import MinedNegatives
from train_embeddings.models.encoder import SentenceEncoder
from train_embeddings.models.spec import ModelSpec

__all__ = ["Position", "Schedule", "TrainingState", "new_history", "steps_in_epoch"]


def steps_in_epoch(n_pairs: int, megabatch_pairs: int, batch_size: int) -> int:
    """Updates in one pass over ``n_pairs``: full mega-batches, then the last one (skipped when under 2 pairs)."""
    full, rest = divmod(n_pairs, megabatch_pairs)
    return full * math.ceil(megabatch_pairs / batch_size) + (math.ceil(rest / batch_size) if rest >= 2 else 0)


def new_history() -> dict[str, Any]:
    """The history of a fresh run: ``log`` entries, ``evaluations``, ``best`` (later also ``warnings``)."""
    return {"log": [], "evaluations": [], "best": None}


@dataclass
class Position:
    """Where the run is: epoch, mega-batch and pairs done within it, mini-batch within the mega-batch, update
    step, and the step the epoch started at. Saved as JSON in this field order."""

    epoch: int = 0
    megabatch: int = 0
    pairs_done: int = 0
    minibatch: int = 0
    step: int = 0
    epoch_start_step: int = 0

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Position:
        return cls(**{k: int(v) for k, v in json.loads(text).items()})

    def epoch_progress(self, steps_per_epoch: int) -> float:
        """Epochs done as a fraction (4 decimals), as logged and evaluated."""
        return round(self.epoch + (self.step - self.epoch_start_step) / steps_per_epoch, 4)


@dataclass(frozen=True)
class Schedule:
    """Updates per epoch and in all, and the in-epoch steps at which to evaluate and checkpoint."""

    megabatch_pairs: int
    steps_per_epoch: int
    total_steps: int
    eval_points: frozenset[int]

    @classmethod
    def plan(cls, n_pairs: int, megabatch: int, batch_size: int, epochs: int, max_steps: int | None,
             evals_per_epoch: int) -> Schedule:
        megabatch_pairs = megabatch * batch_size
        steps_per_epoch = steps_in_epoch(n_pairs, megabatch_pairs, batch_size)
        total_steps = steps_per_epoch * epochs
        if max_steps is not None:
            total_steps = min(total_steps, max_steps)
        # Checkpoints (and evaluations, when there is an evaluate_fn) at evals_per_epoch points of every epoch.
        n_points = min(evals_per_epoch, steps_per_epoch)
        points = {math.ceil(k * steps_per_epoch / n_points) for k in range(1, n_points + 1)} if n_points else set()
        return cls(megabatch_pairs, steps_per_epoch, total_steps, frozenset(points))


@dataclass
class TrainingState:
    """The model, its optimiser and sampling generator, and the run's progress: everything a checkpoint holds
    besides the settings and the global RNG states.

    ``history``: ``log``, ``evaluations``, ``best`` (and ``warnings`` once warned), stored as JSON.
    ``negatives`` / ``megabatch_size``: the mega-batch in progress (its mined negatives are checkpointed, so a
    resume inside it trains on the same ones); ``resumed_negatives``: those read from a checkpoint, used once.
    ``initial_words``: the λ_w anchors (the word tables as initialised), or None.
    """

    spec: ModelSpec
    encoder: SentenceEncoder
    optimizer: torch.optim.Optimizer
    generator: torch.Generator
    n_pairs: int
    history: dict[str, Any]
    position: Position = field(default_factory=Position)
    initial_words: list[torch.Tensor] | None = None
    negatives: MinedNegatives | None = None
    megabatch_size: int = 0
    resumed_negatives: MinedNegatives | None = None

    @property
    def step(self) -> int:
        return self.position.step

    @property
    def best(self) -> dict[str, Any] | None:
        return self.history.get("best")

    def start_megabatch(self, negatives: MinedNegatives, n: int) -> None:
        self.negatives, self.megabatch_size = negatives, n

    def finish_megabatch_if_done(self, batch_size: int) -> None:
        """Move the position past the current mega-batch once all its mini-batches are done."""
        n = self.megabatch_size
        if n and self.position.minibatch >= math.ceil(n / batch_size):
            p = self.position
            p.megabatch, p.pairs_done, p.minibatch = p.megabatch + 1, p.pairs_done + n, 0
            self.negatives, self.megabatch_size = None, 0

    def next_epoch(self) -> None:
        p = self.position
        p.epoch, p.megabatch, p.pairs_done, p.minibatch, p.epoch_start_step = p.epoch + 1, 0, 0, 0, p.step
