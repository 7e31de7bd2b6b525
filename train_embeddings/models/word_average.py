"""WORD: the mean of the word embeddings of the sentence (PARAGRAM-PHRASE, Wieting et al. 2016b)."""

from __future__ import annotations

import torch
from torch import nn

from train_embeddings.models.word_table import WordTable
from train_embeddings.vocab import SentenceBatch

__all__ = ["WordAverage"]


class WordAverage(nn.Module):
    """WORD: mean of word embeddings. Input: a batch with word ids. Output: ``n x word_dim``."""

    def __init__(self, table: WordTable) -> None:
        super().__init__()
        self.table = table
        self.output_dim = table.dim

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        assert batch.word_ids is not None and batch.word_offsets is not None
        return self.table.bag_mean(batch.word_ids, batch.word_offsets)
