"""benchmarks/gpu_suite.py on the CPU in its smoke mode: every part the GPU run reports (the backend check,
translation with both backends and the random base-sized model, the pipeline in-process and with workers, training
WORD / TRIGRAM / SP) runs through the same code, so the suite is known to work whenever a CUDA machine is at hand;
and a backend that breaks is recorded with its error, never as a speed."""

from __future__ import annotations

import json
import time
from dataclasses import asdict

import pytest

from tests.benchmarks import suite_loaders
from tests.conftest import load_benchmark, shared_data
from translate.card import DEFAULT_MODEL_DIR


def test_gpu_suite_smoke_runs_every_part_on_cpu(tmp_path, monkeypatch, capsys):
    shared_data("bitext/tatoeba.cs")
    shared_data("paraphrase/multi30k-captions")
    shared_data("../models/small-cs-en/fairseq/checkpoint_best.pt")
    suite = load_benchmark("gpu_suite")
    # One compute type breaks the way CTranslate2 did on a CUDA 13 machine: it loads, then every batch fails.
    monkeypatch.setattr(suite, "load_translator", suite_loaders.int8_float32_without_cublas)
    # Limits as hang detectors only: a loaded machine is slow.
    assert suite.main(["--smoke", "--json", str(tmp_path / "gpu.json"), "--work", str(tmp_path / "work"),
                       "--check-seconds", "600", "--stall-seconds", "600", "--minutes", "60"]) == 0
    result = json.loads((tmp_path / "gpu.json").read_text())
    checks = {(c["backend"], c["compute_type"]): c for c in result["backend_check"]["checks"]}
    assert set(checks) == {("ctranslate2", "int8"), ("ctranslate2", "float32"), ("ctranslate2", "int8_float32"),
                           ("fairseq", "float32")}
    broken = checks.pop(("ctranslate2", "int8_float32"))
    assert not broken["ok"] and suite_loaders.CUBLAS_MISSING in broken["error"], broken
    assert all(c["ok"] and c["error"] is None for c in checks.values()), checks
    assert checks[("ctranslate2", "int8")]["identical_to_cpu_int8"] == 1.0
    translation = {(c["model"], c["backend"], c["compute_type"]): c for c in result["translation"]}
    assert set(translation) == {("small-cs-en", "ctranslate2", "int8"), ("small-cs-en", "ctranslate2", "float32"),
                                ("small-cs-en", "ctranslate2", "int8_float32"), ("small-cs-en", "fairseq", "float32"),
                                ("base-random", "ctranslate2", "float32"), ("base-random", "fairseq", "float32")}
    skipped = translation.pop(("small-cs-en", "ctranslate2", "int8_float32"))
    assert skipped["status"] == "skipped" and suite_loaders.CUBLAS_MISSING in skipped["error"], skipped
    assert skipped["sentences_per_second"] is None and skipped["target_tokens_per_second"] is None
    for case in translation.values():
        assert case["status"] == "ok" and case["error"] is None, case
        assert case["sentences_per_second"] > 0 and case["target_tokens_per_second"] > 0, case
    assert translation[("small-cs-en", "ctranslate2", "int8")]["identical_to_cpu_int8"] == 1.0
    # random weights never stop early: every sentence runs to the cap set from small-cs-en's mean output length
    base = translation[("base-random", "ctranslate2", "float32")]
    assert base["hit_length_cap"] == base["sentences"] and base["max_decoding_length"] >= 1
    out = capsys.readouterr().out
    assert "int8_float32  cpu" in out and "FAILED" in out and "skipped: its backend check failed" in out
    pipeline = result["pipeline"]
    assert pipeline["sizes"] == [200, 400]
    runs = {(row["mode"], row["input_pairs"]): row for row in pipeline["runs"]}
    assert set(runs) == {(mode, n) for mode in ("workers", "in-process") for n in (200, 400)}
    for row in runs.values():
        assert row["status"] == "ok", (row["label"], row.get("error"), "\n".join(row.get("stderr_tail", [])))
        assert row["read"] == row["input_pairs"] and row["translated"] > 0, row
        assert 0 < row["translation_seconds"] <= row["wall_seconds"], row
    assert pipeline["same_train_in_every_mode"] == {"200": True, "400": True}
    for mode in ("workers", "in-process"):
        small, large = runs[(mode, 200)], runs[(mode, 400)]
        rate = pipeline["modes"][f"this, {mode}"]["marginal"]
        assert rate["rows"] == 200 and rate["seconds"] == round(large["wall_seconds"] - small["wall_seconds"], 3)
    # the standalone rate the pipeline is compared with: CTranslate2 at the pipeline's CPU settings
    reference = translation[("small-cs-en", "ctranslate2", "int8")]["sentences_per_second"]
    assert pipeline["standalone"]["pipeline_settings"] == reference
    (fault,) = result["fail_fast"]
    assert fault["ok"] and fault["exit_code"] == 2 and fault["stderr_lines"] == 1, fault
    assert "illegal memory access" in fault["stderr_tail"][-1] and "train" not in fault["written"], fault
    train = result["train"]
    assert {(c["model"], c["megabatch"]) for c in train["cases"]} == {
        (m, k) for m in ("word", "trigram", "sp") for k in (1, 4)}
    assert all(c["pairs_per_second"] > 0 and 0 < c["mining_fraction"] < 1 for c in train["cases"])
    word = next(c for c in train["cases"] if (c["model"], c["megabatch"]) == ("word", 4))
    assert train["word_epoch"]["minutes"] == round(5_000_000 / word["pairs_per_second"] / 60, 2)


