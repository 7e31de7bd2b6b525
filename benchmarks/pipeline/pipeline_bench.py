"""Throughput of the corpus pipeline without the NMT: every stage but back-translation, translations given
(MT-column mode), scoring and the selection included.

Input: every real Czech-English pair under ../shared/data/bitext that has a natural stand-in for a machine
translation -- Multi30k train (29,000; "mt" = another English caption of the same image from
paraphrase/multi30k-captions, the first of train.1-5.en that differs from the reference: a real paraphrase),
Tatoeba (13,824) and WMT newstest 2009-2015 (~19.7k; "mt" = the English of the *next* line of the same file, so
not a paraphrase, which does not matter for throughput): 62,503 pairs, written as three line-aligned pair files
(cs, en, mt) and run as ``--cs --en --mt``.

Measured in one run, pinned to ``--cores`` CPUs (default 2):

* the **pipeline** end to end (``pipeline.job.run_job``: planning, Beam graph, reading, decoding, normalising and
  tokenising cs/en/mt, pre-filter, global dedup, the scorer fit, pair records, scores and selection, Parquet
  shards, staging rename, recount and summary), wall clock including Beam's start-up, on the in-process
  ``FnApiRunner`` and on ``FnApiRunner`` with ``--direct_running_mode=multi_processing
  --direct_num_workers=<cores>``, each run in a fresh process; on the whole input and on its first half, whose
  difference gives the **marginal** rate (pairs/s of a bigger input once the fixed start-up -- worker processes,
  imports, the scorer fit -- is paid);
* with ``--baseline GIT_REF``, the same runs of that commit's pipeline (checked out in a temporary git worktree,
  run with this venv), interleaved with this code's, and the ratio;
* a **per-stage breakdown**: the Beam-free stage functions run one after the other over the same rows in one
  process (µs per row and share), which is where the CPU goes regardless of runner;
* the **tokeniser ceiling**: stock sacremoses (``MosesPunctNormalizer`` + ``MosesTokenizer(escape=False)``) over
  the same three sides of every row, in 1 process and in ``--cores`` processes; and the same with the pipeline's
  own precompiled :class:`paranmt.core.text.TextProcessor` (identical output, see the tests). The pipeline's rate
  is reported as a fraction of the stock-sacremoses ceiling at the same core count.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

from benchmarks.baseline import checkout
from benchmarks.paths import REPO, SHARED, code_commit
from benchmarks.result import argument_parser, write_result
from benchmarks.timing import marginal_rate
from configs import load_config
from filters.folds import select_training_pairs
from filters.paragram import ParagramScorer
from filters.rules import prefilter_rules
from filters.scores import score_pairs
from paranmt.core.pair_schema import PAIRS_SCHEMA
from paranmt.core.text import TextProcessor
from pipeline.inputs.plan import InputSpec, plan_reads
from pipeline.inputs.reading import read_task
from pipeline.outputs.summary import file_counts
from pipeline.records import BATCH_ROWS, partition
from pipeline.stages.dedup import duplicates_in
from pipeline.stages.ingest import decode_batch
from pipeline.stages.pair_records import pair_table
from pipeline.stages.prefilter import FIT_TAG, PrefilterRows
from pipeline.stages.scorer_fit import fit_and_save
from pipeline.stages.write import shard_name, shards_of, sorted_shard_table, write_table

BITEXT = SHARED / "data" / "bitext"
CAPTIONS = SHARED / "data" / "paraphrase" / "multi30k-captions"
NEWSTEST = [f"newstest{y}" for y in range(2009, 2016)]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def standin_pairs(cs_path: Path) -> list[tuple[str, str, str]]:
    """(cs, en, stand-in mt) of one bitext file: for Multi30k the first other English caption of the same image
    that differs from the reference (a real paraphrase), elsewhere the English of the next line of the file."""
    cs, en = _lines(cs_path), _lines(cs_path.with_suffix(".en"))
    split = {"multi30k-train": "train", "multi30k-val": "val"}.get(cs_path.stem)
    if split is None:
        return list(zip(cs, en, en[1:] + en[:1], strict=True))
    alternatives = [_lines(CAPTIONS / f"{split}.{k}.en") for k in range(1, 6)]
    mt = [next((alt[i] for alt in alternatives if alt[i].strip() != e.strip()), alternatives[0][i])
          for i, e in enumerate(en)]
    return list(zip(cs, en, mt, strict=True))


def write_inputs(rows: list[tuple[str, str, str]], folder: Path) -> tuple[Path, Path, Path]:
    """``rows`` as the three line-aligned pair files ``input.cs``, ``input.en``, ``input.mt`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = tuple(folder / f"input.{side}" for side in ("cs", "en", "mt"))
    for index, path in enumerate(paths):
        path.write_text("".join(row[index] + "\n" for row in rows), encoding="utf-8")
    return paths  # type: ignore[return-value]


def build_inputs(out_dir: Path, rows: int | None) -> tuple[Path, Path, Path, int]:
    if not BITEXT.is_dir():
        raise SystemExit(f"{BITEXT} is absent: the benchmark needs ../shared/data")
    pairs = [p for name in ["multi30k-train", "tatoeba", *NEWSTEST] for p in standin_pairs(BITEXT / f"{name}.cs")]
    return (*write_inputs(pairs[:rows], out_dir), len(pairs[:rows]))


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


def stage_breakdown(cs: Path, en: Path, mt: Path, tmp: Path) -> dict[str, float]:
    """Seconds per stage of the Beam-free functions the pipeline's stages apply, one after the other, in this
    process, batch by batch as in the pipeline."""
    config = load_config(None, [])
    pipeline_config = config.pipeline
    seconds: dict[str, float] = {}
    t = time.perf_counter()
    spec = InputSpec.pair(cs, en, mt)
    plan = plan_reads([spec], pipeline_config)
    seconds["1a plan (count lines, offsets)"] = time.perf_counter() - t
    t = time.perf_counter()
    max_bytes, keep_bytes = pipeline_config.max_line_bytes, pipeline_config.deadletter_raw_bytes
    raw = [r for task in plan.tasks for r in read_task(task, max_bytes, keep_bytes)]
    seconds["1b read bytes"] = time.perf_counter() - t
    t = time.perf_counter()
    decoded = [decode_batch(raw[i:i + BATCH_ROWS], [spec], max_bytes, keep_bytes)[0]
               for i in range(0, len(raw), BATCH_ROWS)]
    seconds["1c decode UTF-8 (Arrow batches)"] = time.perf_counter() - t
    text = TextProcessor()
    text.tokenize("a", "cs")
    text.tokenize("a", "en")
    prefilter = PrefilterRows(prefilter_rules(config), fit_sentences=config.score.fit_sample)
    prefilter.setup()
    t = time.perf_counter()
    kept, fit = [], []
    for batch in decoded:
        for out in prefilter.process(batch):
            if isinstance(out, pa.Table):
                kept.append(out)
            elif out.tag == FIT_TAG and len(fit) < config.score.fit_sample:
                fit.extend(out.value.column("en_tokens").to_pylist()[: config.score.fit_sample - len(fit)])
    seconds["2-3 normalise+tokenise cs/en, pre-filter"] = time.perf_counter() - t
    t = time.perf_counter()
    table = pa.concat_tables(kept)
    keep_rows, _ = duplicates_in(table)
    unique = table.drop_columns(["dedup_key"]).take(np.sort(keep_rows))
    seconds["3b dedup (column-wise)"] = time.perf_counter() - t
    t = time.perf_counter()
    batches = []
    for start in range(0, unique.num_rows, BATCH_ROWS):
        batches.append(pair_table(unique.slice(start, BATCH_ROWS), text, "external")[0])
    pairs = pa.concat_tables(batches)
    seconds["5 normalise+tokenise mt, pair records"] = time.perf_counter() - t
    t = time.perf_counter()
    scorer_path = str(tmp / "scorer.npz")
    fit_and_save(fit, config.score, scorer_path)
    scorer = ParagramScorer.load(scorer_path)
    seconds["6a fit the scorer on the first 20k (GloVe load, torch)"] = time.perf_counter() - t
    t = time.perf_counter()
    scored = score_pairs(pairs, scorer)
    selection = select_training_pairs(scored, config.select, seed=config.seed)
    scored = scored.set_column(scored.schema.get_field_index("keep"), "keep", pa.array(selection.keep))
    seconds["6b score (trigram, PARAGRAM) + select (rank rule)"] = time.perf_counter() - t
    t = time.perf_counter()
    out = tmp / "stages" / "pairs"
    out.mkdir(parents=True)
    count = pipeline_config.num_shards
    for index, part in partition(scored, shards_of(scored["id"], count)):
        write_table(sorted_shard_table([part], PAIRS_SCHEMA), str(out / shard_name("pairs", index, count)),
                    row_group_rows=pipeline_config.row_group_rows, compression=pipeline_config.compression)
    seconds["7 shard, sort, write Parquet (zstd)"] = time.perf_counter() - t
    t = time.perf_counter()
    file_counts({"pairs": sorted(str(path) for path in out.glob("*.parquet"))})
    seconds["8 recount from files"] = time.perf_counter() - t
    return seconds


#: One timed run of ``pipeline.job.run_job`` with the code of the folder given as the first argument: a program of its
#: own (``python -c``), so that it imports nothing of this file and runs another commit's pipeline (one with this
#: layout: ``pipeline.job.run_job``, ``pipeline.inputs.plan.InputSpec``) the same way.
MEASURE = """
import json, sys, time
from pathlib import Path
code, cs, en, mt, out, *beam_args = sys.argv[1:]
sys.path.insert(0, code)
from configs import load_config
from pipeline.inputs.plan import InputSpec
from pipeline.job import run_job
config = load_config(None, [])
started = time.perf_counter()
summary = run_job(config, [InputSpec.pair(cs, en, mt)], out, beam_args, overwrite=True)
wall = time.perf_counter() - started
assert summary["identity"]["holds"]
root = Path(sys.modules[run_job.__module__].__file__).resolve().parent.parent
print(json.dumps({"wall_s": wall, "read": summary["read"], "pairs": summary["pairs"], "train": summary["train"],
                  "rejected": summary["rejected"], "code": str(root)}))
"""


def run_measured(code: Path, inputs: tuple[Path, Path, Path], out: Path, beam_args: list[str],
                 cores: list[int]) -> dict[str, object]:
    """:data:`MEASURE` in a fresh process pinned to ``cores`` (every code path starts the same way)."""
    command = [sys.executable, "-c", MEASURE, str(code), *map(str, inputs), str(out), *beam_args]
    env = {**os.environ, "PARANMT_CODE_VERSION": "pipeline-bench", "PYTHONPATH": str(code)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=code,
                          preexec_fn=lambda: os.sched_setaffinity(0, cores), check=False)
    if done.returncode != 0:
        raise SystemExit(f"measuring {code} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare_code_paths(codes: dict[str, Path], full: tuple[Path, Path, Path], half: tuple[Path, Path, Path],
                       n_full: int, n_half: int, tmp: Path, cores: list[int],
                       runner_names: tuple[str, ...] = ("in-process", "multi")) -> dict[str, dict[str, object]]:
    """Wall time of every code path on every runner at both sizes, interleaved; the end-to-end rate at the full
    size and the marginal rate (the extra pairs of the full input over its extra time: what a bigger input costs
    per pair, with the fixed start-up -- worker processes, imports, the scorer fit -- taken out)."""
    multi = ["--direct_running_mode=multi_processing", f"--direct_num_workers={len(cores)}"]
    runners = {name: args for key, name, args in (
        ("in-process", "in-process FnApiRunner", []),
        ("multi", f"FnApiRunner multi_processing x{len(cores)}", multi)) if key in runner_names}
    table: dict[str, dict[str, object]] = {}
    for runner, beam_args in runners.items():
        for name, code in codes.items():
            half_run = run_measured(code, half, tmp / f"out-{name}-half", beam_args, cores)
            full_run = run_measured(code, full, tmp / f"out-{name}-full", beam_args, cores)
            marginal = marginal_rate((n_half, half_run["wall_s"]), (n_full, full_run["wall_s"]))
            table[f"{name}, {runner}"] = {
                "wall_s": round(full_run["wall_s"], 2), "pairs_per_s": round(n_full / full_run["wall_s"]),
                "half_wall_s": round(half_run["wall_s"], 2),
                "marginal_pairs_per_s": None if marginal is None else round(marginal),
                "pairs": full_run["pairs"], "train": full_run["train"], "rejected": full_run["rejected"],
                "code": code_commit(str(full_run["code"]))}  # the commit measured, not the folder it ran from
            print(f"{name}, {runner}: {full_run['wall_s']:.1f} s for {n_full:,} pairs = "
                  f"{n_full / full_run['wall_s']:,.0f} pairs/s; marginal {round(marginal or 0):,} pairs/s "
                  f"({n_half:,} pairs: {half_run['wall_s']:.1f} s)", flush=True)
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--cores", type=int, default=2, help="CPUs to pin the benchmark to (default 2)")
    parser.add_argument("--rows", type=int, help="use only the first N pairs (default: all, 62,503)")
    parser.add_argument("--baseline", metavar="GIT_REF",
                        help="also measure the pipeline of this commit (a temporary git worktree), in the same run")
    parser.add_argument("--runners", default="in-process,multi",
                        help="comma-separated: in-process (one process), multi (multi_processing, --cores workers)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    import logging

    logging.basicConfig(level=logging.ERROR)
    available = sorted(os.sched_getaffinity(0))
    cores = available[: args.cores]
    os.sched_setaffinity(0, cores)  # worker processes inherit it
    tmp = Path(tempfile.mkdtemp(prefix="pipeline-bench-"))
    stack = contextlib.ExitStack()  # the baseline's worktree, removed at the end
    try:
        full = build_inputs(tmp, args.rows)
        n = full[3]
        half = build_inputs(tmp / "half", n // 2)
        print(f"{n:,} pairs (Multi30k train + Tatoeba + newstest 2009-2015), pinned to CPUs {cores}", flush=True)
        codes = {"this code": REPO}
        if args.baseline:
            codes = {f"baseline {args.baseline}": stack.enter_context(checkout(args.baseline, tmp / "baseline")),
                     "this code": REPO}
        figures: dict[str, object] = {"pairs": n, "cores": len(cores), "half_pairs": half[3]}
        runs = compare_code_paths(codes, full[:3], half[:3], n, half[3], tmp, cores,
                                  tuple(args.runners.split(",")))
        figures["pipeline"] = runs

        rows = list(zip(*(p.read_text(encoding="utf-8").splitlines() for p in full[:3]), strict=True))
        ceilings = {}
        for fast in (False, True):
            for processes in sorted({1, len(cores)}):
                label = f"{'pipeline TextProcessor' if fast else 'stock sacremoses'}, {processes} process(es)"
                ceilings[label] = round(ceiling(rows, processes, fast))
                print(f"tokeniser ceiling, {label}: {ceilings[label]:,} pairs/s", flush=True)
        figures["tokeniser_ceiling_pairs_per_s"] = ceilings

        seconds = stage_breakdown(*full[:3], tmp)
        total = sum(seconds.values())
        figures["stages_one_process"] = {k: {"s": round(v, 3), "us_per_pair": round(v / n * 1e6, 1),
                                             "share": round(v / total, 3)} for k, v in seconds.items()}
        print()
        print(f"{'stage (Beam-free functions, one process)':<56}{'s':>8}{'µs/pair':>10}{'share':>8}")
        for k, v in figures["stages_one_process"].items():
            print(f"{k:<56}{v['s']:>8.2f}{v['us_per_pair']:>10.1f}{v['share']:>8.1%}")
        print(f"{'total':<56}{total:>8.2f}{total / n * 1e6:>10.1f}")
        print()
        stock_ceiling = ceilings[f"stock sacremoses, {len(cores)} process(es)"]
        print(f"{'code path, runner':<58}{'wall s':>8}{'pairs/s':>9}{'marginal':>10}{'vs baseline':>13}")
        for name in runs:
            base = next((runs[k] for k in runs if k.startswith("baseline") and k.split(", ", 1)[1] == name.split(
                ", ", 1)[1]), None)
            ratio = f"{runs[name]['pairs_per_s'] / base['pairs_per_s']:.2f}x" if base else ""
            print(f"{name:<58}{runs[name]['wall_s']:>8.1f}{runs[name]['pairs_per_s']:>9,}"
                  f"{runs[name]['marginal_pairs_per_s'] or 0:>10,}{ratio:>13}")
        best_name = max((k for k in runs if k.startswith("this code")), key=lambda k: runs[k]["pairs_per_s"])
        best = runs[best_name]
        figures["best"] = {"runner": best_name, "pairs_per_s": best["pairs_per_s"],
                           "marginal_pairs_per_s": best["marginal_pairs_per_s"],
                           "fraction_of_stock_sacremoses_ceiling": round(best["pairs_per_s"] / stock_ceiling, 3),
                           "goal_pairs_per_s": 5000}
        print(f"\nbest: {best['pairs_per_s']:,} pairs/s end to end, {best['marginal_pairs_per_s'] or 0:,} pairs/s "
              f"marginal ({best_name}); stock sacremoses tokenises {stock_ceiling:,} pairs/s on {len(cores)} "
              "core(s); goal 5,000")
        write_result(args.json, figures, __file__, argv)
    finally:
        stack.close()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
