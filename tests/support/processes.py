"""A command run from a test: as a user runs it, in a process of its own with this checkout on its import path, its
exit status and its output (stdout, stderr) captured as text; or ``paranmt run`` in the test's own process, where
monkeypatch and capsys reach it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from pipeline.run import main as paranmt_run_main
from tests.support.repo import REPO_ROOT

IMPORT_TIME = "import time:"  # the lines ``python -X importtime`` adds to stderr


def run_command(args: Sequence[str | Path], *, cwd: Path = REPO_ROOT, env: Mapping[str, str] | None = None,
                timeout: float = 600, expect_ok: bool = False) -> subprocess.CompletedProcess:
    """``args`` in a process of its own (``env`` over this process's environment, PYTHONPATH this checkout);
    with ``expect_ok``, a non-zero exit status fails the test showing the ends of its output."""
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False, env={**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})})
    assert not expect_ok or done.returncode == 0, f"{args}: {done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def run_python(*args: str | Path, cwd: Path = REPO_ROOT, env: Mapping[str, str] | None = None,
               timeout: float = 600, expect_ok: bool = False) -> subprocess.CompletedProcess:
    """``python ARGS`` with the test's own interpreter (see :func:`run_command`)."""
    return run_command([sys.executable, *args], cwd=cwd, env=env, timeout=timeout, expect_ok=expect_ok)


def run_python_imports(*args: str | Path, cwd: Path = REPO_ROOT,
                       env: Mapping[str, str] | None = None) -> tuple[subprocess.CompletedProcess, set[str]]:
    """``python ARGS`` (see :func:`run_python`) and the top-level packages it imported; its stderr without the
    import timings."""
    done = run_python("-X", "importtime", *args, cwd=cwd, env=env)
    lines = done.stderr.splitlines()
    done.stderr = "".join(line + "\n" for line in lines if not line.startswith(IMPORT_TIME))
    return done, {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in lines if line.startswith(IMPORT_TIME)}


def paranmt_run(*args: str | Path) -> int:
    """``paranmt run ARGS`` in the test's process; its exit status."""
    return paranmt_run_main([str(a) for a in args])
