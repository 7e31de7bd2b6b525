"""The trainer: smoke runs of every model type on real paraphrase pairs, exact resume, evaluation hook and best
model, NaN loss and bad-data errors, the CLI."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import torch

from configs import ConfigError
from configs.schema import TrainConfig
from paranmt.core.run_definition import DifferentRun
from tests.support.sts_layout import write_sts_dir
from tests.support.training_pairs import pair_lines, pairs_table
from train_embeddings.evaluation.sts.datasets import StsDataMissing
from train_embeddings.models.model_io import load_model
from train_embeddings.train_command import main
from train_embeddings.training.data import TrainDataError
from train_embeddings.training.preparation import prepare_training
from train_embeddings.training.trainer import CHECKPOINT, Trainer, TrainingError, default_evaluate_fn, train

PROBE = ["A man is playing a guitar.", "A dog runs in the park.", "Two women are talking."]


def tiny(data, model="word", **overrides) -> TrainConfig:
    values = dict(data=str(data), model=model, batch_size=20, megabatch=3, word_dim=16, trigram_dim=16,
                  lstm_dim=16, threads=1, shuffle_buffer=100, read_batch_rows=64, evals_per_epoch=0, epochs=1)
    values.update(overrides)
    return TrainConfig(**values)


@pytest.mark.parametrize("model", ["word", "trigram", "lstm", "blstm", "blstm-cat", "blstm-max", "word,trigram",
                                   "word+trigram", "word,trigram,lstm", "word+trigram+lstm"])
def test_smoke_train_every_model_type(tatoeba_pairs, tmp_path, model):
    result = train(tiny(tatoeba_pairs, model, max_steps=4), tmp_path / "run", evaluate_fn=None, progress=False)
    assert result.steps == 4 and len(result.losses) == 4 and np.isfinite(result.losses).all()
    assert not result.finished and result.best is None
    vectors = load_model(result.model_dir).encode(PROBE)
    assert vectors.shape[0] == 3 and np.isfinite(vectors).all()


def test_a_run_folder_names_no_module_path(tatoeba_pairs, tmp_path):
    """Saved models, checkpoints, vocabularies and metrics hold data, never a Python module path (``model.json`` a
    spec, ``weights.pt`` and ``checkpoint.pt`` plain tensors), so the package's modules can move without an old run
    or model failing to load."""
    train(tiny(tatoeba_pairs, "word,trigram,lstm", max_steps=2), tmp_path / "run", evaluate_fn=None, progress=False)
    files = [p for p in (tmp_path / "run").rglob("*") if p.is_file()]
    assert any(p.name == CHECKPOINT for p in files) and any(p.name == "model.json" for p in files)
    assert [p.name for p in files if b"train_embeddings" in p.read_bytes()] == []


def test_loss_goes_down_and_outputs_are_written(tatoeba_pairs, tmp_path):
    calls = []

    def evaluate(model):
        calls.append(model.dim)
        sims = model.similarity(PROBE[:2], PROBE[1:])
        return {"dev": float(-len(calls)), "probe": float(sims.mean())}  # best at the first evaluation

    config = tiny(tatoeba_pairs, "word", epochs=3, evals_per_epoch=2, log_every=5, lr=0.01)
    result = train(config, tmp_path / "run", evaluate_fn=evaluate, progress=False)
    steps_per_epoch = 15  # 300 pairs: 5 mega-batches of 60 = 3 mini-batches of 20 each
    assert result.finished and result.steps == 3 * steps_per_epoch
    assert len(calls) == 6 and [e["step"] for e in result.evaluations] == [8, 15, 23, 30, 38, 45]
    assert result.best == {"step": 8, "epoch": 0.5333, "metric": "dev", "score": -1.0}
    assert np.mean(result.losses[-10:]) < np.mean(result.losses[:10])
    out = tmp_path / "run"
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["n_pairs"] == 300 and metrics["steps_per_epoch"] == steps_per_epoch
    assert [e["step"] for e in metrics["log"]] == list(range(5, 46, 5))
    assert all(e["pairs_per_second"] > 0 for e in metrics["log"])
    assert (out / "curves.png").read_bytes()[:4] == b"\x89PNG"
    assert json.loads((out / "best" / "model.json").read_text())["best"]["step"] == 8
    assert (out / "model" / "word_vectors.npy").is_file() and (out / CHECKPOINT).is_file()
    assert load_model(out).encode(PROBE).shape == (3, 16)  # a run directory loads its best/


@pytest.mark.parametrize("model,negatives", [("word", "mix"), ("lstm", "max"), ("word,trigram", "max")])
def test_resume_gives_identical_subsequent_losses(tatoeba_pairs, tmp_path, model, negatives):
    evaluate = lambda m: {"dev": float(m.similarity(PROBE[:2], PROBE[1:]).mean())}  # noqa: E731
    config = tiny(tatoeba_pairs, model, epochs=2, negatives=negatives, evals_per_epoch=3, scramble=0.5)
    full = train(config, tmp_path / "full", evaluate_fn=evaluate, progress=False)
    assert full.steps == 30
    # Stop inside a mega-batch (step 17 = 5 mega-batches of 3 updates + 2) and at an epoch boundary (15).
    for stop in (17, 15):
        out = tmp_path / f"stop{stop}"
        first = train(config.model_copy(update={"max_steps": stop}), out, evaluate_fn=evaluate, progress=False)
        assert first.losses == full.losses[:stop] and not first.finished
        resumed = train(config, out, resume=True, evaluate_fn=evaluate, progress=False)
        assert resumed.losses == full.losses[stop:]  # bit-identical: model, Adam, RNG and data position
        assert resumed.finished and resumed.steps == 30
        assert resumed.evaluations == full.evaluations and resumed.best == full.best
        assert np.array_equal(load_model(out / "model").encode(PROBE), load_model(full.model_dir).encode(PROBE))


def test_a_run_folder_continues_the_same_run_and_refuses_another(tatoeba_pairs, tmp_path):
    config = tiny(tatoeba_pairs, "word", max_steps=2)
    first = train(config, tmp_path / "run", evaluate_fn=None, progress=False)
    again = train(config, tmp_path / "run", evaluate_fn=None, progress=False)  # the same run: nothing to redo
    assert again.steps == first.steps == 2 and again.losses == []
    with pytest.raises(DifferentRun, match=r"holds a different run \(train\.batch_size 20 -> 10\): pass "
                                           r"--overwrite"):
        train(config.model_copy(update={"batch_size": 10}), tmp_path / "run", evaluate_fn=None, progress=False)
    replaced = train(config.model_copy(update={"batch_size": 10}), tmp_path / "run", evaluate_fn=None,
                     progress=False, overwrite=True)
    assert replaced.steps == 2 and len(replaced.losses) == 2
    with pytest.raises(DifferentRun, match=r"train\.batch_size 10 -> 20"):
        train(config, tmp_path / "run", resume=True, evaluate_fn=None)
    with pytest.raises(TrainingError, match=r"no checkpoint\.pt"):
        train(config, tmp_path / "other", resume=True, evaluate_fn=None)


def test_nan_loss_names_the_step(tatoeba_pairs, tmp_path):
    trainer = Trainer(prepare_training(tiny(tatoeba_pairs, "word"), tmp_path / "run", evaluate_fn=None,
                                       progress=False))
    real, calls = trainer.loss_fn, []

    def poisoned(*args, **kwargs):
        calls.append(1)
        loss = real(*args, **kwargs)
        return loss * float("nan") if len(calls) == 3 else loss

    trainer.loss_fn = poisoned
    with pytest.raises(TrainingError, match=r"loss is nan at step 3 \(epoch 1, mega-batch 1, mini-batch 3\)"):
        trainer.run()


def test_bad_data_errors_reach_the_trainer(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(TrainDataError, match="holds no Parquet file"):
        train(tiny(tmp_path / "empty"), tmp_path / "run1", evaluate_fn=None)
    pq.write_table(pa.table({"id": ["a"], "en_tokens": [["x"]], "mt_tokens": [["y"]],
                             "paraphrase_score": pa.array([0.1], pa.float32())}), tmp_path / "one.parquet")
    with pytest.raises(TrainDataError, match=r"0 training pair\(s\) .* after the filters"):
        train(tiny(tmp_path / "one.parquet", min_score=0.5), tmp_path / "run2", evaluate_fn=None)


def test_default_evaluation_uses_sts2017_dev(tatoeba_pairs, tmp_path, monkeypatch):
    monkeypatch.setenv("PARANMT_STS_DIR", str(write_sts_dir(tmp_path / "sts")))  # the STS layout, bundled pairs
    evaluate = default_evaluate_fn()
    if evaluate is None:
        pytest.skip("train_embeddings.evaluation.sts.dev_score is not available yet")
    result = train(tiny(tatoeba_pairs, "word", max_steps=3), tmp_path / "run", evaluate_fn=None, progress=False)
    scores = evaluate(load_model(result.model_dir))
    assert set(scores) == {"dev"} and -1 <= scores["dev"] <= 1


def test_cli(tatoeba_pairs, tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["--input", str(tatoeba_pairs), "--model", "word,trigram", "--out", str(out), "--megabatch", "2",
                 "--batch-size", "25", "--epochs", "1", "--lr", "0.002", "--seed", "3", "--no-eval", "--quiet",
                 "--set", "train.word_dim=8", "--set", "train.trigram_dim=8", "--threads", "1"])
    assert code == 0
    assert "12 updates (1 epochs)" in capsys.readouterr().err
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["config"]["megabatch"] == 2 and metrics["config"]["lr"] == 0.002 and metrics["seed"] == 3
    assert load_model(out).dim == 16
    # --no-eval: these errors come before the dev evaluation's STS files would be looked for (no ../shared needed)
    assert main(["--input", str(tatoeba_pairs), "--model", "word,nope", "--out", str(tmp_path / "x"), "--no-eval"]) == 2
    assert "train.model" in capsys.readouterr().err
    assert main(["--input", str(tmp_path / "missing"), "--out", str(tmp_path / "y"), "--no-eval"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["--input", str(tatoeba_pairs), "--out", str(out), "--quiet", "--no-eval", "--resume", "--epochs",
                 "2", "--set", "train.word_dim=8", "--set", "train.trigram_dim=8", "--model", "word,trigram",
                 "--megabatch", "2", "--batch-size", "25", "--seed", "3"]) == 0
    assert json.loads((out / "metrics.json").read_text())["steps"] == 24


def test_checkpoints_without_evaluation_and_threads_restored(tatoeba_pairs, tmp_path):
    threads = torch.get_num_threads()
    saved = []
    original = torch.save
    try:
        torch.save = lambda obj, path, *a, **k: (saved.append(str(path)), original(obj, path, *a, **k))[1]
        result = train(tiny(tatoeba_pairs, "word", evals_per_epoch=3, threads=1), tmp_path / "run", evaluate_fn=None,
                       progress=False)
    finally:
        torch.save = original
    assert result.finished and result.best is None and result.best_dir is None
    assert sum(CHECKPOINT in p for p in saved) >= 3  # evals_per_epoch points, even without an evaluate_fn
    assert torch.get_num_threads() == threads


def test_released_tsv_is_tokenised_once(tmp_path):
    lines = [f"{a}\t{b}\t0.9" for a, b in zip(pair_lines("en", 120), pair_lines("mt", 120), strict=True)]
    (tmp_path / "para.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = tiny(tmp_path / "para.txt", "word,trigram", min_score=0.5, max_steps=4)
    result = train(config, tmp_path / "run", evaluate_fn=None, progress=False)
    assert result.steps == 4 and sorted(p.name for p in (tmp_path / "run" / "data").iterdir()) == ["para-00000.parquet"]
    resumed = train(config.model_copy(update={"max_steps": 6}), tmp_path / "run", resume=True, evaluate_fn=None,
                    progress=False)
    assert resumed.steps == 6
    assert json.loads((tmp_path / "run" / "metrics.json").read_text())["n_pairs"] == 120


def test_config_validation_messages():
    with pytest.raises(ConfigError, match=r"train\.megabatch: Input should be greater than or equal to 1"):
        from configs import load_config

        load_config(None, ["train.megabatch=0"])
    assert TrainConfig.parse_model("Word, Trigram") == (["word", "trigram"], "concat")
    assert torch.get_num_threads() >= 1


def test_false_negatives_are_logged_and_warned(tmp_path, caplog):
    """Every first sentence has an identical twin in another pair while its paraphrase shares no word with it: its
    mined negative (the twin, cosine 1) is always nearer than the paraphrase, the log says so and the run warns once
    (metrics.json)."""
    rows = [f"a man rides a red bike\tword{i} token{i} thing{i}" for i in range(120)]
    (tmp_path / "pairs.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    config = tiny(tmp_path / "pairs.tsv", "word", epochs=2, log_every=2)
    with caplog.at_level("WARNING", logger="train_embeddings.trainer"):
        result = train(config, tmp_path / "run", evaluate_fn=None, progress=False)
    log = json.loads(result.metrics_path.read_text())["log"]
    assert all(entry["positive_nearer"] <= 0.5 for entry in log)
    warnings = json.loads(result.metrics_path.read_text())["warnings"]
    assert len(warnings) == 1 and "smaller --megabatch" in warnings[0]
    assert sum("paraphrase nearer than the negative" in r.message for r in caplog.records) == 1


def test_no_warning_when_paraphrases_are_nearest(tmp_path):
    """Real sentences paired with themselves reversed: an order-free WORD model sees cosine 1 for every pair."""
    rows = [f"{line}\t{' '.join(reversed(line.split()))}" for line in dict.fromkeys(pair_lines("other", 150))]
    (tmp_path / "pairs.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = train(tiny(tmp_path / "pairs.tsv", "word", epochs=2, log_every=2), tmp_path / "run", evaluate_fn=None,
                   progress=False)
    metrics = json.loads(result.metrics_path.read_text())
    assert metrics["warnings"] == []
    assert all(entry["positive_nearer"] > 0.9 for entry in metrics["log"])


def test_train_without_sts_data_stops_before_any_work(tmp_path, monkeypatch, capsys):
    """Without the STS files the dev evaluation reads: one line naming PARANMT_STS_DIR and --no-eval, exit status
    2, before anything is written (not a run that trains, then dies at its first evaluation)."""
    words = ["a man plays a guitar", "a dog runs in the park", "two women are talking", "a child eats an apple"]
    table = pairs_table(words, words[::-1], [w.split() for w in words], [w.split() for w in words[::-1]],
                        [f"p{i}" for i in range(4)], paraphrase_score=[0.5] * 4)
    pq.write_table(table, tmp_path / "pairs.parquet")
    monkeypatch.setenv("PARANMT_STS_DIR", str(tmp_path / "no-sts"))
    out = tmp_path / "run"
    assert main(["--input", str(tmp_path / "pairs.parquet"), "--out", str(out), "--quiet", "--word-vectors",
                 "none"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "PARANMT_STS_DIR" in err and "--no-eval" in err and str(tmp_path / "no-sts") in err
    assert not out.exists()
    with pytest.raises(StsDataMissing, match="PARANMT_STS_DIR"):  # checked by the command before torch loads
        train(TrainConfig(data=str(tmp_path / "pairs.parquet"), model="word", word_dim=8), tmp_path / "lib-run")
    assert not (tmp_path / "lib-run").exists()


def test_train_help_names_the_sts_folder(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "PARANMT_STS_DIR" in capsys.readouterr().out
