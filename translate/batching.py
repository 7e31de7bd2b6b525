"""Token-bucketed batching: sort by length, then cut batches whose *padded* size fits a token budget."""

from __future__ import annotations

import numpy as np


def token_buckets(lengths: np.ndarray | list[int], max_tokens: int, max_sentences: int) -> list[np.ndarray]:
    """Group indices into batches of similar length.

    Indices are sorted by length (stable, so equal lengths keep input order); each batch is the longest run
    starting where the previous ended whose padded cost ``len(batch) * max(lengths in batch)`` is at most
    ``max_tokens`` and whose size is at most ``max_sentences``. A single sentence longer than ``max_tokens``
    still forms a batch of one (callers reject over-long inputs before this). Lengths of 0 count as 1.

    Returns the batches as arrays of original indices, shortest sentences first.
    """
    lengths = np.maximum(np.asarray(lengths, dtype=np.int64), 1)
    if max_tokens < 1 or max_sentences < 1:
        raise ValueError("max_tokens and max_sentences must be positive")
    order = np.argsort(lengths, kind="stable")
    sorted_lengths = lengths[order]
    n = len(order)
    batches: list[np.ndarray] = []
    start = 0
    while start < n:
        # Lengths are sorted, so the padded cost length[end-1] * (end-start) grows with `end`: search a
        # window no longer than the largest batch that could fit.
        window = min(n - start, max_sentences, max(1, max_tokens // int(sorted_lengths[start])))
        costs = sorted_lengths[start : start + window] * np.arange(1, window + 1)
        size = max(1, int(np.searchsorted(costs, max_tokens, side="right")))
        batches.append(order[start : start + size])
        start += size
    return batches