@pytest.mark.parametrize(("loader", "error", "stall_seconds"), [
    (suite_loaders.every_batch_fails, suite_loaders.CUBLAS_MISSING, 600),
    (suite_loaders.no_tokens, "0 target tokens", 600),
    (suite_loaders.dies, "exited (status 3) before its result", 600),
    # stopped whether the process hangs in its imports or in the loader: no event comes either way
    (suite_loaders.hangs, "stopped: no progress for 3 s", 3),
])
def test_a_case_that_fails_records_its_error_and_no_rate(tmp_path, monkeypatch, loader, error, stall_seconds):
    suite = load_benchmark("gpu_suite")
    monkeypatch.setattr(suite, "load_translator", loader)
    sentences = tmp_path / "sentences.json"
    sentences.write_text(json.dumps(["Dobrý den.", "Kde je nádraží?", "Děkuji."]), encoding="utf-8")
    case = suite.TranslationCase("small-cs-en", "ctranslate2", "int8", "cpu", None)
    limits = suite.Limits(stall_seconds=stall_seconds, check_seconds=600, end=time.monotonic() + 600)
    suite.time_translation(case, DEFAULT_MODEL_DIR, sentences, 1, suite.GpuSampler(), limits, tmp_path / "case.log")
    record = asdict(case)
    assert record["status"] == "failed" and error in record["error"], record
    assert all(record[k] is None for k in ("sentences_per_second", "target_tokens_per_second", "seconds")), record
    assert record["hypotheses"] == []
    if loader is suite_loaders.every_batch_fails:  # the warm-up's sentence failed (or a fail-fast error stopped it)
        assert record["failed"] in (0, 1)


@pytest.mark.parametrize("short", [True, False])
def test_every_case_of_a_gpu_run_is_covered_by_the_backend_check(tmp_path, monkeypatch, short):
    """The GPU run's plan, walked on the CPU with the check and the cases stubbed: every case it starts is one the
    check covered, and the cases of a backend that failed its check are skipped with its error."""
    suite = load_benchmark("gpu_suite")
    plan = suite.backend_plan("cuda", short)
    started = []

    broken = "float16" if short else "bfloat16"  # --short sweeps float16 only

    def check(plan, *_):
        return [suite.BackendCheck(*key, ok=key[1] != broken, error=None if key[1] != broken else "boom")
                for key in plan]

    def translate(case, *_):
        started.append(case.key)
        case.status, case.sentences_per_second, case.mean_output_tokens, case.hypotheses = "ok", 1.0, 9.0, ["x"]

    monkeypatch.setattr(suite, "backend_checks", check)
    monkeypatch.setattr(suite, "time_translation", translate)
    monkeypatch.setattr(suite, "build_base_model", lambda *_: tmp_path)
    monkeypatch.setattr(suite, "sample_bitext", lambda bitext, n: ["Ahoj."] * n)
    part = suite.TranslationPart(suite.Data((tmp_path,), tmp_path, tmp_path, None), tmp_path, "cuda", 100,
                                 False, short, suite.GpuSampler(), suite.Limits(1, 1, 0),
                                 lambda key: lambda value: None, lambda: False)
    part.check()
    part.small_model()
    part.base_model()
    cases = part.cases
    # every case the check covers, and the pipeline's own settings (compute type auto, the default budget)
    assert started and set(started) <= {*plan, ("ctranslate2", "auto", "cuda")}
    assert part.best_tokens == (None if short else 4096)
    assert {c.compute_type for c in cases if c.status == "skipped"} == {broken}
    assert all(c.error == "its backend check failed: boom" for c in cases if c.status == "skipped")


def test_gpu_suite_says_when_there_is_no_gpu(capsys):
    suite = load_benchmark("gpu_suite")
    if suite.torch.cuda.is_available():
        pytest.skip("a CUDA device is visible")
    assert suite.main([]) == 2
    assert "--smoke" in capsys.readouterr().err
