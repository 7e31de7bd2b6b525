"""MegaBatchMiner (train_embeddings/losses/negative_mining.py) against a naive Python loop: MAX with and without
groups, row blocks, ties, MIX's random picks, and the inputs it refuses."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from train_embeddings.losses.negative_mining import MegaBatchMiner, MinedNegatives


def naive_max_negatives(left: np.ndarray, right: np.ndarray, groups: np.ndarray | None) -> tuple[list, list]:
    """The reference: for every sentence, scan all 2N sentences in order and keep the most similar one that is
    neither in its own pair nor in its group (the first one on ties)."""
    n = len(left)
    sentences = np.concatenate([left, right]).astype(np.float64)
    pair = list(range(n)) * 2
    group = list(groups) * 2 if groups is not None else pair
    chosen, valid = [], []
    for i in range(2 * n):
        best, best_j = -math.inf, None
        for j in range(2 * n):
            if pair[j] == pair[i] or group[j] == group[i]:
                continue
            a, b = sentences[i], sentences[j]
            value = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
            if value > best:
                best, best_j = value, j
        chosen.append(best_j)
        valid.append(best_j is not None)
    return chosen, valid


@pytest.mark.parametrize("n,dim,seed", [(2, 3, 0), (7, 5, 1), (40, 16, 2), (120, 8, 3)])
def test_max_miner_equals_naive_loop(n, dim, seed):
    rng = np.random.default_rng(seed)
    left, right = rng.normal(size=(n, dim)).astype(np.float32), rng.normal(size=(n, dim)).astype(np.float32)
    mined = MegaBatchMiner("max")(torch.from_numpy(left), torch.from_numpy(right))
    expected, valid = naive_max_negatives(left, right, None)
    assert mined.index.tolist() == expected
    assert mined.valid.tolist() == valid


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_max_miner_with_groups_equals_naive_loop(seed):
    rng = np.random.default_rng(seed)
    n, dim = 60, 12
    left, right = rng.normal(size=(n, dim)).astype(np.float32), rng.normal(size=(n, dim)).astype(np.float32)
    groups = rng.integers(0, 15, size=n)  # ~4 pairs per group: same-group sentences are never negatives
    mined = MegaBatchMiner("max")(torch.from_numpy(left), torch.from_numpy(right), torch.from_numpy(groups))
    expected, valid = naive_max_negatives(left, right, groups)
    assert mined.index.tolist() == expected
    assert mined.valid.tolist() == valid
    stacked_groups = np.concatenate([groups, groups])
    assert (stacked_groups[mined.index.numpy()] != stacked_groups).all()


def test_miner_excludes_own_pair_even_when_it_is_most_similar():
    # Sentence 0's paraphrase is identical to it; the negative must still be another pair's sentence.
    left = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7]])
    right = torch.tensor([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.1]])
    mined = MegaBatchMiner("max")(left, right)
    assert mined.index.tolist()[0] == 2  # (0.7, 0.7) is the closest other sentence to (1, 0)
    assert all(int(j) % 3 != i % 3 for i, j in enumerate(mined.index.tolist()))


def test_miner_marks_rows_without_an_allowed_negative():
    left, right = torch.randn(4, 3), torch.randn(4, 3)
    groups = torch.tensor([5, 5, 5, 9])  # pairs 0-2 share a group; pair 3 alone
    mined = MegaBatchMiner("max")(left, right, groups)
    assert mined.valid.tolist() == [True] * 8  # every sentence has pair 3 (or pairs 0-2) available
    assert set(mined.index[[0, 1, 2, 4, 5, 6]].tolist()) <= {3, 7}
    alone = MegaBatchMiner("max")(left, right, torch.tensor([1, 1, 1, 1]))
    assert not alone.valid.any()


def test_miner_is_one_matrix_product():
    left, right = torch.randn(400, 32), torch.randn(400, 32)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        MegaBatchMiner("max")(left, right, torch.arange(400) // 5)
    products = [e for e in prof.events() if e.name in ("aten::mm", "aten::addmm", "aten::bmm")]
    assert len(products) == 1


def test_mix_miner_draws_allowed_negatives_half_at_random():
    torch.manual_seed(0)
    n = 200
    left, right = torch.randn(n, 8), torch.randn(n, 8)
    groups = torch.arange(n) // 4
    maximum = MegaBatchMiner("max")(left, right, groups).index
    generator = torch.Generator().manual_seed(1)
    mixed = MegaBatchMiner("mix")(left, right, groups, generator)
    stacked = groups.repeat(2)
    assert (stacked[mixed.index] != stacked).all()  # random picks respect the groups too
    same = (mixed.index == maximum).float().mean().item()
    # Half are MAX; a random pick lands on the MAX one with probability ~1/(2N-8).
    assert 0.42 < same < 0.60
    again = MegaBatchMiner("mix")(left, right, groups, torch.Generator().manual_seed(1))
    assert torch.equal(again.index, mixed.index)  # reproducible with the generator


def test_mix_random_picks_are_uniform_over_allowed():
    n = 3  # 6 sentences, groups exclude only the own pair: 4 allowed negatives per sentence
    left, right = torch.randn(n, 4), torch.randn(n, 4)
    miner = MegaBatchMiner("mix", mix_probability=0.0)  # always random
    generator = torch.Generator().manual_seed(0)
    counts, draws = np.zeros((6, 6)), 500
    for _ in range(draws):
        index = miner(left, right, None, generator).index.numpy()
        counts[np.arange(6), index] += 1
    for i in range(6):
        allowed = [j for j in range(6) if j % n != i % n]
        assert counts[i, [j for j in range(6) if j not in allowed]].sum() == 0
        # 0.25 each; 0.08 is four standard deviations of a share over 500 draws
        assert np.allclose(counts[i, allowed] / draws, 0.25, atol=0.08)


@pytest.mark.parametrize("block_entries", [1, 7 * 240, 50 * 240, 1 << 26])
def test_blocked_miner_equals_one_product(block_entries):
    """Row blocks (bounded memory for large M) pick exactly the negatives of the single product, groups included."""
    rng = np.random.default_rng(5)
    n, dim = 120, 10
    left, right = (torch.from_numpy(rng.normal(size=(n, dim)).astype(np.float32)) for _ in range(2))
    groups = torch.from_numpy(rng.integers(0, 30, size=n))
    whole = MegaBatchMiner("max")(left, right, groups)
    blocked = MegaBatchMiner("max", max_block_entries=block_entries)(left, right, groups)
    assert blocked.index.tolist() == whole.index.tolist()
    assert blocked.valid.tolist() == whole.valid.tolist()
    expected, _ = naive_max_negatives(left.numpy(), right.numpy(), groups.numpy())
    assert whole.index.tolist() == expected


@pytest.mark.parametrize("block_entries", [1, 3 * 24, 1 << 26])
def test_ties_pick_the_lowest_index_like_argmax(block_entries):
    """Exact ties (repeated vectors): the upper-triangle blocks merge candidates in index order, so every row keeps
    the first of its equally similar sentences, as the naive loop and a full-row argmax do."""
    base = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    left, right = base.repeat(4, 1), base.flip(0).repeat(4, 1)  # 12 pairs, many identical sentences
    groups = torch.arange(12) // 2
    mined = MegaBatchMiner("max", max_block_entries=block_entries)(left, right, groups)
    expected, valid = naive_max_negatives(left.numpy(), right.numpy(), groups.numpy())
    assert mined.index.tolist() == expected and mined.valid.tolist() == valid



def test_mix_with_probability_one_is_max():
    rng = np.random.default_rng(7)
    left, right = (torch.from_numpy(rng.normal(size=(30, 6)).astype(np.float32)) for _ in range(2))
    groups = torch.arange(30) // 3
    maximum = MegaBatchMiner("max")(left, right, groups)
    always_max = MegaBatchMiner("mix", mix_probability=1.0)(left, right, groups, torch.Generator().manual_seed(0))
    assert always_max.index.tolist() == maximum.index.tolist()
    assert always_max.valid.tolist() == maximum.valid.tolist()


def test_mix_random_picks_skip_rows_without_an_allowed_negative():
    left, right = torch.randn(4, 3), torch.randn(4, 3)
    miner = MegaBatchMiner("mix", mix_probability=0.0)  # every valid row draws at random
    generator = torch.Generator().manual_seed(3)
    for _ in range(20):
        mined = miner(left, right, torch.tensor([5, 5, 5, 9]), generator)
        assert mined.valid.all()
        assert set(mined.index[[0, 1, 2, 4, 5, 6]].tolist()) <= {3, 7}  # the only other group: pair 3
        assert set(mined.index[[3, 7]].tolist()) <= {0, 1, 2, 4, 5, 6}
    alone = miner(left, right, torch.tensor([1, 1, 1, 1]), generator)
    assert not alone.valid.any()


def test_mined_negatives_move_between_devices_unchanged():
    mined = MegaBatchMiner("max")(torch.randn(5, 4), torch.randn(5, 4))
    moved = mined.to("meta")
    assert moved.index.device.type == moved.valid.device.type == "meta"
    assert moved.index.dtype == torch.int64 and moved.valid.dtype == torch.bool
    back = MinedNegatives(mined.index.clone(), mined.valid.clone()).to("cpu")
    assert torch.equal(back.index, mined.index) and torch.equal(back.valid, mined.valid)


@pytest.mark.parametrize("arguments,message", [
    (dict(strategy="min"), "negative strategy must be 'max' or 'mix', got 'min'"),
    (dict(max_block_entries=0), "max_block_entries must be positive, got 0"),
])
def test_miner_refuses_a_bad_setting(arguments, message):
    with pytest.raises(ValueError, match=message):
        MegaBatchMiner(**arguments)


def test_miner_refuses_mismatched_inputs():
    with pytest.raises(ValueError, match=r"left \(3, 4\) and right \(2, 4\) differ"):
        MegaBatchMiner("max")(torch.randn(3, 4), torch.randn(2, 4))
    with pytest.raises(ValueError, match=r"groups must have one id per pair \(3\), got shape \(2,\)"):
        MegaBatchMiner("max")(torch.randn(3, 4), torch.randn(3, 4), torch.tensor([0, 1]))
