"""benchmarks/gpu/gpu_suite.py on the CPU in its smoke mode: every part the GPU run reports (the backend check, the
case table's steady, latency and reference cases with both backends and the random base-sized model, the pipeline
in-process and with workers, the broken backend, the back-translation model's time-boxed training, the encoders)
runs through the same code, so the suite is known to work whenever a CUDA machine is at hand; a backend that
breaks is recorded with its error, never as a speed; and the JSON names no machine's folders.

The default suite runs the suite end to end on its translation table with a broken compute type and the encoders
(seconds); every part, the pipeline's four runs and the back-translation model's training included, runs in the
two ``slow`` smokes (minutes)."""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict
from pathlib import Path

import pytest

from tests.benchmarks.gpu import suite_loaders
from tests.support.repo import REPO_ROOT, load_benchmark
from tests.support.shared_data import shared_data
from translate.card import DEFAULT_MODEL_DIR

# What the suite's scrub leaves of an absolute path is a placeholder ("<work>/...", "<path>/name"); this finds one
# it left whole.
ABSOLUTE = re.compile(r"(?<![\w.~>/-])(?:/[\w.@+-]+){2,}")


def steady_cases(translation: dict[str, dict]) -> list[dict]:
    return [c for c in translation.values() if c["measure"] == "steady" and c["status"] == "ok"]


def check_translation(result: dict, cases, parts: tuple[str, ...]) -> dict[str, dict]:
    translation = {c["name"]: c for c in result["translation"]}
    rows = [cases.REFERENCE_ROW, *(row for part in parts for row in cases.CASES["cpu"][part])]
    assert list(translation) == [row.name for row in rows]  # the table, in order, every row recorded
    reference = translation[cases.REFERENCE_ROW.name]
    assert reference["identical_to_cpu_int8"] == 1.0 and reference["compared"] == reference["sentences"] == 8
    for case in translation.values():
        if case["status"] != "ok":
            continue
        assert case["error"] is None and case["sentences_per_second"] > 0 and case["target_tokens_per_second"] > 0
        if case["measure"] == "steady":  # the rate after the warm-up batch, from the case's own batch times
            assert case["batches"] >= 3 and 0 < case["steady_sentences"] < case["sentences"], case
            rate = case["steady_sentences"] / case["steady_seconds"]  # steady_seconds is rounded to µs
            assert case["sentences_per_second"] == pytest.approx(rate, rel=0.01), case
        if case["model"] == "small-cs-en" and case["measure"] != "reference":
            assert case["compared"] == 8 and 0 <= case["identical_to_cpu_int8"] <= 1, case
            assert case["meets_identity_bar"] == (case["identical_to_cpu_int8"] >= 0.85), case
    return translation


def check_pipeline(pipeline: dict, reference_rate: float) -> None:
    assert pipeline["sizes"] == [60, 120]
    runs = {(row["mode"], row["input_pairs"]): row for row in pipeline["runs"]}
    assert set(runs) == {(mode, n) for mode in ("workers", "in-process") for n in (60, 120)}
    for row in runs.values():
        assert row["status"] == "ok", (row["label"], row.get("error"), "\n".join(row.get("stderr_tail", [])))
        assert row["read"] == row["input_pairs"] and row["translated"] > 0, row
        assert 0 < row["translation_seconds"] <= row["wall_seconds"], row
    assert pipeline["same_train_in_every_mode"] == {"60": True, "120": True}
    for mode in ("workers", "in-process"):
        small, large = runs[(mode, 60)], runs[(mode, 120)]
        entry = pipeline["modes"][f"this, {mode}"]
        assert entry["marginal"]["rows"] == 60
        assert entry["marginal"]["seconds"] == round(large["wall_seconds"] - small["wall_seconds"], 3)
        # what the CPU stand-in predicted, beside the figure, read from its results file
        assert set(entry["standin_predicted"]) >= {"marginal_over_standalone", "wall_over_translation", "busy_share"}
    # the standalone rate the pipeline is compared with: CTranslate2 at the pipeline's CPU settings
    assert pipeline["standalone"]["pipeline_settings"] == reference_rate


