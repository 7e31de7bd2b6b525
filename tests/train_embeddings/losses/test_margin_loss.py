"""MarginLoss and margin_statistics (train_embeddings/losses/margin_loss.py) on hand-made vectors."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from train_embeddings.losses.margin_loss import MARGIN_STATISTICS, MarginLoss, cosine, margin_statistics


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



def test_cosine_is_row_wise_and_scale_free():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(6, 5)), rng.normal(size=(6, 5))
    expected = [float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y))) for x, y in zip(a, b, strict=True)]
    got = cosine(torch.from_numpy(a), torch.from_numpy(b))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    scaled = cosine(torch.from_numpy(3.5 * a), torch.from_numpy(0.01 * b))
    np.testing.assert_allclose(scaled.numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize("margin,expected", [(0.4, 0.0), (1.0, 0.0), (1.5, 2 * 0.5)])
def test_the_margin_sets_where_the_hinge_starts(margin, expected):
    # cos(s, s') = 1 and both negatives orthogonal (cos 0): each term is max(0, margin - 1).
    s, s_prime = torch.tensor([[2.0, 0.0]]), torch.tensor([[1.0, 0.0]])
    t, t_prime = torch.tensor([[0.0, 1.0]]), torch.tensor([[0.0, -3.0]])
    assert MarginLoss(margin)(s, s_prime, t, t_prime).item() == pytest.approx(expected)


def test_each_mask_drops_only_its_own_direction():
    s, s_prime = torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 1.0]])  # cos(s, s') = 0
    t, t_prime = torch.tensor([[1.0, 1.0]]), torch.tensor([[0.0, -1.0]])  # cos(s, t) = r, cos(s', t') = -1
    r = 1 / math.sqrt(2)
    loss = MarginLoss(0.4)
    yes, no = torch.tensor([True]), torch.tensor([False])
    assert loss(s, s_prime, t, t_prime).item() == pytest.approx(0.4 + r + 0.0)
    assert loss(s, s_prime, t, t_prime, yes, no).item() == pytest.approx(0.4 + r)
    assert loss(s, s_prime, t, t_prime, no, yes).item() == pytest.approx(0.0)  # max(0, 0.4 - 0 - 1)


def test_gradient_matches_finite_differences():
    generator = torch.Generator().manual_seed(4)
    inputs = [torch.randn(2, 3, generator=generator, dtype=torch.float64, requires_grad=True) for _ in range(4)]
    # Random points lie off the hinge's kink almost surely; gradcheck compares autograd with central differences.
    assert torch.autograd.gradcheck(lambda *x: MarginLoss(0.4)(*x), inputs)


def test_margin_met_counts_the_terms_whose_hinge_is_zero():
    """The statistic and the loss agree: a sentence meets the margin exactly when its loss term is zero."""
    generator = torch.Generator().manual_seed(2)
    s, s_prime, t, t_prime = (torch.randn(16, 3, generator=generator) for _ in range(4))
    loss, yes, no = MarginLoss(0.4), torch.tensor([True]), torch.tensor([False])
    zero_terms = 0
    for i in range(16):
        row = [x[i:i + 1] for x in (s, s_prime, t, t_prime)]
        zero_terms += int(loss(*row, yes, no).item() == 0) + int(loss(*row, no, yes).item() == 0)
    stats = dict(zip(MARGIN_STATISTICS, margin_statistics(s, s_prime, t, t_prime).tolist(), strict=True))
    assert stats["margin_met"] == pytest.approx(zero_terms / 32)
