"""The sentence-transformers block of docs/ecosystem.md runs as written, in a fresh interpreter of this environment
(the venv the README's set-up command builds), on a model exported with ``paranmt export``: nothing imported or patched
beforehand — in particular not ``paranmt.core.hf_imports.hide_broken_torchaudio``, which paranmt's own entry points
call. A CUDA-only torchaudio beside the CPU torch used to make its first line fail (``OSError: …
_torchaudio.abi3.so``)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from paranmt.cli.paranmt_command import main as paranmt
from tests.support.repo import REPO_ROOT
from tests.support.training_pairs import tatoeba_pairs_parquet, tiny
from train_embeddings.models.model_io import load_model
from train_embeddings.training.trainer import train

if importlib.util.find_spec("sentence_transformers") is None:  # the st extra is optional; CI installs .[all]
    pytest.skip("sentence-transformers is not installed (the st extra)", allow_module_level=True)

SENTENCES = ["A man is playing a guitar.", "A man plays the guitar."]


DOC = REPO_ROOT / "docs" / "ecosystem.md"


def readme_snippet() -> str:
    """The docs' Python block that loads an exported model with sentence-transformers (dedented only)."""
    text = DOC.read_text(encoding="utf-8")
    blocks = [textwrap.dedent(b) for b in re.findall(r"^ *```python\n(.*?)^ *```", text, re.DOTALL | re.MULTILINE)]
    found = [b for b in blocks if "from sentence_transformers import SentenceTransformer" in b]
    assert len(found) == 1, f"{DOC.name} should hold one sentence-transformers Python block"
    return found[0]


def test_the_readme_block_runs_as_written(tmp_path):
    snippet = readme_snippet()
    paths = re.findall(r'SentenceTransformer\("([^"]+)"', snippet)
    assert paths and all(f'"{s}"' in snippet for s in SENTENCES), snippet  # it encodes these
    pairs = tatoeba_pairs_parquet(tmp_path / "tatoeba-pairs", n=300)
    run = train(tiny("word", pairs), tmp_path / "runs" / "emb" / "wt", evaluate_fn=None, progress=False)
    assert paranmt(["export", "--format", "sentence-transformers", "--model", str(run.out_dir),
                    "--out", str(tmp_path / paths[0])]) == 0
    # The block exactly as written, then (after it) one line that saves what it computed for the comparison.
    program = snippet + "\nimport numpy\nnumpy.save('embeddings.npy', numpy.asarray(embeddings))\n"
    done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=240,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert "_torchaudio" not in done.stderr, (
        "a torchaudio that cannot load is installed: build the environment as the README's set-up command does "
        "(it ends with `pip uninstall -y torchaudio`)\n" + done.stderr[-2000:])
    assert done.returncode == 0, done.stderr[-3000:]
    assert "tensor([[" in done.stdout  # the similarity it prints
    got = np.load(tmp_path / "embeddings.npy")
    expected = load_model(run.out_dir).encode(SENTENCES)
    assert got.shape == expected.shape and np.abs(got - expected).max() <= 1e-5
