"""The other encoders of Wieting et al. (ICLR 2016, "Towards universal paraphrastic sentence embeddings", §3):
projection, DAN, Elman RNN, identity-RNN and the peephole LSTM (with and without the output gate)."""

from __future__ import annotations

from typing import Literal

import torch
from torch import nn

from train_embeddings.models.word_sequences import padded_inputs
from train_embeddings.models.word_table import WordTable
from train_embeddings.vocab import SentenceBatch

__all__ = ["DeepAveragingNetwork", "ElmanRNN", "IdentityRNN", "PeepholeLSTM", "ProjectionAverage"]


def _activation(name: str) -> nn.Module:
    if name == "tanh":
        return nn.Tanh()
    if name == "relu":
        return nn.ReLU()
    raise ValueError(f"activation must be 'tanh' or 'relu', got {name!r}")


class ProjectionAverage(nn.Module):
    """Projection (ICLR'16 eq. 2): ``W_p · mean(words) + b``. Input: word ids. Output: ``n x hidden``."""

    def __init__(self, table: WordTable, hidden: int) -> None:
        super().__init__()
        self.table = table
        self.linear = nn.Linear(table.dim, hidden)
        self.output_dim = hidden

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        assert batch.word_ids is not None and batch.word_offsets is not None
        return self.linear(self.table.bag_mean(batch.word_ids, batch.word_offsets))


class DeepAveragingNetwork(nn.Module):
    """DAN (Iyyer et al. 2015; ICLR'16 §3): the word mean through ``layers`` affine layers, each followed by
    ``activation``. Input: word ids. Output: ``n x hidden``."""

    def __init__(self, table: WordTable, hidden: int, layers: int = 1, activation: str = "tanh") -> None:
        super().__init__()
        if layers < 1:
            raise ValueError(f"dan_layers must be at least 1, got {layers}")
        self.table = table
        stack: list[nn.Module] = []
        for k in range(layers):
            stack += [nn.Linear(table.dim if k == 0 else hidden, hidden), _activation(activation)]
        self.layers = nn.Sequential(*stack)
        self.output_dim = hidden

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        assert batch.word_ids is not None and batch.word_offsets is not None
        return self.layers(self.table.bag_mean(batch.word_ids, batch.word_offsets))


class ElmanRNN(nn.Module):
    """RNN (ICLR'16 eqs. 3–4): ``h_t = f(W_x x_t + W_h h_{t-1} + b)``, output the last hidden state ``h_n``
    (zero for an empty sentence). Input: word ids (padded and packed inside). Output: ``n x hidden``."""

    def __init__(self, table: WordTable, hidden: int, activation: str = "tanh") -> None:
        super().__init__()
        if activation not in ("tanh", "relu"):
            raise ValueError(f"rnn_activation must be 'tanh' or 'relu', got {activation!r}")
        self.table = table
        # One bias suffices (eq. 3); nn.RNN's second bias would only duplicate it.
        self.rnn = nn.RNN(table.dim, hidden, nonlinearity=activation, batch_first=True)
        with torch.no_grad():
            self.rnn.bias_hh_l0.zero_()
        self.rnn.bias_hh_l0.requires_grad_(False)
        self.output_dim = hidden
        self.generator: torch.Generator | None = None

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        inputs, lengths, _ = padded_inputs(self.table, batch, scramble, self.generator)
        packed = nn.utils.rnn.pack_padded_sequence(inputs, lengths.clamp(min=1).cpu(), batch_first=True,
                                                   enforce_sorted=False)
        _, last = self.rnn(packed)  # 1 x n x hidden, each sentence's own last step, in input order
        return last[0] * (lengths > 0).unsqueeze(1).to(inputs.dtype)


