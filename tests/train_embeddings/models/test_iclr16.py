"""The ICLR'16 encoders (train_embeddings/models/iclr16.py): shapes, masking and padding invariance, the
identity-RNN's equality with averaging and its penalty, the peephole LSTM and the Elman RNN against slow per-step
references on hand weights, projection and DAN against hand computation, and the settings they refuse."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from tests.support.word_batches import (
    SENTENCES,
    batch_of,
    check_padding_masking_and_scrambling,
    hand_table,
    zoo_encoder,
)
from train_embeddings.models.encoder import build_encoder
from train_embeddings.models.iclr16 import DeepAveragingNetwork, ElmanRNN, IdentityRNN, PeepholeLSTM
from train_embeddings.models.spec import ModelSpec


@pytest.mark.parametrize("name,dim", [("proj", 7), ("dan", 7), ("rnn", 7), ("irnn", 6), ("lstm-peep", 5),
                                      ("lstm-peep-nog", 5)])
def test_shapes_masks_and_padding_invariance(name, dim):
    check_padding_masking_and_scrambling(name, dim)


def test_identity_rnn_is_word_averaging_before_training():
    torch.manual_seed(3)
    spec = ModelSpec(components=["word", "irnn"], word_dim=50, n_words=400, n_trainable_words=300)
    vectors = torch.randn(400, 50)
    encoder = build_encoder(spec, vectors, torch.ones(400, dtype=torch.bool)).eval()  # both tables: the vectors
    sentences = [[int(i) for i in torch.randint(2, 400, (n,))] for n in (1, 3, 17, 40, 8)] + [[]]
    with torch.no_grad():
        word = encoder.parts["word"](batch_of(sentences))
        irnn = encoder.parts["irnn"](batch_of(sentences))
    torch.testing.assert_close(irnn, word, atol=1e-6, rtol=1e-6)
    assert float(encoder.parts["irnn"].composition_penalty().detach()) == 0.0  # at its initial values


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@pytest.mark.parametrize("output_gate", [True, False])
@pytest.mark.parametrize("pool", ["last", "mean"])
def test_peephole_lstm_matches_the_paper_equations(output_gate, pool):
    d, hidden = 3, 2
    table = hand_table(d)
    lstm = PeepholeLSTM(table, hidden, output_gate=output_gate, pool=pool).double()
    gates = 4 if output_gate else 3
    g = torch.Generator().manual_seed(11)
    W_x = torch.randn(gates, hidden, d, generator=g, dtype=torch.float64) * 0.7  # blocks i, f, c[, o]
    W_h = torch.randn(gates, hidden, hidden, generator=g, dtype=torch.float64) * 0.7
    b = torch.randn(gates, hidden, generator=g, dtype=torch.float64) * 0.3
    peep = torch.randn(gates - 1, hidden, generator=g, dtype=torch.float64)  # w_ci, w_cf[, w_co]
    with torch.no_grad():
        lstm.input.weight.copy_(W_x.reshape(gates * hidden, d))
        lstm.input.bias.copy_(b.reshape(-1))
        lstm.recurrent.weight.copy_(W_h.reshape(gates * hidden, hidden))
        lstm.peephole.copy_(peep)
    sentences = [[3, 7, 1, 9], [5], [2, 2, 11]]
    with torch.no_grad():
        got = lstm(batch_of(sentences))
    E = table.weight.detach().double()
    for row, sentence in enumerate(sentences):
        h, c, hs = [0.0] * hidden, [0.0] * hidden, []
        for word in sentence:  # eqs. 5-9, one unit at a time
            x = E[word]

            def pre(k, j, h=h, x=x):
                return float(W_x[k, j] @ x) + sum(float(W_h[k, j, m]) * h[m] for m in range(hidden)) + float(b[k, j])

            i = [_sigmoid(pre(0, j) + float(peep[0, j]) * c[j]) for j in range(hidden)]
            f = [_sigmoid(pre(1, j) + float(peep[1, j]) * c[j]) for j in range(hidden)]
            c_new = [f[j] * c[j] + i[j] * math.tanh(pre(2, j)) for j in range(hidden)]
            o = ([_sigmoid(pre(3, j) + float(peep[2, j]) * c_new[j]) for j in range(hidden)] if output_gate
                 else [1.0] * hidden)
            h = [o[j] * math.tanh(c_new[j]) for j in range(hidden)]
            c = c_new
            hs.append(h)
        expected = hs[-1] if pool == "last" else list(np.mean(hs, axis=0))
        np.testing.assert_allclose(got[row].numpy(), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_elman_rnn_matches_a_per_step_reference(activation):
    table = hand_table(3)
    rnn = ElmanRNN(table, 4, activation).double()
    sentences = [[3, 7, 1, 9], [5], [2, 2, 11]]
    with torch.no_grad():
        got = rnn(batch_of(sentences))
    W_x, W_h, b = (rnn.rnn.weight_ih_l0.detach(), rnn.rnn.weight_hh_l0.detach(), rnn.rnn.bias_ih_l0.detach())
    assert float(rnn.rnn.bias_hh_l0.abs().sum()) == 0 and not rnn.rnn.bias_hh_l0.requires_grad
    f = torch.tanh if activation == "tanh" else torch.relu
    for row, sentence in enumerate(sentences):
        h = torch.zeros(4, dtype=torch.float64)
        for word in sentence:
            h = f(W_x @ table.weight.detach().double()[word] + W_h @ h + b)
        torch.testing.assert_close(got[row], h)


def test_proj_and_dan_against_hand_computation():
    encoder = zoo_encoder("proj")
    mean = encoder.parts["proj"].table.lookup(torch.tensor([2, 5, 9, 26, 3])).mean(0)
    linear = encoder.parts["proj"].linear
    with torch.no_grad():
        torch.testing.assert_close(encoder(batch_of([SENTENCES[0]]))[0], linear.weight @ mean + linear.bias)
    dan = zoo_encoder("dan", dan_activation="relu").parts["dan"]
    first, second = dan.layers[0], dan.layers[2]
    mean = dan.table.lookup(torch.tensor([2, 5, 9, 26, 3])).mean(0)
    with torch.no_grad():
        expected = torch.relu(second.weight @ torch.relu(first.weight @ mean + first.bias) + second.bias)
        torch.testing.assert_close(dan(batch_of([SENTENCES[0]]))[0], expected)
    assert len(dan.layers) == 4  # 2 x (affine, activation)



def test_identity_rnn_off_its_initialisation_matches_a_per_step_reference_and_penalty():
    table = hand_table(3)
    irnn = IdentityRNN(table).double()
    g = torch.Generator().manual_seed(2)
    A, B = (0.2 * torch.randn(3, 3, generator=g, dtype=torch.float64) for _ in range(2))
    c = 0.1 * torch.randn(3, generator=g, dtype=torch.float64)
    with torch.no_grad():
        irnn.input.weight.add_(A)
        irnn.recurrent.weight.add_(B)
        irnn.input.bias.copy_(c)
    sentences = [[3, 7, 1, 9], [5], [], [2, 2, 11]]
    with torch.no_grad():
        got = irnn(batch_of(sentences))
    E, W_x, W_h = table.weight.detach().double(), torch.eye(3) + A, torch.eye(3) + B
    for row, sentence in enumerate(sentences):
        h = torch.zeros(3, dtype=torch.float64)
        for word in sentence:  # identity activation: h_t = W_x x_t + W_h h_{t-1} + b
            h = W_x @ E[word] + W_h @ h + c
        torch.testing.assert_close(got[row], h / max(len(sentence), 1))
    expected = float(A.square().sum() + B.square().sum() + c.square().sum())
    assert float(irnn.composition_penalty().detach()) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("build,message", [
    (lambda t: DeepAveragingNetwork(t, 4, layers=0), "dan_layers must be at least 1, got 0"),
    (lambda t: DeepAveragingNetwork(t, 4, activation="sigmoid"), "activation must be 'tanh' or 'relu', got 'sigmoid'"),
    (lambda t: ElmanRNN(t, 4, activation="sigmoid"), "rnn_activation must be 'tanh' or 'relu', got 'sigmoid'"),
    (lambda t: PeepholeLSTM(t, 4, pool="max"), "peep_pool must be 'last' or 'mean', got 'max'"),
])
def test_settings_refused_with_the_setting_named(build, message):
    with pytest.raises(ValueError, match=message):
        build(hand_table(3))
