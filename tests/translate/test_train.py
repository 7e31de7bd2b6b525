"""translate.train end to end on a few hundred pairs: train -> CTranslate2 -> evaluate -> the pipeline uses it;
resumption after a kill; clear errors for bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import torch

from configs.schema import TranslateConfig
from paranmt.cli.evaluate_nmt_command import main as evaluate_main
from paranmt.cli.train_nmt_command import main as train_main
from tests.support.commands import one_error_line
from tests.support.repo import REPO_ROOT
from tests.support.text_files import write_pair_files
from tests.support.toy_corpus import make_toy_corpus
from translate.card import ModelDir
from translate.loading import load_translator
from translate.train import (
    average_checkpoints,
    fairseq_train_args,
    parse_log_line,
)
from translate.train_recipe import PRESETS
from translate.translator import Status

# Seconds on one thread: 2+2 layers of 64 on a few hundred toy pairs, in batches small enough for a dozen updates
# an epoch and a warm-up short enough that the learning rate peaks within the first three epochs.
FAST = ["--preset", "tiny", "--recipe", "bpe_merges=300", "--recipe", "max_tokens=256", "--recipe",
        "warmup_updates=30", "--threads", "1"]
EPOCHS = 10


@pytest.fixture(scope="module")
def toy_files(tmp_path_factory) -> dict[str, Path]:
    cs, en = make_toy_corpus(500, seed=3)
    folder = tmp_path_factory.mktemp("toy-bitext")
    train_cs, train_en = write_pair_files(folder, "train", cs[:400], en[:400])
    test_cs, test_en = write_pair_files(folder, "test", cs[400:], en[400:])
    return {"cs": train_cs, "en": train_en, "test_cs": test_cs, "test_en": test_en}


@pytest.fixture(scope="module")
def trained(tmp_path_factory, toy_files) -> Path:
    out = tmp_path_factory.mktemp("train") / "toy-trained"
    code = train_main(["--cs", str(toy_files["cs"]), "--en", str(toy_files["en"]), "--out", str(out),
                       *FAST, "--max-epoch", str(EPOCHS), "--name", "toy-trained"])
    assert code == 0
    return out


def test_training_writes_a_complete_model_directory(trained):
    model_dir = ModelDir(trained)
    card = model_dir.card
    assert card.name == "toy-trained" and card.ctranslate2 == "ct2" and card.fairseq is not None
    assert (card.preprocess.tokenize, card.preprocess.subword) == ("moses", "bpe")
    recipe = json.loads(card.provenance["recipe"])
    assert recipe["bpe_merges"] == 300 and recipe["max_epoch"] == EPOCHS
    assert int(card.provenance["train_pairs"]) + int(card.provenance["valid_pairs"]) == 400
    assert int(card.provenance["updates"]) > 0 and card.provenance["epochs"] == str(EPOCHS)
    assert 1.0 < card.metrics["valid_perplexity"] < 10, "the toy language is learnt"
    assert (trained / "training_curve.png").stat().st_size > 1000
    assert (trained / "train.log").is_file() and not (trained / "work").exists()
    state = torch.load(model_dir.path(card.fairseq.checkpoint), map_location="cpu", weights_only=False)
    assert state["last_optimizer_state"] is None, "the shipped checkpoint carries no optimizer state"


def test_evaluate_scores_the_model_and_records_it_in_the_card(trained, toy_files, capsys):
    hyps = trained.parent / "hyps.txt"
    args = ["--model", str(trained), "--cs", str(toy_files["test_cs"]), "--en", str(toy_files["test_en"]),
            "--name", "toy_test", "--threads", "1", "--compute-type", "float32", "--out", str(hyps)]
    assert evaluate_main([*args, "--update-card"]) == 0
    out = capsys.readouterr().out
    assert "BLEU signature: nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" in out
    assert "chrF signature: nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:" in out
    card = ModelDir(trained).card
    assert card.metrics["bleu_toy_test"] > 30 and card.metrics["chrf_toy_test"] > 50
    assert card.metrics["sentences_per_second_toy_test"] > 0
    assert "beam 5" in card.provenance["evaluation_toy_test"]
    assert len(hyps.read_text(encoding="utf-8").splitlines()) == 100
    before = (trained / "model_card.yaml").read_text()
    assert evaluate_main([*args[:-2], "--limit", "10"]) == 0  # without --update-card the card is left alone
    assert (trained / "model_card.yaml").read_text() == before


def test_the_pipeline_translates_with_the_trained_model(trained, toy_files, tmp_path):
    from paranmt.core.pair_schema import read_metadata
    from pipeline.run import main as pipeline_main

    out = tmp_path / "run"
    assert pipeline_main(["--cs", str(toy_files["test_cs"]), "--en", str(toy_files["test_en"]), "--model",
                          str(trained), "--threads", "1", "--num-shards", "1", "--out", str(out), "--quiet"]) == 0
    shard = sorted((out / "pairs").glob("*.parquet"))[0]
    assert read_metadata(pq.read_schema(shard))["nmt_model_id"] == "toy-trained"
    rows = pq.read_table(shard).to_pylist()
    assert rows and all(r["mt"] for r in rows)
    translator = load_translator(TranslateConfig(model=trained, device="cpu", threads=1))
    results = translator.translate(toy_files["test_cs"].read_text(encoding="utf-8").splitlines())
    assert all(t.status is Status.OK for t in results)


def test_rerunning_a_finished_run_does_nothing_and_a_different_run_is_refused(trained, toy_files, capsys):
    card = (trained / "model_card.yaml").read_text()
    base = ["--cs", str(toy_files["cs"]), "--en", str(toy_files["en"]), "--out", str(trained), *FAST]
    assert train_main([*base, "--max-epoch", str(EPOCHS), "--name", "toy-trained"]) == 0  # budget may differ; same run
    assert (trained / "model_card.yaml").read_text() == card
    capsys.readouterr()
    assert train_main([*base, "--recipe", "layers=3"]) == 2
    err = capsys.readouterr().err
    assert f"error: {trained} holds a different run (layers 2 -> 3): pass --overwrite" in err
    assert "Traceback" not in err


# The killed epoch logs no summary line (fairseq logs it after the save the hook kills in): epoch 1's line is the
# first run's, the updates of one epoch.
KILLED_EPOCHS, KILL_AFTER_EPOCH = 3, 2


def _train_args(out: Path, files: dict[str, Path]) -> list[str]:
    return ["--cs", str(files["cs"]), "--en", str(files["en"]), "--out", str(out), *FAST,
            "--max-epoch", str(KILLED_EPOCHS), "--keep-work"]


# Loaded by every Python process of the first run (PYTHONPATH): once fairseq has saved the checkpoint of epoch
# KILL_AFTER_EPOCH, it SIGKILLs the whole run (translate.train and its fairseq-train child) -- a kill at a fixed
# point of training rather than after a sleep, which a fast or a loaded machine could overrun.
_KILL_HOOK = """
import importlib.abc, importlib.util, os, signal, sys

