"""Sentence encoders of ParaNMT-50M §4 (and Appendix A.2) and the user-facing :class:`EmbeddingModel`.

Components (``TrainConfig.model``; all take a :class:`~train_embeddings.vocab.SentenceBatch`):

* ``word`` — WORD: the mean of the word embeddings of the sentence (PARAGRAM-PHRASE, Wieting et al. 2016b).
* ``trigram`` — TRIGRAM: the mean of the character-trigram embeddings (CHARAGRAM, Wieting et al. 2016a).
* ``sp`` — SP: the mean of SentencePiece piece embeddings (ParaGram-SP, Wieting et al., "Paraphrastic
  Representations at Scale"); the SentencePiece model is trained on the training pairs (``sp_vocab_size``).
* ``static`` — STATIC: the mean of the table rows of a teacher tokenizer's pieces of the raw sentence, the table
  starting from the teacher's model2vec distillation (:mod:`train_embeddings.static`; ``teacher``,
  ``static_pca_dims``).
* ``lstm`` — LSTM: the mean of the hidden states (``lstm_dim``, e.g. 300 or 900).
* ``blstm`` — BLSTM: forward and backward states averaged (no concatenation), then the mean over time.
* ``blstm-cat`` / ``blstm-max`` — Appendix A.2: forward and backward states concatenated (``2 x lstm_dim``; with
  ``lstm_dim`` 2048 the 4096-d models), then mean- or max-pooled over time.

The other encoders of Wieting et al. (ICLR 2016, "Towards universal paraphrastic sentence embeddings", §3) and of
CSE (a convolutional sentence encoder trained with the same margin loss):

* ``proj`` — projection, eq. 2: ``W_p · mean(words) + b`` (output ``hidden_dim``; 0 = the word size).
* ``dan`` — deep averaging network (Iyyer et al. 2015): the word mean through ``dan_layers`` affine layers, each
  followed by ``dan_activation`` (tanh or ReLU).
* ``rnn`` — Elman RNN, eqs. 3–4: ``h_t = f(W_x x_t + W_h h_{t-1} + b)``, ``f`` = ``rnn_activation``; the last
  hidden state.
* ``irnn`` — identity-RNN: the same recurrence with identity activation, ``W_x = W_h = I`` and ``b = 0`` at
  initialisation, output ``h_n / n``; before training it *is* word averaging. Its ``λ_c`` term pulls it back toward
  that initialisation (:meth:`IdentityRNN.composition_penalty`).
* ``lstm-peep`` / ``lstm-peep-nog`` — the LSTM of eqs. 5–10 (Gers et al. 2003 peephole connections: the input and
  forget gates see ``c_{t-1}``, the output gate sees ``c_t``; diagonal peephole weights as in Gers et al. and the
  paper's Lasagne code), with and without the output gate (``h_t = tanh(c_t)``: the paper's "LSTM (no o.g.)").
  ``peep_pool``: ``last`` hidden state (ICLR'16) or ``mean`` over the words (as ParaNMT-50M pools its LSTM).
* ``cse`` — CSE: convolutions of widths ``cse_widths`` (1, 2, 3) with ``cse_maps`` (100) feature maps each over the
  word embeddings, linear activation (``w · x_{i:i+h-1} + b``), **sum** pooling over the ``n - h + 1`` windows of
  the sentence (none for a shorter sentence), the widths' features concatenated (300).

Combinations (trained jointly, all parameters from scratch): ``word,trigram`` concatenates the component
embeddings, ``word+trigram`` adds them (the components must then have one size).

Padding and masking: WORD and TRIGRAM use ``embedding_bag`` over flat ids with offsets — there is no padding at
all, so an embedding never depends on the other sentences of its batch. The recurrent models pack their padded
input (``pack_padded_sequence``), so padding never enters a state, and pooling masks the padded positions. An
empty sentence embeds to the zero vector (``proj`` / ``dan``: their affine layers applied to it). Unknown
tokens map to ``<unk>``, whose word vector starts at zero when pretrained vectors are used (so an untrained WORD
model ranks pairs exactly as averaging the known words does).

Word scrambling (Wieting & Gimpel 2017; rate 0.3 in ParaNMT-50M §5.2) is applied by the recurrent components to
the sentences the trainer marks: their words are shuffled (one random permutation per sentence, drawn with the
trainer's generator, vectorised with an argsort of random keys). Order-free components ignore it.

The ICLR'16 recurrences (``irnn``, ``lstm-peep*``) are explicit loops over time steps, vectorised over the batch:
the input projections of all steps are one matrix product, each step one recurrent product, and a sentence's state
only advances on its own words (``torch.where`` on the step mask), so padding never enters a state. ``rnn`` uses
``nn.RNN`` on packed sequences. ``cse`` masks every window that reaches past the sentence's end.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import torch
import torch.nn.functional as F
from torch import nn

from core.text import MOSES_EN, CachedTokenizer
from core.token_arrays import TokenLists, as_token_lists
from train_embeddings.pairing import paired_cosine, sentence_sides
from train_embeddings.static import STATIC, StaticAverage, StaticVocab
from train_embeddings.vocab import Featurizer, SentenceBatch, SentencePieceVocab, TrigramVocab, WordVocab

__all__ = ["COMPONENTS", "RECURRENT", "BagAverage", "BiLSTMEncoder", "ConvSentenceEncoder", "DeepAveragingNetwork",
           "ElmanRNN", "EmbeddingModel", "IdentityRNN", "LSTMEncoder", "ModelSpec", "PeepholeLSTM",
           "ProjectionAverage", "SentenceEncoder", "WordAverage", "build_encoder",
           "scramble_mask", "scramble_padded"]

log = logging.getLogger(__name__)

# Every component name ``TrainConfig.model`` accepts; the recurrent ones scramble words (ParaNMT-50M §5.2).
COMPONENTS = ("word", "trigram", "sp", "static",
              "lstm", "blstm", "blstm-cat", "blstm-max", "proj", "dan", "rnn", "irnn",
              "lstm-peep", "lstm-peep-nog", "cse")
RECURRENT = frozenset({"lstm", "blstm", "blstm-cat", "blstm-max", "rnn", "irnn", "lstm-peep", "lstm-peep-nog"})


@dataclass
class ModelSpec:
    """Everything needed to rebuild an encoder skeleton (saved as JSON beside the weights)."""

    components: list[str]
    combine: Literal["concat", "sum"] = "concat"
    word_dim: int = 300
    trigram_dim: int = 300
    lstm_dim: int = 300
    n_words: int = 0  # word vocabulary size (trainable + frozen)
    n_trainable_words: int = 0
    n_trigrams: int = 0
    tokenizer: dict[str, Any] = field(default_factory=lambda: dict(MOSES_EN))
    # The ICLR'16 / CSE encoders (defaults keep specs saved before they existed loadable).
    hidden_dim: int = 0  # proj / dan / rnn output size; 0: the word embedding size (the paper's choice)
    dan_layers: int = 1
    dan_activation: Literal["tanh", "relu"] = "tanh"
    rnn_activation: Literal["tanh", "relu"] = "tanh"
    peep_pool: Literal["last", "mean"] = "last"
    cse_widths: list[int] = field(default_factory=lambda: [1, 2, 3])
    cse_maps: int = 100
    sp_dim: int = 300
    n_pieces: int = 0  # SentencePiece vocabulary size
    static_dim: int = 0  # static: the distilled table's size (its PCA dimensions)
    n_static_tokens: int = 0  # static: the teacher tokenizer's vocabulary size
    static_teacher_dim: int = 0  # static: the teacher loss head's output size (0: no head)

    @property
    def uses_words(self) -> bool:
        return any(c not in ("trigram", "sp", STATIC) for c in self.components)

    @property
    def uses_static(self) -> bool:
        return STATIC in self.components

    @property
    def uses_tokens(self) -> bool:
        """Whether any component reads Moses tokens (a static-only model reads raw text alone)."""
        return any(c != STATIC for c in self.components)

    @property
    def uses_pieces(self) -> bool:
        return "sp" in self.components

    @property
    def uses_trigrams(self) -> bool:
        return "trigram" in self.components

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def hidden_size(self) -> int:
        """Output size of ``proj`` / ``dan`` / ``rnn``."""
        return self.hidden_dim or self.word_dim

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelSpec:
        """Rebuild a spec from :meth:`to_json` output; fields missing from older saved specs take their defaults."""
        return cls(**data)


# --------------------------------------------------------------------------------------------- word tables


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


# --------------------------------------------------------------------------------------------- components


class WordAverage(nn.Module):
    """WORD: mean of word embeddings. Input: a batch with word ids. Output: ``n x word_dim``."""

    def __init__(self, table: WordTable) -> None:
        super().__init__()
        self.table = table
        self.output_dim = table.dim

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        assert batch.word_ids is not None and batch.word_offsets is not None
        return self.table.bag_mean(batch.word_ids, batch.word_offsets)


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


def scramble_mask(n_pairs: int, rate: float, generator: torch.Generator | None = None) -> torch.Tensor:
    """Which pairs of a mini-batch get their word order shuffled this step: Bernoulli(``rate``) per pair (CPU)."""
    return torch.rand(n_pairs, generator=generator) < rate


def scramble_padded(padded: torch.Tensor, lengths: torch.Tensor, mask: torch.Tensor,
                    generator: torch.Generator | None = None) -> torch.Tensor:
    """Shuffle the first ``lengths[i]`` entries of row ``i`` wherever ``mask[i]``; other rows and padding stay.

    One uniform random permutation per scrambled row: argsort of uniform keys on the valid positions (padding
    keys sort last). The keys are drawn on the CPU with ``generator`` so runs repeat across devices.
    """
    n, width = padded.shape
    keys = torch.rand((n, width), generator=generator).to(padded.device)
    position = torch.arange(width, device=padded.device).expand(n, width)
    valid = position < lengths.unsqueeze(1)
    keys = torch.where(mask.unsqueeze(1) & valid, keys, position.to(keys.dtype) + 2.0)
    order = torch.argsort(keys, dim=1)
    return torch.gather(padded, 1, order)


def _padded_inputs(table: WordTable, batch: SentenceBatch, scramble: torch.Tensor | None,
                   generator: torch.Generator | None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(``n x T x d`` word vectors, zero at padding; lengths; ``n x T`` validity mask), words scrambled where
    ``scramble`` says (recurrent components only)."""
    padded, lengths = batch.padded_words()
    if scramble is not None and bool(scramble.any()):
        padded = scramble_padded(padded, lengths, scramble.to(padded.device), generator)
    valid = torch.arange(padded.shape[1], device=padded.device).unsqueeze(0) < lengths.unsqueeze(1)
    inputs = table.lookup(padded) * valid.unsqueeze(-1).to(table.weight.dtype)
    return inputs, lengths, valid


