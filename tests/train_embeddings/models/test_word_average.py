"""WORD (train_embeddings/models/word_average.py): the mean of a sentence's word vectors, frozen rows included, zero
for an empty sentence, blind to word order and to scrambling."""

from __future__ import annotations

import torch

from tests.support.word_batches import SENTENCES, batch_of
from train_embeddings.models.word_average import WordAverage
from train_embeddings.models.word_table import WordTable


def test_mean_of_the_word_vectors():
    table = WordTable(24, 6, 5)  # ids >= 24: frozen pretrained rows
    table.frozen.copy_(torch.randn(6, 5, generator=torch.Generator().manual_seed(3)))
    word = WordAverage(table)
    assert word.output_dim == 5
    with torch.no_grad():
        got = word(batch_of(SENTENCES))
    rows = torch.cat([table.weight.detach(), table.frozen]).double()
    for i, sentence in enumerate(SENTENCES):
        expected = torch.stack([rows[j] for j in sentence]).mean(0) if sentence else torch.zeros(5, dtype=torch.float64)
        torch.testing.assert_close(got[i].double(), expected, atol=1e-7, rtol=1e-6)


def test_word_order_and_scrambling_change_nothing():
    word = WordAverage(WordTable(30, 0, 4))
    with torch.no_grad():
        forward = word(batch_of([[2, 5, 9, 11], [11, 9, 5, 2]]))
        scrambled = word(batch_of([[2, 5, 9, 11], [11, 9, 5, 2]]), torch.tensor([True, True]))
    torch.testing.assert_close(forward[0], forward[1])
    assert torch.equal(scrambled, forward)