def check_training(result: dict) -> None:
    nmt = result["nmt_train"]
    assert nmt["status"] == "ok" and nmt["preset"] == "tiny", nmt
    assert nmt["target_tokens_per_second"] > 0 and nmt["source_tokens_per_second"] > 0, nmt
    assert nmt["converted"] and nmt["decoded_ok"] and len(nmt["decoded"]) == 4, nmt
    assert nmt["prepared"]["pairs"] == 600 and nmt["prepared"]["train"] > 0, nmt
    assert nmt["czeng"]["pairs"] == 51_400_000 and nmt["czeng"]["hours"] > nmt["czeng"]["hours_per_epoch"] > 0
    check_encoders(result)


def check_encoders(result: dict) -> None:
    encoders = result["encoders"]
    assert {(c["model"], c["megabatch"]) for c in encoders["cases"]} == {
        (m, k) for m in ("word", "trigram", "sp") for k in (1, 4)}
    assert all(c["pairs_per_second"] > 0 and 0 < c["mining_fraction"] < 1 for c in encoders["cases"])
    word = next(c for c in encoders["cases"] if (c["model"], c["megabatch"]) == ("word", 4))
    assert encoders["word_epoch"]["minutes"] == round(5_000_000 / word["pairs_per_second"] / 60, 2)


def run_smoke(suite, tmp_path, parts: str) -> tuple[dict, str]:
    shared_data("bitext/tatoeba.cs")
    shared_data("bitext-software")
    shared_data("paraphrase/multi30k-captions")
    shared_data("../models/small-cs-en/fairseq/checkpoint_best.pt")
    # Limits as hang detectors only: a loaded machine is slow.
    assert suite.main(["--smoke", "--parts", parts, "--json", str(tmp_path / "gpu.json"), "--work",
                       str(tmp_path / "work"), "--check-seconds", "900", "--stall-seconds", "900",
                       "--minutes", "120"]) == 0
    text = (tmp_path / "gpu.json").read_text()
    assert not ABSOLUTE.findall(text) and str(tmp_path) not in text and str(REPO_ROOT) not in text
    assert "--work <work>" in text  # the work folder was named, now as a placeholder
    return json.loads(text), text


def check_broken_compute_type(result: dict, cases, capsys) -> dict[str, dict]:
    """The check and the translation table of a run whose int8_float32 loads, then fails every batch: the
    translation table without that case, which is skipped with the check's error and no rate."""
    assert [p["case"] for p in result["plan"]][:2] == ["backend check", cases.REFERENCE_ROW.name]
    checks = {(c["backend"], c["compute_type"]): c for c in result["backend_check"]["checks"]}
    assert set(checks) == {("ctranslate2", "int8"), ("ctranslate2", "float32"), ("ctranslate2", "int8_float32")}
    broken = checks.pop(("ctranslate2", "int8_float32"))
    assert not broken["ok"] and suite_loaders.CUBLAS_MISSING in broken["error"], broken
    assert all(c["ok"] and c["error"] is None for c in checks.values()), checks
    translation = check_translation(result, cases, ("translate",))
    skipped = translation.pop("int8_float32, 96-token buckets")
    assert skipped["status"] == "skipped" and suite_loaders.CUBLAS_MISSING in skipped["error"], skipped
    assert skipped["sentences_per_second"] is None and skipped["target_tokens_per_second"] is None
    assert all(case["status"] == "ok" for case in translation.values()), translation
    out = capsys.readouterr().out
    assert "int8_float32  cpu" in out and "FAILED" in out and "skipped: its backend check failed" in out
    return translation


def test_gpu_suite_smoke_translation_with_a_broken_compute_type_and_encoders_on_cpu(tmp_path, monkeypatch, capsys):
    suite, cases = load_benchmark("gpu/gpu_suite"), load_benchmark("gpu/gpu_cases")
    # One compute type breaks the way CTranslate2 did on a CUDA 13 machine: it loads, then every batch fails.
    monkeypatch.setattr(cases, "load_translator", suite_loaders.int8_float32_without_cublas)
    result, _ = run_smoke(suite, tmp_path, "translate,encoders")
    check_broken_compute_type(result, cases, capsys)
    check_encoders(result)


