"""The map that carries training to the pretrained words it never saw (train_embeddings/training/unseen_words.py):
the ridge fit recovers a known linear change, the map is applied only inside its block, the anchors round-trip
(a trained model's unseen words: tests/train_embeddings/training/test_word_init.py)."""

from __future__ import annotations

import pytest
import torch

from train_embeddings.models.word_table import WordTable
from train_embeddings.training.unseen_words import UnseenWordMap, fit_word_map


def test_word_map_recovers_a_linear_change() -> None:
    generator = torch.Generator().manual_seed(0)
    initial = torch.randn(500, 8, generator=generator)
    change = torch.randn(8, 8, generator=generator)
    w = fit_word_map(initial, initial @ change, ridge=0.0)
    assert torch.allclose(w, change, atol=1e-4)
    shrunk = fit_word_map(initial, initial @ change, ridge=1e4)
    assert shrunk.norm() < w.norm()  # the ridge term pulls the map toward zero


class _OneTable:
    """What the map reads of an encoder: its word tables."""

    def __init__(self, table: WordTable) -> None:
        self.table = table

    def word_tables(self) -> list[WordTable]:
        return [self.table]


def _table(generator: torch.Generator, change: torch.Tensor) -> tuple[WordTable, torch.Tensor]:
    """A table of 40 trainable rows moved from ``initial`` by ``change`` and 5 frozen pretrained rows."""
    initial = torch.randn(40, 4, generator=generator)
    table = WordTable(n_trainable=40, n_frozen=5, dim=4)
    with torch.no_grad():
        table.weight.copy_(initial @ change)
        table.frozen.copy_(torch.randn(5, 4, generator=generator))
    return table, initial


def test_frozen_words_are_mapped_inside_the_block_only():
    generator = torch.Generator().manual_seed(1)
    change = torch.randn(4, 4, generator=generator)
    table, initial = _table(generator, change)
    pretrained = table.frozen.clone()
    known = torch.ones(40, dtype=torch.bool)
    known[::3] = False  # rows without a pretrained vector take no part in the fit
    with torch.no_grad():
        table.weight[~known] = 100.0  # far off the linear change: a fit that used them would miss it
    words = UnseenWordMap(initial, known, ridge=0.0)
    with words.applied(_OneTable(table)):  # type: ignore[arg-type]
        assert torch.allclose(table.frozen, pretrained @ change, atol=1e-4)
    assert torch.equal(table.frozen, pretrained)
    with pytest.raises(RuntimeError, match="inside"), words.applied(_OneTable(table)):  # type: ignore[arg-type]
        raise RuntimeError("inside")
    assert torch.equal(table.frozen, pretrained)  # restored after an error too
    nothing_known = UnseenWordMap(initial, torch.zeros(40, dtype=torch.bool))
    assert torch.equal(nothing_known.mapped_frozen(table), pretrained)  # no anchor: the pretrained rows stay


def test_the_anchors_round_trip_through_their_file(tmp_path):
    generator = torch.Generator().manual_seed(2)
    words = UnseenWordMap(torch.randn(6, 3, generator=generator), torch.tensor([True, False] * 3))
    words.save(tmp_path / "initial_words.npz")
    loaded = UnseenWordMap.load(tmp_path / "initial_words.npz", ridge=2.5)
    assert torch.equal(loaded.initial, words.initial) and torch.equal(loaded.known, words.known)
    assert loaded.ridge == 2.5
