"""The word table every word component reads: trainable rows (``<pad>``, ``<unk>``, the training words) and a
frozen buffer of pretrained words never seen in training."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["WordTable"]


class WordTable(nn.Module):
    """Word embeddings: a trainable table (``<pad>``, ``<unk>``, training words) and an optional frozen buffer of
    pretrained words never seen in training (ids ``n_trainable ..``); ``<pad>`` is always zero."""

    def __init__(self, n_trainable: int, n_frozen: int, dim: int) -> None:
        super().__init__()
        self.n_trainable = n_trainable
        self.weight = nn.Parameter(torch.empty(n_trainable, dim).normal_(0.0, 0.1))
        with torch.no_grad():
            self.weight[0].zero_()
        self.register_buffer("frozen", torch.zeros(n_frozen, dim))

    @property
    def dim(self) -> int:
        return int(self.weight.shape[1])

    def initialise(self, vectors: torch.Tensor, known: torch.Tensor) -> None:
        """Rows where ``known`` take ``vectors`` (both over the full vocabulary); unknown trainable rows keep their
        random init rescaled to the pretrained per-dimension spread; ``<pad>`` and ``<unk>`` are zero."""
        with torch.no_grad():
            n = self.n_trainable
            # a spread needs two known rows: one alone gives NaN (and a NaN table, whose first loss is NaN)
            spread = vectors[known].std(0, keepdim=True) if int(known.sum()) > 1 else torch.full((1, self.dim), 0.1)
            self.weight.copy_(torch.where(known[:n, None], vectors[:n], self.weight / 0.1 * spread))
            self.weight[:2].zero_()
            self.frozen.copy_(vectors[n:])

    def full_matrix(self) -> torch.Tensor:
        return torch.cat([self.weight, self.frozen]) if self.frozen.numel() else self.weight

    def lookup(self, ids: torch.Tensor) -> torch.Tensor:
        if not self.frozen.numel():
            return F.embedding(ids, self.weight, padding_idx=0)
        frozen = ids >= self.n_trainable
        own = F.embedding(ids.clamp(max=self.n_trainable - 1), self.weight, padding_idx=0)
        other = F.embedding((ids - self.n_trainable).clamp(min=0), self.frozen)
        return torch.where(frozen.unsqueeze(-1), other, own)

    def bag_mean(self, ids: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
        """Mean embedding per bag (``offsets``: n + 1 boundaries); empty bags give zeros."""
        starts = offsets[:-1]
        if not self.frozen.numel():
            return F.embedding_bag(ids, self.weight, starts, mode="mean")
        frozen = ids >= self.n_trainable
        own = F.embedding_bag(ids.clamp(max=self.n_trainable - 1), self.weight, starts, mode="sum",
                              per_sample_weights=(~frozen).to(self.weight.dtype))
        other = F.embedding_bag((ids - self.n_trainable).clamp(min=0), self.frozen, starts, mode="sum",
                                per_sample_weights=frozen.to(self.frozen.dtype))
        lengths = (offsets[1:] - starts).clamp(min=1).to(own.dtype)
        return (own + other) / lengths.unsqueeze(1)
