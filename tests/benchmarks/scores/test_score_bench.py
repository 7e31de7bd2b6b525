"""benchmarks/scores/score_bench.py runs end to end (a seconds-long smoke run; the full run is behind `-m bench`)."""

from __future__ import annotations

import json

import pytest

from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data


def test_score_bench_smoke(tmp_path):
    captions = shared_data("paraphrase/multi30k-captions")
    out = tmp_path / "bench.json"
    assert load_benchmark("scores/score_bench").main(["--pairs", "400", "--repeats", "1", "--captions", str(captions),
                                                   "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["pairs"] == 400 and result["reference_pairs"] == 400 and result["threads"] == 1
    assert result["pairs_per_second"] > 0 and result["reference_pairs_per_second"] > 0
    assert result["speedup_vs_reference"] == pytest.approx(
        result["pairs_per_second"] / result["reference_pairs_per_second"])
    assert result["trigram_equal_to_reference"] and result["no_known_words_equal"]
    assert result["paraphrase_max_abs_diff"] < 1e-5
    assert result["scorer_id"].startswith("paragram-")


@pytest.mark.bench
@pytest.mark.timeout(1200)
def test_score_bench_full(tmp_path):
    """The full benchmark: all 116,000 caption pairs, against the reference, goal 100k pairs/s per core."""
    captions = shared_data("paraphrase/multi30k-captions")
    out = tmp_path / "bench.json"
    assert load_benchmark("scores/score_bench").main(["--captions", str(captions), "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["pairs"] == 116_000
    assert result["trigram_equal_to_reference"] and result["paraphrase_max_abs_diff"] < 1e-5
    assert result["meets_goal"], result["pairs_per_second"]
