"""A benchmark's result JSON, written one way: the ``command`` that made it (``python -m benchmarks.GROUP.NAME``
with its arguments, absolute paths shown relative to the repository), the ``machine`` it ran on, then its figures;
and the command line that names that file, made one way (:func:`argument_parser`)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.paths import REPO, shown
from paranmt.core.command_line import ArgumentParser

__all__ = ["argument_parser", "command", "machine", "write_json", "write_result"]


def _shown_argument(argument: str) -> str:
    """An argument with an absolute path (alone or after ``NAME=``) in the repository or ``../shared`` shown as
    :func:`benchmarks.paths.shown` does; a path elsewhere (a scratch folder) is left for the caller to name."""
    name, equals, value = argument.rpartition("=")
    relative = shown(value) if os.path.isabs(value) else ""
    inside = relative and (not relative.startswith("..") or relative.startswith("../shared"))
    return f"{name}{equals}{relative}" if inside else argument


def _module(script: str) -> str:
    """``benchmarks.GROUP.NAME``: the module ``script`` (a benchmark's ``__file__``) is, however it was started."""
    return Path(script).resolve().relative_to(REPO).with_suffix("").as_posix().replace("/", ".")


def command(script: str, argv: Sequence[str] | None = None) -> str:
    """How ``script`` (a benchmark's ``__file__``) runs with ``argv`` (default: this process's arguments), as
    ``python -m benchmarks.GROUP.NAME ARGS``."""
    arguments = sys.argv[1:] if argv is None else argv
    return shlex.join(["python", "-m", _module(script), *map(_shown_argument, arguments)])


def argument_parser(script: str, description: str | None, *, result: bool | Path = False,
                    required: bool = False) -> argparse.ArgumentParser:
    """A benchmark's command line, the project's kind (plain-text help, a bad argument one ``error:`` line): its
    usage names it as :func:`command` does, ``description`` (its docstring) keeps its line breaks, and with
    ``result`` (a path: the default) or ``required`` it takes the ``--json`` result file."""
    parser = ArgumentParser(prog=f"python -m {_module(script)}", description=description,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    if result or required:
        default = result if isinstance(result, Path) else None
        parser.add_argument("--json", type=Path, default=default, required=required,
                            help="the result file (JSON)" + (f"; default {shown(default)}" if default else ""))
    return parser


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
    """``value`` as the result files hold it: indented, UTF-8, one trailing newline (folders made); written whole
    or not at all (a temporary file renamed), so a killed run leaves the last complete one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(value, indent=1, ensure_ascii=False, default=_plain) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _plain(value: Any) -> Any:
    """What JSON cannot hold as it is: a NumPy scalar as its number, a path as a result shows it, else its text."""
    if hasattr(value, "item"):
        return value.item()
    return shown(value) if isinstance(value, Path) else str(value)
