"""CSE (train_embeddings/models/cse.py): sum-pooled convolutions against explicit loops over the windows, padding
invariance and masking, and the widths it refuses."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch

from tests.support.word_batches import batch_of, check_padding_masking_and_scrambling, hand_table
from train_embeddings.models.cse import ConvSentenceEncoder


def test_shapes_masks_and_padding_invariance():
    check_padding_masking_and_scrambling("cse", 9)


def test_cse_matches_explicit_loops_over_positions():
    d, maps, widths = 3, 2, [1, 2, 3]
    table = hand_table(d)
    cse = ConvSentenceEncoder(table, widths, maps).double()
    sentences = [[3, 7, 1, 9], [5], [2, 11], [4, 4, 4, 6, 8, 10]]
    with torch.no_grad():
        got = cse(batch_of(sentences))
    E = table.weight.detach().double()
    for row, sentence in enumerate(sentences):
        expected = []
        for width, conv in zip(widths, cse.convs, strict=True):
            w, bias = conv.weight.detach(), conv.bias.detach()  # maps x d x width
            for m in range(maps):
                total = 0.0
                for i in range(len(sentence) - width + 1):  # every window inside the sentence
                    window = torch.stack([E[sentence[i + k]] for k in range(width)], dim=1)  # d x width
                    total += float((w[m] * window).sum()) + float(bias[m])
                expected.append(total)
        np.testing.assert_allclose(got[row].numpy(), expected, rtol=1e-10, atol=1e-12)
    assert cse.output_dim == maps * 3



def test_a_width_longer_than_the_sentence_contributes_nothing():
    table = hand_table(3)
    cse = ConvSentenceEncoder(table, widths=[1, 2, 3], maps=2).double()
    assert cse.output_dim == 6
    with torch.no_grad():
        got = cse(batch_of([[5], [5, 6]]))
    one = cse.convs[0]
    word = table.weight.detach().double()[5]
    np.testing.assert_allclose(got[0, :2].numpy(), (one.weight[:, :, 0].detach() @ word + one.bias.detach()).numpy())
    assert got[0, 2:].abs().sum() == 0  # no window of 2 or 3 inside a one-word sentence
    assert got[1, 2:4].abs().sum() > 0 and got[1, 4:].abs().sum() == 0  # one window of 2, none of 3


@pytest.mark.parametrize("widths", [[], [0, 2], [-1]])
def test_widths_refused_with_the_setting_named(widths):
    with pytest.raises(ValueError, match=re.escape(f"cse_widths must be positive filter widths, got {widths}")):
        ConvSentenceEncoder(hand_table(3), widths=widths)
