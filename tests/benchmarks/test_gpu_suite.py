"""benchmarks/gpu_suite.py on the CPU in its smoke mode: every part the GPU run reports (translation with both
backends and the random base-sized model, the pipeline in-process and with workers, training WORD / TRIGRAM / SP)
runs through the same code, so the suite is known to work whenever a CUDA machine is at hand."""

from __future__ import annotations

import json

import pytest

from tests.conftest import load_benchmark, shared_data


def test_gpu_suite_smoke_runs_every_part_on_cpu(tmp_path):
    shared_data("bitext/tatoeba.cs")
    shared_data("paraphrase/multi30k-captions")
    shared_data("../models/small-cs-en/fairseq/checkpoint_best.pt")
    suite = load_benchmark("gpu_suite")
    assert suite.main(["--smoke", "--json", str(tmp_path / "gpu.json"), "--work", str(tmp_path / "work")]) == 0
    result = json.loads((tmp_path / "gpu.json").read_text())
    translation = {(c["model"], c["backend"], c["compute_type"]): c for c in result["translation"]}
    assert set(translation) == {("small-cs-en", "ctranslate2", "int8"), ("small-cs-en", "ctranslate2", "float32"),
                                ("small-cs-en", "fairseq", "float32"), ("base-random", "ctranslate2", "float32"),
                                ("base-random", "fairseq", "float32")}
    for case in translation.values():
        assert case["sentences_per_second"] > 0 and case["target_tokens_per_second"] > 0, case
    assert translation[("small-cs-en", "ctranslate2", "int8")]["identical_to_cpu_int8"] == 1.0
    # random weights never stop early: every sentence runs to the cap set from small-cs-en's mean output length
    base = translation[("base-random", "ctranslate2", "float32")]
    assert base["hit_length_cap"] == base["sentences"] and base["max_decoding_length"] >= 1
    runs = {row["label"]: row for row in result["pipeline"]}
    assert set(runs) == {"this, workers", "this, in-process"}
    for row in runs.values():
        assert "note" not in row, (row["label"], row["note"], "\n".join(row.get("stderr_tail", [])))
        assert row["read"] == row["input_pairs"] == 600 and row["translated"] > 0, row
        assert 0 < row["translation_seconds"] <= row["wall_seconds"], row
    assert runs["this, workers"]["train_digest"] == runs["this, in-process"]["train_digest"]
    train = result["train"]
    assert {(c["model"], c["megabatch"]) for c in train["cases"]} == {
        (m, k) for m in ("word", "trigram", "sp") for k in (1, 4)}
    assert all(c["pairs_per_second"] > 0 and 0 < c["mining_fraction"] < 1 for c in train["cases"])
    word = next(c for c in train["cases"] if (c["model"], c["megabatch"]) == ("word", 4))
    assert train["word_epoch"]["minutes"] == round(5_000_000 / word["pairs_per_second"] / 60, 2)


def test_gpu_suite_says_when_there_is_no_gpu(capsys):
    suite = load_benchmark("gpu_suite")
    if suite.torch.cuda.is_available():
        pytest.skip("a CUDA device is visible")
    assert suite.main([]) == 2
    assert "--smoke" in capsys.readouterr().err
