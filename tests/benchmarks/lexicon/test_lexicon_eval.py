"""benchmarks/lexicon/lexicon_eval.py runs end to end (a seconds-long smoke run on real data; the full run is the
script itself and the `slow` test of tests/pipeline/analysis/lexicon/test_evaluation.py)."""

from __future__ import annotations

import json

from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data


def test_lexicon_eval_smoke(tmp_path):
    shared_data("wordsim")
    out = tmp_path / "lexicon.json"
    assert load_benchmark("lexicon/lexicon_eval").main(["--images", "300", "--reference-pairs", "200",
                                                        "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["used"] > 2000 and figures["vocabulary"] > 100
    assert figures["results"] and figures["control"] and figures["throughput"]
