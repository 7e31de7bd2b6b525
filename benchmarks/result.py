"""A benchmark's result JSON, written one way: the ``command`` that made it (``python -m benchmarks.GROUP.NAME``
with its arguments, absolute paths shown relative to the repository), the ``machine`` it ran on, then its figures."""

from __future__ import annotations

import json
import os
import platform
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.paths import REPO, shown

__all__ = ["command", "machine", "write_json", "write_result"]


def _shown_argument(argument: str) -> str:
    """An argument with an absolute path (alone or after ``NAME=``) shown as :func:`benchmarks.paths.shown` does."""
    name, equals, value = argument.rpartition("=")
    return f"{name}{equals}{shown(value)}" if os.path.isabs(value) else argument


def command(script: str, argv: Sequence[str] | None = None) -> str:
    """How ``script`` (a benchmark's ``__file__``) runs with ``argv`` (default: this process's arguments), as
    ``python -m benchmarks.GROUP.NAME ARGS``."""
    module = Path(script).resolve().relative_to(REPO).with_suffix("").as_posix().replace("/", ".")
    arguments = sys.argv[1:] if argv is None else argv
    return shlex.join(["python", "-m", module, *map(_shown_argument, arguments)])


def machine() -> dict[str, Any]:
    """The machine a figure was measured on: CPU, cores, Python."""
    return {"cpu": platform.processor() or platform.machine(), "machine": platform.machine(),
            "cpu_cores": os.cpu_count(), "python": platform.python_version()}


def write_result(path: Path | None, result: dict[str, Any], script: str,
                 argv: Sequence[str] | None = None) -> dict[str, Any]:
    """``result`` after its ``command`` and ``machine``, written to ``path`` as JSON when a path is given."""
    record = {"command": command(script, argv), "machine": machine(), **result}
    if path is not None:
        write_json(path, record)
    return record


def write_json(path: Path, value: Any) -> None:
    """``value`` as the result files hold it: indented, UTF-8, one trailing newline (folders made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
