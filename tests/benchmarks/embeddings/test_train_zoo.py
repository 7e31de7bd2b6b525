"""benchmarks/embeddings/train_zoo.py runs end to end (a seconds-long smoke run on real data; the full run is the
script itself)."""

from __future__ import annotations

import json

from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data


def test_train_zoo_smoke(tmp_path):
    shared_data("sts")
    out = tmp_path / "zoo.json"
    assert load_benchmark("embeddings/train_zoo").main(
        ["--captions", str(shared_data("paraphrase/multi30k-captions")), "--pairs", "400", "--steps", "3",
         "--models", "word,cse", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert set(result["speed"]) >= {"word", "cse"}
    for label, speed in result["speed"].items():
        assert speed["pairs_per_s"] > 0, label
    assert set(result["sts"]) >= {"word", "cse"}
