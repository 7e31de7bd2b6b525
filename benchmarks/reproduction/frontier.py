"""The quality–speed frontier: every encoder a user could pick, on STS 2012–2015 (mean of the per-year mean
Pearson), STS-B test and STS2017, beside its encoding speed on one pinned thread
(``benchmarks.reproduction.encoder_timing``: every pool pinned, cold, tokenisation included, the same unseen sentences
for all); a table and a quality-vs-speed plot (log speed axis) written into ``docs/reproduction.md`` (its ``frontier``
section) and ``docs/reproduction/frontier.png``, every number with the command, the CPU and the pinning in ``--json``.

Encoders: GloVe 6B 50d average and SIF-GloVe (enwiki p(w), first component removed; the project's
``evaluate --glove --sif``), each ``--model`` (any saved paranmt model), for every SentencePiece-only model also
the same model fed whitespace tokens instead of Moses tokens ("no Moses": what SP costs without the Moses
tokeniser, which is the ceiling of every other paranmt encoder's speed), and all-MiniLM-L6-v2 (the ``st``
extra; nothing is downloaded).

Speed (``benchmarks.reproduction.encoder_timing``'s protocol): ``--speed`` unseen STS-B *train* sentences (not among the
evaluated sentences; 64 more warm each pass up), every pass on a fresh copy of the encoder (cold), ``--rounds``
rounds of at least ``--min-seconds`` CPU seconds timed each. The table gives sentences per CPU-second of the
pinned timing process (its headline) and per wall second: the median over rounds, the median of the per-round
ratios to MiniLM and the round-to-round spread. Quality is evaluated after the timing.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.doc_sections import replace_section, save_figure, table
from benchmarks.paths import SHARED, shown
from benchmarks.reproduction.encoder_timing import make_encoder, time_encoders
from benchmarks.result import argument_parser, write_result
from benchmarks.timing import median_ratio, spread
from paranmt.core.plotting import pyplot
from train_embeddings.evaluation import sts
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_io import load_model

YEARS = (2012, 2013, 2014, 2015)
MINILM = "all-MiniLM-L6-v2"


def timing_sentences(data: sts.StsBenchmarks, n: int, warmup: int = 64) -> tuple[list[str], list[str]]:
    """``warmup`` then ``n`` STS-B train sentences that no evaluated set contains (the warm-up ones first)."""
    train = sts.load_stsb("train")
    seen = set(data.unique_sentences())
    pool = [s for s in dict.fromkeys(train.sentences1 + train.sentences2) if s not in seen]
    if len(pool) < n + warmup:
        raise SystemExit(f"error: --speed {n} needs {n + warmup} unseen STS-B train sentences, there are "
                         f"{len(pool)}: lower --speed")
    return pool[:warmup], pool[warmup:warmup + n]


def encoder_specs(models: Sequence[tuple[str, Path]], minilm: bool, word_frequencies: Path | None,
                  fit: list[str]) -> list[dict[str, Any]]:
    """Every encoder as a ``benchmarks.reproduction.encoder_timing.make_encoder`` spec, with its ``label`` and ``group``
    (baseline, paranmt, transformer: the plot's colours)."""
    specs: list[dict[str, Any]] = [
        {"label": "GloVe avg", "kind": "glove", "group": "baseline"},
        {"label": "SIF-GloVe", "kind": "sif", "fit": fit,
         "word_frequencies": str(word_frequencies) if word_frequencies else None, "group": "baseline"}]
    for label, directory in models:
        specs.append({"label": label, "kind": "model", "path": str(directory), "group": "paranmt"})
        model = load_model(directory)
        if isinstance(model, EmbeddingModel) and model.spec.components == ["sp"]:
            specs.append({"label": f"{label} (no Moses)", "kind": "no-moses", "path": str(directory),
                          "group": "paranmt"})
    if minilm:
        specs.append({"label": MINILM, "kind": "minilm", "group": "transformer"})
    return specs


def sts_row(report: sts.StsReport) -> dict[str, Any]:
    """An encoder's STS figures as the results record them (Pearson × 100): the mean of STS 2012–2015's per-year
    means, each year's, STS-B test and STS2017."""
    return {"mean": 100 * report.mean_pearson, "years": {str(y.year): 100 * y.mean_pearson for y in report.years},
            "stsb_test": 100 * report.stsb["stsb_test"].pearson, "sts2017": 100 * report.stsb["sts2017"].pearson}


def sts_summary(row: dict[str, Any]) -> str:
    """:func:`sts_row`'s figures on one progress line."""
    return f"STS 12-15 {row['mean']:.1f}, STS-B test {row['stsb_test']:.1f}, STS2017 {row['sts2017']:.1f}"


def evaluate(encoders: Sequence[tuple[str, Callable[[list[str]], Any], str]],
             data: sts.StsBenchmarks) -> dict[str, dict[str, float]]:
    rows = {}
    for label, encode, _ in encoders:
        started = time.perf_counter()
        rows[label] = sts_row(sts.evaluate_all(encode, data=data, label=label))
        print(f"  {label}: {sts_summary(rows[label])} ({time.perf_counter() - started:.0f} s)", flush=True)
    return rows


def summarise(quality: dict[str, dict[str, float]], timing: dict[str, Any],
              groups: dict[str, str]) -> list[dict[str, Any]]:
    """A row per encoder: its quality, and per clock (CPU seconds of the timing process, the headline; wall
    seconds) the median over rounds, the rounds, their spread and the median of the per-round ratios to MiniLM."""
    rows = []
    for label, q in quality.items():
        row: dict[str, Any] = {"encoder": label, "kind": groups[label], **q,
                               "passes": [r["passes"] for r in timing["rounds"][label]]}
        for key, prefix in (("sentences_per_cpu_second", ""), ("wall_sentences_per_second", "wall_")):
            speeds = [r[key] for r in timing["rounds"][label]]
            row[key] = statistics.median(speeds)
            row[f"{prefix}rounds"] = [round(v, 1) for v in speeds]
            row[f"{prefix}spread"] = spread(speeds)
            if MINILM in timing["rounds"]:
                base = [r[key] for r in timing["rounds"][MINILM]]
                row[f"{prefix}x_minilm"] = median_ratio(speeds, base)
        rows.append(row)
    return rows


def speed_protocol(meta: dict[str, Any]) -> str:
    """How the speeds were measured, on which CPU, and the pinning as observed: a sentence for a doc page."""
    pins = meta["pinning"]
    return (f"Speed on **one pinned thread** ({meta['protocol']}; `benchmarks/reproduction/encoder_timing.py`), "
            f"tokenisation included, on {meta['cpu']}. Observed in the timing process: torch "
            f"{pins['torch_intra_op']} intra-op / "
            f"{pins['torch_inter_op']} inter-op thread, native pools {', '.join(pins['native'])}; a 20,000-sentence "
            f"tokenizers batch started {pins['tokenizer_threads_started_by_a_batch']} threads; the other threads "
            f"spent {pins['other_threads_cpu_seconds_while_timing']:.2f} CPU s while any encoder was timed.")


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = ["## The frontier: quality beside speed", "",
             f"Written by `{meta['command']}` (every number: `benchmarks/results/frontier.json`). STS 2012–2015: the "
             "mean of the per-year mean Pearson × 100 (the papers' protocol); STS-B test; STS2017 (the dev set every "
             f"model choice here uses). {speed_protocol(meta)} Median over rounds; × MiniLM: the median of the "
             "per-round ratios; spread: (max − min) / median of the rounds.", ""]
    cells = []
    for row in sorted(rows, key=lambda r: -r["sentences_per_cpu_second"]):
        ratio, wall = "–", ""
        if row.get("x_minilm") is not None:
            ratio, wall = f"{row['x_minilm']:,.0f}×", f"{row['wall_x_minilm']:,.0f}×, "
        cells.append([row["encoder"], *(f"{row[k]:.1f}" for k in ("mean", "stsb_test", "sts2017")),
                      f"{row['sentences_per_cpu_second']:,.0f}", ratio, f"{100 * row['spread']:.0f}%",
                      f"{row['wall_sentences_per_second']:,.0f} ({wall}{100 * row['wall_spread']:.0f}%)"])
    lines += table(["encoder", "STS 12–15 mean", "STS-B test", "STS2017", "sentences per CPU-second (1 pinned thread)",
                    "× MiniLM", "spread", "wall sentences/s (× MiniLM, spread)"], "lr", cells)
    lines += ["", f"![quality vs speed]({meta['figure']})", ""]
    lines += meta.get("notes", [])
    return "\n".join(lines) + "\n"


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    plt = pyplot()

    colours = {"baseline": "tab:gray", "paranmt": "tab:blue", "transformer": "tab:red"}
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, row in enumerate(sorted(rows, key=lambda r: r["mean"])):  # neighbours' labels above and below
        ax.scatter(row["sentences_per_cpu_second"], row["mean"], color=colours[row["kind"]], s=40, zorder=3)
        ax.annotate(row["encoder"], (row["sentences_per_cpu_second"], row["mean"]), textcoords="offset points",
                    xytext=(5, 4 if i % 2 else -11), fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("sentences per CPU-second, one pinned thread, tokenisation included (log scale)")
    ax.set_ylabel("STS 2012–2015 mean Pearson × 100")
    ax.set_title("Quality vs speed (grey: word-vector baselines, blue: paranmt, red: transformer)")
    ax.grid(alpha=0.3, which="both")
    save_figure(fig, path)


def parse_model(value: str) -> tuple[str, Path]:
    label, sep, directory = value.rpartition("=")
    if not sep or not label:
        raise argparse.ArgumentTypeError(f"--model {value!r}: expected LABEL=DIR")
    return label, Path(directory)


def build_parser() -> argparse.ArgumentParser:
    p = argument_parser(__file__, __doc__, result=True)
    p.add_argument("--model", type=parse_model, action="append", default=[], metavar="LABEL=DIR",
                   help="a saved paranmt model (repeatable)")
    p.add_argument("--speed", type=int, default=1000, help="timed sentences per pass (default 1000)")
    p.add_argument("--rounds", type=int, default=5, help="timing rounds (default 5)")
    p.add_argument("--min-seconds", type=float, default=2.0, help="timed CPU seconds per round at least (default 2)")
    p.add_argument("--no-minilm", action="store_true", help="leave all-MiniLM-L6-v2 out")
    p.add_argument("--word-frequencies", type=Path, default=SHARED / "data/wordfreq/enwiki_vocab_min200.txt",
                   help="p(w) for SIF-GloVe")
    p.add_argument("--docs", type=Path, help="markdown page whose 'frontier' section is (re)written")
    p.add_argument("--note", action="append", default=[], help="a line under the table (repeatable): e.g. where "
                   "each model was trained")
    p.add_argument("--quick", action="store_true", help="smoke run: 100 sentences, 1 round of 1 pass, no MiniLM")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for label, directory in args.model:
        if not directory.is_dir():
            print(f"error: --model {label}={directory}: not a directory", file=sys.stderr)
            return 2
    if args.quick:
        args.speed, args.rounds, args.min_seconds, args.no_minilm = 100, 1, 0.0, True
    if args.speed < 1 or args.rounds < 1 or args.min_seconds < 0:
        print("error: --speed and --rounds must be positive, --min-seconds not negative", file=sys.stderr)
        return 2
    data = sts.load_benchmarks(years=YEARS)
    warmup, sentences = timing_sentences(data, args.speed)
    try:
        specs = encoder_specs(args.model, not args.no_minilm, args.word_frequencies, data.unique_sentences())
        encoders = [(spec["label"], make_encoder(spec), spec["group"]) for spec in specs]
    except (ImportError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"[speed] {len(specs)} encoders, {args.rounds} round(s) of >= {args.min_seconds:g} s on {args.speed} "
          "sentences, one pinned thread (a fresh process)", flush=True)
    timing = time_encoders(specs, sentences, warmup, rounds=args.rounds, min_seconds=args.min_seconds)
    print("[quality] STS 2012-2015, STS-B test, STS2017", flush=True)
    quality = evaluate(encoders, data)
    rows = summarise(quality, timing, {label: group for label, _, group in encoders})
    models = " ".join(f"--model {shlex.quote(f'{label}={shown(d)}')}" for label, d in args.model)
    command = (f"python -m benchmarks.reproduction.frontier {models} --speed {args.speed} --rounds {args.rounds} "
               f"--min-seconds {args.min_seconds:g}" + (" --no-minilm" if args.no_minilm else ""))
    meta = {"command": command, "speed": args.speed, "rounds": args.rounds, "min_seconds": args.min_seconds,
            "cpu": timing["cpu"], "pinning": timing["pinning"], "protocol": timing["protocol"],
            "notes": [f"- {note}" for note in args.note]}
    write_result(args.json, {"meta": meta, "rows": rows}, __file__, argv)
    print(markdown(rows, {**meta, "figure": "frontier.png"}))
    if args.docs:
        figure = args.docs.parent / args.docs.stem / "frontier.png"
        plot(rows, figure)
        replace_section(args.docs, "frontier", markdown(rows, {**meta, "figure": f"{args.docs.stem}/frontier.png"}))
        print(f"wrote the frontier section of {args.docs} and {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
