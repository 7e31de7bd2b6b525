"""One pipeline run in a process of its own, as the GPU benchmarks time it (``gpu_suite.py``, ``gpu_standin.py``).

:data:`DRIVER` runs ``pipeline.job.run_job`` on one pair of files and prints its summary as one ``SUMMARY {json}``
line, then leaves as the commands do (``paranmt.core.command_line.exit_process``): without the interpreter's
teardown, where a native library's thread pool can abort a finished run (docs/scaling.md, "GPU workers").
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

DRIVER = """
import json, sys
from configs import load_config
from paranmt.core.command_line import exit_process
from pipeline.inputs.plan import InputSpec
from pipeline.job import run_job
a = json.loads(sys.argv[1])
summary = run_job(load_config(None, a["sets"]), [InputSpec.pair(a["cs"], a["en"])], a["out"], a["beam_args"])
keep = ("read", "pairs", "train", "rejected", "rejected_by_reason", "deadletter", "wall_seconds", "stage_seconds",
        "step_seconds", "translation_seconds", "translation_window", "translated_rows", "metrics", "runner")
print("SUMMARY " + json.dumps({k: summary.get(k) for k in keep}))
exit_process(0)
"""


def shards_digest(folder: Path) -> str:
    """A digest of the rows of a folder's shards (not of the files, whose metadata names the code version)."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.parquet")):
        digest.update(json.dumps(pq.read_table(path).to_pydict(), default=str).encode())
    return digest.hexdigest()[:16]


@dataclass
class Driven:
    """How a :data:`DRIVER` run ended: its exit code, output, whether it was stopped, and its summary (if printed)."""

    exit_code: int | None
    stdout: str
    stderr: str
    stopped: bool
    summary: dict[str, Any] | None

    def tail(self, lines: int) -> list[str]:
        return self.stderr.strip().splitlines()[-lines:]


def run_driver(code: Path, payload: dict[str, Any], env: dict[str, str], end: float | None = None) -> Driven:
    """:data:`DRIVER` with the packages of the checkout ``code`` first on the path, in its own process and session
    (a run stopped at ``end``, monotonic, takes its worker processes with it); ``env`` added to this environment."""
    env = {**os.environ, **env, "PYTHONPATH": os.pathsep.join([str(code), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-c", DRIVER, json.dumps(payload)], env=env, cwd=code,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=None if end is None else max(0.0, end - time.monotonic()))
        stopped = False
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
            os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        stopped = True
    lines = [line for line in stdout.splitlines() if line.startswith("SUMMARY ")]
    summary = json.loads(lines[-1].removeprefix("SUMMARY ")) if lines else None
    return Driven(process.returncode, stdout, stderr, stopped, summary)
