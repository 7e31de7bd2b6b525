"""benchmarks/embeddings/train_bench.py runs end to end (a seconds-long smoke run; the full run is behind
`-m bench`)."""

from __future__ import annotations

import json

import pytest

from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data


def test_train_bench_smoke(tmp_path):
    captions = shared_data("paraphrase/multi30k-captions")
    out = tmp_path / "bench.json"
    bench = load_benchmark("embeddings/train_bench")
    assert bench.main(["--captions", str(captions), "--pairs", "1200", "--min-pairs", "200", "--megabatches", "1,4",
                       "--models", "word,trigram,lstm", "--naive-pairs", "30", "--device", "cpu", "--dim", "32",
                       "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    cases = {(c["model"], c["megabatch"]): c for c in result["cases"]}
    assert set(cases) == {(m, k) for m in ("word", "trigram", "lstm") for k in (1, 4)}
    for case in cases.values():
        assert case["pairs_per_second"] > 0 and case["update_ms"] > 0 and 0 < case["mining_fraction"] < 1
        assert case["pairs"] >= 200 and case["updates"] == case["pairs"] // 100
    miner = result["miner"]["cpu"]
    assert miner["python_loop"]["same_negatives"] and miner["numpy_row_loop"]["same_negatives"]
    # speedups are wall-clock ratios (the machine's load decides them): only that they were measured is checked
    assert miner["numpy_row_loop"]["sentences"] == 800 and miner["python_loop"]["speedup"] > 0
    assert result["dim"] == 32 and result["pairs_loaded"] == 1200


@pytest.mark.bench
@pytest.mark.timeout(1800)
def test_train_bench_full(tmp_path):
    """The full benchmark of the closing note (CPU, and CUDA when present)."""
    captions = shared_data("paraphrase/multi30k-captions")
    assert load_benchmark("embeddings/train_bench").main(["--captions", str(captions),
                                                          "--json", str(tmp_path / "b.json")]) == 0
