"""Paths as a benchmark records them: relative to the repository (``../shared/...`` for the data and models beside
it), so a committed result or a usage line names no machine's folders."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

__all__ = ["REPO", "SHARED", "code_commit", "shown"]

REPO = Path(__file__).resolve().parent.parent
#: ``../shared`` beside the repository: the papers, data and models the benchmarks read (never copied in).
SHARED = REPO.parent / "shared"


def shown(path: str | Path) -> str:
    """``path`` relative to the repository; under ``../shared`` (a link, often) as ``../shared/...``."""
    target = Path(path).resolve()
    for base, shown_as in ((REPO, "."), (SHARED.resolve(), "../shared")):
        if target == base or base in target.parents:
            return Path(os.path.normpath(Path(shown_as) / target.relative_to(base))).as_posix()
    return Path(os.path.relpath(target, REPO)).as_posix()


def code_commit(folder: str | Path) -> str:
    """The commit a checkout of this repository holds (``+dirty`` with uncommitted changes), for a result to name
    the code it measured instead of the folder it ran from."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=False).stdout.strip()

    commit = git("rev-parse", "--short=7", "HEAD") or "unknown"
    return commit + ("+dirty" if git("status", "--porcelain", "--untracked-files=no") else "")
