"""A full disk: one line naming the folder, what was being written and what it needs, exit status 1,
nothing left as final, and the same command resumes once there is room; the launcher warns before any work when
the free space is below what the run will write. No file system is filled: a write raises ENOSPC (or the free
space is faked), so the tests need no mount privileges and take seconds."""

from __future__ import annotations

import errno
import logging
import shutil
from collections import namedtuple
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs.schema import ScoreConfig
from filters.paragram import ParagramScorer, estimated_scorer_bytes
from paranmt.core.word_vectors import vectors_shape
from pipeline.launcher import disk_space
from pipeline.launcher.disk_space import OutOfSpaceError, output_bytes, size_text, warn_if_short
from pipeline.run import main
from pipeline.stages.scorer_fit import save_scorer

ROWS = [(f"Věta číslo {i} je tady.", f"Sentence number {i} is here.", f"The sentence {i} is here.")
        for i in range(100)]
RUNNER = ["--runner", "BundleBasedDirectRunner"]
_Usage = namedtuple("_Usage", "total used free")


def _tsv(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.tsv"
    path.write_text("".join(f"{cs}\t{en}\t{mt}\n" for cs, en, mt in ROWS), encoding="utf-8")
    return path


def _run(tsv: Path, out: Path) -> int:
    return main(["--tsv", str(tsv), "--mt-column", "2", "--no-score", "--out", str(out), "--quiet", *RUNNER])


def _no_space(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_is_one_line_and_the_same_command_resumes(tmp_path, capsys, monkeypatch):
    tsv, out = _tsv(tmp_path), tmp_path / "run"
    real = pq.write_table

    def full(table: pa.Table, where: object, **kwargs: object) -> None:
        if isinstance(where, pa.MockOutputStream):  # counting the bytes a shard needs writes nothing
            return real(table, where, **kwargs)
        _no_space()

    monkeypatch.setattr(pq, "write_table", full)
    assert _run(tsv, out) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    line = err.strip()
    assert line.startswith(f"error: no space left in {out}/_staging/"), line
    assert " shard " in line and " needed" in line and "run the same command again" in line
    assert not (out / "_SUCCESS").exists() and not (out / "pairs").exists() and not (out / "summary.json").exists()
    assert not list((out / "_staging").rglob("*.parquet"))  # no partial file left holding space

    monkeypatch.setattr(pq, "write_table", real)  # room again
    assert _run(tsv, out) == 0
    assert pq.read_table(out / "pairs").num_rows == len(ROWS) and (out / "_SUCCESS").exists()


def _small_scorer(tmp_path: Path) -> tuple[ParagramScorer, Path, ScoreConfig]:
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(300)]
    text = tmp_path / "vectors.txt"
    text.write_text("".join(f"{w} {' '.join(f'{x:.5f}' for x in rng.normal(size=16))}\n" for w in words))
    config = ScoreConfig(embeddings=text, remove_components=0)
    return ParagramScorer.from_config(config, [words[:5], words[5:12]]), text, config


def test_a_full_disk_under_the_scorer_names_it_and_its_size(tmp_path, monkeypatch):
    scorer, _, _ = _small_scorer(tmp_path)
    monkeypatch.setattr(ParagramScorer, "save", _no_space)
    path = str(tmp_path / "run" / "scorer" / "scorer.npz")
    with pytest.raises(OutOfSpaceError) as caught:
        save_scorer(scorer, path)
    assert str(caught.value).startswith(f"no space left in {tmp_path}/run/scorer for the fitted scorer "
                                        f"({size_text(scorer.file_bytes)} needed, ")
    assert caught.value.exit_status == 1


def test_other_write_errors_pass_unchanged(tmp_path, monkeypatch):
    scorer, _, _ = _small_scorer(tmp_path)

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path))

    monkeypatch.setattr(ParagramScorer, "save", denied)
    with pytest.raises(PermissionError):
        save_scorer(scorer, str(tmp_path / "scorer.npz"))


def test_the_scorer_estimate_is_close_to_the_saved_file(tmp_path):
    scorer, text, config = _small_scorer(tmp_path)
    assert vectors_shape(text) == (300, 16)
    np.save(tmp_path / "m.npy", np.zeros((7, 3), np.float32))
    assert vectors_shape(tmp_path / "m.npy") == (7, 3)
    assert vectors_shape(tmp_path / "absent.txt") is None  # loading names the problem, not the estimate
    saved = Path(scorer.save(tmp_path / "scorer.npz")).stat().st_size
    estimate = estimated_scorer_bytes(config)
    assert estimate is not None and abs(estimate - saved) / saved < 0.25, (estimate, saved)
    assert estimated_scorer_bytes(config.model_copy(update={"scorer": tmp_path / "scorer.npz"})) == 0


def test_the_launcher_warns_before_work_when_the_folder_is_short(tmp_path, monkeypatch, caplog):
    needs = output_bytes(1000, 13, 88_000_000)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: _Usage(10**9, 0, 20 * 2**20))
    with caplog.at_level(logging.WARNING, logger=disk_space.__name__):
        warn_if_short(str(tmp_path / "not-yet"), needs)
    [record] = caplog.records
    assert record.getMessage().startswith(f"{tmp_path}/not-yet has 20.0 MiB free but this run writes about 84.5 MiB "
                                          "there (the fitted scorer 83.9 MiB, ")
    caplog.clear()
    monkeypatch.setattr(shutil, "disk_usage", lambda path: _Usage(10**9, 0, 10**9))
    warn_if_short(str(tmp_path), needs)
    assert not caplog.records
    warn_if_short("gs://bucket/run", needs)  # an object store: no limit to check
    assert not caplog.records


def test_a_run_on_a_short_folder_warns_first_and_goes_on(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(shutil, "disk_usage", lambda path: _Usage(10**9, 0, 4096))
    assert _run(_tsv(tmp_path), tmp_path / "run") == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "pipeline.launcher.disk_space" in line]
    assert len(warnings) == 1 and "has 4.0 KiB free but this run writes about" in warnings[0]
