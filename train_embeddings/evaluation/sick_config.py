"""A SICK head's task and training settings (:mod:`train_embeddings.evaluation.sick` trains it). They load nothing,
so ``paranmt sick --help`` shows the defaults without torch."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

Task = Literal["relatedness", "entailment"]
TASKS: tuple[str, ...] = get_args(Task)


@dataclass
class SickConfig:
    """Head and training settings. Defaults: Tai et al.'s hidden size 50; the ICLR'16 paper's batch 25 and Adam
    (1e-3 for the encoder; 5e-3 for the head, which gets there in fewer epochs: docs/embeddings.md, "SICK heads",
    has the measurement); ``lambda_w`` is the paper's regularisation toward the universal
    parameters (searched there over 1e-3 … 1e-8); at most 30 epochs with patience 5."""

    hidden: int = 50
    epochs: int = 30
    batch_size: int = 25
    lr: float = 5e-3  # the head's learning rate
    encoder_lr: float = 1e-3  # fine-tuning: the encoder's learning rate
    lambda_c: float = 1e-5  # head L2
    lambda_w: float = 1e-5  # fine-tuning: toward the initial encoder parameters
    patience: int = 5
    seed: int = 0
    threads: int | None = 1
    encode_batch: int = 1000

    def validate(self) -> None:
        for name in ("hidden", "epochs", "batch_size", "patience", "encode_batch"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        for name in ("lr", "encoder_lr", "lambda_c", "lambda_w"):
            if not getattr(self, name) >= 0 or not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be a finite number >= 0, got {getattr(self, name)}")
