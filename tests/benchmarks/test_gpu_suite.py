"""benchmarks/gpu_suite.py on CPU with its small sizes: every number the GPU run reports is produced, so the suite
is known to work whenever a CUDA machine is at hand."""

from __future__ import annotations

import json

import pytest

from tests.conftest import load_benchmark, shared_data


def test_gpu_suite_runs_on_cpu_small(tmp_path, capsys):
    shared_data("bitext/tatoeba.cs")
    shared_data("paraphrase/multi30k-captions")
    suite = load_benchmark("gpu_suite")
    assert suite.main(["--device", "cpu", "--small", "--json", str(tmp_path / "gpu.json")]) == 0
    result = json.loads((tmp_path / "gpu.json").read_text())
    translation = {(c["backend"], c["compute_type"]): c for c in result["translation"]}
    assert set(translation) == {("ctranslate2", "float32"), ("ctranslate2", "int8"), ("fairseq", "float32")}
    for case in translation.values():
        assert case["sentences_per_second"] > 0 and case["target_tokens_per_second"] > 0, case
    assert {(c["model"], c["megabatch"]) for c in result["trainer"]} == {
        (m, k) for m in ("word", "trigram", "lstm") for k in (1, 4)}
    assert all(c["pairs_per_second"] > 0 and 0 < c["mining_fraction"] < 1 for c in result["trainer"])
    word = next(c for c in result["trainer"] if (c["model"], c["megabatch"]) == ("word", 4))
    assert result["word_epoch"]["minutes"] == round(5_000_000 / word["pairs_per_second"] / 60, 1)
    assert "5M-pair WORD epoch" in capsys.readouterr().out


def test_gpu_suite_says_when_there_is_no_gpu(capsys):
    suite = load_benchmark("gpu_suite")
    if suite.torch.cuda.is_available():
        pytest.skip("a CUDA device is visible")
    assert suite.main(["--device", "cuda"]) == 2
    assert "--device cpu --small" in capsys.readouterr().err
