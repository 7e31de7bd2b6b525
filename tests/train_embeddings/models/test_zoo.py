"""The ICLR'16 encoder zoo and CSE end to end: the eq. 11 regularisers over a zoo encoder
(train_embeddings/training/trainer.py), the optimizers and their config checks, save/load round trips of every
family, and seconds-long CLI smoke runs on real paraphrase pairs (the encoders themselves: test_iclr16.py,
test_cse.py)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from configs.schema import TrainConfig
from tests.support.training_pairs import tatoeba_pairs_parquet
from tests.support.word_batches import zoo_spec
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import build_encoder
from train_embeddings.models.model_io import load_model, save_model
from train_embeddings.models.spec import ModelSpec
from train_embeddings.train_command import main
from train_embeddings.training.preparation import build_optimizer
from train_embeddings.training.trainer import CHECKPOINT, regularization, train
from train_embeddings.vocab import WordVocab

PROBE = ["a man is playing a guitar .", "a dog runs in the park", "two women are talking"]


def test_regularisers_against_hand_computation():
    torch.manual_seed(0)
    encoder = build_encoder(zoo_spec(["word", "proj", "irnn"]), torch.randn(30, 6), torch.ones(30, dtype=torch.bool))
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


