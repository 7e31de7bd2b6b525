"""The pipeline part of ``gpu_suite.py``: ``pipeline.job.run_job`` with ``--device cuda`` at two sizes, in-process and
with worker processes (an older checkout's beside it), beside the standalone rates and the CPU stand-in's
prediction; and the fail-fast check, broken backends through ``python -m pipeline.run``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.gpu.gpu_cases import PIPELINE_PRIOR, Budget, Data, GpuSampler
from benchmarks.gpu.gpu_nmt_train import read_pairs
from benchmarks.gpu.pipeline_driver import run_driver, shards_digest, write_pair
from benchmarks.paths import REPO, shown
from benchmarks.timing import marginal_rate
from paranmt.core.pair_schema import Reason
from translate.card import DEFAULT_MODEL_DIR

STANDIN = REPO / "benchmarks" / "results" / "gpu_standin.json"
FAIL_FAST_PRIOR = 8.0  # seconds a scenario
# a broken backend's run is stopped after this long (the goal: one line within 10 s; a loaded CPU starts slowly)
FAIL_FAST_LIMIT = {"cuda": 30.0, "cpu": 300.0}
FAIL_FAST_GOAL = 10.0


def bitext_inputs(bitexts: tuple[Path, ...], work: Path, sizes: list[int]) -> list[tuple[Path, Path, int]]:
    """Every pair of the bitexts' files (by folder, then by name) in one seeded random order, so that every size
    has the same mix of sources; the first ``n`` pairs of that order as one pair of files per size (0: all)."""
    cs, en = read_pairs(bitexts)
    order = np.random.default_rng(0).permutation(len(cs))
    counts = [min(size or len(order), len(order)) for size in sizes]
    return [(*write_pair(work, f"bitext-{n}", [cs[i] for i in order[:n]], [en[i] for i in order[:n]]), n)
            for n in counts]


def pipeline_run(label: str, code: Path, inputs: tuple[Path, Path], out: Path, sets: list[str], workers: int,
                 sampler: GpuSampler, end: float) -> dict[str, Any]:
    """One run of the pipeline in its own process; rows/s only when it finished and every row's translation
    succeeded, else ``status: failed`` with its error and stderr's last lines. Stopped at ``end`` (monotonic)."""
    start = time.monotonic()
    # PYTHONFAULTHANDLER: a run that dies of a signal leaves every thread's Python stack in its stderr tail.
    done = run_driver(code, inputs, out, sets, workers, {"PARANMT_CODE_VERSION": "gpu-suite",
                                                         "PYTHONFAULTHANDLER": "1"}, end)
    finish = time.monotonic()
    row: dict[str, Any] = {"label": label, "code": "this" if code == REPO else str(code), "workers": workers,
                           "sets": [shown_setting(s) for s in sets], "status": "failed",
                           "process_seconds": round(finish - start, 1), **sampler.window(start, finish)}
    if done.stopped or done.exit_code or done.summary is None:
        finished = "before its summary" if done.summary is None else "after its summary"
        row["error"] = ("stopped: past the time limit" if done.stopped else
                        f"exit {done.exit_code} {finished}: {' | '.join(done.tail(3))}")
        row["stderr_tail"] = done.tail(80)
        return row
    summary = done.summary
    window = summary.pop("translation_window", None)
    row.update(summary)
    translated, span = summary.get("translated_rows") or 0, summary.get("translation_seconds")
    failed = (summary.get("rejected_by_reason") or {}).get(Reason.TRANSLATION_FAILED.value, 0)
    row["translated"] = translated
    if failed or not translated:
        row["error"] = f"{failed} of {summary['read']} rows' translations failed" if failed else "no row translated"
        row["stderr_tail"] = done.tail(80)
        return row
    row["status"] = "ok"
    row["rows_per_second"] = round(summary["read"] / summary["wall_seconds"], 1)
    if span:
        row["translation_rows_per_second"] = round(translated / span, 1)
        row["wall_over_translation"] = round(summary["wall_seconds"] / span, 3)
    if window:  # the translation's span is on the wall clock (all workers'), the sampler's on this one's monotonic
        offset = time.time() - time.monotonic()
        row["translation_gpu"] = sampler.window(window[0] - offset, window[1] - offset)
    row["train_digest"] = shards_digest(out / "train")
    return row


def shown_setting(setting: str) -> str:
    """``key=value`` with a path value shown relative to the repository (:func:`paths.shown`)."""
    key, _, value = setting.partition("=")
    return f"{key}={shown(value)}" if value.startswith("/") else setting


def marginal(small: dict[str, Any], large: dict[str, Any]) -> dict[str, Any] | None:
    """Rows/s between two runs of one mode at two input sizes: what each row more costs, a fixed start-up left out
    (as benchmarks/pipeline_bench.py measures it); None unless both finished."""
    if small.get("status") != "ok" or large.get("status") != "ok" or large["read"] <= small["read"]:
        return None
    rate = marginal_rate((small["read"], small["wall_seconds"]), (large["read"], large["wall_seconds"]))
    return {"rows": large["read"] - small["read"], "seconds": round(large["wall_seconds"] - small["wall_seconds"], 3),
            "rows_per_second": None if rate is None else round(rate, 1)}


