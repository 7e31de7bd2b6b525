"""MegaBatchMiner against a naive Python loop (MAX, groups, MIX) and MarginLoss on hand-made vectors."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from train_embeddings.losses.margin_loss import MARGIN_STATISTICS, MarginLoss, cosine, margin_statistics
from train_embeddings.losses.negative_mining import MegaBatchMiner


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
    counts = np.zeros((6, 6))
    for _ in range(2000):
        index = miner(left, right, None, generator).index.numpy()
        counts[np.arange(6), index] += 1
    for i in range(6):
        allowed = [j for j in range(6) if j % n != i % n]
        assert counts[i, [j for j in range(6) if j not in allowed]].sum() == 0
        assert np.allclose(counts[i, allowed] / 2000, 0.25, atol=0.04)


# ---------------------------------------------------------------------------------------------- margin loss


def test_margin_loss_by_hand():
    s = torch.tensor([[1.0, 0.0], [0.0, 2.0]])
    s_prime = torch.tensor([[1.0, 1.0], [0.0, 1.0]])
    t = torch.tensor([[1.0, 0.0], [1.0, 0.0]])
    t_prime = torch.tensor([[-1.0, 0.0], [0.0, 3.0]])
    r = 1 / math.sqrt(2)
    # pair 1: cos(s, s') = r, cos(s, t) = 1, cos(s', t') = -r
    # pair 2: cos(s, s') = 1, cos(s, t) = 0, cos(s', t') = 1
    first = max(0.0, 0.4 - r + 1.0) + max(0.0, 0.4 - r - r)
    second = max(0.0, 0.4 - 1.0 + 0.0) + max(0.0, 0.4 - 1.0 + 1.0)
    loss = MarginLoss(0.4)(s, s_prime, t, t_prime)
    assert loss.item() == pytest.approx((first + second) / 2, abs=1e-6)


def test_margin_loss_gradient_and_masks():
    s = torch.tensor([[1.0, 0.0]], requires_grad=True)
    s_prime = torch.tensor([[0.0, 1.0]])
    t = torch.tensor([[1.0, 0.1]])
    loss_fn = MarginLoss(0.4)
    loss = loss_fn(s, s_prime, t, t)
    loss.backward()
    assert loss.item() > 0 and s.grad is not None and s.grad.abs().sum() > 0
    masked = loss_fn(s, s_prime, t, t, torch.tensor([False]), torch.tensor([False]))
    assert masked.item() == 0.0


def test_margin_loss_zero_vectors_are_finite():
    zero = torch.zeros(2, 3, requires_grad=True)
    loss = MarginLoss(0.4)(zero, torch.ones(2, 3), torch.ones(2, 3), torch.zeros(2, 3))
    loss.backward()
    assert torch.isfinite(loss) and torch.isfinite(zero.grad).all()
    assert cosine(torch.zeros(1, 3), torch.ones(1, 3)).item() == 0.0


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


def test_margin_statistics_on_hand_made_vectors():
    s = torch.tensor([[1.0, 0.0], [1.0, 0.0]])
    s_prime = torch.tensor([[1.0, 0.0], [0.0, 1.0]])  # cos 1 and 0
    t = torch.tensor([[0.0, 1.0], [1.0, 0.0]])  # cos(s, t): 0 and 1
    t_prime = torch.tensor([[-1.0, 0.0], [0.0, 1.0]])  # cos(s', t'): -1 and 1
    def named(values: torch.Tensor) -> dict[str, float]:
        return dict(zip(MARGIN_STATISTICS, values.tolist(), strict=True))

    stats = named(margin_statistics(s, s_prime, t, t_prime, margin=0.4))
    # positives [1, 0, 1, 0] against negatives [0, 1, -1, 1]
    assert stats["positive_cos"] == pytest.approx(0.5)
    assert stats["negative_cos"] == pytest.approx(0.25)
    assert stats["positive_nearer"] == pytest.approx(0.5)
    assert stats["margin_met"] == pytest.approx(0.5)
    masked = named(margin_statistics(s, s_prime, t, t_prime, torch.tensor([True, False]), torch.tensor([False, False])))
    assert masked["positive_nearer"] == 1.0 and masked["negative_cos"] == 0.0
    none = named(margin_statistics(s, s_prime, t, t_prime, torch.tensor([False, False]), torch.tensor([False, False])))
    assert math.isnan(none["positive_nearer"])


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
