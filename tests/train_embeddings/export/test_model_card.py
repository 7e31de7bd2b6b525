"""The model cards of ``paranmt export`` (train_embeddings/export/model_card.py, st_export.py, static_export.py) on
real records: the bundled sample's run folder (the suite's ``sample_run``, with its dataset card), tiny encoders
trained on its ``train/`` with the trainer's dev evaluation, evaluated by ``paranmt evaluate --json`` on the real
STS 2012-2016 and STS-B data of ../shared/data/sts. The card's STS figures equal that JSON (the libraries' YAML
exactly, the Markdown table to its two decimals), its corpus is the run's dataset card, and the exported folders
load offline, in a fresh interpreter that turns every warning into an error, with nothing logged, to the same
vectors as paranmt's own ``encode``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from huggingface_hub import DatasetCard, ModelCard

from paranmt.cli.paranmt_command import main as paranmt
from paranmt.core.corpus_card import corpus_summary
from paranmt.core.hf_imports import hide_broken_torchaudio
from paranmt.core.run_layout import CARD_FILE, SUMMARY_FILE
from tests.support.repo import REPO_ROOT
from tests.support.shared_data import shared_data
from tests.support.static_teacher import PROBE
from tests.support.training_pairs import tiny
from train_embeddings.export.model_card import sts_sets
from train_embeddings.models.model_io import load_model
from train_embeddings.training.trainer import train

hide_broken_torchaudio()
pytest.importorskip("sentence_transformers", reason="the st extra is not installed")


@pytest.fixture(scope="module")
def sts_dir() -> Path:
    return shared_data("sts")


def evaluated(run: Path, sts_dir: Path, speed: bool) -> Path:
    """``paranmt evaluate --model RUN --json`` on the real STS data (with ``--speed`` when asked)."""
    out = run.parent / f"{run.name}-sts.json"
    assert paranmt(["evaluate", "--model", str(run), "--sts-dir", str(sts_dir), "--json", str(out),
                    *(["--speed", "200"] if speed else [])]) == 0
    return out


def card_rows(text: str) -> dict[str, list[str]]:
    """The card's STS table: MTEB task -> its cells."""
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in text.splitlines()
            if re.match(r"\| (STS\w+|mean \(\d tasks\)) \|", line)]
    return {row[0]: row[1:] for row in rows}


def x100(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.2f}"


def check_card(card: ModelCard, report: dict, run_folder: Path, model_run: Path) -> None:
    text = card.text
    rows = card_rows(text)
    sets = sts_sets(report)
    assert [s.task for s in sets] == [task for task in report["mteb"] if task != "mean"]
    for s in sets:  # to the JSON's digits, never retyped
        assert rows[s.task][1:] == [str(s.pairs), x100(s.spearman), x100(s.pearson)]
    assert rows[f"mean ({len(sets)} tasks)"] == ["", "", x100(report["mteb"]["mean"]), ""]
    assert report["protocol"]["mteb"] in text and report["protocol"]["papers"] in text
    index = {(r.dataset_type, r.metric_type): r.metric_value for r in card.data.eval_results}
    assert index == {**{(s.task.lower(), "spearman_cosine"): s.spearman for s in sets},
                     **{(s.task.lower(), "pearson_cosine"): s.pearson for s in sets}}  # exactly the JSON's
    dataset = DatasetCard.load(run_folder / CARD_FILE)
    summary = json.loads((run_folder / SUMMARY_FILE).read_text(encoding="utf-8"))
    assert f"> {corpus_summary(summary)}" in text and f"**{dataset.data.pretty_name}**" in text
    assert card.data.license == dataset.data.license and card.data.language == ["en"]
    metrics = json.loads((model_run / "metrics.json").read_text(encoding="utf-8"))
    # the input by its path from the run folder, never the trainer's absolute path
    assert metrics["data"] == str(run_folder / "train") and str(run_folder) not in str(card)
    assert f"on {metrics['n_pairs']:,} pairs from `{run_folder.name}/train`" in text
    assert f"`dev` = {metrics['best']['score']:.4f}" in text


