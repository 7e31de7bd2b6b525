"""The model cards of ``paranmt export`` (train_embeddings/export/model_card.py, st_export.py, static_export.py) on
real records: the bundled sample's run folder (the suite's ``sample_run``, with its dataset card), tiny encoders
trained on its ``train/`` with the trainer's dev evaluation, evaluated by ``paranmt evaluate --json`` on the real
STS 2012-2016 and STS-B data of ../shared/data/sts. The card's STS figures equal that JSON (the libraries' YAML
exactly, the Markdown table to its two decimals), its corpus is the run's dataset card, and the exported folders
load offline, in a fresh interpreter that turns every warning into an error, with nothing logged, to the same
vectors as paranmt's own ``encode``: the sentence-transformers folder through the block of docs/ecosystem.md, run as
written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
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


def fresh_interpreter(program: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``program`` in a fresh interpreter of this environment, offline, every warning an error: nothing imported or
    patched beforehand (in particular not ``hide_broken_torchaudio``, which paranmt's own entry points call)."""
    return subprocess.run([sys.executable, "-W", "error", "-c", program], cwd=cwd, capture_output=True, text=True,
                          timeout=240, env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1"})


def load_offline(program: str, cwd: Path) -> np.ndarray:
    """Run ``program`` (which saves ``vectors.npy``) in a :func:`fresh_interpreter`; nothing may be printed to
    stderr (no warning, no log line)."""
    done = fresh_interpreter(program, cwd)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-3000:]
    return np.load(cwd / "vectors.npy")


DOC = REPO_ROOT / "docs" / "ecosystem.md"
DOC_SENTENCES = ["A man is playing a guitar.", "A man plays the guitar."]  # what the docs' block encodes


def docs_snippet() -> str:
    """The docs' Python block that loads an exported model with sentence-transformers (dedented only)."""
    text = DOC.read_text(encoding="utf-8")
    blocks = [textwrap.dedent(b) for b in re.findall(r"^ *```python\n(.*?)^ *```", text, re.DOTALL | re.MULTILINE)]
    found = [b for b in blocks if "from sentence_transformers import SentenceTransformer" in b]
    assert len(found) == 1, f"{DOC.name} should hold one sentence-transformers Python block"
    return found[0]


@dataclass(frozen=True)
class StExport:
    """A WORD encoder trained on the sample's ``train/`` (``run``), its ``paranmt evaluate --speed`` JSON
    (``evaluation``), exported with it where the docs' block loads a model from (``out``), and that block run
    (``done``, in ``cwd``) as written in a :func:`fresh_interpreter`, followed by lines that save its
    ``embeddings`` (``embeddings.npy``) and the same model's vectors of PROBE (``vectors.npy``)."""

    run: Path
    evaluation: Path
    out: Path
    done: subprocess.CompletedProcess[str]
    cwd: Path


@pytest.fixture(scope="module")
def st_export(sample_run, sts_dir, tmp_path_factory) -> StExport:
    """One export and one fresh interpreter (sentence-transformers takes seconds to import) for the card's tests and
    the docs' block."""
    root = tmp_path_factory.mktemp("st-export")
    snippet = docs_snippet()
    paths = re.findall(r'SentenceTransformer\("([^"]+)"', snippet)
    assert paths and all(f'"{s}"' in snippet for s in DOC_SENTENCES), snippet  # it encodes these
    run = root / "word"
    train(tiny("word", sample_run / "train", batch_size=10, megabatch=2, evals_per_epoch=2), run, progress=False)
    evaluation = evaluated(run, sts_dir, speed=True)
    out = root / paths[0]
    assert paranmt(["export", "--format", "sentence-transformers", "--model", str(run), "--evaluation",
                    str(evaluation), "--out", str(out)]) == 0
    # The block exactly as written, then (after it) lines that save what it computed and the model's PROBE vectors.
    program = (snippet + "\nimport numpy\nnumpy.save('embeddings.npy', numpy.asarray(embeddings))\n"
               f"numpy.save('vectors.npy', model.encode({PROBE!r}))\n")
    return StExport(run, evaluation, out, fresh_interpreter(program, root), root)


def test_sentence_transformers_card(st_export, sample_run) -> None:
    run, evaluation = st_export.run, st_export.evaluation
    card = ModelCard.load(st_export.out / CARD_FILE)
    payload = json.loads(evaluation.read_text(encoding="utf-8"))
    check_card(card, payload["reports"]["word"], sample_run, run)
    speed = payload["sentences_per_second"]["word"]
    assert (f"{speed:,.0f} sentences per second on one core (wall clock, every thread pool pinned to one thread, "
            "tokenisation included), as `paranmt evaluate --speed` recorded it") in card.text
    assert card.data.library_name == "sentence-transformers" and "Training Dataset:**\n    - " in card.text
    assert 'SentenceTransformer("path/to/this/folder", trust_remote_code=True)' in card.text
    # loaded offline in a fresh interpreter, every warning an error, nothing on stderr
    assert st_export.done.returncode == 0 and st_export.done.stderr == "", st_export.done.stderr[-3000:]
    got = np.load(st_export.cwd / "vectors.npy")
    assert np.abs(got - load_model(run).encode(PROBE)).max() <= 1e-5  # as test_st_export expects


def test_the_docs_block_runs_as_written(st_export) -> None:
    """The sentence-transformers block of docs/ecosystem.md runs as written, in a fresh interpreter of this
    environment (the venv the README's set-up command builds), on a model exported with ``paranmt export``. A
    CUDA-only torchaudio beside the CPU torch used to make its first line fail (``OSError: …
    _torchaudio.abi3.so``)."""
    done = st_export.done
    assert "_torchaudio" not in done.stderr, (
        "a torchaudio that cannot load is installed: build the environment as the README's set-up command does "
        "(it ends with `pip uninstall -y torchaudio`)\n" + done.stderr[-2000:])
    assert done.returncode == 0, done.stderr[-3000:]
    assert "tensor([[" in done.stdout  # the similarity it prints
    got = np.load(st_export.cwd / "embeddings.npy")
    expected = load_model(st_export.run).encode(DOC_SENTENCES)
    assert got.shape == expected.shape and np.abs(got - expected).max() <= 1e-5


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