class _Recurrent(nn.Module):
    def __init__(self, table: WordTable, hidden: int, bidirectional: bool) -> None:
        super().__init__()
        self.table = table
        self.lstm = nn.LSTM(table.dim, hidden, batch_first=True, bidirectional=bidirectional)
        self.hidden = hidden

    def states(self, batch: SentenceBatch, scramble: torch.Tensor | None,
               generator: torch.Generator | None) -> tuple[torch.Tensor, torch.Tensor]:
        """(``n x T x H·dirs`` hidden states, zero at padding; ``n x T`` validity mask)."""
        inputs, lengths, valid = _padded_inputs(self.table, batch, scramble, generator)
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


# --------------------------------------------------------------------------------------------- ICLR'16 and CSE


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
        inputs, lengths, _ = _padded_inputs(self.table, batch, scramble, self.generator)
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
        inputs, lengths, valid = _padded_inputs(self.table, batch, scramble, self.generator)
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
        inputs, lengths, valid = _padded_inputs(self.table, batch, scramble, self.generator)
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
        inputs, lengths, _ = _padded_inputs(self.table, batch, None, None)
        x = inputs.transpose(1, 2)  # n x d x T
        pooled = []
        for width, conv in zip(self.widths, self.convs, strict=True):
            # Right-pad so every sentence has T windows; window i is real iff it ends inside the sentence.
            features = conv(F.pad(x, (0, width - 1)))  # n x maps x T
            start = torch.arange(features.shape[2], device=x.device).unsqueeze(0)
            inside = (start + width <= lengths.unsqueeze(1)).unsqueeze(1).to(features.dtype)
            pooled.append((features * inside).sum(2))
        return torch.cat(pooled, dim=1)


