"""While a job runs, Beam's error records and everything worker processes write go to a log file in the run
folder, not to the terminal.

A failing stage used to reach the terminal many times over before the launcher's one ``error:`` line: Beam logs
each failed bundle at ERROR with its traceback (``apache_beam.runners.common``, the job service), and the worker
processes of a multi-process run write to the launcher's stderr directly (their tracebacks, their start-up lines:
``apitools not found``, ``Logging handler created``). :func:`job_log` files every log record at ERROR and above
in ``<output>/_job.log`` only and, where the local runner starts worker processes, sends the process's file
descriptor 2 -- inherited by every worker process -- there too, keeping Python's ``sys.stderr`` (the progress
line, the summary, the error line) on the terminal. Records below ERROR reach the terminal as before, so a
multi-process run shows what an in-process run shows. The file is kept when the job fails, and the error line
names it.

The log sits on the run's disk, so it is the first file to meet a full one: a record that cannot be written to it is
dropped without Python's ``--- Logging error ---`` report (the error the job then raises is one line of its own,
:mod:`pipeline.disk_space`), and the log's own flush and close cannot fail the run.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pipeline.disk_space import room_for

__all__ = ["JOB_LOG_FILE", "JobLog", "job_log"]

#: The log of the job's Beam errors and worker output, in the run folder (a local one; else in the temp folder).
JOB_LOG_FILE = "_job.log"


class JobLog:
    """Where the job's log went (:attr:`path`), and whether anything was written to it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def written(self) -> bool:
        try:
            return self.path.stat().st_size > 0
        except OSError:
            return False

    def cite(self, message: str) -> str:
        """``message`` with the log named, where the log holds something."""
        return f"{message} (the job's full log: {self.path})" if self.written else message


class _LogFileHandler(logging.StreamHandler):
    """The job log's handler: a record the file cannot take (a full disk, an I/O error) is dropped, not reported
    on stderr with a traceback for every record."""

    def handleError(self, record: logging.LogRecord) -> None:
        if not isinstance(sys.exc_info()[1], OSError):
            super().handleError(record)


class _BelowError(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < logging.ERROR


def _log_path(output: str) -> Path:
    if "://" not in output and os.path.isdir(output):
        return Path(output) / JOB_LOG_FILE
    return Path(tempfile.gettempdir()) / f"paranmt-job-{os.getpid()}.log"


def _stderr_fd() -> int | None:
    """2 where ``sys.stderr`` writes to the process's file descriptor 2 (not a test's capture object)."""
    try:
        return 2 if sys.stderr.fileno() == 2 else None
    except (AttributeError, OSError, ValueError):
        return None


@contextlib.contextmanager
def job_log(output: str, *, worker_processes: bool = False) -> Iterator[JobLog]:
    """Within the block, every log record at ERROR and above goes to the job's log (:data:`JOB_LOG_FILE` in the
    local run folder ``output``), and with ``worker_processes`` (a local runner's worker processes inherit this
    process's stderr) so does file descriptor 2, while ``sys.stderr`` stays on the terminal. The log is kept only
    when the block fails and something was written to it: it holds the full text of a failure."""
    log = JobLog(_log_path(output))
    sys.stderr.flush()
    with room_for(str(log.path), "the job's log", lambda: None):
        log.path.parent.mkdir(parents=True, exist_ok=True)
        file = open(log.path, "w", encoding="utf-8")  # noqa: SIM115 -- closed below, where a full disk cannot fail it
    failed = True
    try:
        file_handler = _LogFileHandler(file)
        file_handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger()
        handlers = list(root.handlers)
        below_error = _BelowError()
        console: io.TextIOWrapper | None = None
        previous_stderr = sys.stderr
        restreamed: list[logging.StreamHandler] = []
        saved_fd = os.dup(2) if worker_processes else None
        # sys.stderr on descriptor 2 moves to a copy of it; a capture object (a test's) keeps working as it is
        if saved_fd is not None and _stderr_fd() is not None:
            console = io.TextIOWrapper(os.fdopen(os.dup(saved_fd), "wb", buffering=0), encoding=sys.stderr.encoding,
                                       errors="backslashreplace", line_buffering=True, write_through=True)
            for handler in handlers:
                if isinstance(handler, logging.StreamHandler) and handler.stream is previous_stderr:
                    handler.setStream(console)
                    restreamed.append(handler)
            sys.stderr = console
        if saved_fd is not None:
            os.dup2(file.fileno(), 2)
        for handler in handlers:
            handler.addFilter(below_error)
        root.addHandler(file_handler)
        try:
            yield log
            failed = False
        finally:
            root.removeHandler(file_handler)
            for handler in handlers:
                handler.removeFilter(below_error)
            if saved_fd is not None:
                os.dup2(saved_fd, 2)
                os.close(saved_fd)
            if console is not None:
                with contextlib.suppress(Exception):
                    console.flush()
                sys.stderr = previous_stderr
                for handler in restreamed:
                    handler.setStream(previous_stderr)
                console.close()
    finally:
        with contextlib.suppress(OSError):  # a full disk: what the file holds is kept, the run's error stands
            file.close()
        if not (failed and log.written):
            log.path.unlink(missing_ok=True)
