"""Reading a text file the way the tests compare it: UTF-8, one string per line."""

from __future__ import annotations

from pathlib import Path


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()
