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
from collections.abc import Sequence
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


def write_pair(folder: Path, name: str, cs: Sequence[str], en: Sequence[str]) -> tuple[Path, Path]:
    """``cs`` and ``en`` as the line-aligned pair files ``name.cs`` and ``name.en`` in ``folder``."""
    paths = (folder / f"{name}.cs", folder / f"{name}.en")
    for path, lines in zip(paths, (cs, en), strict=True):
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return paths


def run_driver(code: Path, inputs: tuple[Path, Path], out: Path, sets: list[str], workers: int,
               env: dict[str, str], end: float | None = None) -> Driven:
    """:data:`DRIVER` on the pair files ``inputs`` with the packages of the checkout ``code`` first on the path, on
    the local runner in-process or with ``workers`` worker processes, in its own process and session (a run stopped
    at ``end``, monotonic, takes its worker processes with it); ``env`` added to this environment."""
    beam_args = ["--runner=FnApiRunner"]
    if workers > 1:
        beam_args += ["--direct_running_mode=multi_processing", f"--direct_num_workers={workers}"]
    payload = {"cs": str(inputs[0]), "en": str(inputs[1]), "out": str(out), "sets": sets, "beam_args": beam_args}
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
