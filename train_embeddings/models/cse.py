"""CSE: a convolutional sentence encoder trained with the same margin loss (sum-pooled convolutions of widths
``cse_widths`` over the word embeddings)."""

from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.nn.functional as F
from torch import nn

from train_embeddings.models.word_sequences import padded_inputs
from train_embeddings.models.word_table import WordTable
from train_embeddings.vocab import SentenceBatch

__all__ = ["ConvSentenceEncoder"]


class ConvSentenceEncoder(nn.Module):
    """CSE: for each width ``h`` in ``widths``, ``maps`` filters ``c_i = w · x_{i:i+h-1} + b`` (linear
    activation) over the word embeddings, **sum**-pooled over the ``n - h + 1`` windows inside the sentence;
    the pooled features of all widths concatenated. Input: word ids. Output: ``n x maps·len(widths)``."""

    def __init__(self, table: WordTable, widths: Sequence[int] = (1, 2, 3), maps: int = 100) -> None:
        super().__init__()
        if not widths or min(widths) < 1:
            raise ValueError(f"cse_widths must be positive filter widths, got {list(widths)}")
        self.table = table
        self.widths = [int(w) for w in widths]
        self.convs = nn.ModuleList(nn.Conv1d(table.dim, maps, w) for w in self.widths)
        self.output_dim = maps * len(self.widths)

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        inputs, lengths, _ = padded_inputs(self.table, batch, None, None)
        x = inputs.transpose(1, 2)  # n x d x T
        pooled = []
        for width, conv in zip(self.widths, self.convs, strict=True):
            # Right-pad so every sentence has T windows; window i is real iff it ends inside the sentence.
            features = conv(F.pad(x, (0, width - 1)))  # n x maps x T
            start = torch.arange(features.shape[2], device=x.device).unsqueeze(0)
            inside = (start + width <= lengths.unsqueeze(1)).unsqueeze(1).to(features.dtype)
            pooled.append((features * inside).sum(2))
        return torch.cat(pooled, dim=1)
