"""Carry what training learnt to the pretrained words it never saw (WORD and every word-table component).

Why: a word table starts from pretrained vectors (GloVe), and only the words of the training pairs move; the
other pretrained words (kept, frozen, so that evaluation text still has vectors) stay where GloVe put them. They
are a large share of the STS word types (docs/reproduction.md, "WORD", measured it), and a sentence mixing moved
and unmoved words averages vectors from two geometries.

Remedy: fit the linear map that takes each trained word's initial vector to its trained vector — ridge
regression ``W = argmin ||X W − Y||² + ridge ||W||²`` over the trainable rows that had a pretrained vector
(``X`` initial, ``Y`` trained; a ``d x d`` closed form) — and give every frozen word ``frozen @ W``. The map is a
global rotation/rescaling of the space, the part of the update that generalises; word-specific moves are not
extrapolated. Training never reads frozen rows (every training word is trainable), so the map only changes what
a saved or evaluated model returns for unseen words: the trainer applies it around each evaluation and when it
saves a model (``train.unseen_words: mapped``), and keeps the pretrained rows themselves for the next one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from train_embeddings.models.encoder import SentenceEncoder
from train_embeddings.models.word_table import WordTable

__all__ = ["UnseenWordMap", "fit_word_map"]

ANCHORS = "initial_words.npz"  # in the run's vocab/ folder: the trainable rows' initial vectors


def fit_word_map(initial: torch.Tensor, trained: torch.Tensor, ridge: float) -> torch.Tensor:
    """``d x d`` ridge solution of ``initial @ W ≈ trained`` (float64 solve, returned in ``trained``'s dtype)."""
    x, y = initial.double(), trained.double()
    gram = x.T @ x + ridge * torch.eye(x.shape[1], dtype=torch.float64, device=x.device)
    return torch.linalg.solve(gram, x.T @ y).to(trained.dtype)


@dataclass
class UnseenWordMap:
    """The trainable rows' initial vectors (``n_trainable x d``) and which of them were pretrained."""

    initial: torch.Tensor
    known: torch.Tensor
    ridge: float = 10.0

    def mapped_frozen(self, table: WordTable) -> torch.Tensor:
        known = self.known.to(table.weight.device)
        if not bool(known.any()) or not table.frozen.numel():
            return table.frozen
        w = fit_word_map(self.initial.to(table.weight.device)[known], table.weight.detach()[known], self.ridge)
        return table.frozen @ w

    @contextmanager
    def applied(self, encoder: SentenceEncoder) -> Iterator[None]:
        """Within the block, every word table's frozen rows are mapped; afterwards the pretrained rows are back."""
        tables = [t for t in encoder.word_tables() if t.frozen.numel()]
        saved = [t.frozen.clone() for t in tables]
        try:
            with torch.no_grad():
                for table in tables:
                    table.frozen.copy_(self.mapped_frozen(table))
            yield
        finally:
            with torch.no_grad():
                for table, original in zip(tables, saved, strict=True):
                    table.frozen.copy_(original)

    def save(self, path: Path) -> None:
        np.savez(path, initial=self.initial.cpu().numpy(), known=self.known.cpu().numpy())

    @classmethod
    def load(cls, path: Path, ridge: float) -> UnseenWordMap:
        with np.load(path) as data:
            return cls(torch.from_numpy(data["initial"]), torch.from_numpy(data["known"]), ridge)
