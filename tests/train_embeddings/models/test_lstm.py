"""LSTM and BLSTM (train_embeddings/models/lstm.py) against the LSTM equations written out step by step on the
module's own weights: mean pooling, the two directions averaged or concatenated, max pooling, padding and empty
sentences, and scrambling as some permutation of the words."""

from __future__ import annotations

import itertools

import pytest
import torch

from tests.support.word_batches import SENTENCES, batch_of, hand_table
from train_embeddings.models.lstm import BiLSTMEncoder, LSTMEncoder


def _direction(lstm: torch.nn.LSTM, suffix: str, vectors: list[torch.Tensor]) -> list[torch.Tensor]:
    """Hidden states of one direction over ``vectors`` (PyTorch's gate order: input, forget, cell, output)."""
    W_x, W_h = getattr(lstm, f"weight_ih_l0{suffix}").detach(), getattr(lstm, f"weight_hh_l0{suffix}").detach()
    b = (getattr(lstm, f"bias_ih_l0{suffix}") + getattr(lstm, f"bias_hh_l0{suffix}")).detach()
    H = lstm.hidden_size
    h, c, states = torch.zeros(H, dtype=W_x.dtype), torch.zeros(H, dtype=W_x.dtype), []
    for x in vectors:
        z = W_x @ x + W_h @ h + b
        i, f, o = torch.sigmoid(z[:H]), torch.sigmoid(z[H:2 * H]), torch.sigmoid(z[3 * H:])
        g = torch.tanh(z[2 * H:3 * H])
        c = f * c + i * g
        h = o * torch.tanh(c)
        states.append(h)
    return states


def _reference(encoder, sentence: list[int]) -> torch.Tensor:
    """The encoder's output for one sentence, from the equations."""
    rows = encoder.table.weight.detach().double()
    vectors = [rows[w] for w in sentence]
    forward = _direction(encoder.lstm, "", vectors)
    if isinstance(encoder, LSTMEncoder):
        states = forward
    else:
        backward = _direction(encoder.lstm, "_reverse", vectors[::-1])[::-1]
        states = [0.5 * (f + b) if encoder.merge == "mean" else torch.cat([f, b])
                  for f, b in zip(forward, backward, strict=True)]
    if not states:
        return torch.zeros(encoder.output_dim, dtype=torch.float64)
    stacked = torch.stack(states)
    return stacked.amax(0) if getattr(encoder, "pool", "mean") == "max" else stacked.mean(0)


ENCODERS = {
    "lstm": lambda table: LSTMEncoder(table, 4),
    "blstm": lambda table: BiLSTMEncoder(table, 4),
    "blstm-cat": lambda table: BiLSTMEncoder(table, 4, merge="concat"),
    "blstm-max": lambda table: BiLSTMEncoder(table, 4, merge="concat", pool="max"),
    "blstm-mean-max": lambda table: BiLSTMEncoder(table, 4, merge="mean", pool="max"),
}


@pytest.mark.parametrize("name", list(ENCODERS))
def test_matches_the_equations_step_by_step(name):
    torch.manual_seed(0)
    encoder = ENCODERS[name](hand_table(3, n=30)).double().eval()
    assert encoder.output_dim == (8 if name in ("blstm-cat", "blstm-max") else 4)
    with torch.no_grad():
        got = encoder(batch_of(SENTENCES))  # lengths 0..6: padding everywhere but the longest
    for i, sentence in enumerate(SENTENCES):
        torch.testing.assert_close(got[i], _reference(encoder, sentence), rtol=1e-10, atol=1e-12)


def test_scrambling_reads_the_marked_sentence_in_some_order_of_its_words():
    torch.manual_seed(1)
    encoder = LSTMEncoder(hand_table(3, n=30), 4).double().eval()
    encoder.generator = torch.Generator().manual_seed(0)
    sentences = [[2, 5, 9, 11], [2, 5, 9, 11]]
    with torch.no_grad():
        got = encoder(batch_of(sentences), torch.tensor([True, False]))
    orders = {tuple(p): _reference(encoder, list(p)) for p in itertools.permutations(sentences[0])}
    matches = [p for p, value in orders.items() if torch.allclose(got[0], value, rtol=1e-10, atol=1e-12)]
    assert len(matches) == 1  # one of the 24 orders, exactly
    torch.testing.assert_close(got[1], orders[tuple(sentences[1])], rtol=1e-10, atol=1e-12)
