"""WordTable (train_embeddings/models/word_table.py): lookups and bag means over trainable and frozen rows against
plain indexing, ``<pad>`` always zero, and initialisation from pretrained vectors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from train_embeddings.models.word_table import WordTable


def test_a_table_initialised_from_one_known_vector_is_finite():
    """One pretrained row gave a NaN spread (std of one sample), a NaN table and a NaN first loss."""
    table = WordTable(5, 0, 3)
    vectors = torch.zeros(5, 3)
    vectors[2] = torch.tensor([0.5, -0.5, 1.0])
    table.initialise(vectors, torch.tensor([False, False, True, False, False]))
    assert torch.isfinite(table.weight).all()
    assert torch.equal(table.weight[2], vectors[2]) and not table.weight[3].eq(0).all()



def _table(n_trainable: int = 6, n_frozen: int = 4, dim: int = 3) -> WordTable:
    table = WordTable(n_trainable, n_frozen, dim)
    if n_frozen:
        table.frozen.copy_(torch.randn(n_frozen, dim, generator=torch.Generator().manual_seed(9)))
    return table


@pytest.mark.parametrize("n_frozen", [0, 4])
def test_lookup_and_bag_mean_read_the_full_matrix(n_frozen):
    table = _table(n_frozen=n_frozen)
    full = table.full_matrix().detach()
    assert full.shape == (6 + n_frozen, 3) and table.dim == 3
    assert torch.equal(full[0], torch.zeros(3))  # <pad>
    ids = torch.tensor([[0, 1, 5], [2, 6 + n_frozen - 1, 3]])
    assert torch.equal(table.lookup(ids).detach(), full[ids])
    bags = [[2, 5, 1], [], [6 + n_frozen - 1], [0, 4, 4, 6 + n_frozen - 1]]  # frozen rows mixed in, an empty bag
    flat = torch.tensor([i for bag in bags for i in bag])
    offsets = torch.tensor([0, 3, 3, 4, 8])
    got = table.bag_mean(flat, offsets).detach()
    for row, bag in enumerate(bags):
        expected = full[bag].double().mean(0) if bag else torch.zeros(3, dtype=torch.float64)
        torch.testing.assert_close(got[row].double(), expected, atol=1e-7, rtol=1e-6)


def test_frozen_rows_and_pad_take_no_gradient():
    table = _table()
    assert [name for name, _ in table.named_parameters()] == ["weight"]  # the frozen rows are a buffer
    table.lookup(torch.tensor([0, 0, 7, 9, 3])).sum().backward()
    grad = table.weight.grad
    assert grad[0].abs().sum() == 0  # <pad>
    assert torch.equal(grad[3], torch.ones(3)) and grad[[1, 2, 4, 5]].abs().sum() == 0
    table.weight.grad = None
    table.bag_mean(torch.tensor([7, 8, 2]), torch.tensor([0, 2, 3])).sum().backward()
    assert torch.equal(table.weight.grad[2], torch.ones(3)) and table.weight.grad.abs().sum() == 3


def test_initialise_keeps_known_vectors_and_rescales_the_rest_to_their_spread():
    generator = torch.Generator().manual_seed(1)
    table = WordTable(8, 2, 3)
    before = table.weight.detach().clone()
    vectors = torch.randn(10, 3, generator=generator) * torch.tensor([0.5, 2.0, 4.0])
    known = torch.tensor([True, True, True, False, True, False, True, False, True, True])
    table.initialise(vectors, known)
    after = table.weight.detach()
    assert torch.equal(after[:2], torch.zeros(2, 3))  # <pad>, <unk>
    assert torch.equal(after[[2, 4, 6]], vectors[[2, 4, 6]])
    assert torch.equal(table.frozen, vectors[8:])
    spread = np.std(vectors[known].numpy().astype(np.float64), axis=0, ddof=1)  # the known rows' spread
    for row in (3, 5, 7):  # no vector: the random start, each dimension scaled from 0.1 to that spread
        np.testing.assert_allclose(after[row].numpy() / before[row].numpy(), spread / 0.1, rtol=1e-5)
