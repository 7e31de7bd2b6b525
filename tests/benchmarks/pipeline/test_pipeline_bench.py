"""benchmarks/pipeline/pipeline_bench.py end to end on a slice of the real bitext (one smoke run in the default suite;
the full 62.5k-pair run on both local runners is the script itself, or `-m bench`)."""

from __future__ import annotations

import json

import pytest

from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data


def run_bench(tmp_path, rows: int, *options: str) -> dict:
    shared_data("bitext/multi30k-train.cs")
    out = tmp_path / "bench.json"
    assert load_benchmark("pipeline/pipeline_bench").main(["--rows", str(rows), "--json", str(out), *options]) == 0
    figures = json.loads(out.read_text())
    assert figures["pairs"] == rows and figures["half_pairs"] == rows // 2
    runners, code_paths = (1 if "--runners" in options else 2), (2 if "--baseline" in options else 1)
    assert len(figures["pipeline"]) == runners * code_paths
    assert all(run["pairs_per_s"] > 0 and run["pairs"] > 0 for run in figures["pipeline"].values())
    assert figures["best"]["fraction_of_stock_sacremoses_ceiling"] > 0
    assert any(stage.startswith("6b score") for stage in figures["stages_one_process"])
    return figures
def test_pipeline_bench_smoke_beside_a_baseline_commit(tmp_path):
    """One smoke run of every part of the script: --baseline checks a commit out in a temporary git worktree and runs
    its pipeline beside this code's in the same run (HEAD here, so both code paths must write the same pairs; the
    worktree is gone afterwards), on the in-process runner (the multi-processing runner runs in the `-m bench` test
    and in tests/pipeline); the tokeniser ceilings and the per-stage breakdown."""
    import subprocess

    from tests.support.repo import REPO_ROOT as ROOT

    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: --baseline needs git")
    figures = run_bench(tmp_path, 200, "--baseline", "HEAD", "--runners", "in-process")
    runs = figures["pipeline"]
    baseline = [name for name in runs if name.startswith("baseline HEAD")]
    assert len(baseline) == 1 and all(runs[name]["code"] != str(ROOT) for name in baseline)
    assert {runs[name]["pairs"] for name in runs} == {runs[baseline[0]]["pairs"]}
    worktrees = subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "baseline-HEAD" not in worktrees


@pytest.mark.bench
@pytest.mark.timeout(1200)
def test_pipeline_bench_full(tmp_path):
    run_bench(tmp_path, 62_503)
