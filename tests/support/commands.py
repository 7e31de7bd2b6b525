"""A ``paranmt`` command run as a user's shell runs it: a separate process whose stderr is a pipe, not a terminal
(what a log file, CI or ``2> log`` gives); and a command's ``main`` refusing bad input in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable

import pytest

from paranmt.core.command_line import BAR_SWITCHES
from tests.support.repo import REPO_ROOT


def run_paranmt(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """``python -m paranmt ARGS`` in the repository, stdout and stderr captured as text."""
    env = {key: value for key, value in os.environ.items() if key not in BAR_SWITCHES}  # the command decides
    return subprocess.run([sys.executable, "-m", "paranmt", *args], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**env, "PYTHONPATH": str(REPO_ROOT)})


def one_error_line(capsys: pytest.CaptureFixture[str], main: Callable[[list[str]], int], args: list[str]) -> str:
    """``main(args)`` exits 2 with one ``error:`` line on stderr and no traceback; that line."""
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err
