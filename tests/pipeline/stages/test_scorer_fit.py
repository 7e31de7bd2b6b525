"""One scorer fit: ``paranmt score`` on a run's pairs/ with the run's config fits the scorer the run fitted and
gives its paraphrase_score exactly; a rerun of the same run reuses the scorer it saved, writing nothing, so it needs
no room for a second copy, and its outputs are the bytes of the run that fitted it."""

from __future__ import annotations

import errno
import shutil

import numpy as np
import pyarrow.parquet as pq
import pytest

from filters.paragram import ParagramScorer
from paranmt.cli import score_command
from paranmt.core.pair_schema import ID, PARAPHRASE_SCORE, SCORER_ID
from paranmt.core.run_layout import DEADLETTER, PAIRS, REJECTED, SCORER_FILE, TRAIN
from pipeline.inputs.plan import InputSpec
from pipeline.job import run_job
from tests.support.sample_run import folder_bytes, run_sample_command, sample_config
from tests.support.taste_data import taste_data
from tests.support.text_files import read_lines


def rescored_equals_the_run(run, tmp_path):
    out = tmp_path / "rescored.parquet"
    assert score_command.main(["--input", str(run / PAIRS), "--config", "sample", "--out", str(out), "--quiet"]) == 0
    own = pq.read_table(run / PAIRS).sort_by(ID)
    again = pq.read_table(out).sort_by(ID)
    assert again[ID].equals(own[ID]) and set(again[SCORER_ID].to_pylist()) == set(own[SCORER_ID].to_pylist())
    assert np.array_equal(again[PARAPHRASE_SCORE].to_numpy(), own[PARAPHRASE_SCORE].to_numpy())


def test_paranmt_score_on_a_run_gives_its_paraphrase_score(sample_run, tmp_path):
    rescored_equals_the_run(sample_run, tmp_path)


@pytest.mark.slow
def test_paranmt_score_on_2000_bitext_pairs_gives_the_runs_paraphrase_score(tmp_path):
    cs, en = tmp_path / "tatoeba.cs", tmp_path / "tatoeba.en"
    for name, path in (("cs", cs), ("en", en)):
        path.write_text("\n".join(read_lines(taste_data(f"bitext/tatoeba.{name}", 2000))[:2000]) + "\n")
    run = tmp_path / "run"
    run_job(sample_config(), [InputSpec.pair(cs, en)], str(run))
    rescored_equals_the_run(run, tmp_path)


def test_a_rerun_reuses_the_scorer_the_run_fitted(sample_run, tmp_path, monkeypatch):
    rerun = tmp_path / "sample"
    shutil.copytree(sample_run, rerun)
    scorer = rerun / SCORER_FILE
    before = scorer.stat()

    def full_disk(self, path):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(ParagramScorer, "save", full_disk)  # a disk with no room for a second scorer
    run_sample_command(rerun)
    after = scorer.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # neither fitted nor written
    for part in (PAIRS, TRAIN, REJECTED, DEADLETTER):
        assert folder_bytes(rerun / part) == folder_bytes(sample_run / part), part
