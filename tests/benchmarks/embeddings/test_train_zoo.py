"""benchmarks/train_zoo.py and benchmarks/lexicon_eval.py run end to end (seconds-long smoke runs on real data; the
full runs are the scripts themselves and the `slow` tests)."""

from __future__ import annotations

import json
import math

from tests.conftest import load_benchmark, shared_data


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
def test_lexicon_eval_smoke(tmp_path):
    shared_data("wordsim")
    out = tmp_path / "lexicon.json"
    assert load_benchmark("lexicon_eval").main(["--images", "300", "--reference-pairs", "200",
                                                "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["used"] > 2000 and figures["vocabulary"] > 100
    assert figures["results"] and figures["control"] and figures["throughput"]
def test_lexicon_diagnosis_smoke(tmp_path):
    """benchmarks/lexicon_diagnosis.py on 300 images of caption pairs: every table is made, cross PMI is the same
    under both within-sentence estimates, and the rarest band shows the diagnosis (the additive estimate calls
    pairs expected < 0.1 times in one sentence strongly associated; the prior keeps them near 0)."""
    shared_data("wordsim")
    out, tables = tmp_path / "diagnosis.json", tmp_path / "diagnosis.md"
    assert load_benchmark("lexicon_diagnosis").main(["--images", "300", "--fractions", "0.5", "--priors", "1",
                                                     "--json", str(out), "--markdown", str(tables)]) == 0
    (figures,) = json.loads(out.read_text())
    assert set(figures["sizes"]) == {"0.5", "1"}
    full = figures["sizes"]["1"]
    assert set(full["scores"]) == {"before", "after", "prior=1"} and len(full["scores"]["after"]) == 8
    before, after = full["scores"]["before"], full["scores"]["after"]
    for name, row in after.items():
        assert row["covered"] == before[name]["covered"], name
        assert math.isclose(row["cross_rho0"], before[name]["cross_rho0"]) or math.isnan(row["cross_rho0"]), name
    rarest = full["bands"][0]
    assert rarest["band"] == "[0, 0.1)" and rarest["within_before"] > 1.5 and abs(rarest["within_after"]) < 1
    assert "Size curve" in tables.read_text() and "Choice of `within_prior`" in tables.read_text()
