"""Word sequences for the order-aware components: padded word vectors of a batch, and word scrambling (Wieting &
Gimpel 2017; rate 0.3 in ParaNMT-50M §5.2), one random permutation per marked sentence, drawn on the CPU."""

from __future__ import annotations

import torch

from train_embeddings.models.word_table import WordTable
from train_embeddings.vocab import SentenceBatch

__all__ = ["padded_inputs", "scramble_mask", "scramble_padded"]


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


def padded_inputs(table: WordTable, batch: SentenceBatch, scramble: torch.Tensor | None,
                   generator: torch.Generator | None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(``n x T x d`` word vectors, zero at padding; lengths; ``n x T`` validity mask), words scrambled where
    ``scramble`` says (recurrent components only)."""
    padded, lengths = batch.padded_words()
    if scramble is not None and bool(scramble.any()):
        padded = scramble_padded(padded, lengths, scramble.to(padded.device), generator)
    valid = torch.arange(padded.shape[1], device=padded.device).unsqueeze(0) < lengths.unsqueeze(1)
    inputs = table.lookup(padded) * valid.unsqueeze(-1).to(table.weight.dtype)
    return inputs, lengths, valid
