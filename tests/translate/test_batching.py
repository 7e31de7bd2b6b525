"""Token buckets against a slow, obviously correct reference on many random length arrays."""

from __future__ import annotations

import numpy as np
import pytest

from translate.batching import token_buckets


def reference_buckets(lengths, max_tokens: int, max_sentences: int) -> list[list[int]]:
    """Sort stably by length (0 counts as 1), then grow each batch one sentence at a time while the padded cost
    ``(n + 1) * max(length)`` stays within ``max_tokens`` and the size within ``max_sentences``."""
    lengths = [max(1, int(x)) for x in lengths]
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])  # Python's sort is stable
    batches: list[list[int]] = []
    batch: list[int] = []
    for i in order:
        if batch:
            longest = max([lengths[j] for j in batch] + [lengths[i]])
            if (len(batch) + 1) * longest <= max_tokens and len(batch) + 1 <= max_sentences:
                batch.append(i)
                continue
            batches.append(batch)
        batch = [i]
    if batch:
        batches.append(batch)
    return batches


def check_invariants(batches, lengths, max_tokens: int, max_sentences: int) -> None:
    effective = np.maximum(np.asarray(lengths, dtype=np.int64), 1)
    flat = np.concatenate(batches) if batches else np.array([], dtype=np.int64)
    assert sorted(flat.tolist()) == list(range(len(lengths))), "each index exactly once"
    for batch in batches:
        assert 1 <= len(batch) <= max_sentences
        cost = len(batch) * int(effective[batch].max())
        assert cost <= max_tokens or len(batch) == 1, "padded cost within budget unless a lone sentence"
    maxima = [int(effective[b].max()) for b in batches]
    assert maxima == sorted(maxima), "shortest sentences first"


def random_lengths(rng: np.random.Generator, kind: str) -> np.ndarray:
    n = int(rng.integers(0, 400))
    if kind == "uniform":
        return rng.integers(0, 120, size=n)
    if kind == "zeros":
        lengths = rng.integers(0, 30, size=n)
        lengths[rng.random(n) < 0.3] = 0
        return lengths
    if kind == "giant":
        lengths = rng.integers(1, 60, size=max(n, 1))
        lengths[rng.integers(0, len(lengths))] = 100_000  # over any budget used here
        return lengths
    if kind == "equal":
        return np.full(n, int(rng.integers(0, 50)))
    if kind == "heavy_tail":
        return np.minimum(rng.zipf(1.6, size=n), 5000)
    raise AssertionError(kind)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("kind", ["uniform", "zeros", "giant", "equal", "heavy_tail"])
def test_matches_the_reference(seed, kind):
    rng = np.random.default_rng(seed)
    for _ in range(15):
        lengths = random_lengths(rng, kind)
        max_tokens = int(rng.choice([1, 7, 50, 128, 1000, 4096]))
        max_sentences = int(rng.choice([1, 3, 16, 512]))
        as_list = [int(x) for x in lengths]
        batches = token_buckets(lengths, max_tokens, max_sentences)
        assert [b.tolist() for b in batches] == reference_buckets(as_list, max_tokens, max_sentences), (
            kind, seed, max_tokens, max_sentences)
        assert [b.tolist() for b in token_buckets(as_list, max_tokens, max_sentences)] == [
            b.tolist() for b in batches], "a list and an array give the same batches"
        check_invariants(batches, lengths, max_tokens, max_sentences)


def test_small_cases_by_hand():
    assert token_buckets([], 10, 10) == []
    assert [b.tolist() for b in token_buckets([3, 1, 2], 100, 100)] == [[1, 2, 0]]
    # budget 6: [1, 2] costs 4, adding 3 would cost 9
    assert [b.tolist() for b in token_buckets([3, 1, 2], 6, 100)] == [[1, 2], [0]]
    assert [b.tolist() for b in token_buckets([3, 1, 2], 100, 1)] == [[1], [2], [0]]
    # equal lengths keep input order; zeros count as 1
    assert [b.tolist() for b in token_buckets([0, 0, 1, 0], 2, 10)] == [[0, 1], [2, 3]]
    # a sentence over budget still gets its own batch
    assert [b.tolist() for b in token_buckets([5, 50, 5], 10, 10)] == [[0, 2], [1]]


def test_giant_element_alone_and_the_rest_within_budget():
    lengths = np.array([10] * 20 + [10_000] + [10] * 20)
    batches = token_buckets(lengths, 100, 512)
    assert batches[-1].tolist() == [20]
    assert all(len(b) == 10 for b in batches[:-1])
    check_invariants(batches, lengths, 100, 512)


def test_returns_integer_index_arrays():
    batches = token_buckets(np.array([4, 2, 9], dtype=np.int32), 64, 8)
    assert all(isinstance(b, np.ndarray) and np.issubdtype(b.dtype, np.integer) for b in batches)


@pytest.mark.parametrize(("max_tokens", "max_sentences"), [(0, 10), (10, 0), (-5, 10), (10, -1), (0, 0)])
def test_non_positive_budgets_are_rejected(max_tokens, max_sentences):
    with pytest.raises(ValueError, match="must be positive"):
        token_buckets([1, 2, 3], max_tokens, max_sentences)
    with pytest.raises(ValueError, match="must be positive"):
        token_buckets([], max_tokens, max_sentences)
