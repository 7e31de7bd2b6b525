"""The bundled sample with the portable CPU kernel (configs/sample.yaml's) gives the corpus every x86 CPU gives:
the README's counts and first pairs (measured on an AMD EPYC) and, on a CPU of the type that made
benchmarks/results/sample_kernels.json, the same rows of pairs/ and train/. The run records its kernel, naming the
pin and no vendor, in its definition, its Parquet metadata and summary.json."""

from __future__ import annotations

import json

import pyarrow.parquet as pq

from benchmarks.translate.sample_kernels import corpus_record, machine_key
from paranmt.core import pair_schema as S
from paranmt.core.run_definition import DEFINITION_FILE
from tests.support.repo import REPO_ROOT
from translate.cpu_kernel import PORTABLE

RESULTS = REPO_ROOT / "benchmarks" / "results" / "sample_kernels.json"


def test_the_portable_sample_is_the_same_corpus_on_every_x86_cpu(readme_block_run):
    """The sample as the README's Python block runs it: its config's kernel, in a process of its own (CTranslate2
    reads its kernel once per process)."""
    assert readme_block_run.done.returncode == 0, readme_block_run.done.stderr[-3000:]
    out = readme_block_run.folder
    mine = corpus_record(out)
    runs = json.loads(RESULTS.read_text(encoding="utf-8"))["runs"]
    amd = [r for r in runs if r["machine"]["vendor"] == "AuthenticAMD"]
    same_path = [r for r in runs if r["cpu_kernel"] == PORTABLE or r["kernel"]["isa"] == "AVX2"]
    assert amd and len(same_path) >= 2  # Intel's portable run beside AMD's own path
    for run in same_path:
        assert (mine["pairs_by_decision"], mine["first_train_pairs"]) == (run["pairs_by_decision"],
                                                                          run["first_train_pairs"]), run["machine"]
    for run in (r for r in runs if r["cpu_kernel"] == PORTABLE and r["machine"] == machine_key()):
        assert (mine["pairs_digest"], mine["train_digest"]) == (run["pairs_digest"], run["train_digest"])

    definition = json.loads((out / DEFINITION_FILE).read_text(encoding="utf-8"))["translation_kernel"]
    assert definition == {"setting": "portable", "device": "cpu", "backend": "ctranslate2", "compute_type": "auto",
                          "vendor": "any x86-64 with AVX2", "gemm": "oneDNN", "isa": "AVX2", "ct2_isa": "AVX2"}
    meta = S.read_metadata(pq.read_schema(sorted((out / "train").glob("*.parquet"))[0]))
    assert meta["translation_kernel"] == definition
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))["translation_kernel"]
    assert {k: v for k, v in summary.items() if not k.startswith("launcher_")} == definition
    assert all(isinstance(v, str) for v in summary.values())
