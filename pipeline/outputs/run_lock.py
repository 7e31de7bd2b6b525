"""A run folder's lock, ``<out>/_LOCK``: one live run per folder. Beam-free, so ``paranmt run`` refuses a busy
folder (:func:`refuse_if_busy`) before it loads Beam, in a fraction of a second; the run then takes the lock for
good (:func:`take_lock`, through :func:`pipeline.outputs.run_folder.own_output`)."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from paranmt.core.errors import ParanmtError
from paranmt.core.run_layout import LOCK_FILE

__all__ = ["RunFolderBusy", "refuse_if_busy", "take_lock"]


class RunFolderBusy(ParanmtError, ValueError):
    """Another live run holds the run folder's lock."""


def _holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode("utf-8") or "{}")
    except (OSError, ValueError):
        info = {}
    if not info:
        return "another run (starting up)"
    return f"pid {info.get('pid')} on {info.get('host')}, started {info.get('started')}"


def _busy(path: str, fd: int) -> RunFolderBusy:
    return RunFolderBusy(f"{Path(path).parent} is in use by {_holder(fd)}: wait for that run to end (or stop it), "
                         "or choose another --out")


def take_lock(path: str) -> int:
    """An exclusive ``flock`` on ``path`` (created if absent), without waiting; the lock dies with the process
    (kill -9 included), so a killed run never blocks its resume."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            busy = _busy(path, fd)
            os.close(fd)
            raise busy from None
        except BaseException:
            os.close(fd)
            raise
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the file was replaced or removed between open and lock (a failed run cleaning up): again


def refuse_if_busy(output: str) -> None:
    """:class:`RunFolderBusy` at once where a live run holds the local folder ``output``; nothing is created or
    held (a shared lock, tried and dropped). An object store (gs://, s3://) has no lock to look at."""
    if "://" in output and not output.startswith("file://"):
        return
    path = str(Path(output.removeprefix("file://")) / LOCK_FILE)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:  # no lock file (a new folder) or none readable: the run's own checks speak
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        raise _busy(path, fd) from None
    finally:
        os.close(fd)  # closing drops a lock taken here
