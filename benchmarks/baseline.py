"""Another commit's code beside this one: a detached git worktree of it, for a benchmark to run both in the same
run (interleaved, so the machine's load falls on both alike)."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

from benchmarks.paths import REPO

__all__ = ["checkout"]


@contextlib.contextmanager
def checkout(ref: str, folder: Path) -> Iterator[Path]:
    """``ref`` of this repository checked out at ``folder`` for the ``with`` block, removed after it."""
    subprocess.run(["git", "worktree", "add", "--detach", "-f", str(folder), ref], cwd=REPO, check=True,
                   capture_output=True)
    try:
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=REPO, capture_output=True,
                       check=False)
