"""The benchmark scripts run end to end (seconds-long smoke versions; the full runs are behind `-m bench`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.repo import load_benchmark


def test_translate_bench_smoke(real_model, tmp_path: Path):
    out = tmp_path / "bench.json"
    assert load_benchmark("translate/translate_bench").main(
        ["--model", str(real_model), "--sentences", "40", "--threads", "1", "--repeats", "1", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    cases = {(c["backend"], c["compute_type"]): c for c in result["cases"]}
    assert set(cases) == {("fairseq", "float32"), ("ctranslate2", "float32"), ("ctranslate2", "int8")}
    assert all(c["sentences_per_second"] > 0 and c["mean_output_tokens"] > 0 for c in cases.values())
    assert cases[("fairseq", "float32")]["speedup_vs_fairseq"] == pytest.approx(1.0)
    assert "top-1 equal to fairseq" in cases[("ctranslate2", "float32")]["note"]


@pytest.mark.bench
@pytest.mark.timeout(1800)
def test_translate_bench_full(real_model):
    """The full benchmark of the closing note: 2,000 real sentences, 1 and 2 threads."""
    assert load_benchmark("translate/translate_bench").main(["--model", str(real_model)]) == 0
