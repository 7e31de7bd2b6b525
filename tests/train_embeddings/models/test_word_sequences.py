"""Word sequences (train_embeddings/models/word_sequences.py): the scrambling rate, permutations only of marked rows
within their length, and the padded word vectors the order-aware encoders read."""

from __future__ import annotations

import torch

from tests.support.word_batches import SENTENCES, batch_of, hand_table
from train_embeddings.models.word_sequences import padded_inputs, scramble_mask, scramble_padded


def test_scramble_rate_is_about_point_three():
    generator = torch.Generator().manual_seed(0)
    draws = torch.cat([scramble_mask(100, 0.3, generator) for _ in range(400)])  # 40,000 pairs
    assert abs(draws.float().mean().item() - 0.3) < 0.01
    assert not scramble_mask(100, 0.0, generator).any() and scramble_mask(100, 1.0, generator).all()


def test_scramble_permutes_only_marked_rows_within_their_length():
    generator = torch.Generator().manual_seed(0)
    padded = torch.tensor([[5, 6, 7, 8, 9, 0, 0], [1, 2, 3, 0, 0, 0, 0], [4, 5, 6, 7, 8, 9, 10]])
    lengths = torch.tensor([5, 3, 7])
    mask = torch.tensor([True, False, True])
    changed = 0
    for _ in range(50):
        out = scramble_padded(padded, lengths, mask, generator)
        assert torch.equal(out[1], padded[1])  # not marked
        for row in (0, 2):
            assert sorted(out[row, :lengths[row]].tolist()) == sorted(padded[row, :lengths[row]].tolist())
            assert torch.equal(out[row, lengths[row]:], padded[row, lengths[row]:])  # padding stays last
        changed += int(not torch.equal(out[2], padded[2]))
    assert changed >= 45  # a random permutation of 7 is rarely the identity



def test_padded_inputs_are_the_table_rows_and_zero_at_padding():
    table = hand_table(4, n=30)
    inputs, lengths, valid = padded_inputs(table, batch_of(SENTENCES), None, None)
    width = max(len(s) for s in SENTENCES)
    assert inputs.shape == (len(SENTENCES), width, 4) and lengths.tolist() == [len(s) for s in SENTENCES]
    rows = table.weight.detach()
    for i, sentence in enumerate(SENTENCES):
        assert valid[i].tolist() == [t < len(sentence) for t in range(width)]
        for t in range(width):
            expected = rows[sentence[t]] if t < len(sentence) else torch.zeros(4)
            assert torch.equal(inputs[i, t].detach(), expected), (i, t)


def test_padded_inputs_scramble_the_marked_sentences_words():
    table = hand_table(4, n=30)
    mask = torch.tensor([True, False, True, False, True, True])
    plain, _, _ = padded_inputs(table, batch_of(SENTENCES), None, None)
    mixed, lengths, _ = padded_inputs(table, batch_of(SENTENCES), mask, torch.Generator().manual_seed(1))
    for i, n in enumerate(lengths.tolist()):
        if not mask[i]:
            assert torch.equal(mixed[i], plain[i])
        ours = sorted(map(tuple, mixed[i, :n].detach().tolist()))
        assert ours == sorted(map(tuple, plain[i, :n].detach().tolist()))  # the same words, in some order
        assert mixed[i, n:].abs().sum() == 0
    assert not torch.equal(mixed[2], plain[2])  # six words, this seed: not the identity