class IdentityRNN(nn.Module):
    """Identity-RNN (ICLR'16 §3): ``h_t = W_x x_t + W_h h_{t-1} + b`` (identity activation), output ``h_n / n``.
    ``W_x = W_h = I``, ``b = 0`` at initialisation, so the untrained model is word averaging exactly; its
    :meth:`composition_penalty` is the distance to that initialisation. Input: word ids. Output: ``n x word_dim``."""

    def __init__(self, table: WordTable) -> None:
        super().__init__()
        d = table.dim
        self.table = table
        self.input = nn.Linear(d, d)
        self.recurrent = nn.Linear(d, d, bias=False)
        with torch.no_grad():
            self.input.weight.copy_(torch.eye(d))
            self.input.bias.zero_()
            self.recurrent.weight.copy_(torch.eye(d))
        self.output_dim = d
        self.generator: torch.Generator | None = None

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        inputs, lengths, valid = padded_inputs(self.table, batch, scramble, self.generator)
        projected = self.input(inputs)  # all steps at once
        h = projected.new_zeros(inputs.shape[0], self.output_dim)
        for t in range(inputs.shape[1]):
            h = torch.where(valid[:, t:t + 1], projected[:, t] + self.recurrent(h), h)
        return h / lengths.clamp(min=1).unsqueeze(1).to(h.dtype)

    def composition_penalty(self) -> torch.Tensor:
        """``‖W_x − I‖² + ‖W_h − I‖² + ‖b‖²``: the regulariser toward the initial (averaging) parameters."""
        eye = torch.eye(self.output_dim, device=self.input.weight.device, dtype=self.input.weight.dtype)
        return ((self.input.weight - eye).square().sum() + (self.recurrent.weight - eye).square().sum()
                + self.input.bias.square().sum())


class PeepholeLSTM(nn.Module):
    """LSTM of ICLR'16 eqs. 5–10 (Gers et al. 2003) with diagonal peephole connections::

        i_t = σ(W_xi x_t + W_hi h_{t-1} + w_ci ⊙ c_{t-1} + b_i)
        f_t = σ(W_xf x_t + W_hf h_{t-1} + w_cf ⊙ c_{t-1} + b_f)
        c_t = f_t ⊙ c_{t-1} + i_t ⊙ tanh(W_xc x_t + W_hc h_{t-1} + b_c)
        o_t = σ(W_xo x_t + W_ho h_{t-1} + w_co ⊙ c_t + b_o)       (output_gate=False: o_t = 1)
        h_t = o_t ⊙ tanh(c_t)

    ``pool="last"``: ``h_n`` (eq. 10); ``"mean"``: the mean of ``h_1..h_n``. Input: word ids (scrambled where
    ``scramble``). Output: ``n x hidden``; an empty sentence gives zeros.
    """

    def __init__(self, table: WordTable, hidden: int, output_gate: bool = True,
                 pool: Literal["last", "mean"] = "last") -> None:
        super().__init__()
        if pool not in ("last", "mean"):
            raise ValueError(f"peep_pool must be 'last' or 'mean', got {pool!r}")
        self.table = table
        self.hidden, self.output_gate, self.pool = hidden, output_gate, pool
        gates = 4 if output_gate else 3  # row blocks: input, forget, cell candidate[, output]
        self.input = nn.Linear(table.dim, gates * hidden)
        self.recurrent = nn.Linear(hidden, gates * hidden, bias=False)
        self.peephole = nn.Parameter(torch.zeros(gates - 1, hidden))  # w_ci, w_cf[, w_co]
        bound = hidden ** -0.5
        for weight in (self.input.weight, self.input.bias, self.recurrent.weight, self.peephole):
            nn.init.uniform_(weight, -bound, bound)
        self.output_dim = hidden
        self.generator: torch.Generator | None = None

    def step(self, x_proj: torch.Tensor, h: torch.Tensor, c: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """One time step for the whole batch: ``x_proj`` = ``W_x x_t + b`` (``n x gates·H``) → ``(h_t, c_t)``."""
        z = x_proj + self.recurrent(h)
        H = self.hidden
        i = torch.sigmoid(z[:, :H] + self.peephole[0] * c)
        f = torch.sigmoid(z[:, H:2 * H] + self.peephole[1] * c)
        c = f * c + i * torch.tanh(z[:, 2 * H:3 * H])
        if not self.output_gate:
            return torch.tanh(c), c
        o = torch.sigmoid(z[:, 3 * H:] + self.peephole[2] * c)
        return o * torch.tanh(c), c

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        inputs, lengths, valid = padded_inputs(self.table, batch, scramble, self.generator)
        projected = self.input(inputs)
        n = inputs.shape[0]
        h = projected.new_zeros(n, self.hidden)
        c = projected.new_zeros(n, self.hidden)
        total = projected.new_zeros(n, self.hidden)
        for t in range(inputs.shape[1]):
            h_new, c_new = self.step(projected[:, t], h, c)
            keep = valid[:, t:t + 1]
            h, c = torch.where(keep, h_new, h), torch.where(keep, c_new, c)
            if self.pool == "mean":
                total = total + h_new * keep.to(h_new.dtype)
        if self.pool == "mean":
            return total / lengths.clamp(min=1).unsqueeze(1).to(total.dtype)
        return h  # the state after each sentence's last word; zeros for an empty one