def standin_predictions(path: Path = STANDIN) -> dict[str, Any]:
    """What the CPU stand-in (``gpu_standin.py``) measured per mode at its largest size, this code: marginal rate
    over its standalone rate, wall over the translation span, the stand-in's busy share over the span."""
    if not path.is_file():
        return {}
    standin = json.loads(path.read_text(encoding="utf-8"))
    predicted: dict[str, Any] = {}
    for run in standin.get("pipeline", []):
        if run.get("code", "this code") != "this code":
            continue
        mode = "in-process" if run.get("workers", 1) == 1 else "workers"
        if run.get("rows", 0) >= predicted.get(mode, {}).get("rows", 0):
            predicted[mode] = {"rows": run.get("rows"), "workers": run.get("workers"),
                               "marginal_over_standalone": run.get("marginal_over_standalone"),
                               "wall_over_translation": run.get("wall_over_translation"),
                               "busy_share": run.get("busy_share"), "note": run.get("note")}
    return {"source": shown(path), "command": standin.get("command"), "rate": standin.get("rate"),
            "cores": standin.get("cores"), "modes": predicted}


def pipeline_summary(rows: list[dict[str, Any]], modes: dict[str, int], sizes: tuple[int, int],
                     standalone: dict[str, Any], standin: dict[str, Any]) -> dict[str, Any]:
    """Per mode: the marginal rate between the sizes over the standalone rates, wall over the translation span and
    the GPU's busy share over it at the larger size, each beside the stand-in's prediction."""
    summary = {}
    for mode in modes:
        runs = {r["input_pairs"]: r for r in rows if r.get("name") == "this" and r.get("mode") == mode}
        rate = marginal(runs.get(sizes[0], {}), runs.get(sizes[1], {}))
        entry: dict[str, Any] = {"marginal": rate}
        for key in ("pipeline_settings", "best"):
            base = standalone.get(key)
            if rate and rate["rows_per_second"] and base:
                entry[f"marginal_over_standalone_{key}"] = round(rate["rows_per_second"] / base, 3)
        top = runs.get(sizes[1], {})
        entry["wall_over_translation"] = top.get("wall_over_translation")
        entry["translation_gpu_util_mean"] = (top.get("translation_gpu") or {}).get("gpu_util_mean")
        entry["standin_predicted"] = standin.get("modes", {}).get(mode)
        summary[f"this, {mode}"] = entry
        if rate:
            print(f"  {mode}: marginal {rate['rows_per_second']} rows/s ("
                  f"{', '.join(f'{k} {v}' for k, v in entry.items() if k.startswith('marginal_over'))}); "
                  f"stand-in predicted {(entry['standin_predicted'] or {}).get('marginal_over_standalone')}",
                  flush=True)
    return summary


def same_train(rows: list[dict[str, Any]], modes: dict[str, int], sizes: tuple[int, int]) -> dict[str, bool]:
    """Per size: whether every mode wrote the same ``train/`` rows (sizes where every mode finished)."""
    same = {}
    for n in sizes:
        digests = {r["mode"]: r.get("train_digest") for r in rows
                   if r.get("name") == "this" and r.get("input_pairs") == n and r["status"] == "ok"}
        if len(digests) == len(modes):
            same[str(n)] = len(set(digests.values())) == 1
    return same