def load_offline(program: str, cwd: Path) -> np.ndarray:
    """Run ``program`` (which saves ``vectors.npy``) offline, every warning an error; nothing may be printed to
    stderr (no warning, no log line)."""
    done = subprocess.run([sys.executable, "-W", "error", "-c", program], cwd=cwd, capture_output=True, text=True,
                          timeout=240, env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0 and done.stderr == "", done.stderr[-3000:]
    return np.load(cwd / "vectors.npy")


def test_sentence_transformers_card(sample_run, sts_dir, tmp_path) -> None:
    run = tmp_path / "word"
    train(tiny("word", sample_run / "train", batch_size=10, megabatch=2, evals_per_epoch=2), run, progress=False)
    evaluation = evaluated(run, sts_dir, speed=True)
    assert paranmt(["export", "--format", "sentence-transformers", "--model", str(run), "--evaluation",
                    str(evaluation), "--out", str(tmp_path / "st")]) == 0
    card = ModelCard.load(tmp_path / "st" / CARD_FILE)
    payload = json.loads(evaluation.read_text(encoding="utf-8"))
    check_card(card, payload["reports"]["word"], sample_run, run)
    speed = payload["sentences_per_second"]["word"]
    assert (f"{speed:,.0f} sentences per second on one core (wall clock, every thread pool pinned to one thread, "
            "tokenisation included), as `paranmt evaluate --speed` recorded it") in card.text
    assert card.data.library_name == "sentence-transformers" and "Training Dataset:**\n    - " in card.text
    assert 'SentenceTransformer("path/to/this/folder", trust_remote_code=True)' in card.text
    program = (f"import numpy\nfrom sentence_transformers import SentenceTransformer\n"
               f"model = SentenceTransformer('st', device='cpu', trust_remote_code=True)\n"
               f"numpy.save('vectors.npy', model.encode({PROBE!r}))\n")
    got = load_offline(program, tmp_path)
    assert np.abs(got - load_model(run).encode(PROBE)).max() <= 1e-5  # as test_st_export expects


def test_model2vec_card_with_the_speed_measured(sample_run, teacher, sts_dir, tmp_path) -> None:
    run = tmp_path / "static"
    train(tiny("static", sample_run / "train", batch_size=10, megabatch=2, evals_per_epoch=2, teacher=str(teacher),
               static_pca_dims=8, static_cache=str(tmp_path / "cache"), lr=0.05), run, progress=False)
    evaluation = evaluated(run, sts_dir, speed=False)
    assert paranmt(["export", "--format", "model2vec", "--model", str(run), "--evaluation", str(evaluation),
                    "--out", str(tmp_path / "m2v")]) == 0
    card = ModelCard.load(tmp_path / "m2v" / CARD_FILE)
    check_card(card, json.loads(evaluation.read_text(encoding="utf-8"))["reports"]["static"], sample_run, run)
    assert card.data.library_name == "model2vec"
    assert re.search(r"^[\d,]+ sentences per CPU-second on one core, measured by `paranmt export`: 336 English "
                     r"sentences of paranmt's bundled sample", card.text, re.MULTILINE)
    assert "parameters | " in card.text and "teacher tokens" in card.text
    program = (f"import numpy\nfrom model2vec import StaticModel\nmodel = StaticModel.from_pretrained('m2v')\n"
               f"numpy.save('vectors.npy', model.encode({PROBE!r}, normalize=False))\n")
    got = load_offline(program, tmp_path)
    np.testing.assert_allclose(got, load_model(run).encode(PROBE), atol=1e-5)  # as test_static expects


def test_without_an_evaluation_the_card_says_how_to_add_one(sample_run, tmp_path, capsys) -> None:
    shards = tmp_path / "shards"  # the run's train/ outside its run folder: no dataset card to quote
    shutil.copytree(sample_run / "train", shards)
    run = tmp_path / "word"
    train(tiny("word", shards, batch_size=10, megabatch=2), run, evaluate_fn=None, progress=False)
    assert paranmt(["export", "--format", "sentence-transformers", "--model", str(run), "--out",
                    str(tmp_path / "st")]) == 0
    card = ModelCard.load(tmp_path / "st" / CARD_FILE)
    assert "Not evaluated on STS 2012-2016 / STS-B with this export" in card.text and not card.data.eval_results
    assert "pairs from `shards`." in card.text and "not a finished paranmt run folder's output" in card.text
    assert "Training Dataset:**\n    - shards\n" in card.text and str(tmp_path) not in str(card)
    assert "measured by `paranmt export`" in card.text
    capsys.readouterr()
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"reports": {"another": {}}}), encoding="utf-8")
    assert paranmt(["export", "--format", "sentence-transformers", "--model", str(run), "--evaluation", str(other),
                    "--out", str(tmp_path / "st2")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "holds no report of 'word'" in err and err.count("\n") == 1
