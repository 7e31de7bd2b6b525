"""The README's main job on the bundled sample (configs/sample), run in-process into a folder: a real run
folder (``definition.json``, ``pairs/``, ``train/``, ``rejected/``, ``scorer/``, ``cache/``) for the
tests of what reads one; and the README's Python block, run as written in a process of its own."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from configs import load_config
from configs.schema import ParaNMTConfig
from tests.support.processes import run_python
from tests.support.repo import REPO_ROOT

SAMPLE = REPO_ROOT / "configs" / "sample"

# CTranslate2 reads its CPU kernel once per process, so every in-process run of the suite keeps the default kernel
# (``fastest``); the sample's own (``portable``) runs in a process of its own (:func:`run_readme_python_block`).
SUITE_KERNEL = "translate.cpu_kernel=fastest"


def sample_config(*overrides: str) -> ParaNMTConfig:
    """The sample's config for a run in the test process (:data:`SUITE_KERNEL`)."""
    return load_config("sample", [SUITE_KERNEL, *overrides])


@dataclass(frozen=True)
class SampleJob:
    """The README's main job as its command runs it: the run folder and what the command printed."""

    folder: Path
    stdout: str
    stderr: str


def run_sample_command(out: Path) -> SampleJob:
    """``paranmt run --config sample ...`` into ``out`` (a run, or the resume of one) in the test process
    (:data:`SUITE_KERNEL`), what it printed captured."""
    from pipeline.run import main

    args = ["--config", "sample", "--cs", str(SAMPLE / "sample.cs"), "--en", str(SAMPLE / "sample.en"),
            "--out", str(out), "--set", SUITE_KERNEL]
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main(args)
    assert code == 0, stderr.getvalue()
    return SampleJob(out, stdout.getvalue(), stderr.getvalue())


def readme_python_block() -> str:
    """The README's Python block that runs the pipeline."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    found = [b for b in blocks if "from pipeline.job import run_job" in b]
    assert len(found) == 1, "README.md should hold one Python block that runs the pipeline"
    return found[0]


@dataclass(frozen=True)
class ReadmeBlockRun:
    """The README's Python block run as written: the folder it wrote and the process that ran it."""

    folder: Path
    done: subprocess.CompletedProcess[str]


def run_readme_python_block(cwd: Path) -> ReadmeBlockRun:
    """The block in a process of its own, in ``cwd`` holding the sample where the README's paths expect it: the
    sample's own CPU kernel (``portable``) is set before CTranslate2 loads, once per process, while the test process
    keeps the suite's default."""
    snippet = readme_python_block()
    out = re.search(r'run_job\(config, inputs, "([^"]+)"\)', snippet)
    assert out, snippet
    (cwd / "configs").mkdir(parents=True)
    (cwd / "configs" / "sample").symlink_to(SAMPLE, target_is_directory=True)
    return ReadmeBlockRun(cwd / out.group(1), run_python("-c", snippet, cwd=cwd))


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
