"""The ICLR'16 encoder zoo and CSE (train_embeddings/models/iclr16.py, cse.py), the eq. 11 regularisers and AdaGrad
(train_embeddings/training/trainer.py): shapes, masking and padding invariance, the identity-RNN's equality with
averaging, the peephole LSTM / Elman RNN / CSE against slow per-step references on hand weights, penalties against hand
computation, save/load round trips, and seconds-long CLI smoke runs on real paraphrase pairs."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from configs.schema import TrainConfig
from tests.support.training_pairs import tatoeba_pairs_parquet
from train_embeddings.models.cse import ConvSentenceEncoder
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import SentenceEncoder, build_encoder
from train_embeddings.models.iclr16 import ElmanRNN, PeepholeLSTM
from train_embeddings.models.model_io import load_model, save_model
from train_embeddings.models.spec import COMPONENTS, RECURRENT, ModelSpec
from train_embeddings.models.word_table import WordTable
from train_embeddings.train_command import main
from train_embeddings.training.preparation import build_optimizer
from train_embeddings.training.trainer import CHECKPOINT, regularization, train
from train_embeddings.vocab import SentenceBatch, WordVocab

ZOO = ["proj", "dan", "rnn", "irnn", "lstm-peep", "lstm-peep-nog", "cse"]
PROBE = ["a man is playing a guitar .", "a dog runs in the park", "two women are talking"]


def spec_for(components: list[str], **overrides) -> ModelSpec:
    values = dict(components=components, word_dim=6, lstm_dim=5, n_words=30, n_trainable_words=24, cse_maps=3,
                  hidden_dim=7, dan_layers=2)
    values.update(overrides)
    return ModelSpec(**values)


def batch_of(sentences: list[list[int]]) -> SentenceBatch:
    lengths = torch.tensor([len(s) for s in sentences])
    offsets = torch.zeros(len(sentences) + 1, dtype=torch.long)
    torch.cumsum(lengths, 0, out=offsets[1:])
    ids = torch.tensor([i for s in sentences for i in s], dtype=torch.long)
    return SentenceBatch(len(sentences), ids, offsets)


# Ids 2..29: trainable (< 24) and frozen pretrained rows (>= 24) mixed; lengths 1..6 and an empty sentence.
SENTENCES = [[2, 5, 9, 26, 3], [7], [4, 4, 28, 11, 12, 13], [], [20, 21], [6, 25, 8]]


def encoder_for(name: str, seed: int = 0, **overrides) -> SentenceEncoder:
    torch.manual_seed(seed)
    vectors = torch.randn(30, 6)
    known = torch.ones(30, dtype=torch.bool)
    encoder = build_encoder(spec_for([name], **overrides), vectors, known)
    with torch.no_grad():  # non-trivial values everywhere (biases, peepholes) so masking bugs show
        for n, p in encoder.named_parameters():
            if "table" not in n and name != "irnn":
                p.add_(0.3 * torch.randn_like(p))
    return encoder.eval()


def test_component_lists_agree():
    assert set(TrainConfig.parse_model(",".join(COMPONENTS))[0]) == set(COMPONENTS)
    assert {"rnn", "irnn", "lstm-peep", "lstm-peep-nog"} <= RECURRENT and not RECURRENT & {"proj", "dan", "cse"}


@pytest.mark.parametrize("name", ZOO)
def test_shapes_masks_and_padding_invariance(name):
    encoder = encoder_for(name)
    expected = {"proj": 7, "dan": 7, "rnn": 7, "irnn": 6, "lstm-peep": 5, "lstm-peep-nog": 5, "cse": 9}[name]
    assert encoder.output_dim == expected
    with torch.no_grad():
        together = encoder(batch_of(SENTENCES))
        assert together.shape == (len(SENTENCES), expected) and torch.isfinite(together).all()
        # Each sentence alone (no padding at all), and next to a much longer one (lots of padding).
        long = [3] * 15
        for k, sentence in enumerate(SENTENCES):
            alone = encoder(batch_of([sentence]))[0]
            padded = encoder(batch_of([long, sentence, long]))[1]
            torch.testing.assert_close(alone, together[k], atol=1e-6, rtol=1e-5)
            torch.testing.assert_close(padded, together[k], atol=1e-6, rtol=1e-5)
        if name in ("rnn", "irnn", "lstm-peep", "lstm-peep-nog", "cse"):
            assert torch.equal(together[3], torch.zeros(expected))  # the empty sentence: no state, no window
        # Order-free models ignore scrambling; recurrent ones shuffle only the marked sentences.
        scramble = torch.tensor([True, False, True, False, False, True])
        encoder.set_generator(torch.Generator().manual_seed(0))
        shuffled = encoder(batch_of(SENTENCES), scramble)
        unmarked = ~scramble
        torch.testing.assert_close(shuffled[unmarked], together[unmarked])
        if name not in RECURRENT:
            torch.testing.assert_close(shuffled, together)


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


def _hand_table(dim: int, n: int = 12, seed: int = 5) -> WordTable:
    table = WordTable(n, 0, dim)
    with torch.no_grad():
        table.weight.copy_(torch.randn(n, dim, generator=torch.Generator().manual_seed(seed)))
        table.weight[0].zero_()
    return table


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@pytest.mark.parametrize("output_gate", [True, False])
@pytest.mark.parametrize("pool", ["last", "mean"])
def test_peephole_lstm_matches_the_paper_equations(output_gate, pool):
    d, hidden = 3, 2
    table = _hand_table(d)
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
    table = _hand_table(3)
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


def test_cse_matches_explicit_loops_over_positions():
    d, maps, widths = 3, 2, [1, 2, 3]
    table = _hand_table(d)
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


def test_proj_and_dan_against_hand_computation():
    encoder = encoder_for("proj")
    mean = encoder.parts["proj"].table.lookup(torch.tensor([2, 5, 9, 26, 3])).mean(0)
    linear = encoder.parts["proj"].linear
    with torch.no_grad():
        torch.testing.assert_close(encoder(batch_of([SENTENCES[0]]))[0], linear.weight @ mean + linear.bias)
    dan = encoder_for("dan", dan_activation="relu").parts["dan"]
    first, second = dan.layers[0], dan.layers[2]
    mean = dan.table.lookup(torch.tensor([2, 5, 9, 26, 3])).mean(0)
    with torch.no_grad():
        expected = torch.relu(second.weight @ torch.relu(first.weight @ mean + first.bias) + second.bias)
        torch.testing.assert_close(dan(batch_of([SENTENCES[0]]))[0], expected)
    assert len(dan.layers) == 4  # 2 x (affine, activation)


def test_regularisers_against_hand_computation():
    torch.manual_seed(0)
    encoder = build_encoder(spec_for(["word", "proj", "irnn"]), torch.randn(30, 6), torch.ones(30, dtype=torch.bool))
    assert regularization(encoder) is None
    proj, irnn = encoder.parts["proj"], encoder.parts["irnn"]
    with torch.no_grad():
        irnn.input.weight.add_(0.1)
        irnn.input.bias.fill_(0.2)
        irnn.recurrent.weight[0, 1] = 0.5
    # λ_c: ‖W_p‖² + ‖b‖² of proj; the identity-RNN's distance to identity / zero; nothing for WORD.
    proj_sq = float((proj.linear.weight.square().sum() + proj.linear.bias.square().sum()).detach())
    irnn_sq = 36 * 0.01 + 6 * 0.04 + 0.25
    value = regularization(encoder, lambda_c=1e-3)
    assert value is not None and math.isclose(float(value.detach()), 1e-3 * (proj_sq + irnn_sq), rel_tol=1e-5)
    # λ_w: squared distance of every trainable word table to its initial copy.
    initial = [t.weight.detach().clone() for t in encoder.word_tables()]
    assert float(regularization(encoder, lambda_w=0.5, initial_words=initial).detach()) == 0.0
    with torch.no_grad():
        encoder.word_tables()[1].weight[4] += 2.0  # 6 entries moved by 2
    penalty = regularization(encoder, lambda_w=0.5, initial_words=initial)
    assert math.isclose(float(penalty.detach()), 0.5 * 6 * 4.0)
    total = regularization(encoder, lambda_c=1e-3, lambda_w=0.5, initial_words=initial)
    assert math.isclose(float(total.detach()), 1e-3 * (proj_sq + irnn_sq) + 12.0, rel_tol=1e-5)
    # The penalty has gradients on exactly the parameters it names.
    total.backward()
    assert encoder.parts["word"].table.weight.grad is not None and proj.linear.weight.grad is not None
    with pytest.raises(ValueError, match="initial word tables"):
        regularization(encoder, lambda_w=0.1)


def test_optimizer_choice_and_validation():
    params = [torch.nn.Parameter(torch.zeros(2))]
    assert isinstance(build_optimizer("adagrad", params, 0.05), torch.optim.Adagrad)
    assert isinstance(build_optimizer("adam", params, 1e-3), torch.optim.Adam)
    for field, value in (("lambda_c", -1.0), ("lambda_w", -0.1), ("dan_layers", 0), ("cse_maps", 0)):
        with pytest.raises(ValueError, match=field):
            TrainConfig(**{field: value})
    with pytest.raises(ValueError, match="optimizer"):
        TrainConfig(optimizer="sgd")
    with pytest.raises(ValueError, match="cse_widths"):
        TrainConfig(cse_widths=[1, 0])


@pytest.mark.parametrize("components", [["proj"], ["dan"], ["rnn"], ["irnn"], ["lstm-peep"], ["lstm-peep-nog"],
                                        ["cse"], ["word", "cse"], ["word", "irnn"]])
def test_save_load_round_trip(tmp_path, components):
    words = WordVocab(["<pad>", "<unk>", *sorted({w for s in PROBE for w in s.split()})])
    spec = ModelSpec(components=components, combine="sum" if components == ["word", "irnn"] else "concat",
                     word_dim=8, lstm_dim=4, hidden_dim=5, n_words=len(words), n_trainable_words=len(words),
                     cse_maps=2, cse_widths=[1, 3], dan_layers=2, dan_activation="relu", rnn_activation="relu",
                     peep_pool="mean", tokenizer={"kind": "whitespace", "lowercase": True})
    torch.manual_seed(1)
    model = EmbeddingModel(spec, build_encoder(spec), words, None)
    with torch.no_grad():
        for p in model.encoder.parameters():
            p.add_(0.1 * torch.randn_like(p))
    before = model.encode(PROBE)
    loaded = load_model(save_model(model, tmp_path / "m"))
    assert loaded.spec == spec and np.array_equal(loaded.encode(PROBE), before)


def test_old_specs_still_load():
    old = {"components": ["lstm"], "combine": "concat", "word_dim": 300, "trigram_dim": 300, "lstm_dim": 300,
           "n_words": 10, "n_trainable_words": 10, "n_trigrams": 0,
           "tokenizer": {"kind": "moses", "lang": "en", "normalize_punctuation": True, "escape": False,
                         "lowercase": True}}
    spec = ModelSpec.from_json(old)
    assert spec.peep_pool == "last" and spec.cse_widths == [1, 2, 3] and spec.hidden_size == 300
    assert ModelSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec


@pytest.fixture(scope="module")
def tatoeba_120_pairs(tmp_path_factory):
    """Six batches of 20: an epoch of the resume test."""
    return tatoeba_pairs_parquet(tmp_path_factory.mktemp("tatoeba-pairs"), n=120)


@pytest.mark.parametrize("model,extra", [
    ("proj", ["--optimizer", "adagrad", "--lr", "0.05", "--lambda-c", "1e-4"]),
    ("dan", ["--set", "train.dan_layers=2", "--set", "train.dan_activation=relu", "--negatives", "mix"]),
    ("rnn", ["--set", "train.rnn_activation=relu", "--lambda-w", "1e-4"]),
    ("irnn", ["--lambda-c", "1", "--lambda-w", "1e-3", "--optimizer", "adagrad", "--negatives", "mix"]),
    ("lstm-peep", ["--set", "train.peep_pool=mean"]),
    ("lstm-peep-nog", ["--lambda-c", "1e-5"]),
    ("cse", ["--negatives", "mix"]),
    ("word,cse,irnn", ["--lambda-w", "1e-4"]),
])
def test_cli_smoke_run_per_family(tatoeba_120_pairs, tmp_path, capsys, model, extra):
    out = tmp_path / "run"
    code = main(["--input", str(tatoeba_120_pairs), "--model", model, "--out", str(out), "--megabatch", "2",
                 "--batch-size", "20", "--max-steps", "3", "--no-eval", "--quiet", "--threads", "1",
                 "--set", "train.word_dim=8", "--set", "train.lstm_dim=6", "--set", "train.cse_maps=4", *extra])
    assert code == 0, capsys.readouterr().err
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["steps"] == 3 and all(math.isfinite(e["loss"]) for e in metrics["log"])
    state = torch.load(out / CHECKPOINT, map_location="cpu", weights_only=True)
    optimizer_state = next(iter(state["optimizer"]["state"].values()))
    assert ("sum" in optimizer_state) == ("adagrad" in extra)  # AdaGrad's accumulator vs Adam's moments
    assert (state["initial_words"] is not None) == ("--lambda-w" in extra)
    vectors = load_model(out).encode(PROBE)
    assert vectors.shape[0] == 3 and np.isfinite(vectors).all()


def test_regularised_run_resumes_exactly(tatoeba_120_pairs, tmp_path):
    config = TrainConfig(data=str(tatoeba_120_pairs), model="irnn", batch_size=20, megabatch=2, word_dim=8, threads=1,
                         shuffle_buffer=100, read_batch_rows=64, evals_per_epoch=2, epochs=1, lambda_c=0.1,
                         lambda_w=0.01, optimizer="adagrad", lr=0.05)
    full = train(config, tmp_path / "full", evaluate_fn=None, progress=False)
    first = train(config.model_copy(update={"max_steps": 4}), tmp_path / "part", evaluate_fn=None, progress=False)
    assert first.losses == full.losses[:4]
    resumed = train(config, tmp_path / "part", resume=True, evaluate_fn=None, progress=False)
    assert resumed.losses == full.losses[4:] and resumed.steps == full.steps == 6


def test_example_configs_validate():
    from configs import load_config

    zoo, cse = load_config("iclr16-zoo").train, load_config("cse").train
    assert (zoo.model, zoo.optimizer, zoo.peep_pool, zoo.megabatch) == ("lstm-peep-nog", "adagrad", "last", 1)
    assert (cse.model, cse.cse_widths, cse.cse_maps) == ("cse", [1, 2, 3], 100)


def test_a_table_initialised_from_one_known_vector_is_finite():
    """One pretrained row gave a NaN spread (std of one sample), a NaN table and a NaN first loss."""
    table = WordTable(5, 0, 3)
    vectors = torch.zeros(5, 3)
    vectors[2] = torch.tensor([0.5, -0.5, 1.0])
    table.initialise(vectors, torch.tensor([False, False, True, False, False]))
    assert torch.isfinite(table.weight).all()
    assert torch.equal(table.weight[2], vectors[2]) and not table.weight[3].eq(0).all()