class _KillAfterSave(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != "fairseq.checkpoint_utils":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run_module = spec.loader.exec_module

        def exec_module(module):
            run_module(module)
            save = module.save_checkpoint

            def save_then_kill(cfg, trainer, epoch_itr, val_loss):
                saved = save(cfg, trainer, epoch_itr, val_loss)
                if epoch_itr.epoch >= int(os.environ["KILL_AFTER_EPOCH"]) and epoch_itr.end_of_epoch():
                    os.killpg(os.getpgid(0), signal.SIGKILL)
                return saved

            module.save_checkpoint = save_then_kill

        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, _KillAfterSave())
"""


def test_a_killed_run_resumes_from_its_last_checkpoint(tmp_path, toy_files, capsys):
    out = tmp_path / "killed"
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(_KILL_HOOK, encoding="utf-8")
    killing = dict(os.environ, OMP_NUM_THREADS="1", KILL_AFTER_EPOCH=str(KILL_AFTER_EPOCH),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")])))
    # the command in its own process group, which the hook kills whole
    first = subprocess.run([sys.executable, "-m", "paranmt", "train-nmt", *_train_args(out, toy_files)],
                           cwd=REPO_ROOT, env=killing, start_new_session=True, capture_output=True, text=True,
                           timeout=600)
    assert first.returncode == -signal.SIGKILL, f"killed after epoch {KILL_AFTER_EPOCH}'s checkpoint: " \
                                                f"{first.stderr[-2000:]}"
    last = out / "work" / "checkpoints" / "checkpoint_last.pt"
    assert last.exists() and not (out / "model_card.yaml").exists(), "killed mid-training"
    codes = (out / "bpe.codes").stat().st_mtime_ns

    capsys.readouterr()
    assert train_main(_train_args(out, toy_files)) == 0  # the rerun: in this process, as the kill is not its test
    assert "resuming" in capsys.readouterr().err, "training continued from the checkpoint"
    assert (out / "bpe.codes").stat().st_mtime_ns == codes, "finished stages are not redone"
    card = ModelDir(out).card
    assert card.provenance["epochs"] == str(KILLED_EPOCHS)
    log = (out / "train.log").read_text(encoding="utf-8")
    per_epoch = [v["num_updates"] for k, v in filter(None, map(parse_log_line, log.splitlines())) if k == "train"]
    assert int(card.provenance["updates"]) == per_epoch[-1] == per_epoch[0] * KILLED_EPOCHS, \
        "no epoch lost or repeated"


# ---- bad input -------------------------------------------------------------------------------------------------


def test_misaligned_bitext_names_both_files(tmp_path, toy_files, capsys):
    cs, en = write_pair_files(tmp_path, "short", ["Pes.", "Kočka."], ["Dog."])
    err = one_error_line(capsys, train_main, ["--cs", str(cs), "--en", str(en), "--out", str(tmp_path / "m")])
    assert "short.cs has 2 lines but" in err and "short.en has 1" in err and "line-aligned" in err
    err = one_error_line(capsys, train_main, ["--cs", str(cs), str(toy_files["cs"]), "--en", str(en),
                                              "--out", str(tmp_path / "m")])
    assert "2 Czech file(s) but 1 English file(s)" in err
    assert not (tmp_path / "m").exists(), "nothing written for bad input"


def test_empty_inputs_and_splits(tmp_path, toy_files, capsys):
    cs, en = write_pair_files(tmp_path, "empty", [], [])
    err = one_error_line(capsys, train_main, ["--cs", str(cs), "--en", str(en), "--out", str(tmp_path / "m")])
    assert "training input is empty" in err and "empty.cs" in err
    blank_cs, blank_en = write_pair_files(tmp_path, "blank", ["", "  "], ["x", ""])
    err = one_error_line(capsys, train_main, ["--cs", str(toy_files["cs"]), "--en", str(toy_files["en"]),
                                              "--valid-cs", str(blank_cs), "--valid-en", str(blank_en),
                                              "--out", str(tmp_path / "v"), *FAST])
    assert "validation split is empty" in err
    err = one_error_line(capsys, train_main, ["--cs", str(blank_cs), "--en", str(blank_en),
                                              "--out", str(tmp_path / "t"), *FAST])
    assert "training split is empty" in err
    assert not (tmp_path / "v").exists() and not (tmp_path / "t").exists(), "no folder left to refuse a rerun"


def test_a_folder_that_is_not_a_run_is_refused(tmp_path, toy_files, capsys):
    folder = tmp_path / "something"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    err = one_error_line(capsys, train_main, ["--cs", str(toy_files["cs"]), "--en", str(toy_files["en"]),
                                              "--out", str(folder), *FAST])
    assert "is not a training run folder" in err and (folder / "notes.txt").exists()


# ---- recipe pieces ---------------------------------------------------------------------------------------------


def test_presets_follow_the_fairseq_recipes(tmp_path):
    base = fairseq_train_args(PRESETS["base"], tmp_path, tmp_path, "cuda")
    assert base[base.index("--arch") + 1] == "transformer_wmt_en_de" and "--share-all-embeddings" in base
    assert "--fp16" in base and "--cpu" not in base and "--encoder-layers" not in base
    big = fairseq_train_args(PRESETS["big"], tmp_path, tmp_path, "cuda")
    assert big[big.index("--arch") + 1] == "transformer_vaswani_wmt_en_de_big"
    assert big[big.index("--dropout") + 1] == "0.3" and big[big.index("--label-smoothing") + 1] == "0.1"
    small = fairseq_train_args(PRESETS["cpu-small"], tmp_path, tmp_path, "cpu")
    assert "--cpu" in small and "--fp16" not in small and small[small.index("--encoder-layers") + 1] == "3"
    assert small[small.index("--patience") + 1] == "5" and small[small.index("--keep-last-epochs") + 1] == "5"
    budget = fairseq_train_args(PRESETS["cpu-small"].model_copy(update={"max_hours": 0.5}), tmp_path, tmp_path,
                                "cpu")
    assert budget[budget.index("--stop-time-hours") + 1] == "0.5"


def test_checkpoint_averaging_is_the_parameter_mean(tmp_path):
    paths = []
    for i, value in enumerate((1.0, 2.0, 6.0)):
        state = {"model": {"w": torch.full((2, 2), value), "b": torch.tensor([value])}, "cfg": {"i": i},
                 "last_optimizer_state": {"big": 1}}
        paths.append(tmp_path / f"checkpoint{i + 1}.pt")
        torch.save(state, paths[-1])
    averaged = torch.load(average_checkpoints(paths, tmp_path / "avg.pt"), weights_only=False)
    assert torch.equal(averaged["model"]["w"], torch.full((2, 2), 3.0)) and averaged["model"]["b"].item() == 3.0
    assert averaged["cfg"] == {"i": 2} and averaged["last_optimizer_state"] is None


def test_fairseq_log_lines_are_parsed():
    inner = ("2026-01-01 10:00:00 | INFO | train_inner | epoch 001:     50 / 300 loss=9.1, nll_loss=8.9, ppl=477, "
             "wps=1500, ups=0.4, num_updates=50, lr=0.0001")
    valid = ("2026-01-01 10:05:00 | INFO | valid | epoch 001 | valid on 'valid' subset | loss 7.25 | nll_loss 6.5 "
             "| ppl 90.5 | bleu 3.2 | num_updates 300")
    assert parse_log_line(inner) == ("train_inner", {"loss": 9.1, "nll_loss": 8.9, "ppl": 477.0, "wps": 1500.0,
                                                     "ups": 0.4, "num_updates": 50.0, "lr": 0.0001})
    kind, values = parse_log_line(valid)
    assert kind == "valid" and values["loss"] == 7.25 and values["bleu"] == 3.2 and values["num_updates"] == 300
    assert parse_log_line("| INFO | fairseq_cli.train | done training") is None
