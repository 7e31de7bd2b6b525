"""Writing a model directory so that a reader never sees it half-written (torch-free: SIF models use it too)."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["staged_directory"]


@contextmanager
def staged_directory(directory: str | Path) -> Iterator[Path]:
    """Yield an empty sibling folder to write into; on success it replaces ``directory`` (an existing one is moved
    aside first, then removed), on an exception it is deleted and ``directory`` stays as it was."""
    directory = Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = directory.with_name(f".{directory.name}.{uuid.uuid4().hex[:8]}.tmp")
    staging.mkdir()
    try:
        yield staging
        old = directory.with_name(f".{directory.name}.{uuid.uuid4().hex[:8]}.old")
        if directory.exists():
            os.replace(directory, old)
        os.replace(staging, directory)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
