"""Fixtures the command tests share: a folder with a file, a sub-folder and a Czech line (paths a user names)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def user_paths(tmp_path: Path) -> Path:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("user data\n")
    (tmp_path / "in.cs").write_text("Pes vidí kočku.\n", encoding="utf-8")
    return tmp_path
