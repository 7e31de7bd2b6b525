"""Training checkpoints: ``checkpoint.pt`` in a run folder, the rule for reusing a run folder, exact resume.

A checkpoint (format :data:`CHECKPOINT_FORMAT`, read with ``torch.load(weights_only=True)``) holds the run's
definition (:mod:`paranmt.core.run_definition`), the model spec and weights, the optimiser, the sampling generator,
the torch / Python / CUDA RNG states, the data position, the number of pairs, the history, the negatives of the
mega-batch in progress and the λ_w anchors: a resumed run continues bit-identically. It is written to a temporary
sibling and moved into place.

The rule every tool's run folder follows (:meth:`Checkpointer.load_for_run`): the same run (the same definition:
the ``train.*`` settings but those a rerun may change, and the seed) continues; a different one is refused unless
``overwrite`` deletes it.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import time
from pathlib import Path
from typing import Any

import torch
from pydantic import JsonValue

from configs.schema import TrainConfig
from paranmt.core.errors import ParanmtError
from paranmt.core.run_definition import check_same_run, definition_text, run_definition
from train_embeddings.losses.negative_mining import MinedNegatives
from train_embeddings.training.reporting import TRAINER_LOG
from train_embeddings.training.state import Position, TrainingState

__all__ = ["CHECKPOINT", "CHECKPOINT_FORMAT", "Checkpointer", "TrainingError", "training_definition"]

log = logging.getLogger(TRAINER_LOG)

CHECKPOINT = "checkpoint.pt"
CHECKPOINT_FORMAT = 2


class TrainingError(ParanmtError, RuntimeError):
    """Training cannot go on (a non-finite loss, an incompatible checkpoint); the message names the step."""


def _rng_state() -> dict[str, Any]:
    state: dict[str, Any] = {"torch": torch.get_rng_state(), "python": list(random.getstate()[1]),
                             "python_version": random.getstate()[0]}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def _set_rng_state(state: dict[str, Any]) -> None:
    torch.set_rng_state(state["torch"])
    random.setstate((state["python_version"], tuple(state["python"]), None))
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def training_definition(cfg: TrainConfig, seed: int) -> dict[str, JsonValue]:
    """What makes two training runs the same run: the ``train`` settings but those a rerun may change, and the
    seed in effect as ``seed``, whether ``train.seed`` or the top-level seed set it (one key for one change)."""
    settings = run_definition(cfg)
    del settings["seed"]
    return {"train": settings, "seed": seed}


class Checkpointer:
    """Reads and writes ``out/checkpoint.pt`` for the run ``definition`` defines; the seconds spent writing are
    added to ``timing["checkpoint_s"]``."""

    def __init__(self, out: Path, definition: dict[str, JsonValue], timing: dict[str, float] | None = None) -> None:
        self.out = out
        self.path = out / CHECKPOINT
        self.definition = definition
        self.timing = timing if timing is not None else {"checkpoint_s": 0.0}

    def load_for_run(self, *, resume: bool, overwrite: bool) -> dict[str, Any] | None:
        """The checkpoint to continue from, or None for a fresh run (``overwrite`` first deletes ``out``).
        Raises :class:`~paranmt.core.run_definition.DifferentRun` for a different run, :class:`TrainingError` for
        ``resume`` without a checkpoint or another format."""
        checkpoint: dict[str, Any] | None = None
        if overwrite and self.out.exists():
            shutil.rmtree(self.out)
        elif self.path.exists():
            checkpoint = torch.load(self.path, map_location="cpu", weights_only=True)
            if checkpoint.get("format") != CHECKPOINT_FORMAT:
                raise TrainingError(f"{self.path}: checkpoint format {checkpoint.get('format')}, this code "
                                    f"reads {CHECKPOINT_FORMAT}")
            # a different run is refused (with --overwrite the folder was deleted above)
            check_same_run(checkpoint["definition"], self.path, self.definition, overwrite=False)
            if not resume:
                log.info("%s holds this run (the same definition): continuing it", self.out)
            resume = True
        if resume and checkpoint is None:
            raise TrainingError(f"--resume: no {CHECKPOINT} in {self.out}")
        return checkpoint

    def save(self, state: TrainingState, negatives: MinedNegatives | None) -> None:
        """Write ``state`` (and the global RNG states) atomically; ``negatives``: those of the mega-batch in
        progress, None at a mega-batch or epoch boundary."""
        t0 = time.perf_counter()
        payload = {
            "format": CHECKPOINT_FORMAT,
            "definition": definition_text(self.definition),
            "spec": json.dumps(state.spec.to_json()),
            "model": {k: v.detach().cpu() for k, v in state.encoder.state_dict().items()},
            "optimizer": state.optimizer.state_dict(),
            "generator": state.generator.get_state(),
            "rng": _rng_state(),
            "position": state.position.to_json(),
            "n_pairs": state.n_pairs,
            "history": json.dumps(state.history),
            "negatives_index": None if negatives is None else negatives.index.cpu(),
            "negatives_valid": None if negatives is None else negatives.valid.cpu(),
            "initial_words": None if state.initial_words is None else [w.cpu() for w in state.initial_words],
        }
        tmp = self.path.with_name(f".{CHECKPOINT}.tmp")
        torch.save(payload, tmp)
        os.replace(tmp, self.path)
        self.timing["checkpoint_s"] += time.perf_counter() - t0

    @staticmethod
    def restore(state: TrainingState, checkpoint: dict[str, Any], lr: float) -> None:
        """Bring ``state``'s optimiser (with learning rate ``lr``, which a resume may change), generator, position
        and pending negatives, and the global RNG states, to where ``checkpoint`` left them."""
        state.optimizer.load_state_dict(checkpoint["optimizer"])
        for group in state.optimizer.param_groups:
            group["lr"] = lr
        state.generator.set_state(checkpoint["generator"])
        _set_rng_state(checkpoint["rng"])
        state.position = Position.from_json(checkpoint["position"])
        if checkpoint.get("negatives_index") is not None:
            state.resumed_negatives = MinedNegatives(checkpoint["negatives_index"], checkpoint["negatives_valid"])
