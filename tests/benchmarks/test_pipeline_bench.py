"""benchmarks/pipeline_bench.py end to end on a slice of the real bitext (a smoke run in the default suite; the
full 62.5k-pair run is the script itself, or `-m bench`)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import load_benchmark, shared_data


def run_bench(tmp_path, rows: int) -> dict:
    shared_data("bitext/multi30k-train.cs")
    out = tmp_path / "bench.json"
    assert load_benchmark("pipeline_bench").main(["--rows", str(rows), "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["pairs"] == rows and len(figures["pipeline"]) == 2
    assert all(run["pairs_per_s"] > 0 for run in figures["pipeline"].values())
    assert figures["best"]["fraction_of_stock_sacremoses_ceiling"] > 0
    assert any(stage.startswith("6b score") for stage in figures["stages_one_process"])
    return figures


@pytest.mark.timeout(300)
def test_pipeline_bench_smoke(tmp_path):
    run_bench(tmp_path, 400)


@pytest.mark.bench
@pytest.mark.timeout(1200)
def test_pipeline_bench_full(tmp_path):
    run_bench(tmp_path, 62_503)
