"""The training state a run starts from: the encoder on its device, its optimiser, the sampling generator and
the λ_w anchors, either new (seeded) or as a checkpoint left them."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

import torch

from configs import ConfigError
from configs.schema import TrainConfig
from train_embeddings.models.encoder import SentenceEncoder
from train_embeddings.training.checkpoint import Checkpointer
from train_embeddings.training.training_state import TrainingState, new_history

__all__ = ["build_optimizer", "start_training_state", "training_device"]


def training_device(name: str) -> torch.device:
    """``auto``: CUDA when available, else the CPU; ``cuda`` without a CUDA device is a :class:`ConfigError`."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise ConfigError("train.device is cuda but no CUDA device is available")
    return torch.device(name)


def build_optimizer(name: str, parameters: Iterable[torch.nn.Parameter], lr: float) -> torch.optim.Optimizer:
    """``adam`` (ParaNMT-50M §5.2) or ``adagrad`` (Duchi et al. 2011; ICLR'16 uses it with lr 0.05)."""
    params = [p for p in parameters if p.requires_grad]
    if name == "adam":
        return torch.optim.Adam(params, lr=lr)
    if name == "adagrad":
        return torch.optim.Adagrad(params, lr=lr)
    raise ConfigError(f"train.optimizer must be 'adam' or 'adagrad', got {name!r}")


def start_training_state(cfg: TrainConfig, encoder: SentenceEncoder, n_pairs: int, seed: int,
                         device: torch.device, checkpoint: dict[str, Any] | None = None) -> TrainingState:
    """``encoder`` moved to ``device`` in training mode, with ``cfg.optimizer`` at ``cfg.lr``, a generator seeded
    with ``seed`` and (``lambda_w`` > 0) the word tables as initialised; then brought to where ``checkpoint``
    left the run (a resume may change ``lr``), or, for a new run, the Python RNG seeded with ``seed``."""
    encoder.to(device)
    encoder.train()
    optimizer = build_optimizer(cfg.optimizer, encoder.parameters(), cfg.lr)
    # λ_w anchors: the word tables as initialised (a resumed run reads them from its checkpoint).
    initial_words = None
    if cfg.lambda_w > 0:
        stored = checkpoint.get("initial_words") if checkpoint is not None else None
        initial_words = [w.to(device) for w in stored] if stored is not None else [
            t.weight.detach().clone() for t in encoder.word_tables()]
    generator = torch.Generator().manual_seed(seed)
    encoder.set_generator(generator)
    history = json.loads(checkpoint["history"]) if checkpoint is not None else new_history()
    state = TrainingState(encoder.spec, encoder, optimizer, generator, n_pairs, history, initial_words=initial_words)
    if checkpoint is not None:
        Checkpointer.restore(state, checkpoint, cfg.lr)
    else:
        random.seed(seed)
    return state