def composition_parameters(part: nn.Module) -> list[torch.Tensor]:
    """The compositional parameters ``W_c`` of a component (ICLR'16 §3): every trainable parameter except the
    word table and the trigram / piece embeddings."""
    return [p for name, p in part.named_parameters()
            if p.requires_grad and not name.startswith(("table.", "embedding."))]


class SentenceEncoder(nn.Module):
    """The components of a :class:`ModelSpec`, combined by concatenation or addition."""

    def __init__(self, spec: ModelSpec) -> None:
        super().__init__()
        self.spec = spec
        parts: dict[str, nn.Module] = {}
        for name in spec.components:
            if name == "trigram":
                parts[name] = BagAverage(spec.n_trigrams, spec.trigram_dim, "trigram")
                continue
            if name == "sp":
                parts[name] = BagAverage(spec.n_pieces, spec.sp_dim, "sp")
                continue
            if name == STATIC:
                parts[name] = StaticAverage(spec.n_static_tokens, spec.static_dim, spec.static_teacher_dim)
                continue
            table = WordTable(spec.n_trainable_words, spec.n_words - spec.n_trainable_words, spec.word_dim)
            if name == "word":
                parts[name] = WordAverage(table)
            elif name == "lstm":
                parts[name] = LSTMEncoder(table, spec.lstm_dim)
            elif name == "blstm":
                parts[name] = BiLSTMEncoder(table, spec.lstm_dim, "mean", "mean")
            elif name == "blstm-cat":
                parts[name] = BiLSTMEncoder(table, spec.lstm_dim, "concat", "mean")
            elif name == "blstm-max":
                parts[name] = BiLSTMEncoder(table, spec.lstm_dim, "concat", "max")
            elif name == "proj":
                parts[name] = ProjectionAverage(table, spec.hidden_size)
            elif name == "dan":
                parts[name] = DeepAveragingNetwork(table, spec.hidden_size, spec.dan_layers, spec.dan_activation)
            elif name == "rnn":
                parts[name] = ElmanRNN(table, spec.hidden_size, spec.rnn_activation)
            elif name == "irnn":
                parts[name] = IdentityRNN(table)
            elif name in ("lstm-peep", "lstm-peep-nog"):
                parts[name] = PeepholeLSTM(table, spec.lstm_dim, output_gate=name == "lstm-peep",
                                           pool=spec.peep_pool)
            elif name == "cse":
                parts[name] = ConvSentenceEncoder(table, spec.cse_widths, spec.cse_maps)
            else:
                raise ValueError(f"unknown model component {name!r}")
        self.parts = nn.ModuleDict(parts)
        dims = {name: part.output_dim for name, part in parts.items()}
        if spec.combine == "sum" and len(set(dims.values())) > 1:
            raise ValueError(f"model {'+'.join(spec.components)} adds components of different sizes {dims}; "
                             "make them equal (word_dim / trigram_dim / lstm_dim) or concatenate with ','")
        self.output_dim = sum(dims.values()) if spec.combine == "concat" else next(iter(dims.values()))

    def word_tables(self) -> list[WordTable]:
        return [part.table for part in self.parts.values() if hasattr(part, "table")]

    def set_generator(self, generator: torch.Generator | None) -> None:
        for part in self.parts.values():
            if hasattr(part, "generator"):
                part.generator = generator

    @property
    def recurrent(self) -> bool:
        return any(name in RECURRENT for name in self.parts)

    def composition_penalty(self) -> torch.Tensor:
        """``Σ ‖W_c‖²`` over the compositional parameters of every component (ICLR'16 eq. 11), with the
        identity-RNN's distance to its initialisation in place of its norm; 0 for WORD / TRIGRAM."""
        device = next(self.parameters()).device
        total = torch.zeros((), device=device)
        for part in self.parts.values():
            if hasattr(part, "composition_penalty"):
                total = total + part.composition_penalty()
            else:
                for parameter in composition_parameters(part):
                    total = total + parameter.square().sum()
        return total

    def auxiliary_loss(self, batch: SentenceBatch) -> torch.Tensor | None:
        """The components' own training terms on ``batch`` (the static teacher loss and pull), None if none."""
        terms = [t for part in self.parts.values() if hasattr(part, "auxiliary_loss")
                 for t in [part.auxiliary_loss(batch)] if t is not None]
        return sum(terms[1:], terms[0]) if terms else None

    def forward(self, batch: SentenceBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        outputs = [part(batch, scramble) for part in self.parts.values()]
        if len(outputs) == 1:
            return outputs[0]
        return torch.cat(outputs, dim=1) if self.spec.combine == "concat" else torch.stack(outputs).sum(0)


def build_encoder(spec: ModelSpec, word_vectors: torch.Tensor | None = None,
                  known: torch.Tensor | None = None) -> SentenceEncoder:
    """A fresh encoder; word tables start from ``word_vectors`` (full vocabulary x word_dim) where ``known``."""
    encoder = SentenceEncoder(spec)
    if word_vectors is not None:
        assert known is not None
        for table in encoder.word_tables():
            table.initialise(word_vectors, known)
    return encoder


# --------------------------------------------------------------------------------------------- public model


class EmbeddingModel:
    """A trained (or training) encoder with its vocabularies and tokeniser: raw sentences in, vectors out.

        model = load_model("runs/word/best")
        vectors = model.encode(["A man is playing a guitar.", "Someone plays guitar."])   # float32, n x dim
        model.similarity(["a man plays"], ["someone plays"])                              # cosine per pair
    """

    def __init__(self, spec: ModelSpec, encoder: SentenceEncoder, words: WordVocab | None,
                 trigrams: TrigramVocab | None, pieces: SentencePieceVocab | None = None,
                 static: StaticVocab | None = None) -> None:
        self.spec = spec
        self.encoder = encoder
        self.words = words
        self.trigrams = trigrams
        self.pieces = pieces
        self.static = static
        self.featurizer = Featurizer(words, trigrams, lowercase=bool(spec.tokenizer.get("lowercase", True)),
                                     pieces=pieces, static=static)
        self._tokenizer = CachedTokenizer(spec.tokenizer)

    def __repr__(self) -> str:
        joiner = "," if self.spec.combine == "concat" else "+"
        return (f"EmbeddingModel({joiner.join(self.spec.components)}, dim={self.dim}, "
                f"words={len(self.words) if self.words else 0}, "
                f"trigrams={len(self.trigrams) if self.trigrams else 0}"
                + (f", pieces={len(self.pieces)}" if self.pieces else "")
                + (f", static tokens={len(self.static)}" if self.static else "") + f", device={self.device})")

    @property
    def dim(self) -> int:
        return int(self.encoder.output_dim)

    @property
    def device(self) -> torch.device:
        return next(self.encoder.parameters()).device

    def to(self, device: torch.device | str) -> EmbeddingModel:
        self.encoder.to(device)
        return self

    def tokenize(self, sentences: Sequence[str]) -> list[list[str]]:
        """Raw text → Moses tokens with the saved tokeniser settings (punctuation normalisation, ``escape=False``;
        lower-casing happens at lookup)."""
        return self._tokenizer(sentences)

    def features(self, sentences: Sequence[str]) -> SentenceBatch:
        """Raw sentences featurised as this model reads them (Moses tokens and/or the raw text), on the CPU."""
        sentences = list(sentences)
        tokens = self.tokenize(sentences) if self.spec.uses_tokens else None
        return self.featurizer(tokens, pa.array(sentences, pa.string()) if self.static is not None else None)

    def encode_tokens(self, tokens: TokenLists | None, batch_size: int = 1000,
                      texts: Sequence[str] | None = None) -> np.ndarray:
        """Embeddings (float32 ``n x dim``) of Moses token lists (Python lists or an Arrow list<string> array);
        ``texts``: the same sentences raw, for a static component (without them it reads the tokens joined)."""
        arrays = as_token_lists(tokens) if tokens is not None else None
        raw = pa.array(list(texts), pa.string()) if texts is not None else None
        n = len(arrays) if arrays is not None else len(raw)  # type: ignore[arg-type]
        out = np.zeros((n, self.dim), np.float32)
        was_training = self.encoder.training
        self.encoder.eval()
        try:
            with torch.inference_mode():
                for start in range(0, n, batch_size):
                    chunk = arrays.slice(start, batch_size) if arrays is not None else None
                    batch = self.featurizer(chunk, raw.slice(start, batch_size) if raw is not None else None)
                    out[start:start + batch.n] = self.encoder(batch.to(self.device)).float().cpu().numpy()
        finally:
            self.encoder.train(was_training)
        return out

    def encode(self, sentences: Sequence[str], batch_size: int = 1000) -> np.ndarray:
        """Embeddings (float32 ``n x dim``) of raw sentences, tokenised as the model was trained (a static
        component reads the raw text with its teacher's tokenizer; a static-only model never runs Moses)."""
        if isinstance(sentences, str):
            raise TypeError("encode() takes a list of sentences, not one string")
        sentences = list(sentences)
        tokens = self.tokenize(sentences) if self.spec.uses_tokens else None
        return self.encode_tokens(tokens, batch_size=batch_size, texts=sentences if self.static else None)

    def __call__(self, sentences: Sequence[str]) -> np.ndarray:
        """``model(sentences)`` is ``model.encode(sentences)``: a model is an STS encoder as it stands."""
        return self.encode(sentences)

    def similarity(self, a: str | Sequence[str], b: str | Sequence[str], batch_size: int = 1000) -> np.ndarray:
        """Cosine similarity of ``a[i]`` and ``b[i]`` (float32, one per pair; 0 where a vector is zero). A single
        string is one sentence (``similarity("a", "b")`` has one value), compared with every sentence of the
        other side."""
        a, b = sentence_sides(a, b)
        return paired_cosine(self.encode(a, batch_size), self.encode(b, batch_size))
