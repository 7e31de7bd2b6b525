"""benchmarks/studies/lexicon_diagnosis.py runs end to end (a seconds-long smoke run on real data)."""

from __future__ import annotations

import json
import math

from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data


def test_lexicon_diagnosis_smoke(tmp_path):
    """300 images of caption pairs: every table is made, cross PMI is the same under both within-sentence estimates,
    and the rarest band shows the diagnosis (the additive estimate calls pairs expected < 0.1 times in one sentence
    strongly associated; the prior keeps them near 0)."""
    shared_data("wordsim")
    out, tables = tmp_path / "diagnosis.json", tmp_path / "diagnosis.md"
    assert load_benchmark("studies/lexicon_diagnosis").main(
        ["--images", "300", "--fractions", "0.5", "--priors", "1", "--json", str(out), "--markdown", str(tables)]) == 0
    (figures,) = json.loads(out.read_text())["corpora"]
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
