"""How the corpus pipeline's time and memory grow with input size, and what a CzEng-sized run would cost.

Input: every pair of ``../shared/data/bitext`` (all files), shuffled with a fixed seed, so that every prefix has
the same mix of captions, short everyday sentences and news. Two modes:

* ``mt`` -- the input carries a translation column (no NMT stage): for Multi30k another English caption of the same
  image (``paraphrase/multi30k-captions``), elsewhere the English of the next line of the same file, as in
  ``benchmarks/pipeline/pipeline_bench.py``; the lexicon branch is on, so its global merge is measured too;
* ``nmt`` -- back-translation with the real ``../shared/models/small-cs-en`` (CTranslate2 int8, beam 12, on the CPU,
  translation cache off).

Each (mode, size) runs ``pipeline.job.run_job`` in a fresh subprocess on the in-process runner (one process, so its
peak RSS is the run's memory) and records the wall time, Beam's own execution time per stage (what Dataflow shows
per step), the sizes each global step held on one worker (Beam distributions: the fit sample, the largest dedup
bucket, the largest shard, the merged counts of the largest lexicon shard), the launcher's counting pre-pass (time
and traced memory) and the approximate-quantile accumulator of the fold boundaries (pickled bytes, fed the run's
ranked keys). Figures go to ``--json`` after every run, so an interrupted bench resumes where it stopped
(``--fresh`` starts over).

Then it fits time = fixed + per-pair cost for each stage, renders the tables of ``docs/scaling.md`` (its
``scale_bench`` section) with the CzEng 1.6 projection (anchored figures marked as such, with sources) and draws
``--plot``.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
from apache_beam.transforms.stats import ApproximateQuantilesCombineFn

from benchmarks.doc_sections import read_section, replace_section, save_figure, table
from benchmarks.paths import REPO, SHARED
from benchmarks.pipeline.pipeline_bench import BITEXT, standin_pairs, write_inputs
from benchmarks.result import argument_parser, write_result
from configs import load_config
from configs.schema import PipelineConfig, ScoreConfig, TranslateConfig
from filters.folds import key_hash, pair_keys
from paranmt.core.plotting import pyplot
from pipeline.analysis.lexicon.transforms import LEXICON_SHARD_PAIRS
from pipeline.inputs.plan import InputSpec, plan_reads
from pipeline.job import run_job
from pipeline.metrics import Step
from pipeline.stages.dedup import DEDUP_BUCKET_ROWS

MODEL = SHARED / "models" / "small-cs-en"
SEED = 20261125
RESULTS = REPO / "benchmarks" / "results" / "scale.json"
ANCHORS = Path(__file__).with_name("scale_anchors.json")  # figures this project cannot measure, with sources


def all_pairs() -> list[tuple[str, str, str]]:
    """(cs, en, stand-in mt) of every bitext pair, in a fixed shuffled order."""
    if not BITEXT.is_dir():
        raise SystemExit(f"{BITEXT} is absent: the benchmark needs ../shared/data")
    rows = [row for cs_path in sorted(BITEXT.glob("*.cs")) for row in standin_pairs(cs_path)]
    random.Random(SEED).shuffle(rows)
    return rows


def _quantile_accumulator(pairs_dir: Path, config: Any) -> dict[str, float]:
    """Pickled bytes of Beam's approximate-quantile accumulator after the run's ranked keys (``fold > 0``)."""
    table = pq.read_table(pairs_dir, columns=["cs", "en", config.select.rank_by, "fold"])
    ranked = table.filter(table["fold"].to_numpy() > 0)
    keys = [(1, value, hashed) for value, hashed in zip(
        ranked[config.select.rank_by].to_pylist(), key_hash(pair_keys(ranked), config.seed).tolist(), strict=True)]
    combine = ApproximateQuantilesCombineFn.create(num_quantiles=config.select.folds + 1, epsilon=1e-3)
    started = time.perf_counter()
    accumulator = combine.create_accumulator()
    for key in keys:
        accumulator = combine.add_input(accumulator, key)
    return {"keys": len(keys), "bytes": len(pickle.dumps(accumulator)), "seconds": time.perf_counter() - started}


def quantile_accumulator_cap(keys: int = 3_000_000, folds: int = 10) -> dict[str, float]:
    """The largest pickled size Beam's approximate-quantile accumulator reaches when fed ``keys`` random sort keys
    (past this corpus's size: where its buffers fill and start collapsing)."""
    combine = ApproximateQuantilesCombineFn.create(num_quantiles=folds + 1, epsilon=1e-3)
    rng = random.Random(SEED)
    accumulator, largest = combine.create_accumulator(), 0
    for i in range(1, keys + 1):
        accumulator = combine.add_input(accumulator, (1, rng.random(), rng.getrandbits(64)))
        if i % 250_000 == 0:
            largest = max(largest, len(pickle.dumps(accumulator)))
    return {"keys": keys, "max_bytes": largest}


def measure_one(mode: str, size: int, folder: Path) -> dict[str, Any]:
    """Run the pipeline once in this process (called in a subprocess) and return its figures."""
    cs, en, mt = (folder / f"input.{side}" for side in ("cs", "en", "mt"))
    if mode == "mt":
        specs = [InputSpec.pair(cs, en, mt)]
        overrides = ["lexicon.enabled=true"]
    else:
        specs = [InputSpec.pair(cs, en)]
        overrides = [f"translate.model={MODEL}", "translate.device=cpu", "pipeline.translation_cache=false"]
    config = load_config(None, overrides)
    tracemalloc.start()
    started = time.perf_counter()
    plan_reads(specs, config.pipeline)
    prepass = {"seconds": time.perf_counter() - started, "traced_peak_bytes": tracemalloc.get_traced_memory()[1]}
    tracemalloc.stop()
    out = folder / f"out-{mode}"
    summary = run_job(config, specs, out, [], overwrite=True)
    figures = {
        "mode": mode, "size": size, "read": summary["read"], "pairs": summary["pairs"], "train": summary["train"],
        "rejected": summary["rejected"], "deadletter": summary["deadletter"],
        "wall_s": summary["wall_seconds"], "stage_s": summary["stage_seconds"], "step_s": summary["step_seconds"],
        "held": summary["held"], "prepass": prepass, "peak_rss_bytes": resource.getrusage(
            resource.RUSAGE_SELF).ru_maxrss * 1024, "quantiles": _quantile_accumulator(out / "pairs", config),
    }
    if summary.get("lexicon"):
        figures["lexicon"] = {k: summary["lexicon"].get(k) for k in ("read", "used", "vocabulary", "lexicon_shards",
                                                                     "lexicon_rows", "distinct_cross_pairs")}
        figures["lexicon"]["distinct_pairs"] = summary["lexicon"]["distinct_cross_pairs"] + sum(
            summary["lexicon"]["distinct_within_pairs"].values())
    return figures


def run_subprocess(mode: str, size: int, folder: Path, log: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.pipeline.scale_bench", "--one", mode, str(size), str(folder)]
    with log.open("a", encoding="utf-8") as handle:
        handle.write(f"\n=== {time.strftime('%H:%M:%S')} {mode} {size}\n")
        handle.flush()
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=handle, text=True, cwd=REPO, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{mode} at {size} pairs failed (exit {done.returncode}); see {log}")
    return json.loads(done.stdout.strip().splitlines()[-1])


STAGES_MT = [Step.INGEST, Step.PREFILTER, Step.DEDUP, Step.FIT_SCORER, Step.PAIR_RECORDS, Step.SELECT, Step.LEXICON,
             Step.WRITE_PAIRS, Step.WRITE_TRAIN, Step.WRITE_REJECTED]
STAGES_NMT = [Step.INGEST, Step.PREFILTER, Step.DEDUP, Step.FIT_SCORER, Step.BACK_TRANSLATE, Step.PAIR_RECORDS,
              Step.SELECT, Step.WRITE_PAIRS, Step.WRITE_TRAIN, Step.WRITE_REJECTED]


def linear_fit(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Least-squares ``y = a + b x``: (a, b)."""
    b, a = np.polyfit(np.asarray(xs, float), np.asarray(ys, float), 1)
    return float(a), float(b)


def _r2(xs: list[float], ys: list[float], a: float, b: float) -> float:
    mean = sum(ys) / len(ys)
    total = sum((y - mean) ** 2 for y in ys)
    residual = sum((y - (a + b * x)) ** 2 for x, y in zip(xs, ys, strict=True))
    return 1.0 - residual / total if total else 1.0


def fits(results: list[dict[str, Any]], mode: str) -> dict[str, dict[str, float]]:
    """Per stage (and the wall time): fixed seconds, µs per input pair, R² of the linear fit."""
    runs = sorted((r for r in results if r["mode"] == mode), key=lambda r: r["read"])
    if len(runs) < 2:
        return {}
    xs = [r["read"] for r in runs]
    out = {}
    names = ["wall", *(STAGES_MT if mode == "mt" else STAGES_NMT)]
    for name in names:
        ys = [r["wall_s"] if name == "wall" else r["stage_s"].get(name, 0.0) for r in runs]
        if not any(ys):
            continue
        a, b = linear_fit(xs, ys)
        out[name] = {"fixed_s": a, "us_per_pair": b * 1e6, "r2": _r2(xs, ys, a, b)}
    return out


def _mb(value: float) -> str:
    return f"{value / 1e6:,.1f}"


def render_tables(results: list[dict[str, Any]], anchors: dict[str, Any]) -> str:
    """The generated part of docs/scaling.md."""
    lines: list[str] = []
    for mode, title in (("mt", "without NMT (translation column given; lexicon on)"),
                        ("nmt", "with the CPU NMT (small-cs-en, CTranslate2 int8, beam 12, 2 cores)")):
        runs = sorted((r for r in results if r["mode"] == mode), key=lambda r: r["read"])
        if not runs:
            continue
        stages = [s for s in (STAGES_MT if mode == "mt" else STAGES_NMT) if any(r["stage_s"].get(s) for r in runs)]
        lines += [f"### Time per pair, {title}", "",
                  "Beam's execution time per stage (in-process runner, one process: the time spent in the stage; "
                  "the NMT's two threads make its CPU time about twice that), µs per input pair; wall time in "
                  "seconds and pairs/s.", "",
                  *table(["pairs read", "wall s", "pairs/s", *stages], "r",
                         [[f"{r['read']:,}", f"{r['wall_s']:.1f}", f"{r['read'] / r['wall_s']:,.0f}",
                           *(f"{r['stage_s'].get(s, 0.0) / r['read'] * 1e6:,.0f}" for s in stages)] for r in runs])]
        fitted = fits(results, mode)
        if fitted:
            lines += ["", "Linear fit over the sizes (time = fixed + cost × pairs):", "",
                      *table(["stage", "fixed s", "µs per pair", "R²"], "lr",
                             [[name, f"{f['fixed_s']:.2f}", f"{f['us_per_pair']:,.1f}", f"{f['r2']:.4f}"]
                              for name, f in fitted.items()])]
        lines.append("")
    lines += ["### Memory of the global steps", "",
              "What one worker holds at once in each step that sees more than one bundle's rows, measured in the "
              "runs above (`mt` mode; Arrow bytes of the rows held, from the pipeline's own Beam distributions), "
              "and the whole run's peak RSS.", ""]
    by_size: dict[int, dict[str, dict[str, Any]]] = {}
    for r in results:
        by_size.setdefault(r["size"], {})[r["mode"]] = r
    rows = []
    for size in sorted(by_size):
        r = by_size[size].get("mt") or next(iter(by_size[size].values()))
        held = r["held"]

        def pair(name: str, held: dict[str, Any] = held) -> str:
            rows, nbytes = held.get(f"{name}_rows"), held.get(f"{name}_bytes")
            return f"{rows['max']:,} / {_mb(nbytes['max'])}" if rows and nbytes else "–"

        rss = " / ".join(_mb(by_size[size][m]["peak_rss_bytes"]) if m in by_size[size] else "–" for m in ("mt", "nmt"))
        q = r["quantiles"]
        shards = f" ({r['lexicon']['lexicon_shards']})" if r.get("lexicon", {}).get("lexicon_shards") else ""
        rows.append([f"{r['read']:,}", f"{r['prepass']['seconds']:.3f}", _mb(r["prepass"]["traced_peak_bytes"]),
                     pair("fit_sample"), pair("dedup_bucket"), f"{q['keys']:,} / {q['bytes'] / 1e3:,.1f}",
                     pair("lexicon_counts") + shards, pair("shard_pairs"), rss])
    lines += table(["pairs read", "pre-pass s", "pre-pass traced MB", "fit sample rows / MB",
                    "largest dedup bucket rows / MB", "quantile keys / accumulator KB",
                    "largest lexicon shard keys / MB (shards)", "largest pairs shard rows / MB",
                    "peak RSS MB (mt / nmt)"], "r", rows)
    steps = [("pre-pass", None), ("fit: first 20k", "FitScorer/FirstSentences"), ("fit", "FitScorer/Fit"),
             ("dedup pick", "Dedup/Pick"), ("quantiles", "Select/Boundaries"),
             ("lexicon merge", "Lexicon/MergePairCounts"), ("lexicon shards", "Lexicon/WriteShards"),
             ("lexicon summary", "Lexicon/Write"),
             ("pairs shards", "WritePairs/WriteShard")]
    lines += ["", "Time of the global steps (seconds; Beam's execution time of the step, `mt` mode):", "",
              *table(["pairs read", *(name for name, _ in steps)], "r",
                     [[f"{r['read']:,}", *(f"{r['prepass']['seconds']:.3f}" if step is None
                                           else f"{r['step_s'].get(step, 0.0):.3f}" for _, step in steps)]
                      for r in sorted((r for r in results if r["mode"] == "mt"), key=lambda r: r["read"])])]
    lines += ["", projection(results, anchors)]
    return "\n".join(lines) + "\n"


def czeng_memory(results: list[dict[str, Any]], anchors: dict[str, Any]) -> list[str]:
    """What one worker holds in each global step at CzEng size, from the measured bytes per row (and, for the
    lexicon, the measured growth of its distinct word pairs, extrapolated)."""
    runs = sorted((r for r in results if r["mode"] == "mt"), key=lambda r: r["read"])
    if len(runs) < 2:
        return []
    pairs, largest = anchors["czeng_pairs"], runs[-1]
    held = largest["held"]
    per_row = {name: held[f"{name}_bytes"]["max"] / held[f"{name}_rows"]["max"]
               for name in ("dedup_bucket", "shard_pairs", "fit_sample")}
    buckets, shards = -(-pairs // DEDUP_BUCKET_ROWS), anchors["shards"]
    xs = [r["read"] for r in runs]
    ys = [r["lexicon"]["distinct_pairs"] for r in runs]  # merged word pairs of the whole lexicon, unsharded
    exponent, _ = linear_fit([float(np.log(x)) for x in xs], [float(np.log(y)) for y in ys])[::-1]
    lexicon_keys = ys[-1] * (pairs / xs[-1]) ** exponent
    # A shard holds the pairs of its words, so a pair is in at most two shards: at CzEng's shard count (almost every
    # pair in two), the largest shard holds 2 x distinct / shards x the imbalance measured at the largest size.
    sharded = held["lexicon_counts_rows"]
    imbalance = sharded["max"] / (sharded["sum"] / sharded["count"])
    czeng_shards = -(-pairs // LEXICON_SHARD_PAIRS)
    shard_keys = 2 * lexicon_keys * imbalance / czeng_shards
    key_bytes = held["lexicon_counts_bytes"]["max"] / sharded["max"]
    cap = anchors["quantile_cap"]
    every, fit_sample = PipelineConfig().index_every, ScoreConfig().fit_sample  # the defaults the runs used
    return [
        "Memory of the global steps for CzEng (one worker each; from the bytes per row measured at the largest size):",
        "", *table(["step", "at CzEng size", "basis"], "lrl", [
            ["launcher pre-pass", f"{largest['prepass']['traced_peak_bytes'] / 1e6:,.1f} MB + {pairs // every:,} line "
             "offsets", f"measured at {largest['read']:,} pairs (one offset per `pipeline.index_every` = {every:,} "
             "lines); pair, TSV and JSONL inputs only: a Parquet input skips it (row counts from its metadata)"],
            ["scorer fit", f"{fit_sample * per_row['fit_sample'] / 1e6:,.1f} MB ({fit_sample:,} sentences)",
             "measured, fixed"],
            ["dedup bucket", f"{DEDUP_BUCKET_ROWS * per_row['dedup_bucket'] / 1e6:,.0f} MB ({buckets:,} buckets of "
             f"~{DEDUP_BUCKET_ROWS:,} rows)", "measured bytes per row × bucket rows"],
            ["quantile accumulator", f"{cap['max_bytes'] / 1e6:,.1f} MB at most",
             f"measured: {cap['keys']:,} keys fed to the same combine (it caps and collapses)"],
            ["pairs/ shard", f"{pairs / shards * per_row['shard_pairs'] / 1e6:,.0f} MB ({shards} shards)",
             "measured bytes per row × shard rows"],
            ["lexicon shard merge (optional)",
             f"~{shard_keys / 1e6:,.1f}M word pairs, ~{shard_keys * key_bytes / 1e6:,.0f} MB ({czeng_shards:,} shards "
             f"of ~{LEXICON_SHARD_PAIRS:,} input pairs)", "**extrapolated**: distinct "
             f"pairs ∝ n^{exponent:.2f} (~{lexicon_keys / 1e9:,.2f}B at CzEng), each in at most 2 shards, × the "
             f"largest shard's measured excess over the mean ({imbalance:.2f}×)"]]),
    ]


def gpu_rates(gpu: dict[str, Any], anchors: dict[str, Any]) -> tuple[float, float]:
    """(low, high) back-translated sentences/s of one GPU at beam 12, from its beam-4 tokens/s anchor."""
    low_scale, high_scale = gpu.get("tokens_scale", [1.0, 1.0])
    fast, slow = anchors["beam12_slowdown"]
    per_sentence = anchors["tokens_per_sentence"]
    return (gpu["tokens_per_s_beam4"] * low_scale / per_sentence / slow,
            gpu["tokens_per_s_beam4"] * high_scale / per_sentence / fast)


def projection(results: list[dict[str, Any]], anchors: dict[str, Any]) -> str:
    """The CzEng 1.6 table: measured CPU cost per pair and memory growth, anchored GPU rates and prices."""
    mt_fit, nmt_fit = fits(results, "mt"), fits(results, "nmt")
    if not anchors or "wall" not in mt_fit:
        return ""
    pairs, workers = anchors["czeng_pairs"], anchors["workers"]
    cpu_us = sum(max(f["us_per_pair"], 0.0) for name, f in mt_fit.items() if name != "wall")
    cpu_core_hours = pairs * cpu_us / 1e6 / 3600
    lines = ["### CzEng 1.6 projection", "",
             f"{pairs / 1e6:.1f}M pairs ({anchors['czeng_source']}).", "",
             f"* **Measured here:** every stage but the NMT costs {cpu_us:,.0f} µs of CPU per pair (sum of the "
             f"fitted per-pair costs, `mt` mode) = **{cpu_core_hours:,.1f} core-hours** for CzEng, charged below to "
             "one core per worker."]
    if "BackTranslate" in nmt_fit:
        cpu_nmt = max(nmt_fit["BackTranslate"]["us_per_pair"], 0.0)
        lines.append(f"* **Measured here:** the small CPU model back-translates at {cpu_nmt / 1e3:,.1f} ms per pair "
                     f"on 2 cores: CzEng would take {pairs * cpu_nmt / 1e6 / 3600 / 24:,.0f} days of this machine.")
    lines += [f"* **Anchored** (not measured here): GPU rates and prices. Beam-4 tokens/s from the anchor below, "
              f"/ {anchors['tokens_per_sentence']} tokens per sentence ({anchors['tokens_per_sentence_source']}), "
              f"/ {anchors['beam12_slowdown'][0]}-{anchors['beam12_slowdown'][1]} for beam 12 "
              f"({anchors['beam12_slowdown_source']}). Prices: {anchors['price_source']}.",
              "", *czeng_memory(results, anchors), "", f"With {workers} workers, one GPU each:", ""]
    rows = []
    for gpu in anchors["gpus"]:
        low, high = gpu_rates(gpu, anchors)
        hours = (pairs / high / 3600, pairs / low / 3600)
        cpu_wall = cpu_core_hours / workers
        walls = tuple(h / workers + cpu_wall for h in hours)
        usd = tuple(w * workers * (gpu["worker_usd_per_h"] + gpu["gpu_usd_per_h"]) for w in walls)
        rows.append([gpu["name"], f"{low:,.0f} – {high:,.0f}", f"{hours[0]:,.0f} – {hours[1]:,.0f}",
                     f"{walls[0]:,.1f} – {walls[1]:,.1f}", f"{usd[0]:,.0f} – {usd[1]:,.0f}", gpu["source"]])
    lines += table(["worker", "beam-12 sentences/s per GPU (derived)", "GPU-hours", "wall hours", "USD, on demand",
                    "anchor"], "lrrrrl", rows)
    lines += cpu_workers(anchors, pairs, workers, cpu_core_hours)
    return "\n".join(lines) + "\n"


def cpu_workers(anchors: dict[str, Any], pairs: int, workers: int, cpu_core_hours: float) -> list[str]:
    """The CPU-worker rows: back-translation sentences per core-second measured here by
    ``benchmarks/translate/translate_cpu_bench.py`` (``benchmarks/results/translate_cpu.json``), projected to a
    worker."""
    cpu = anchors.get("cpu_worker")
    measured = REPO / "benchmarks" / "results" / "translate_cpu.json"
    if cpu is None or not measured.exists():
        return []
    bench = json.loads(measured.read_text(encoding="utf-8"))
    row = {row["name"]: row for row in bench["speed"]}.get("new int8")  # the default: one batch per core
    if row is None:
        return []
    bucket = row.get("batch_tokens") or TranslateConfig().batch_tokens("cpu")  # None: the CPU default it ran with
    per_core = row["median_rates"]["cpu_seconds"]  # sentences per CPU second: one busy core
    cores, usd_h = cpu["vcpus"], cpu["worker_usd_per_h"]
    lines = ["", f"With {workers} CPU workers instead ({cpu['name']}, no GPU; CTranslate2 int8, beam {bench['beam']}, "
             f"one batch per core, {bucket:,}-token buckets):", ""]
    rows = []
    for model, slowdown, basis in [
        ("small-cs-en (3+3 layers of 256)", 1.0,
         f"**measured here**: {per_core:.1f} sentences per CPU second ({bench['threads']} cores of "
         f"{cpu['measured_on']}, the default split, median of {len(row['seconds'])} rounds, docs/translate-cpu.md) "
         f"× {cores} cores (**assumed** linear: one "
         "independent batch per core)"),
        ("transformer-base-sized (derived)", cpu["base_macs_ratio"],
         f"the measured rate / {cpu['base_macs_ratio']} ({cpu['base_macs_ratio_source']}): **anchored**, as the GPU "
         "rows' model"),
    ]:
        rate = per_core * cores / slowdown
        core_hours = pairs / (rate / cores) / 3600 + cpu_core_hours
        wall = pairs / rate / workers / 3600 + cpu_core_hours / workers
        rows.append([cpu["name"], model, f"{rate:,.0f}", f"{core_hours:,.0f}", f"{wall:,.1f}",
                     f"{wall * workers * usd_h:,.0f}", basis])
    lines += table(["worker", "model", "beam-12 sentences/s per worker", "core-hours", "wall hours", "USD", "basis"],
                   "llrrrrl", rows)
    lines += ["", f"CPU worker price: {cpu['price_source']}."]
    return lines


def plot(results: list[dict[str, Any]], path: Path) -> None:
    plt = pyplot()

    figure, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    for axis, mode in zip(axes[:2], ("mt", "nmt"), strict=True):
        runs = sorted((r for r in results if r["mode"] == mode), key=lambda r: r["read"])
        if not runs:
            axis.set_visible(False)
            continue
        xs = [r["read"] for r in runs]
        for stage in (STAGES_MT if mode == "mt" else STAGES_NMT):
            ys = [r["stage_s"].get(stage, 0.0) for r in runs]
            if max(ys) > 0.02 * max(r["wall_s"] for r in runs):
                axis.plot(xs, ys, "o-", label=stage)
        axis.plot(xs, [r["wall_s"] for r in runs], "k^--", label="wall")
        axis.set_xlabel("pairs read")
        axis.set_ylabel("seconds")
        axis.set_title({"mt": "without NMT", "nmt": "with CPU NMT (beam 12)"}[mode])
        axis.grid(alpha=0.3)
        axis.legend(fontsize=7)
    axis = axes[2]
    sizes = sorted({r["size"] for r in results if r["mode"] == "mt"})
    runs = [next(r for r in results if r["mode"] == "mt" and r["size"] == s) for s in sizes]
    xs = [r["read"] for r in runs]
    for name, label in (("fit_sample", "fit sample"), ("dedup_bucket", "largest dedup bucket"),
                        ("shard_pairs", "largest pairs shard"), ("lexicon_counts", "largest lexicon shard")):
        ys = [r["held"].get(f"{name}_bytes", {}).get("max", 0) / 1e6 for r in runs]
        if any(ys):
            axis.plot(xs, ys, "o-", label=label)
    axis.plot(xs, [r["quantiles"]["bytes"] / 1e6 for r in runs], "o-", label="quantile accumulator")
    axis.plot(xs, [r["prepass"]["traced_peak_bytes"] / 1e6 for r in runs], "o-", label="launcher pre-pass")
    axis.set_xlabel("pairs read")
    axis.set_ylabel("MB held by one worker")
    axis.set_title("global steps: memory")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=7)
    save_figure(figure, path, dpi=110)


def build_parser() -> argparse.ArgumentParser:
    parser = argument_parser(__file__, __doc__, result=RESULTS)
    parser.add_argument("--sizes", default="2000,8000,32000,all")
    parser.add_argument("--modes", default="mt,nmt")
    parser.add_argument("--work", type=Path, default=REPO / "runs" / "scale_bench")
    parser.add_argument("--doc", type=Path, help="docs/scaling.md: rewrite its generated block")
    parser.add_argument("--plot", type=Path, help="write the plot here (PNG)")
    parser.add_argument("--anchors", type=Path, default=ANCHORS)
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    parser.add_argument("--quantile-keys", type=int, default=3_000_000,
                        help="random keys fed to the quantile accumulator to find its largest size")
    parser.add_argument("--report-only", action="store_true", help="only render --doc / --plot from --json")
    parser.add_argument("--one", nargs=3, metavar=("MODE", "SIZE", "FOLDER"), help=argparse.SUPPRESS)
    return parser


def measure_missing(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Run every (mode, size) that ``results`` lacks, saving ``results`` to ``--json`` after each run."""
    rows = all_pairs()
    sizes = [len(rows) if s == "all" else min(int(s), len(rows)) for s in args.sizes.split(",")]
    args.work.mkdir(parents=True, exist_ok=True)
    log = args.work / "scale_bench.log"
    for mode in args.modes.split(","):
        for size in sizes:
            if any(r["mode"] == mode and r["size"] == size for r in results):
                continue
            folder = args.work / f"{size}"
            write_inputs(rows[:size], folder)
            print(f"{mode} {size:,} pairs ...", flush=True)
            figures = run_subprocess(mode, size, folder, log)
            print(f"  {figures['wall_s']:.1f} s, {figures['read'] / figures['wall_s']:,.0f} pairs/s, "
                  f"peak RSS {figures['peak_rss_bytes'] / 1e6:,.0f} MB", flush=True)
            results.append(figures)
            write_result(args.json, {"runs": results}, __file__)


def projection_anchors(anchors_file: Path, results_file: Path, quantile_keys: int = 3_000_000,
                       fresh: bool = False) -> dict[str, Any]:
    """The projection's anchors, with the quantile accumulator's cap measured once and kept beside the runs
    (``<results>_quantile_cap.json``)."""
    anchors = json.loads(anchors_file.read_text(encoding="utf-8")) if anchors_file.exists() else {}
    cap_file = results_file.with_name(results_file.stem + "_quantile_cap.json")
    if not cap_file.exists() or fresh:
        write_result(cap_file, quantile_accumulator_cap(quantile_keys), __file__)
    anchors["quantile_cap"] = json.loads(cap_file.read_text(encoding="utf-8"))
    return anchors


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.one:
        import logging

        logging.basicConfig(level=logging.WARNING)
        os.environ.setdefault("PARANMT_CODE_VERSION", "scale-bench")
        print(json.dumps(measure_one(args.one[0], int(args.one[1]), Path(args.one[2]))))
        return 0

    results: list[dict[str, Any]] = []
    if args.json.exists() and not args.fresh:
        results = json.loads(args.json.read_text(encoding="utf-8"))["runs"]
    if not args.report_only:
        measure_missing(results, args)
    block = render_tables(results, projection_anchors(args.anchors, args.json, args.quantile_keys, args.fresh))
    print(block)
    if args.doc:
        read_section(args.doc, "scale_bench")  # the page has the section: a new one is not appended
        replace_section(args.doc, "scale_bench", block)
    if args.plot:
        plot(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
