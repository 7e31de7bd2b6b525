"""A full disk: one line naming the folder, what was being written and what it needs, exit status 1, nothing left as
final, and the same command resumes once there is room; the launcher warns before any work when the free space is
below what the run will write. One test fills a real file system (a small tmpfs; skipped where mounting is not
permitted); the others need no privileges: a write raises ENOSPC, the job's log is /dev/full (a real ENOSPC on
every write), or the free space is faked."""

from __future__ import annotations

import errno
import logging
import shutil
import subprocess
from collections import namedtuple
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs.schema import ScoreConfig
from filters.paragram import ParagramScorer, estimated_scorer_bytes
from paranmt.core.run_definition import DEFINITION_FILE
from paranmt.core.word_vectors import vectors_shape
from pipeline import disk_space
from pipeline.disk_space import OutOfSpaceError, output_bytes, size_text, warn_if_short
from pipeline.launcher.job_log import JOB_LOG_FILE
from pipeline.outputs import run_folder
from pipeline.outputs.run_folder import write_marker
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
    _nothing_final(out)  # and no partial file left holding space

    monkeypatch.setattr(pq, "write_table", real)  # room again
    assert _run(tsv, out) == 0
    assert pq.read_table(out / "pairs").num_rows == len(ROWS) and (out / "_SUCCESS").exists()


def _one_line(err: str, out: Path) -> str:
    """The one ``error:`` line of a full disk under ``out``, with nothing from the logging module's error report
    (beside it only the progress line and the launcher's warning that the disk is short)."""
    lines = [line for line in err.splitlines()
             if line.strip() and not line.startswith(("read ", "WARNING pipeline.disk_space: "))]
    assert "Traceback" not in err and "Logging error" not in err and len(lines) == 1, err
    assert lines[0].startswith(f"error: no space left in {out}/"), lines[0]
    return lines[0]


def _nothing_final(out: Path) -> None:
    for name in ("_SUCCESS", "summary.json", "pairs", "rejected", "deadletter"):
        assert not (out / name).exists(), name
    assert not list(out.rglob("*.partial"))
    for staged in (out / "_staging").rglob("*.parquet"):  # only whole shards are left staged; none is final
        pq.read_metadata(staged)


def test_a_full_disk_under_the_jobs_own_log_is_still_one_line(tmp_path, capsys, monkeypatch):
    # The job's log is on the run's disk: Beam's ERROR records of the failing write go there first. /dev/full
    # answers every write with ENOSPC, as a full disk does.
    tsv, out = _tsv(tmp_path), tmp_path / "run"
    out.mkdir()
    (out / JOB_LOG_FILE).symlink_to("/dev/full")
    real = pq.write_table

    def full(table: pa.Table, where: object, **kwargs: object) -> None:
        if isinstance(where, pa.MockOutputStream):
            return real(table, where, **kwargs)
        _no_space()

    monkeypatch.setattr(pq, "write_table", full)
    assert _run(tsv, out) == 1
    _one_line(capsys.readouterr().err, out)
    _nothing_final(out)
    monkeypatch.setattr(pq, "write_table", real)
    assert _run(tsv, out) == 0 and (out / "_SUCCESS").exists()


def _mount_tmpfs(where: Path, size: str, *options: str) -> None:
    where.mkdir(exist_ok=True)
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join((*options, f"size={size}")), "tmpfs",
                               str(where)], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"no tmpfs to fill: mount could not run ({error})")
    if done.returncode:
        pytest.skip(f"no tmpfs to fill: mounting is not permitted here ({done.stderr.strip()})")


def test_a_disk_that_really_fills_mid_run_is_one_line_and_resumes_after_making_room(tmp_path, capsys):
    # 60 KiB holds the run's definition and the first shards, not all of them: the disk fills while the job
    # writes, with Beam logging the failure into the job's log on that same full disk.
    tsv, disk = _tsv(tmp_path), tmp_path / "disk"
    _mount_tmpfs(disk, "60k")
    try:
        out = disk / "run"
        assert _run(tsv, out) == 1
        line = _one_line(capsys.readouterr().err, out)
        assert " needed" in line and "run the same command again" in line and (out / DEFINITION_FILE).exists()
        _nothing_final(out)
        _mount_tmpfs(disk, "2m", "remount")  # room again
        assert _run(tsv, out) == 0
        assert pq.read_table(out / "pairs").num_rows == len(ROWS) and (out / "_SUCCESS").exists()
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True, timeout=30)


def test_a_marker_that_meets_a_full_disk_leaves_nothing_half_written(tmp_path, monkeypatch):
    (tmp_path / "summary.json").write_text("{}")  # an earlier one stays whole
    written: list[bytes] = []

    class Full:
        def write(self, data: bytes) -> None:
            written.append(data)
            _no_space()

        def close(self) -> None:
            pass

    monkeypatch.setattr(run_folder.FileSystems, "create", lambda path, **kwargs: Path(path).touch() or Full())
    with pytest.raises(OutOfSpaceError, match=r"^no space left in .* for summary\.json \(6 bytes needed"):
        write_marker(str(tmp_path), "summary.json", '{"a":1}'[:6])
    assert written and (tmp_path / "summary.json").read_text() == "{}" and not list(tmp_path.glob("*.partial"))


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
    warnings = [line for line in capsys.readouterr().err.splitlines() if "pipeline.disk_space" in line]
    assert len(warnings) == 1 and "has 4.0 KiB free but this run writes about" in warnings[0]
