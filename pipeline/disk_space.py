"""A run's disk space: what a run writes into its folder, weighed against the free space before any work
(:func:`warn_if_short`), and a full disk as one line naming the folder, what was being written and what it needs
(:func:`room_for`, :class:`OutOfSpaceError`) instead of a traceback.

A write that fails for space leaves nothing final: shards are staged and moved into place only after the job, the
scorer and the translation cache are written under a temporary name and renamed. So once there is room, the same
command resumes (finished translation chunks are reused).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from apache_beam.io.filesystems import FileSystems

from paranmt.core.errors import ParanmtError

__all__ = ["OutOfSpaceError", "free_bytes", "output_bytes", "room_for", "size_text", "warn_if_short"]

log = logging.getLogger(__name__)

# ENOSPC: the device is full; EDQUOT: the user's quota on it is.
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})

#: Bytes per input row of pairs/, train/, rejected/ and the translation cache together (zstd Parquet), above the
#: measured figure for longer sentences; and the size of one shard file with its schema, written even when empty
#: (docs/pipeline.md, "Disk space").
ROW_BYTES = 500
SHARD_BYTES = 12_000


class OutOfSpaceError(ParanmtError, RuntimeError):
    """The disk (or quota) of a run's folder filled up while the run wrote to it."""

    exit_status = 1  # the input is fine: the run could not finish


def size_text(n: int) -> str:
    """``n`` bytes for a reader: ``512 bytes``, ``4.0 KiB``, ``83.7 MiB``."""
    if n < 1024:
        return f"{n} bytes"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        value /= 1024
        if value < 1024 or unit == "TiB":
            break
    return f"{value:.1f} {unit}"


def free_bytes(path: str) -> int | None:
    """Free bytes on the local file system that holds ``path`` (or would: its nearest existing folder); None on an
    object store (gs://, s3://), which has no such limit to check."""
    if FileSystems.get_scheme(path) not in (None, "file"):
        return None
    here = Path(path.removeprefix("file://")).absolute()
    while not here.exists() and here != here.parent:
        here = here.parent
    return shutil.disk_usage(here).free


def _folder(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[0] if "/" in path.rstrip("/") else "."


def out_of_space_line(path: str, what: str, needed: int | None) -> str:
    """The one line of a full disk: the folder, what was being written into it and what that needs."""
    folder = _folder(path)
    free = free_bytes(folder)
    sizes = ", ".join(text for text in (f"{size_text(needed)} needed" if needed is not None else "",
                                        f"{size_text(free)} free" if free is not None else "") if text)
    return (f"no space left in {folder} for {what}{f' ({sizes})' if sizes else ''}: make room there and run the "
            "same command again (it resumes: nothing was left as final), or choose an --out on a larger disk")


@contextlib.contextmanager
def room_for(path: str, what: str, needed: Callable[[], int | None]) -> Iterator[None]:
    """Writing ``path`` (``what``, for the reader) inside this block: a full disk or quota becomes
    :class:`OutOfSpaceError` with :func:`out_of_space_line`; ``needed`` is asked for the bytes the write needs only
    then. Any other error passes unchanged."""
    try:
        yield
    except OSError as error:
        if error.errno not in _FULL:
            raise
        raise OutOfSpaceError(out_of_space_line(path, what, needed())) from None


def output_bytes(rows: int, shard_files: int, scorer: int) -> dict[str, int]:
    """About what a run of ``rows`` input rows writes into its folder: the scorer it fits (``scorer`` bytes, 0 when
    it loads a saved one) and its Parquet outputs with the translation cache (``shard_files`` shards)."""
    return {"the fitted scorer": scorer,
            "pairs/, train/, rejected/ and the translation cache": rows * ROW_BYTES + shard_files * SHARD_BYTES}


def warn_if_short(output: str, needs: dict[str, int]) -> None:
    """One warning, before any work, when the free space under ``output`` is below what the run will write."""
    free = free_bytes(output)
    total = sum(needs.values())
    if free is None or free >= total:
        return
    parts = ", ".join(f"{what} {size_text(n)}" for what, n in needs.items() if n)
    log.warning("%s has %s free but this run writes about %s there (%s): it will stop when the disk is full; make "
                "room or choose an --out on a larger disk", output, size_text(free), size_text(total), parts)
