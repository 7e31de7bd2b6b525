"""The sentence encoder of a :class:`~train_embeddings.models.spec.ModelSpec`: its components, combined by
concatenation or addition, and a fresh one started from pretrained word vectors."""

from __future__ import annotations

import torch
from torch import nn

from train_embeddings.models.bag_average import BagAverage
from train_embeddings.models.cse import ConvSentenceEncoder
from train_embeddings.models.iclr16 import DeepAveragingNetwork, ElmanRNN, IdentityRNN, PeepholeLSTM, ProjectionAverage
from train_embeddings.models.lstm import BiLSTMEncoder, LSTMEncoder
from train_embeddings.models.spec import RECURRENT, ModelSpec
from train_embeddings.models.static_average import StaticAverage
from train_embeddings.models.word_average import WordAverage
from train_embeddings.models.word_table import WordTable
from train_embeddings.static.teacher import STATIC
from train_embeddings.vocab import SentenceBatch

__all__ = ["SentenceEncoder", "build_encoder", "composition_parameters"]


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
