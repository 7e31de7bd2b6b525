"""pipeline.launcher.job_log: within the block, records at ERROR and above go to the run folder's ``_job.log`` and
not to the console, lower ones reach the console as before; with worker processes file descriptor 2 goes to the log
too; the log is kept only when the block failed with something in it, and a log on a full disk drops records
without a word."""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

import pytest

from pipeline.launcher.job_log import JOB_LOG_FILE, job_log


class _Kept(logging.Handler):
    """The console's stand-in: the messages of the records that reach it."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def console():
    handler, root = _Kept(), logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield handler
    root.removeHandler(handler)
    root.setLevel(level)


def test_errors_go_to_the_log_only_and_a_failed_block_keeps_it(tmp_path, console):
    beam = logging.getLogger("apache_beam.runners.common")
    with pytest.raises(RuntimeError), job_log(str(tmp_path)) as log:
        assert log.path == tmp_path / JOB_LOG_FILE
        beam.info("a bundle started")
        beam.error("a bundle failed: Traceback ...")
        logging.getLogger("pipeline").critical("the job is lost")
        raise RuntimeError("the job failed")
    assert console.messages == ["a bundle started"]
    text = log.path.read_text(encoding="utf-8")
    assert "ERROR apache_beam.runners.common: a bundle failed: Traceback ..." in text
    assert "CRITICAL pipeline: the job is lost" in text
    assert log.written
    assert log.cite("error: the job failed") == f"error: the job failed (the job's full log: {log.path})"
    beam.error("after the block")
    assert console.messages[-1] == "after the block", "the console's filter is gone with the block"


def test_a_block_that_succeeds_or_logged_nothing_leaves_no_log(tmp_path, console):
    with job_log(str(tmp_path)) as log:
        logging.getLogger("apache_beam").error("a retried bundle failed once")
    assert not log.path.exists() and not log.written
    with pytest.raises(RuntimeError), job_log(str(tmp_path)) as log:
        raise RuntimeError("the job failed before any record")
    assert not log.path.exists() and log.cite("error: x") == "error: x"


def test_a_remote_run_logs_to_the_temp_folder(tmp_path, console):
    with job_log("gs://bucket/run") as remote:
        pass
    assert remote.path == Path(tempfile.gettempdir()) / f"paranmt-job-{os.getpid()}.log"
    with job_log(str(tmp_path / "not-made-yet")) as local:
        pass
    assert local.path.parent == Path(tempfile.gettempdir())


def test_worker_processes_write_to_the_log_through_descriptor_2(tmp_path, console):
    """What a worker process writes to its inherited stderr lands in the log; descriptor 2 is back afterwards."""
    before = os.fstat(2)
    with pytest.raises(RuntimeError), job_log(str(tmp_path), worker_processes=True) as log:
        os.write(2, b"Traceback (most recent call last): a worker's own report\n")
        raise RuntimeError("the job failed")
    assert "a worker's own report" in log.path.read_text(encoding="utf-8")
    after = os.fstat(2)
    assert (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)


def test_a_log_on_a_full_disk_drops_its_records_silently(tmp_path, console, capsys):
    """/dev/full answers every write with ENOSPC: the record is dropped, no ``--- Logging error ---`` report."""
    (tmp_path / JOB_LOG_FILE).symlink_to("/dev/full")
    with pytest.raises(RuntimeError, match="the job failed"), job_log(str(tmp_path)):
        logging.getLogger("apache_beam").error("x" * 10_000)
        raise RuntimeError("the job failed")
    assert "Logging error" not in capsys.readouterr().err
