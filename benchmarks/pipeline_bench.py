"""Throughput of the corpus pipeline without the NMT: stages 1-3 and 5-8 with translations given (MT-column mode),
scoring and the training selection included.

    .venv/bin/python benchmarks/pipeline_bench.py [--cores 2] [--rows N] [--json out.json]

Input: every real Czech-English pair under ../shared/data/bitext that has a natural stand-in for a machine
translation -- Multi30k train (29,000; "mt" = another English caption of the same image from
paraphrase/multi30k-captions, the first of train.1-5.en that differs from the reference: a real paraphrase),
Tatoeba (13,824) and WMT newstest 2009-2015 (~19.7k; "mt" = the English of the *next* line of the same file, so
not a paraphrase, which does not matter for throughput): 62,503 pairs, written as three line-aligned pair files
(cs, en, mt) and run as ``--cs --en --mt``.

Measured in one run, pinned to ``--cores`` CPUs (default 2):

* the **pipeline** end to end (``pipeline.run.run``: planning, Beam graph, reading, decoding, normalising and
  tokenising cs/en/mt, pre-filter, global dedup, pair records, Parquet shards, staging rename, recount and
  summary), wall clock including Beam's start-up, on the in-process ``FnApiRunner`` and on ``FnApiRunner`` with
  ``--direct_running_mode=multi_processing --direct_num_workers=<cores>``; the start-up (the same pipeline on 10
  rows) is reported too;
* a **per-stage breakdown**: the Beam-free stage functions run one after the other over the same rows in one
  process (µs per row and share), which is where the CPU goes regardless of runner;
* the **tokeniser ceiling**: stock sacremoses (``MosesPunctNormalizer`` + ``MosesTokenizer(escape=False)``) over
  the same three sides of every row, in 1 process and in ``--cores`` processes; and the same with the pipeline's
  own precompiled :class:`core.text.TextProcessor` (identical output, see the tests). The pipeline's rate
  is reported as a fraction of the stock-sacremoses ceiling at the same core count.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pyarrow as pa

from configs import load_config
from configs.schema import FilterConfig, PipelineConfig, ScoreConfig, TranslateConfig
from core.pair_schema import PAIRS_SCHEMA
from core.text import TextProcessor
from filters.folds import select_training_pairs
from filters.paragram import ParagramScorer
from filters.scores import score_pairs
from pipeline.ingest import decode_record
from pipeline.input_plan import InputSpec, plan_reads
from pipeline.input_reading import read_task
from pipeline.prefilter import PrefilterOptions, pair_record, pick_duplicates, prefilter_row
from pipeline.run import run
from pipeline.summary import file_counts
from pipeline.write import records_to_table, shard_of, write_table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "data"
NEWSTEST = [f"newstest{y}" for y in range(2009, 2016)]


def build_inputs(out_dir: Path, rows: int | None) -> tuple[Path, Path, Path, int]:
    bitext, captions = SHARED / "bitext", SHARED / "paraphrase" / "multi30k-captions"
    if not bitext.is_dir():
        raise SystemExit(f"{bitext} is absent: the benchmark needs ../shared/data")

    def lines(path: Path) -> list[str]:
        return path.read_text(encoding="utf-8").splitlines()

    cs, en, mt = [], [], []
    m_cs, m_en = lines(bitext / "multi30k-train.cs"), lines(bitext / "multi30k-train.en")
    alternatives = [lines(captions / f"train.{k}.en") for k in range(1, 6)]
    for i, (c, e) in enumerate(zip(m_cs, m_en, strict=True)):
        cs.append(c)
        en.append(e)
        mt.append(next((alt[i] for alt in alternatives if alt[i].strip() != e.strip()), alternatives[0][i]))
    for name in ["tatoeba", *NEWSTEST]:
        c, e = lines(bitext / f"{name}.cs"), lines(bitext / f"{name}.en")
        cs += c
        en += e
        mt += e[1:] + e[:1]
    if rows is not None:
        cs, en, mt = cs[:rows], en[:rows], mt[:rows]
    paths = []
    for side, data in (("cs", cs), ("en", en), ("mt", mt)):
        path = out_dir / f"bench.{side}"
        path.write_text("\n".join(data) + "\n", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1], paths[2], len(cs)


# -------------------------------------------------------------------------------------------- ceilings


def _tokenise_stock(chunk: list[tuple[str, str, str]]) -> int:
    from sacremoses import MosesPunctNormalizer, MosesTokenizer

    norm = {lang: MosesPunctNormalizer(lang=lang) for lang in ("cs", "en")}
    tok = {lang: MosesTokenizer(lang=lang) for lang in ("cs", "en")}
    for c, e, m in chunk:
        tok["cs"].tokenize(norm["cs"].normalize(c), escape=False)
        tok["en"].tokenize(norm["en"].normalize(e), escape=False)
        tok["en"].tokenize(norm["en"].normalize(m), escape=False)
    return len(chunk)


def _tokenise_fast(chunk: list[tuple[str, str, str]]) -> int:
    text = TextProcessor()
    for c, e, m in chunk:
        text.tokenize(c, "cs")
        text.tokenize(e, "en")
        text.tokenize(m, "en")
    return len(chunk)


def ceiling(rows: list[tuple[str, str, str]], processes: int, fast: bool) -> float:
    """Pairs/s of normalising + tokenising the three sides, including building the tokenisers."""
    fn = _tokenise_fast if fast else _tokenise_stock
    started = time.perf_counter()
    if processes == 1:
        fn(rows)
    else:
        step = -(-len(rows) // processes)
        with mp.get_context("fork").Pool(processes) as pool:
            sum(pool.map(fn, [rows[i:i + step] for i in range(0, len(rows), step)]))
    return len(rows) / (time.perf_counter() - started)


# ----------------------------------------------------------------------------------- per-stage breakdown


def stage_breakdown(cs: Path, en: Path, mt: Path, tmp: Path) -> dict[str, float]:
    """Seconds per stage of the Beam-free functions, one after the other, in this process."""

    config = PipelineConfig()
    seconds: dict[str, float] = {}
    t = time.perf_counter()
    spec = InputSpec.pair(cs, en, mt)
    plan = plan_reads([spec], config)
    seconds["1a plan (count lines, offsets)"] = time.perf_counter() - t
    t = time.perf_counter()
    raw = [r for task in plan.tasks for r in read_task(task, config.max_line_bytes, config.deadletter_raw_bytes)]
    seconds["1b read bytes"] = time.perf_counter() - t
    t = time.perf_counter()
    decoded = [decode_record(r, spec, config.max_line_bytes, config.deadletter_raw_bytes)[1] for r in raw]
    seconds["1c decode UTF-8"] = time.perf_counter() - t
    text = TextProcessor()
    text.tokenize("a", "cs")
    text.tokenize("a", "en")
    options = PrefilterOptions.from_config(config, TranslateConfig())
    t = time.perf_counter()
    kept = [k for k, _ in (prefilter_row(r, text, options) for r in decoded) if k is not None]
    seconds["2-3 normalise+tokenise cs/en, pre-filter"] = time.perf_counter() - t
    t = time.perf_counter()
    groups: dict[bytes, list] = defaultdict(list)
    for row in kept:
        groups[row.pop("dedup_key")].append(row)
    unique = [pick_duplicates(g)[0] for g in groups.values()]
    seconds["3b dedup (group + pick)"] = time.perf_counter() - t
    t = time.perf_counter()
    pairs = [p for p, _ in (pair_record({**r, "hit_length_cap": None}, text, "external") for r in unique) if p]
    seconds["5 normalise+tokenise mt, pair records"] = time.perf_counter() - t

    t = time.perf_counter()
    scorer = ParagramScorer.from_config(ScoreConfig(), [p["en_tokens"] for p in pairs[:100_000]])
    seconds["6a fit the scorer (launcher, GloVe load)"] = time.perf_counter() - t
    t = time.perf_counter()
    table = records_to_table(pairs, PAIRS_SCHEMA)
    scored = score_pairs(table, scorer)
    selection = select_training_pairs(scored, FilterConfig(), seed=1234)
    pairs = scored.set_column(scored.schema.get_field_index("keep"), "keep",
                              pa.array(selection.keep)).to_pylist()
    seconds["6b score (trigram, PARAGRAM) + select (rank rule)"] = time.perf_counter() - t
    t = time.perf_counter()
    shards: dict[int, list] = defaultdict(list)
    for p in pairs:
        shards[shard_of(p["id"], 4)].append(p)
    out = tmp / "stages" / "pairs"
    out.mkdir(parents=True)
    for index, rows in sorted(shards.items()):
        rows.sort(key=lambda r: r["id"])
        write_table(records_to_table(rows, PAIRS_SCHEMA), str(out / f"pairs-{index:05d}-of-00004.parquet"),
                    row_group_rows=100_000, compression="zstd")
    seconds["7 shard, sort, write Parquet (zstd)"] = time.perf_counter() - t
    t = time.perf_counter()
    file_counts(str(tmp / "stages"))
    seconds["8 recount from files"] = time.perf_counter() - t
    return seconds


# ------------------------------------------------------------------------------------------------ pipeline


def run_pipeline(cs: Path, en: Path, mt: Path, out: Path, beam_args: list[str]) -> tuple[float, dict]:
    config = load_config(None, [])
    started = time.perf_counter()
    summary = run(config, [InputSpec.pair(cs, en, mt)], out, beam_args)
    return time.perf_counter() - started, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cores", type=int, default=2, help="CPUs to pin the benchmark to (default 2)")
    parser.add_argument("--rows", type=int, help="use only the first N pairs (default: all, 62,503)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    import logging

    logging.basicConfig(level=logging.ERROR)
    available = sorted(os.sched_getaffinity(0))
    cores = available[: args.cores]
    os.sched_setaffinity(0, cores)  # worker processes inherit it
    tmp = Path(tempfile.mkdtemp(prefix="pipeline-bench-"))
    try:
        cs, en, mt, n = build_inputs(tmp, args.rows)
        rows = list(zip(*(p.read_text(encoding="utf-8").splitlines() for p in (cs, en, mt)), strict=True))
        print(f"{n} pairs (Multi30k train + Tatoeba + newstest 2009-2015), pinned to CPUs {cores}", flush=True)

        figures: dict[str, object] = {"pairs": n, "cores": len(cores)}
        small = [p.with_name(p.name + ".small") for p in (cs, en, mt)]
        for src, dst in zip((cs, en, mt), small, strict=True):
            dst.write_text("".join(src.read_text(encoding="utf-8").splitlines(keepends=True)[:10]), encoding="utf-8")
        multi = ["--direct_running_mode=multi_processing", f"--direct_num_workers={len(cores)}"]
        runs = {}
        for name, beam_args in (("in-process FnApiRunner", []),
                                (f"FnApiRunner multi_processing x{len(cores)}", multi)):
            startup, _ = run_pipeline(*small, tmp / "small", beam_args)
            wall, summary = run_pipeline(cs, en, mt, tmp / "out", beam_args)
            assert summary["identity"]["holds"] and summary["read"] == n
            runs[name] = {"wall_s": round(wall, 2), "pairs_per_s": round(n / wall), "startup_s": round(startup, 2),
                          "pairs_per_s_after_startup": round(n / max(wall - startup, 1e-9)),
                          "written_pairs": summary["pairs"], "rejected": summary["rejected"]}
            print(f"pipeline, {name}: {wall:.1f} s, {n / wall:,.0f} pairs/s (start-up {startup:.1f} s)", flush=True)
        figures["pipeline"] = runs

        ceilings = {}
        for fast in (False, True):
            for processes in sorted({1, len(cores)}):
                label = f"{'pipeline TextProcessor' if fast else 'stock sacremoses'}, {processes} process(es)"
                ceilings[label] = round(ceiling(rows, processes, fast))
                print(f"tokeniser ceiling, {label}: {ceilings[label]:,} pairs/s", flush=True)
        figures["tokeniser_ceiling_pairs_per_s"] = ceilings

        seconds = stage_breakdown(cs, en, mt, tmp)
        total = sum(seconds.values())
        figures["stages_one_process"] = {k: {"s": round(v, 3), "us_per_pair": round(v / n * 1e6, 1),
                                             "share": round(v / total, 3)} for k, v in seconds.items()}

        best_name = max(runs, key=lambda k: runs[k]["pairs_per_s"])
        best = runs[best_name]["pairs_per_s"]
        stock_ceiling = ceilings[f"stock sacremoses, {len(cores)} process(es)"]
        figures["best"] = {"runner": best_name, "pairs_per_s": best,
                           "fraction_of_stock_sacremoses_ceiling": round(best / stock_ceiling, 3),
                           "fraction_of_pipeline_tokeniser_ceiling": round(
                               best / ceilings[f"pipeline TextProcessor, {len(cores)} process(es)"], 3),
                           "goal_pairs_per_s": 5000}

        print()
        print(f"{'stage (Beam-free functions, one process)':<44}{'s':>8}{'µs/pair':>10}{'share':>8}")
        for k, v in figures["stages_one_process"].items():
            print(f"{k:<44}{v['s']:>8.2f}{v['us_per_pair']:>10.1f}{v['share']:>8.1%}")
        print(f"{'total':<44}{total:>8.2f}{total / n * 1e6:>10.1f}")
        print()
        fraction = figures["best"]["fraction_of_stock_sacremoses_ceiling"]
        print(f"best: {best:,} pairs/s ({best_name}) = {fraction:.0%} of "
              f"the stock sacremoses ceiling on {len(cores)} core(s) ({stock_ceiling:,} pairs/s); goal 5,000")
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