@pytest.mark.slow
def test_gpu_suite_smoke_translation_fail_fast_and_pipeline_on_cpu(tmp_path, monkeypatch, capsys):
    suite, cases = load_benchmark("gpu/gpu_suite"), load_benchmark("gpu/gpu_cases")
    monkeypatch.setattr(cases, "load_translator", suite_loaders.int8_float32_without_cublas)
    result, _ = run_smoke(suite, tmp_path, "translate,failfast,pipeline")
    translation = check_broken_compute_type(result, cases, capsys)
    check_pipeline(result["pipeline"], translation[cases.REFERENCE_ROW.name]["sentences_per_second"])
    (fault,) = result["fail_fast"]
    assert fault["ok"] and fault["exit_code"] == 2 and fault["stderr_lines"] == 1, fault
    assert "illegal memory access" in fault["stderr_tail"][-1] and "train" not in fault["written"], fault
    assert isinstance(fault["within_goal"], bool) and fault["goal_seconds"] == 10


@pytest.mark.slow
def test_gpu_suite_smoke_training_base_model_and_sweep_on_cpu(tmp_path):
    suite = load_benchmark("gpu/gpu_suite")
    result, _ = run_smoke(suite, tmp_path, "nmt-train,base,sweep,encoders")
    assert all(c["ok"] for c in result["backend_check"]["checks"]), result["backend_check"]
    translation = check_translation(result, load_benchmark("gpu/gpu_cases"), ("base", "sweep"))
    assert all(case["status"] == "ok" for case in translation.values()), translation
    base = translation["base: float32, 96-token buckets"]
    # random weights never stop early: every sentence runs to the cap set from small-cs-en's mean output length
    assert base["hit_length_cap"] == base["sentences"] and base["max_decoding_length"] >= 1
    assert base["identical_to_cpu_int8"] is None
    check_training(result)


@pytest.mark.parametrize(("loader", "error", "stall_seconds"), [
    (suite_loaders.every_batch_fails, suite_loaders.CUBLAS_MISSING, 600),
    (suite_loaders.no_tokens, "0 target tokens", 600),
    (suite_loaders.dies, "exited (status 3) before its result", 600),
    # stopped whether the process hangs in its imports or in the loader: no event comes either way
    (suite_loaders.hangs, "stopped: no progress for 1 s", 1),
])
def test_a_case_that_fails_records_its_error_and_no_rate(tmp_path, monkeypatch, loader, error, stall_seconds):
    suite = load_benchmark("gpu/gpu_cases")
    monkeypatch.setattr(suite, "load_translator", loader)
    sentences = tmp_path / "sentences.json"
    sentences.write_text(json.dumps(["Dobrý den.", "Kde je nádraží?", "Děkuji."]), encoding="utf-8")
    row = suite.CaseRow("int8", ("translate.compute_type=int8",))
    case = suite.TranslationCase(row.name, row.model, row.measure, list(row.sets))
    limits = suite.Limits(stall_seconds=stall_seconds, check_seconds=600, end=time.monotonic() + 600)
    suite.time_translation(case, suite.case_config(row, DEFAULT_MODEL_DIR, "cpu"), sentences, 3, 3, 1,
                           suite.GpuSampler(), limits, tmp_path / "case.log")
    record = asdict(case)
    assert record["status"] == "failed" and error in record["error"], record
    assert all(record[k] is None for k in ("sentences_per_second", "target_tokens_per_second", "seconds",
                                           "call_sentences_per_second")), record
    assert record["hypotheses"] == []
    if loader is suite_loaders.every_batch_fails:  # the warm-up's sentence failed (or a fail-fast error stopped it)
        assert record["failed"] in (0, 1)


def walk_gpu_plan(suite, tmp_path, monkeypatch, broken: str, budget_seconds: float):
    """The GPU run's translation parts walked on the CPU with the check and the cases stubbed: (the part, the keys
    of the cases started)."""
    started = []

    def check(plan, *_):
        return [suite.BackendCheck(*key, ok=key[1] != broken, error=None if key[1] != broken else "boom")
                for key in plan]

    def translate(case, *_):
        started.append(case.key)
        case.status, case.sentences_per_second, case.mean_output_tokens, case.hypotheses = "ok", 1.0, 9.0, ["x"]

    monkeypatch.setattr(suite, "backend_checks", check)
    monkeypatch.setattr(suite, "time_translation", translate)
    monkeypatch.setattr(suite, "build_base_model", lambda *_: tmp_path)
    monkeypatch.setattr(suite, "case_sentences", lambda folders, n: ["Ahoj."] * n)
    budget = suite.Budget(time.monotonic(), budget_seconds)
    part = suite.TranslationPart(suite.Data((tmp_path,), tmp_path, tmp_path, None), tmp_path, "cuda", 40_000,
                                 suite.GpuSampler(), budget, suite.Limits(1, 1, budget.end),
                                 lambda key: lambda value: None)
    part.check(list(suite.TRANSLATION_PARTS))
    for name in suite.TRANSLATION_PARTS:
        part.part(name)
    return part, started


