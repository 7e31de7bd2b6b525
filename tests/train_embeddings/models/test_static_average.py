"""STATIC (train_embeddings/models/static_average.py): the mean of the table rows of a sentence's pieces, starting
from the distilled table, and its training-only terms (the teacher loss and the pull) against hand computation."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from train_embeddings.models.static_average import StaticAverage
from train_embeddings.vocab import SentenceBatch

# Three sentences of pieces: [3, 1, 3], [] and [7].
BATCH = SentenceBatch(3, static_ids=torch.tensor([3, 1, 3, 7]), static_offsets=torch.tensor([0, 3, 3, 4]))


def _distilled(n: int = 8, dim: int = 2) -> np.ndarray:
    return np.arange(n * dim, dtype=np.float32).reshape(n, dim) / 10


def test_mean_of_the_distilled_rows():
    static = StaticAverage(8, 2)
    static.initialise(_distilled())
    with torch.no_grad():
        got = static(BATCH).numpy()
    table = _distilled()
    np.testing.assert_allclose(got, [(2 * table[3] + table[1]) / 3, [0, 0], table[7]], rtol=1e-6)
    assert static.output_dim == 2 and static.auxiliary_loss(BATCH) is None  # no training-only term by default


def test_the_pull_is_the_mean_squared_distance_to_the_distilled_table():
    static = StaticAverage(8, 2)
    static.initialise(_distilled())
    static.configure(teacher_weight=0.0, pull_weight=0.5, initial=_distilled())
    assert float(static.auxiliary_loss(BATCH).detach()) == 0.0  # still at the distilled table
    with torch.no_grad():
        static.embedding.weight[4] += torch.tensor([3.0, 4.0])  # one of 8 rows moved by 5
    assert float(static.auxiliary_loss(BATCH).detach()) == pytest.approx(0.5 * 25 / 8)


def test_the_teacher_loss_is_one_minus_cosine_over_sentences_with_a_target():
    static = StaticAverage(8, 2, teacher_dim=2)
    static.initialise(_distilled())
    with torch.no_grad():
        static.head.weight.copy_(torch.eye(2))  # the head passes the embedding through
    static.configure(teacher_weight=2.0, pull_weight=0.0, initial=None)
    table = _distilled()
    first, third = (2 * table[3] + table[1]) / 3, table[7]
    # Targets: one orthogonal to the first sentence, none for the second (a zero row), the third's own direction.
    teacher = torch.tensor([[-first[1], first[0]], [0.0, 0.0], [2 * third[0], 2 * third[1]]])
    batch = SentenceBatch(3, static_ids=BATCH.static_ids, static_offsets=BATCH.static_offsets, teacher=teacher)
    assert float(static.auxiliary_loss(batch).detach()) == pytest.approx(2.0 * ((1 - 0) + (1 - 1)) / 2, abs=1e-6)
    static.configure(teacher_weight=2.0, pull_weight=0.5, initial=_distilled())
    with torch.no_grad():
        static.embedding.weight[0] += torch.tensor([0.0, 2.0])  # a row no sentence reads: only the pull moves
    assert float(static.auxiliary_loss(batch).detach()) == pytest.approx(1.0 + 0.5 * 4 / 8, abs=1e-6)


def test_refused_settings_name_what_is_missing():
    static = StaticAverage(8, 2)
    with pytest.raises(ValueError, match=r"distilled table \(8, 3\) != static table \(8, 2\)"):
        static.initialise(np.zeros((8, 3), np.float32))
    with pytest.raises(ValueError, match=r"static_pull > 0 needs the distilled table \(vocab/static_init.npy\)"):
        static.configure(teacher_weight=0.0, pull_weight=0.1, initial=None)
    with pytest.raises(ValueError, match="static_teacher_loss > 0 needs a model built with a teacher head"):
        static.configure(teacher_weight=0.1, pull_weight=0.0, initial=None)
