"""SICK heads (train_embeddings/evaluation/sick.py): Tai et al.'s sparse target, features, head, losses and the
fine-tuning regulariser against hand values; file validation; seconds-long smoke runs: frozen GloVe features on a slice
of the real SICK files, fine-tuning a small WORD model and the CLI on SICK-layout files made of the bundled pairs; a
slow fuller run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from paranmt.cli.sick_command import main
from tests.support.shared_data import shared_data
from tests.support.taste_data import TASTE_PAIRS, taste_pairs
from train_embeddings.evaluation.sick import (
    ENTAILMENT_LABELS,
    PairHead,
    SickConfig,
    SickData,
    SickFormatError,
    evaluate_predictions,
    load_sick,
    pair_features,
    predicted_scores,
    regulariser,
    relatedness_target,
    task_loss,
    train_sick,
)
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import build_encoder
from train_embeddings.models.model_io import load_model, save_model
from train_embeddings.models.spec import ModelSpec
from train_embeddings.vocab import WordVocab


def test_relatedness_target_hand_values() -> None:
    target = relatedness_target(np.array([3.6, 1.0, 5.0, 4.5, 2.0, 1.2]))
    expected = [[0, 0, 0.4, 0.6, 0], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 0.5, 0.5], [0, 1, 0, 0, 0],
                [0.8, 0.2, 0, 0, 0]]
    np.testing.assert_allclose(target.numpy(), expected, atol=1e-7)
    assert target.dtype == torch.float32
    # The target's expectation is the gold score: ŷ = Σ r p_r recovers y from p.
    np.testing.assert_allclose(predicted_scores(target.double().clamp_min(1e-300).log()).numpy(),
                               [3.6, 1.0, 5.0, 4.5, 2.0, 1.2], atol=1e-9)
    with pytest.raises(ValueError, match=r"\[1, 5\]"):
        relatedness_target(np.array([0.5]))


def test_features_and_head_match_the_equations() -> None:
    left = torch.tensor([[1.0, -2.0, 3.0]])
    right = torch.tensor([[0.5, 4.0, -1.0]])
    np.testing.assert_allclose(pair_features(left, right).numpy(), [[0.5, -8.0, -3.0, 0.5, 6.0, 4.0]])
    with pytest.raises(ValueError, match="left embeddings"):
        pair_features(left, right[:, :2])
    torch.manual_seed(0)
    head = PairHead(3, 4, 5)
    w_times, w_plus = head.hidden.weight[:, :3], head.hidden.weight[:, 3:]  # W(×), W(+)
    h_s = torch.sigmoid(w_times @ (left * right).T + w_plus @ (left - right).abs().T + head.hidden.bias[:, None])
    logits = head.output.weight @ h_s + head.output.bias[:, None]
    expected = torch.log_softmax(logits.T, dim=1)
    torch.testing.assert_close(head(left, right), expected)


def test_losses_by_hand() -> None:
    log_probs = torch.log(torch.tensor([[0.1, 0.2, 0.3, 0.3, 0.1], [0.2, 0.2, 0.2, 0.2, 0.2]]))
    target = relatedness_target(np.array([3.6, 5.0]))
    kl = [0.4 * math.log(0.4 / 0.3) + 0.6 * math.log(0.6 / 0.3), 1.0 * math.log(1.0 / 0.2)]  # 0 log 0 = 0
    assert float(task_loss("relatedness", log_probs, target)) == pytest.approx(sum(kl) / 2, rel=1e-5)
    assert float(predicted_scores(log_probs)[0]) == pytest.approx(0.1 + 0.4 + 0.9 + 1.2 + 0.5, rel=1e-6)
    three = torch.log(torch.tensor([[0.7, 0.2, 0.1], [0.3, 0.3, 0.4]]))
    labels = torch.tensor([0, 2])
    assert float(task_loss("entailment", three, labels)) == pytest.approx(-(math.log(0.7) + math.log(0.4)) / 2)
    assert evaluate_predictions("entailment", three, np.array([0, 1])) == {"accuracy": 0.5}
    metrics = evaluate_predictions("relatedness", log_probs, np.array([3.0, 3.2]))
    assert metrics["mse"] == pytest.approx(((3.1 - 3.0) ** 2 + (3.0 - 3.2) ** 2) / 2)


def test_regulariser_equals_hand_value() -> None:
    module = torch.nn.Linear(2, 2)
    with torch.no_grad():
        module.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        module.bias.copy_(torch.tensor([0.5, -0.5]))
    initial = {"weight": torch.tensor([[1.0, 1.0], [1.0, 1.0]]), "bias": torch.tensor([0.0, 0.0])}
    # λ Σ (θ − θ0)²: weight (0 + 1 + 4 + 9) + bias (0.25 + 0.25) = 14.5
    assert float(regulariser(module, initial, 1e-3).detach()) == pytest.approx(1e-3 * 14.5)
    assert float(regulariser(module, None, 0.1).detach()) == pytest.approx(0.1 * (1 + 4 + 9 + 16 + 0.5))  # plain L2
    assert float(regulariser(module, initial, 0.0).detach()) == 0.0
    loss = regulariser(module, initial, 1.0)
    loss.backward()  # gradient 2 λ (θ − θ0)
    np.testing.assert_allclose(module.weight.grad.numpy(), [[0, 2], [4, 6]])


def test_load_sick_validates(tmp_path: Path) -> None:
    good = tmp_path / "r.tsv"
    good.write_text("sentence_A\tsentence_B\trelatedness_score\na man plays \tsomeone plays\t4.5\r\n\nx\ty\t1\n")
    data = load_sick(good, "relatedness")
    assert data.sentences1 == ("a man plays", "x") and data.targets.tolist() == [4.5, 1.0]  # header skipped
    ent = tmp_path / "e.tsv"
    ent.write_text("a\tb\tneutral\nc\td\tCONTRADICTION\n")
    assert load_sick(ent, "entailment").targets.tolist() == [ENTAILMENT_LABELS.index("NEUTRAL"), 0]
    cases = {"a\tb\t5.5\n": r"bad.tsv:1: expected a relatedness score in \[1, 5\]",
             "a\tb\t3\nc\td\tnan\n": "bad.tsv:2: expected a relatedness score",
             "a b 3\n": "bad.tsv:1: expected 'sentence1<TAB>sentence2<TAB>label', found 1",
             "a\t \t3\n": "bad.tsv:1: sentence2 is empty",
             "\n\n": "bad.tsv: no sentence pairs"}
    for text, message in cases.items():
        (tmp_path / "bad.tsv").write_text(text)
        with pytest.raises(SickFormatError, match=message):
            load_sick(tmp_path / "bad.tsv", "relatedness")
    (tmp_path / "bad.tsv").write_text("a\tb\tMAYBE\n")
    with pytest.raises(SickFormatError, match=r"bad\.tsv:1: expected one of CONTRADICTION"):
        load_sick(tmp_path / "bad.tsv", "entailment")
    with pytest.raises(FileNotFoundError, match=r"nowhere\.tsv"):
        load_sick(tmp_path / "nowhere.tsv", "relatedness")
    with pytest.raises(ValueError, match="task must be one of"):
        load_sick(good, "sentiment")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ real SICK


@pytest.fixture(scope="module")
def sick_slice() -> dict[str, tuple[SickData, SickData]]:
    root = shared_data("sick")
    out = {}
    for task, (train, dev) in {"relatedness": ("sicktrain.tsv", "sickdev.tsv"),
                               "entailment": ("sicktrain-ent.tsv", "sickdev-ent.tsv")}.items():
        out[task] = (load_sick(root / train, task).head(600), load_sick(root / dev, task).head(200))  # type: ignore
    return out


@pytest.fixture(scope="module")
def made_files(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """SICK-layout files made of the bundled pairs (support/taste_data.py:taste_pairs), lower-cased as SICK is: for the
    tests of the training mechanics, which need SICK's format, not its judgements. Every other pair is a real pair
    (a Tatoeba sentence, the translation of its Czech side), the rest a sentence with another pair's translation;
    relatedness is 1 + 4 x the Jaccard overlap of their word sets, entailment ENTAILMENT for a real pair and
    NEUTRAL for another (made here, not human judgements)."""
    _, en, mt = taste_pairs(TASTE_PAIRS)
    root = tmp_path_factory.mktemp("sick-made")
    rows = []
    for i in range(800):
        first, second = en[i].lower(), (mt[i] if i % 2 == 0 else mt[(i + 1000) % TASTE_PAIRS]).lower()
        a, b = set(first.split()), set(second.split())
        rows.append((first, second, round(1 + 4 * len(a & b) / len(a | b), 2),
                     "ENTAILMENT" if i % 2 == 0 else "NEUTRAL"))
    files = {}
    for task, column, suffix in (("relatedness", 2, ""), ("entailment", 3, "-ent")):
        for split, part in (("train", rows[:600]), ("dev", rows[600:])):
            path = root / f"sick{split}{suffix}.tsv"
            path.write_text("".join(f"{r[0]}\t{r[1]}\t{r[column]}\n" for r in part), encoding="utf-8")
        files[task] = (root / f"sicktrain{suffix}.tsv", root / f"sickdev{suffix}.tsv")
    return files


@pytest.fixture(scope="module")
def made_slice(made_files) -> dict[str, tuple[SickData, SickData]]:
    return {task: (load_sick(train, task), load_sick(dev, task)) for task, (train, dev) in made_files.items()}


def test_real_files_read() -> None:
    root = shared_data("sick")
    train = load_sick(root / "sicktrain.tsv", "relatedness")
    dev = load_sick(root / "sickdev-ent.tsv", "entailment")
    assert len(train) == 4500 and len(dev) == 500
    assert train.sentences1[0] == "a group of kids is playing in a yard and an old man is standing in the background"
    assert train.targets[0] == 4.5 and train.targets.min() >= 1 and train.targets.max() <= 5
    assert sorted(set(dev.targets.tolist())) == [0, 1, 2]


@pytest.fixture(scope="module")
def glove():
    from train_embeddings.models.sif import glove_average

    return glove_average("kumo")


@pytest.mark.parametrize("task", ["relatedness", "entailment"])
def test_smoke_frozen_glove(sick_slice, glove, task: str) -> None:
    train, dev = sick_slice[task]
    config = SickConfig(epochs=4, patience=2, seed=1)
    result = train_sick(glove, train, dev, config, progress=False, label="glove")
    again = train_sick(glove, train, dev, config, progress=False, label="glove")
    assert result.best == again.best and result.epochs == again.epochs  # seeded: identical on CPU
    assert result.mode == "frozen" and 1 <= result.best_epoch <= 4 and result.n_train == 600
    if task == "relatedness":
        assert set(result.best) == {"pearson", "spearman", "mse"}
        assert result.best["pearson"] > 0.3, result.best  # 600 pairs, 4 epochs: measured ~0.6
    else:
        assert result.best["accuracy"] > 0.5, result.best  # majority class (NEUTRAL) of this slice: ~0.5
    losses = [epoch["train_loss"] for epoch in result.epochs]
    assert losses[-1] < losses[0]
    json.dumps(result.to_dict())  # JSON-clean


@pytest.fixture(scope="module")
def word_model(made_slice, tmp_path_factory) -> Path:
    """A small WORD model over the made slice's words (whitespace tokens, lower-cased, as SICK's)."""
    words = sorted({w for data in made_slice["relatedness"] for s in data.unique_sentences() for w in s.split()})
    vocab = WordVocab(["<pad>", "<unk>", *words])
    spec = ModelSpec(components=["word"], word_dim=16, n_words=len(vocab), n_trainable_words=len(vocab),
                     tokenizer={"kind": "whitespace", "lowercase": True})
    table = torch.from_numpy(np.random.default_rng(0).normal(size=(len(vocab), 16)).astype(np.float32))
    encoder = build_encoder(spec, table, torch.ones(len(vocab), dtype=torch.bool))
    return save_model(EmbeddingModel(spec, encoder, vocab, None), tmp_path_factory.mktemp("word") / "model")


def test_smoke_finetune_word_model(made_slice, word_model: Path) -> None:
    train, dev = made_slice["relatedness"]
    model = load_model(word_model)
    before = {k: v.clone() for k, v in model.encoder.state_dict().items()}
    result = train_sick(model, train, dev, SickConfig(epochs=2, patience=2, lambda_w=1e-4), finetune=True,
                        progress=False)
    assert result.mode == "finetune" and result.encoder is not None
    for key, value in model.encoder.state_dict().items():
        assert torch.equal(value, before[key]), key  # the given model is untouched
    moved = result.encoder.encoder.state_dict()
    assert any(not torch.equal(moved[k], before[k]) for k in before)  # the copy was trained
    # The selected encoder and head reproduce the reported dev figures.
    with torch.no_grad():
        left = torch.from_numpy(result.encoder.encode(list(dev.sentences1)))
        right = torch.from_numpy(result.encoder.encode(list(dev.sentences2)))
        metrics = evaluate_predictions("relatedness", result.head(left, right), dev.targets)
    assert metrics["pearson"] == pytest.approx(result.best["pearson"], abs=1e-6)
    # A huge λ_w pins the encoder to its universal parameters.
    pinned = train_sick(model, train, dev, SickConfig(epochs=1, lambda_w=1e3), finetune=True, progress=False)
    table = "parts.word.table.weight"
    drift = (pinned.encoder.encoder.state_dict()[table] - before[table]).abs().max()
    assert drift < (moved[table] - before[table]).abs().max()


def test_finetune_needs_a_neural_model(made_slice, glove) -> None:
    train, dev = made_slice["relatedness"]
    with pytest.raises(ValueError, match="fine-tuning needs a neural model"):
        train_sick(glove, train.head(10), dev.head(10), finetune=True, progress=False)
    with pytest.raises(ValueError, match="train is relatedness data but dev is entailment"):
        train_sick(glove, train.head(10), made_slice["entailment"][1], progress=False)


def test_cli_smoke(tmp_path: Path, word_model: Path, made_files, capsys) -> None:
    train, dev = made_files["entailment"]
    out = tmp_path / "run"
    assert main(["--model", str(word_model), "--task", "entailment", "--train", str(train), "--dev", str(dev),
                 "--limit", "300", "--epochs", "2", "--finetune", "--quiet", "--out", str(out)]) == 0
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["task"] == "entailment" and metrics["mode"] == "finetune" and metrics["n_train"] == 300
    assert 0 <= metrics["best"]["accuracy"] <= 1 and len(metrics["epochs"]) == 2
    assert (out / "head.pt").is_file() and load_model(out / "model").encode(["a man"]).shape == (1, 16)
    files = ["--train", str(train), "--dev", str(dev)]  # the made files: on a clone without ../shared too
    capsys.readouterr()
    assert main(["--model", str(tmp_path / "missing"), "--task", "entailment", *files]) == 2
    assert "missing" in capsys.readouterr().err
    assert main(["--model", "glove", "--task", "entailment", "--train", str(tmp_path / "nope.tsv"),
                 "--dev", str(dev)]) == 2
    assert "nope.tsv" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_slow_full_frozen_runs() -> None:
    """Full SICK train/dev, default settings: GloVe-average and SIF features, relatedness and entailment."""
    from train_embeddings.evaluation.sick import load_encoder, sick_files

    results = {}
    for task in ("relatedness", "entailment"):
        train_path, dev_path = sick_files(task, shared_data("sick"))
        train, dev = load_sick(train_path, task), load_sick(dev_path, task)  # type: ignore[arg-type]
        for spec in ("glove", "sif"):
            model = load_encoder(spec, fit_sentences=train.unique_sentences())
            results[task, spec] = train_sick(model, train, dev, progress=False).best
    print(results)
    assert results["relatedness", "glove"]["pearson"] > 0.70  # measured 72.0
    assert results["relatedness", "sif"]["pearson"] > 0.68
    assert results["entailment", "glove"]["accuracy"] > 0.70
