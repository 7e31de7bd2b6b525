"""benchmarks/pipeline_bench.py end to end on a slice of the real bitext (the full 62.5k-pair run is the script)."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from tests.conftest import REPO_ROOT, shared_data

pytestmark = [pytest.mark.bench, pytest.mark.timeout(600)]


def test_pipeline_bench_smoke(tmp_path):
    shared_data("bitext/multi30k-train.cs")
    spec = importlib.util.spec_from_file_location("pipeline_bench", REPO_ROOT / "benchmarks" / "pipeline_bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["pipeline_bench"] = module
    spec.loader.exec_module(module)
    out = tmp_path / "bench.json"
    assert module.main(["--rows", "3000", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["pairs"] == 3000 and len(figures["pipeline"]) == 2
    assert all(run["pairs_per_s"] > 0 for run in figures["pipeline"].values())
    assert figures["best"]["fraction_of_stock_sacremoses_ceiling"] > 0
