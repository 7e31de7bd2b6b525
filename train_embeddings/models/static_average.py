"""STATIC: the mean of the table rows of a teacher tokenizer's pieces of the raw sentence, with the training-only
terms of :mod:`train_embeddings.static` (teacher loss, pull toward the distilled table)."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from train_embeddings.vocab import SentenceBatch

__all__ = ["StaticAverage"]


class StaticAverage(nn.Module):
    """STATIC: mean of the table rows of the teacher's pieces. Input: a batch with static ids. Output:
    ``n x dim``. ``teacher_dim`` > 0 adds the teacher loss's linear head (trained, unused by ``forward``)."""

    def __init__(self, n_tokens: int, dim: int, teacher_dim: int = 0) -> None:
        super().__init__()
        self.embedding = nn.EmbeddingBag(n_tokens, dim, mode="mean")
        nn.init.normal_(self.embedding.weight, 0.0, 0.1)
        self.output_dim = dim
        self.head = nn.Linear(dim, teacher_dim, bias=False) if teacher_dim else None
        self.register_buffer("initial", torch.zeros(0), persistent=False)  # the pull's anchor (training only)
        self.teacher_weight = 0.0
        self.pull_weight = 0.0

    def initialise(self, table: np.ndarray) -> None:
        """Start from the distilled ``table`` (and anchor the pull there)."""
        if table.shape != tuple(self.embedding.weight.shape):
            raise ValueError(f"distilled table {table.shape} != static table {tuple(self.embedding.weight.shape)}")
        with torch.no_grad():
            self.embedding.weight.copy_(torch.from_numpy(table))
        self.initial = torch.from_numpy(np.array(table, np.float32))

    def configure(self, teacher_weight: float, pull_weight: float, initial: np.ndarray | None) -> None:
        """The training-only terms' weights; ``initial``: the distilled table the pull anchors to."""
        self.teacher_weight, self.pull_weight = teacher_weight, pull_weight
        if pull_weight > 0:
            if initial is None:
                raise ValueError("static_pull > 0 needs the distilled table (vocab/static_init.npy)")
            self.initial = torch.from_numpy(np.array(initial, np.float32)).to(self.embedding.weight.device)
        if teacher_weight > 0 and self.head is None:
            raise ValueError("static_teacher_loss > 0 needs a model built with a teacher head")

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        assert batch.static_ids is not None and batch.static_offsets is not None
        return self.embedding(batch.static_ids, batch.static_offsets[:-1])

    def auxiliary_loss(self, batch: SentenceBatch) -> torch.Tensor | None:
        """The teacher loss and the pull (None when both weights are 0)."""
        terms = []
        if self.teacher_weight > 0 and self.head is not None and batch.teacher is not None:
            known = batch.teacher.abs().sum(1) > 0
            if bool(known.any()):
                predicted = self.head(self(batch)[known])
                cosine = F.cosine_similarity(predicted, batch.teacher[known], dim=1)
                terms.append(self.teacher_weight * (1.0 - cosine).mean())
        if self.pull_weight > 0 and self.initial.numel():
            terms.append(self.pull_weight * (self.embedding.weight - self.initial).square().sum(1).mean())
        return sum(terms[1:], terms[0]) if terms else None
