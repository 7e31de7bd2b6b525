"""The training loop's data loader: one epoch's mega-batches, featurised and on the device."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pyarrow as pa
import torch

from train_embeddings.training.data import PairSource
from train_embeddings.vocab import Featurizer, SentenceBatch

__all__ = ["MegaBatch", "MegaBatches"]


@dataclass(frozen=True)
class MegaBatch:
    """``n`` pairs: ``features`` holds the ``n`` left sentences, then the ``n`` right ones; ``groups`` a group id
    per pair (pairs of one group are never each other's negatives). Both are None when ``n < 2`` (a lone last
    pair has no possible negative: the loop only counts it)."""

    n: int
    features: SentenceBatch | None
    groups: torch.Tensor | None


class MegaBatches:
    """Serves the epochs of a run as :class:`MegaBatch` es of ``megabatch_pairs`` pairs (the last may be shorter).

    Inputs: the filtered pairs (``source``), the ``featurizer`` of the model's vocabularies, the mega-batch size,
    the run's ``seed``, the shuffle settings (``shuffle_buffer``, ``interleave``: see
    :meth:`~train_embeddings.training.data.PairSource.stream`) and the ``device`` the features go to.
    Requirements: the same seed and epoch give the same mega-batches, and ``skip`` pairs into an epoch gives the
    rest of that same epoch, which is what makes a resumed run continue bit-identically.
    """

    def __init__(self, source: PairSource, featurizer: Featurizer, megabatch_pairs: int, seed: int, *,
                 shuffle_buffer: int, interleave: int, device: torch.device) -> None:
        self.source = source
        self.featurizer = featurizer
        self.megabatch_pairs = megabatch_pairs
        self.seed = seed
        self.shuffle_buffer = shuffle_buffer
        self.interleave = interleave
        self.device = device

    def epoch(self, epoch: int, skip: int = 0) -> Iterator[MegaBatch]:
        """The mega-batches of ``epoch`` after its first ``skip`` pairs, read and featurised lazily."""
        chunks = self.source.chunks(self.megabatch_pairs, self.seed, epoch, skip=skip,
                                    shuffle_buffer=self.shuffle_buffer, interleave=self.interleave)
        for chunk in chunks:
            n = len(chunk)
            if n < 2:
                yield MegaBatch(n, None, None)
                continue
            texts = (pa.chunked_array([chunk.left_text, chunk.right_text]) if chunk.left_text is not None
                     else None)
            features = self.featurizer(pa.chunked_array([chunk.left, chunk.right]), texts).to(self.device)
            yield MegaBatch(n, features, torch.from_numpy(chunk.groups).to(self.device))
