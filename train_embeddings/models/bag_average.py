"""TRIGRAM and SP: the mean of the embeddings of a sentence's character trigrams (CHARAGRAM, Wieting et al.
2016a) or SentencePiece pieces (ParaGram-SP, Wieting et al., "Paraphrastic Representations at Scale")."""

from __future__ import annotations

from typing import Literal

import torch
from torch import nn

from train_embeddings.vocab import SentenceBatch

__all__ = ["BagAverage"]


class BagAverage(nn.Module):
    """TRIGRAM and SP: the mean of the embeddings of a sentence's character trigrams (``unit="trigram"``) or
    SentencePiece pieces (``unit="sp"``). Input: a batch with those ids. Output: ``n x dim``."""

    def __init__(self, n_units: int, dim: int, unit: Literal["trigram", "sp"]) -> None:
        super().__init__()
        self.embedding = nn.EmbeddingBag(n_units, dim, mode="mean")
        nn.init.normal_(self.embedding.weight, 0.0, 0.1)
        self.output_dim = dim
        self.unit = unit

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        ids, offsets = getattr(batch, f"{self.unit}_ids"), getattr(batch, f"{self.unit}_offsets")
        assert ids is not None and offsets is not None
        return self.embedding(ids, offsets[:-1])
