"""A command's process ends through ``exit_process``: Python's exit steps (a running executor job finishes, the atexit
hooks run, buffered stdout is written) and its status, but not the interpreter's teardown, where native thread pools
can abort a finished run. The control ends the same script with ``sys.exit``: its teardown runs a module global's
``__del__``, which shows the check can see a teardown."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repo import REPO_ROOT

SCRIPT = """
import atexit, sys, time
from concurrent.futures import ThreadPoolExecutor
from paranmt.core.command_line import exit_process
out = sys.argv[1]

def mark(name, open=open, out=out):  # bound now: the teardown clears builtins and module globals
    with open(f"{out}/{name}", "w") as file:
        file.write(name)

class SeenInTeardown:
    def __del__(self, mark=mark):
        mark("teardown")

seen = SeenInTeardown()
atexit.register(mark, "atexit")
pool = ThreadPoolExecutor(1)
pool.submit(lambda: (time.sleep(0.3), mark("job")))  # still running when the command returns
sys.stdout.write("the summary, buffered")
if sys.argv[2] == "exit_process":
    exit_process(3)
sys.exit(3)
"""


@pytest.mark.parametrize("ending", ["exit_process", "sys.exit"])
def test_a_process_ends_with_pythons_exit_steps_and_without_its_teardown(tmp_path: Path, ending: str) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), ending], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 3, done.stderr
    assert done.stdout == "the summary, buffered" and done.stderr == ""
    assert (tmp_path / "job").exists() and (tmp_path / "atexit").exists()
    assert (tmp_path / "teardown").exists() == (ending == "sys.exit")