def test_every_case_of_a_gpu_run_is_covered_by_the_backend_check(tmp_path, monkeypatch):
    """Every case the GPU table starts is one the check covered, and the cases of a backend that failed its check
    are skipped with its error; every steady case holds at least 40,000 sentences and 12 batches of its bucket."""
    suite = load_benchmark("gpu/gpu_cases")
    part, started = walk_gpu_plan(suite, tmp_path, monkeypatch, "bfloat16", 3600)
    plan = part.backend_plan(list(suite.TRANSLATION_PARTS))
    assert started and set(started) <= set(plan) and ("ctranslate2", "int8", "cpu") in plan
    assert {c.compute_type for c in part.cases if c.status == "skipped"} == {"bfloat16"}
    assert all(c.error == "its backend check failed: boom" for c in part.cases if c.status == "skipped")
    buckets = {c.batch_tokens for c in part.cases}
    assert {65_536, 131_072} <= buckets and {"float16", "int8_float16", "bfloat16", "auto"} <= {
        c.compute_type for c in part.cases} and {2, 4} <= {c.inter_threads for c in part.cases}
    for row in (row for rows in suite.CASES["cuda"].values() for row in rows):
        _, config = part.resolve(row)
        n = suite.case_size(row, config, "cuda", 40_000, 10**6)
        assert n >= (40_000 if row.measure == "steady" else 4_000), row
        if row.measure == "steady":
            bucket = config["max_batch_tokens"] or suite.load_config(None, []).translate.batch_tokens("cuda")
            assert n * suite.SOURCE_TOKENS >= 12 * bucket, row


def test_a_case_that_does_not_fit_the_budget_is_skipped_with_no_rate(tmp_path, monkeypatch):
    suite = load_benchmark("gpu/gpu_cases")
    part, started = walk_gpu_plan(suite, tmp_path, monkeypatch, "none", 0)
    assert started == []
    assert all(c.status == "skipped" and c.error.startswith("out of time: needs ~") and c.sentences_per_second
               is None for c in part.cases)


def test_scrub_leaves_no_absolute_path(tmp_path):
    suite = load_benchmark("gpu/gpu_report")
    work, home = tmp_path / "work", Path("/home/someone")
    roots = suite.placeholders({"work": work, "repo": suite.REPO, "home": home})
    tail = [f'  File "{suite.REPO}/pipeline/run.py", line 3, in <module>',
            f"error: {work}/out/train is missing; see {home}/.cache/paranmt/x.log",
            "  File \"/usr/lib/python3.12/runpy.py\", line 88 | 2,175 sentences/s, 1/2 https://example.org/a/b"]
    scrubbed = suite.scrub({"tail": tail, "n": 3, "sets": ("translate.model=/opt/models/m",)}, roots)
    assert scrubbed["tail"] == [
        '  File "<repo>/pipeline/run.py", line 3, in <module>',
        "error: <work>/out/train is missing; see <home>/.cache/paranmt/x.log",
        '  File "<path>/runpy.py", line 88 | 2,175 sentences/s, 1/2 https://example.org/a/b']
    assert scrubbed["n"] == 3 and scrubbed["sets"] == ["translate.model=<path>/m"]
    assert not ABSOLUTE.findall(json.dumps(scrubbed))


def test_the_gpu_results_name_no_absolute_path():
    for path in sorted((REPO_ROOT / "benchmarks" / "results").glob("gpu_suite*.json")):
        assert not ABSOLUTE.findall(path.read_text(encoding="utf-8")), path


def test_gpu_suite_says_when_there_is_no_gpu(capsys):
    suite = load_benchmark("gpu/gpu_suite")
    if suite.torch.cuda.is_available():
        pytest.skip("a CUDA device is visible")
    assert suite.main([]) == 2
    assert "--smoke" in capsys.readouterr().err
