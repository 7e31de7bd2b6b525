"""benchmarks/train_zoo.py and benchmarks/lexicon_eval.py run end to end (seconds-long smoke runs on real data; the
full runs are the scripts themselves and the `slow` tests)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import load_benchmark, shared_data


@pytest.mark.timeout(240)
def test_train_zoo_smoke(tmp_path):
    shared_data("sts")
    out = tmp_path / "zoo.json"
    assert load_benchmark("train_zoo").main(["--captions", str(shared_data("paraphrase/multi30k-captions")),
                                             "--pairs", "400", "--steps", "3", "--models", "word,cse",
                                             "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert set(result["speed"]) >= {"word", "cse"}
    for label, speed in result["speed"].items():
        assert speed["pairs_per_s"] > 0, label
    assert set(result["sts"]) >= {"word", "cse"}


@pytest.mark.timeout(240)
def test_lexicon_eval_smoke(tmp_path):
    shared_data("wordsim")
    out = tmp_path / "lexicon.json"
    assert load_benchmark("lexicon_eval").main(["--images", "300", "--reference-pairs", "200",
                                                "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["used"] > 2000 and figures["vocabulary"] > 100
    assert figures["results"] and figures["control"] and figures["throughput"]
