"""Committed results and the scripts that write them name repository-relative paths only: no folder of the machine
that measured."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from benchmarks.paths import REPO, code_commit, shown

RESULTS = sorted((REPO / "benchmarks" / "results").rglob("*.json"))
_ABSOLUTE = re.compile(r"^(/|[A-Za-z]:\\|~)")


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (key, *_strings(item))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_a_committed_result_names_no_absolute_path(path: Path) -> None:
    absolute = [s for s in _strings(json.loads(path.read_text(encoding="utf-8"))) if _ABSOLUTE.match(s)]
    assert not absolute, absolute


def test_paths_are_shown_relative_to_the_repository(tmp_path: Path) -> None:
    assert shown(REPO / "runs" / "x") == "runs/x" and shown(REPO) == "."
    assert shown(REPO.parent / "shared" / "models" / "small-cs-en") == "../shared/models/small-cs-en"
    assert not shown(tmp_path).startswith("/")
    assert re.fullmatch(r"unknown|[0-9a-f]{7,}(\+dirty)?", code_commit(REPO))  # unknown: a copy without .git
