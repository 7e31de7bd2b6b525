"""What a trained encoder is made of: the component names ``TrainConfig.model`` accepts and :class:`ModelSpec`,
the sizes and settings that rebuild an encoder's skeleton (saved as JSON beside the weights)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from paranmt.core.text import MOSES_EN
from train_embeddings.static.teacher import STATIC

__all__ = ["COMPONENTS", "RECURRENT", "ModelSpec"]

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