def pipeline_part(data: Data, work: Path, device: str, before: Path | None, sizes: list[int], workers: int,
                  sampler: GpuSampler, budget: Budget, record: Any, standalone: dict[str, Any]) -> dict[str, Any]:
    """The pipeline in-process and with worker processes, each at two input sizes (the larger first), optionally
    an older checkout's beside it; the marginal rates of each mode beside the standalone rates of the same run."""
    small, large = bitext_inputs(data.bitexts, work, sizes)
    # The model is named: an older checkout's packages do not carry it.
    sets = [f"translate.model={DEFAULT_MODEL_DIR}", f"translate.device={device}", "pipeline.translation_cache=false",
            "lexicon.enabled=false"]
    if data.glove is not None:
        sets += [f"score.embeddings={data.glove}", "score.embeddings_format=kumo"]
    modes = {"in-process": 1, "workers": workers}
    plans = [("this", REPO, mode, size) for mode in modes for size in (large, small)]
    plans += [("before", before, mode, size) for mode in modes for size in (large, small)] if before else []
    rows: list[dict[str, Any]] = []
    result: dict[str, Any] = {"sizes": [small[2], large[2]], "standalone": standalone, "runs": rows}
    start_seconds, rate = PIPELINE_PRIOR[device]
    for k, (name, code, mode, inputs) in enumerate(plans):
        label = f"{name}, {mode}, {inputs[2]} pairs"
        refused = budget.refuse(start_seconds + inputs[2] / rate)
        if refused:
            rows.append({"label": label, "name": name, "mode": mode, "input_pairs": inputs[2], "status": "skipped",
                         "error": refused})
            print(f"  {label:34s} skipped: {refused}", flush=True)
            continue
        row = pipeline_run(label, code, inputs[:2], work / f"pipeline-{k}", sets, modes[mode], sampler, budget.end)
        row.update(name=name, mode=mode, input_pairs=inputs[2])
        rows.append(row)
        if row["status"] == "ok":
            rate = row["rows_per_second"]  # the estimates of the runs after it: start-up included, so on the safe side
            util = (row.get("translation_gpu") or {}).get("gpu_util_mean")
            print(f"  {label:34s} wall {row['wall_seconds']:7.1f}s  {row['rows_per_second']:8.1f} rows/s  "
                  f"translation {row.get('translation_seconds') or 0:6.1f}s "
                  f"({row.get('translation_rows_per_second', 0):.0f}/s, GPU {util if util is not None else '-'}%)",
                  flush=True)
        else:
            print(f"  {label:34s} FAILED: {row['error']}", flush=True)
        record(result)
    result.update(modes=pipeline_summary(rows, modes, (small[2], large[2]), standalone, standin_predictions()),
                  same_train_in_every_mode=same_train(rows, modes, (small[2], large[2])))
    record(result)
    return result


def fail_fast_scenarios(device: str) -> list[tuple[str, list[str], dict[str, str], str]]:
    """(label, flags, environment, code run before the pipeline) of each broken backend: a backend that fails on
    its device after the probe (:mod:`broken_backend`); on a GPU also a CTranslate2 that cannot open cuBLAS
    (imported before paranmt's ``translate``, so the libraries are not routed) and a GPU that is not visible."""
    scenarios = [("backend fails on its device mid-run",
                  [f"--device={device}", "--set=translate.backend=benchmarks.gpu.broken_backend:DeviceFault"], {}, "")]
    if device == "cuda":
        scenarios += [
            ("CTranslate2 without cuBLAS", ["--device=cuda", "--backend=ctranslate2"], {}, "import ctranslate2"),
            ("no GPU visible", ["--device=cuda"], {"CUDA_VISIBLE_DEVICES": ""}, "")]
    return scenarios


def fail_fast_run(out: Path, flags: list[str], env: dict[str, str], before: str, limit: float
                  ) -> tuple[int | None, str, float]:
    """``python -m pipeline.run`` on the bundled sample with ``flags``: (exit code, stderr, seconds)."""
    sample = REPO / "configs" / "sample"
    argv = ["--cs", str(sample / "sample.cs"), "--en", str(sample / "sample.en"), "--out", str(out), "--quiet",
            "--no-translation-cache", *flags]
    code = (f"{before}\nimport runpy, sys\nsys.argv = ['pipeline.run', *{argv!r}]\n"
            "runpy.run_module('pipeline.run', run_name='__main__')")
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                              timeout=limit, env={**os.environ, **env, "PYTHONPATH": os.pathsep.join(
                                  [str(REPO), os.environ.get("PYTHONPATH", "")])})
        exit_code, stderr = done.returncode, done.stderr
    except subprocess.TimeoutExpired as error:
        exit_code = None
        stderr = error.stderr.decode(errors="replace") if isinstance(error.stderr, bytes) else (error.stderr or "")
    return exit_code, stderr, round(time.monotonic() - started, 1)


def fail_fast_part(work: Path, device: str, record: Any) -> list[dict[str, Any]]:
    """Each broken backend of :func:`fail_fast_scenarios`: it must end with exit 2 and one stderr line, write no
    final output (``ok``), and within :data:`FAIL_FAST_GOAL` seconds (``within_goal``, recorded beside it)."""
    rows = []
    for k, (label, flags, env, before) in enumerate(fail_fast_scenarios(device)):
        out = work / f"fail-fast-{k}"
        exit_code, stderr, seconds = fail_fast_run(out, flags, env, before, FAIL_FAST_LIMIT[device])
        lines = [line for line in stderr.splitlines() if line.strip()]
        final = sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) if out.is_dir() else []
        ok = exit_code == 2 and len(lines) == 1 and not {"train", "pairs", "summary.json"} & set(final)
        rows.append({"label": label, "ok": ok, "within_goal": seconds <= FAIL_FAST_GOAL, "goal_seconds":
                     FAIL_FAST_GOAL, "exit_code": exit_code, "seconds": seconds, "stderr_lines": len(lines),
                     "stderr_tail": lines[-5:], "written": final})
        print(f"  {label:40s} exit {exit_code} in {seconds:5.1f}s, {len(lines)} stderr line(s)"
              f"{'' if ok else ' -- NOT as it should be'}: {lines[-1] if lines else ''}", flush=True)
        record(rows)
    return rows


