"""The README's "The same job in Python" block runs as written: the main job on the bundled sample, from Python,
in a folder that holds the sample where the README's paths expect it (``configs/sample/``). Its outputs are the
CLI's: every row accounted for, the real model's translations, and ``train/`` the selection."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pyarrow.parquet as pq

from tests.support.repo import REPO_ROOT


def readme_python_block() -> str:
    """The README's Python block that runs the pipeline."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    found = [b for b in blocks if "from pipeline.job import run_job" in b]
    assert len(found) == 1, "README.md should hold one Python block that runs the pipeline"
    return found[0]


def test_the_readme_python_block_runs_as_written(tmp_path):
    snippet = readme_python_block()
    out = re.search(r'run_job\(config, inputs, "([^"]+)"\)', snippet)
    assert out, snippet
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "sample").symlink_to(REPO_ROOT / "configs" / "sample", target_is_directory=True)
    # a process of its own, as a user runs it: the sample's translate.cpu_kernel (portable) is set before
    # CTranslate2 loads, once per process, and this test process keeps the suite's default
    done = subprocess.run([sys.executable, "-c", snippet], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    printed = io.StringIO(done.stdout)
    folder = tmp_path / out.group(1)
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["read"] == 400 and summary["identity"]["holds"] and summary["nmt_model_id"] == "small-cs-en"
    assert printed.getvalue().split(maxsplit=2)[:2] == ["400", str(summary["train"])]  # what the block prints
    train = pq.read_table(folder / "train").to_pylist()
    assert len(train) == summary["train"] >= 40 and all(row["keep"] and row["mt"].strip() for row in train)
    assert sum(summary["pairs_by_decision"].values()) == summary["pairs"] == 400
