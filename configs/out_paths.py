"""Output paths a command writes, checked and created before any work: a bad path is one line naming the flag, the
path and the fix (a folder given as a file, a path below a file, no permission); a failed start removes only the
folders it created."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from paranmt.core.command_line import read_only_line

__all__ = ["make_out_folder", "out_file_problem", "out_folder_problem", "remove_created"]


def out_folder_problem(output: str | os.PathLike, error: OSError) -> str:
    """A failed mkdir/open of an output folder as one line naming it and what to do."""
    path = Path(output)
    if isinstance(error, FileExistsError) or (path.exists() and not path.is_dir()):
        return f"--out {output} is a file, not a folder: choose a new folder (or an earlier run's)"
    if isinstance(error, NotADirectoryError):
        parent = next((a for a in path.parents if a.exists()), path)
        return f"--out {output} cannot be created: {parent} is a file, not a folder"
    if error.errno == errno.EROFS:
        return read_only_line(f"--out {output}")
    if isinstance(error, PermissionError):
        return f"--out {output}: permission denied on {error.filename or output}: choose a folder you can write"
    return f"--out {output} cannot be written: {error.strerror or error}: choose a folder you can write"


def make_out_folder(output: str | os.PathLike) -> list[Path]:
    """Create the output folder (and its missing parents); returns what was created, deepest first, for
    :func:`remove_created`. A path that cannot be a folder raises ``OSError`` (see :func:`out_folder_problem`)."""
    folder = Path(output)
    created = [a for a in (folder, *folder.parents) if not a.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    return created


def remove_created(created: Sequence[Path], *, tree: bool = False) -> None:
    """Undo :func:`make_out_folder` after a failure before any work: the folders it created, emptied first
    when ``tree`` (the innermost one's content is then the failed run's own), else only if empty."""
    for k, directory in enumerate(created):
        if tree and k == 0:
            shutil.rmtree(directory, ignore_errors=True)
            continue
        with contextlib.suppress(OSError):
            directory.rmdir()

def out_file_problem(flag: str, path: str | os.PathLike) -> str | None:
    """Why the output file ``path`` could not be written, checked before any work (None when it can be): a
    folder there, a file where a parent folder must be, or a parent folder the user cannot write."""
    path = Path(path)
    if path.is_dir():
        return f"{flag} {path} is a folder: give a file path"
    parent = next((a for a in path.parents if a.exists()), Path("."))
    if not parent.is_dir():
        return f"{flag} {path} cannot be written: {parent} is a file, not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        if os.statvfs(parent).f_flag & os.ST_RDONLY:  # os.access says no for a read-only disk as well
            return read_only_line(f"{flag} {path}")
        return f"{flag} {path}: permission denied on {parent}: choose a path you can write"
    return None
