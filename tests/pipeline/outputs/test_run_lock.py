"""A run folder has one owner: a second ``paranmt run`` into a folder another live process holds is refused at
once, before Beam loads (one line naming the holder, exit 2); a holder killed with SIGKILL leaves a lock that
blocks nothing, so the rerun resumes. The holder is a separate process that takes the lock and says so in a file; every
step waits on a file or a process, never on a sleep. Inputs carry their translation (--mt) and runs use --no-score,
so no model is needed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paranmt.core.run_definition import DEFINITION_FILE
from paranmt.core.run_layout import LOCK_FILE
from pipeline.outputs.run_folder import own_output
from pipeline.outputs.run_lock import RunFolderBusy
from tests.support.processes import run_python
from tests.support.repo import REPO_ROOT

PARANMT_RUN = ("-m", "paranmt", "run", "--no-score", "--quiet", "--runner", "BundleBasedDirectRunner")

ROWS = [(f"Věta číslo {i} je tady.", f"Sentence number {i} is here.", f"The sentence {i} is here.")
        for i in range(60)]

# A second process that takes the run folder's lock the way pipeline.run does, writes <out>.held, and holds the
# lock until its stdin closes (or it is killed).
HOLDER = """
import sys
from pathlib import Path
from pipeline.outputs.run_folder import own_output
out = sys.argv[1]
with own_output(out):
    Path(out + ".held").write_text("held")
    sys.stdin.read()
"""


@pytest.fixture
def inputs(tmp_path: Path) -> list[str]:
    paths = []
    for k, side in enumerate(("cs", "en", "mt")):
        path = tmp_path / f"p.{side}"
        path.write_text("".join(row[k] + "\n" for row in ROWS), encoding="utf-8")
        paths += [f"--{side}", str(path)]
    return paths


def _hold(out: Path) -> subprocess.Popen:
    """Start the holder and return once it holds the lock (it has written ``<out>.held``)."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], cwd=REPO_ROOT, stdin=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    held = Path(f"{out}.held")
    deadline = time.monotonic() + 120
    while not held.exists():  # a file written by the holder, polled (no sleep stands for the synchronisation)
        assert holder.poll() is None, "the holder ended before taking the lock"
        assert time.monotonic() < deadline, "the holder never took the lock"
        time.sleep(0.02)
    return holder


def _error_lines(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if not line.startswith("WARNING:")]  # Beam's import noise


def test_a_second_run_into_a_held_folder_is_refused_naming_the_holder(tmp_path, inputs):
    out = tmp_path / "run"
    holder = _hold(out)
    try:
        done = run_python(*PARANMT_RUN, *inputs, "--out", out, timeout=240)
    finally:
        holder.communicate(b"")  # closes its stdin: it releases the lock and ends
    lines = _error_lines(done)
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"error: {out} is in use by pid {holder.pid} on {socket.gethostname()}, started ")
    assert "choose another --out" in lines[0]
    assert not (out / DEFINITION_FILE).exists()  # refused before anything was written
    # The holder is gone: the same command now runs, and the finished folder names no holder.
    done = run_python(*PARANMT_RUN, *inputs, "--out", out, timeout=240)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "summary.json").read_text())["pairs"] == len(ROWS)
    assert (out / LOCK_FILE).read_text() == ""


REFUSED_BEFORE_BEAM = """
import sys
from pipeline.run import main
status = main(sys.argv[1:])
print(status, "apache_beam" in sys.modules)
"""


def test_a_held_folder_is_refused_before_beam_loads(tmp_path, inputs):
    """Loading Beam takes seconds; the refusal comes first (no Beam module loaded in the refused process)."""
    out = tmp_path / "run"
    holder = _hold(out)
    try:
        done = subprocess.run([sys.executable, "-c", REFUSED_BEFORE_BEAM, *inputs, "--no-score", "--out", str(out)],
                              cwd=REPO_ROOT, capture_output=True, text=True, timeout=240,
                              env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    finally:
        holder.communicate(b"")
    assert done.stdout.split() == ["2", "False"], done.stderr
    assert f"error: {out} is in use by pid {holder.pid}" in done.stderr
    assert (out / LOCK_FILE).exists()  # the holder's folder is left as it was


def test_a_killed_holder_does_not_block_the_resume(tmp_path, inputs):
    """kill -9 runs no clean-up: the lock file still names the dead holder, but flock locks die with their
    process, so the next run takes the folder."""
    out = tmp_path / "run"
    holder = _hold(out)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    assert json.loads((out / LOCK_FILE).read_text())["pid"] == holder.pid  # stale content, no lock
    done = run_python(*PARANMT_RUN, *inputs, "--out", out, timeout=240)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "summary.json").read_text())["read"] == len(ROWS)


def test_the_lock_is_exclusive_within_one_process_too(tmp_path):
    """flock locks belong to the open file description: a second claim by the same process is refused as well
    (a program calling run() twice on one folder from two threads gets the same protection)."""
    out = tmp_path / "run"
    with own_output(str(out)), pytest.raises(RunFolderBusy, match=f"pid {os.getpid()}"), own_output(str(out)):
        pass
    with own_output(str(out)):  # released: taken again
        assert json.loads((out / LOCK_FILE).read_text())["pid"] == os.getpid()


def test_a_refused_or_failed_run_leaves_no_folder_it_created(tmp_path):
    out = tmp_path / "a" / "b" / "run"
    with pytest.raises(ValueError, match="boom"), own_output(str(out)):
        raise ValueError("boom")
    assert not (tmp_path / "a").exists()


def test_object_stores_are_not_locked_and_say_so(caplog):
    with caplog.at_level("WARNING"), own_output("gs://bucket/run"):
        pass
    assert "has no locks" in caplog.text
