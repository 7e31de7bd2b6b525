"""LSTM and BLSTM (ParaNMT-50M §4, Appendix A.2): ``nn.LSTM`` over packed word sequences, mean- or max-pooled."""

from __future__ import annotations

from typing import Literal

import torch
from torch import nn

from train_embeddings.models.word_sequences import padded_inputs
from train_embeddings.models.word_table import WordTable
from train_embeddings.vocab import SentenceBatch

__all__ = ["BiLSTMEncoder", "LSTMEncoder"]


class _Recurrent(nn.Module):
    def __init__(self, table: WordTable, hidden: int, bidirectional: bool) -> None:
        super().__init__()
        self.table = table
        self.lstm = nn.LSTM(table.dim, hidden, batch_first=True, bidirectional=bidirectional)
        self.hidden = hidden

    def states(self, batch: SentenceBatch, scramble: torch.Tensor | None,
               generator: torch.Generator | None) -> tuple[torch.Tensor, torch.Tensor]:
        """(``n x T x H·dirs`` hidden states, zero at padding; ``n x T`` validity mask)."""
        inputs, lengths, valid = padded_inputs(self.table, batch, scramble, generator)
        packed = nn.utils.rnn.pack_padded_sequence(inputs, lengths.clamp(min=1).cpu(), batch_first=True,
                                                   enforce_sorted=False)
        output, _ = self.lstm(packed)
        output, _ = nn.utils.rnn.pad_packed_sequence(output, batch_first=True, total_length=inputs.shape[1])
        return output * valid.unsqueeze(-1).to(output.dtype), valid


def _masked_mean(states: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    count = valid.sum(1, keepdim=True).clamp(min=1).to(states.dtype)
    return states.sum(1) / count


class LSTMEncoder(_Recurrent):
    """LSTM: mean of the hidden states over the words. Input: word ids (padded and packed inside). Output:
    ``n x lstm_dim``. Words can be scrambled per sentence (``scramble`` bool mask)."""

    def __init__(self, table: WordTable, hidden: int) -> None:
        super().__init__(table, hidden, bidirectional=False)
        self.output_dim = hidden
        self.generator: torch.Generator | None = None

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        states, valid = self.states(batch, scramble, self.generator)
        return _masked_mean(states, valid)


class BiLSTMEncoder(_Recurrent):
    """BLSTM. ``merge="mean"``: forward and backward states averaged (ParaNMT-50M §4; output ``lstm_dim``);
    ``merge="concat"``: concatenated (Appendix A.2; output ``2 x lstm_dim``). ``pool``: mean or max over the
    words (padding masked)."""

    def __init__(self, table: WordTable, hidden: int, merge: Literal["mean", "concat"] = "mean",
                 pool: Literal["mean", "max"] = "mean") -> None:
        super().__init__(table, hidden, bidirectional=True)
        self.merge, self.pool = merge, pool
        self.output_dim = hidden if merge == "mean" else 2 * hidden
        self.generator: torch.Generator | None = None

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        states, valid = self.states(batch, scramble, self.generator)
        if self.merge == "mean":
            states = 0.5 * (states[..., :self.hidden] + states[..., self.hidden:])
        if self.pool == "mean":
            return _masked_mean(states, valid)
        pooled = states.masked_fill(~valid.unsqueeze(-1), float("-inf")).amax(1)
        return torch.where(valid.any(1, keepdim=True), pooled, torch.zeros_like(pooled))
