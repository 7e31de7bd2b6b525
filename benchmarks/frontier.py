"""The quality–speed frontier: every encoder a user could pick, on STS 2012–2015 (mean of the per-year mean
Pearson), STS-B test and STS2017, beside its encoding speed (sentences/s on one CPU thread, cold, tokenisation
included, the same unseen sentences for all); a table and a quality-vs-speed plot (log speed axis) written into
``docs/reproduction.md`` (its ``frontier`` section) and ``docs/reproduction/frontier.png``.

    python -m benchmarks.frontier --model WORD=runs/word --model TRIGRAM=runs/trigram --model SP=runs/sp \\
        --model LSTM=runs/lstm --model "TRIGRAM,SP"=runs/trigram-sp [--speed 1000] [--rounds 3] \\
        [--docs docs/reproduction.md] [--json benchmarks/results/frontier.json] [--no-minilm] [--quick]

Encoders: GloVe 6B 50d average and SIF-GloVe (enwiki p(w), first component removed; the project's
``evaluate --glove --sif``), each ``--model`` (any saved paranmt model), for every SentencePiece-only model also
the same model fed whitespace tokens instead of Moses tokens ("no Moses": what SP costs without the Moses
tokeniser, which is the ceiling of every other paranmt encoder's speed), and all-MiniLM-L6-v2 (the ``st``
extra; nothing is downloaded).

Speed: ``--rounds`` rounds; round r times every encoder (in an order rotated by r, so a slow phase of a shared
machine does not fall on one encoder) on its own slice r of ``--speed`` unseen STS-B *train* sentences (not
among the evaluated sentences; 64 more warm each encoder up), so every timing is cold: no tokeniser cache has
seen the slice. The table gives the median over rounds and the median of the per-round ratios to MiniLM.
Quality is evaluated after the timing.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.doc_sections import replace_section  # noqa: E402
from benchmarks.paths import shown  # noqa: E402
from train_embeddings import sts  # noqa: E402
from train_embeddings.model_io import load_model  # noqa: E402
from train_embeddings.models import EmbeddingModel  # noqa: E402

SHARED = REPO.parent / "shared"
YEARS = (2012, 2013, 2014, 2015)
MINILM = "all-MiniLM-L6-v2"


def timing_slices(data: sts.StsBenchmarks, n: int, rounds: int, warmup: int = 64) -> list[list[str]]:
    """``rounds`` disjoint slices of ``warmup + n`` STS-B train sentences that no evaluated set contains."""
    train = sts.load_stsb("train")
    seen = set(data.unique_sentences())
    pool = [s for s in dict.fromkeys(train.sentences1 + train.sentences2) if s not in seen]
    need = rounds * (n + warmup)
    if len(pool) < need:
        raise SystemExit(f"error: --speed {n} x --rounds {rounds} needs {need} unseen STS-B train sentences, "
                         f"there are {len(pool)}: lower --speed or --rounds")
    return [pool[r * (n + warmup):(r + 1) * (n + warmup)] for r in range(rounds)]


def whitespace_variant(model: EmbeddingModel) -> EmbeddingModel:
    """The same SentencePiece model fed ``str.split()`` tokens instead of Moses tokens (punctuation stays attached:
    a mismatch with training, measured by the quality columns)."""
    spec = copy.copy(model.spec)
    spec.tokenizer = {"kind": "whitespace", "lowercase": bool(model.spec.tokenizer.get("lowercase", True))}
    return EmbeddingModel(spec, model.encoder, model.words, model.trigrams, model.pieces)


def build_encoders(models: Sequence[tuple[str, Path]], minilm: bool, word_frequencies: Path | None,
                   fit: list[str]) -> list[tuple[str, Callable[[list[str]], Any], str]]:
    """(label, encode, kind) for every encoder; each has its own cold tokeniser cache."""
    encoders: list[tuple[str, Callable[[list[str]], Any], str]] = [
        ("GloVe avg", sts.glove_average_encoder(), "baseline"),
        ("SIF-GloVe", sts.sif_encoder(fit, word_frequencies=word_frequencies),
         "baseline")]
    for label, directory in models:
        model = load_model(directory)
        encoders.append((label, model.encode, "paranmt"))
        if isinstance(model, EmbeddingModel) and model.spec.components == ["sp"]:
            encoders.append((f"{label} (no Moses)", whitespace_variant(load_model(directory)).encode, "paranmt"))
    if minilm:
        encoders.append((MINILM, sts.minilm_encoder(), "transformer"))
    return encoders


def measure_speeds(encoders: Sequence[tuple[str, Callable[[list[str]], Any], str]],
                   slices: list[list[str]]) -> dict[str, list[float]]:
    speeds: dict[str, list[float]] = {label: [] for label, _, _ in encoders}
    for r, sentences in enumerate(slices):
        order = list(encoders[r % len(encoders):]) + list(encoders[:r % len(encoders)])
        for label, encode, _ in order:
            speeds[label].append(sts.sentences_per_second(encode, sentences, threads=1))
            print(f"  round {r + 1}: {label}: {speeds[label][-1]:,.0f} sentences/s", flush=True)
    return speeds


def evaluate(encoders: Sequence[tuple[str, Callable[[list[str]], Any], str]],
             data: sts.StsBenchmarks) -> dict[str, dict[str, float]]:
    rows = {}
    for label, encode, _ in encoders:
        started = time.perf_counter()
        report = sts.evaluate_all(encode, data=data, label=label)
        rows[label] = {"mean": 100 * report.mean_pearson,
                       "years": {str(y.year): 100 * y.mean_pearson for y in report.years},
                       "stsb_test": 100 * report.stsb["stsb_test"].pearson,
                       "sts2017": 100 * report.stsb["sts2017"].pearson}
        print(f"  {label}: STS 12-15 {rows[label]['mean']:.1f}, STS-B test {rows[label]['stsb_test']:.1f}, "
              f"STS2017 {rows[label]['sts2017']:.1f} ({time.perf_counter() - started:.0f} s)", flush=True)
    return rows


def summarise(quality: dict[str, dict[str, float]], speeds: dict[str, list[float]],
              kinds: dict[str, str]) -> list[dict[str, Any]]:
    base = speeds.get(MINILM)
    rows = []
    for label, q in quality.items():
        row = {"encoder": label, "kind": kinds[label], **q, "sentences_per_second": statistics.median(speeds[label]),
               "rounds": [round(v, 1) for v in speeds[label]]}
        if base:
            row["x_minilm"] = statistics.median(a / b for a, b in zip(speeds[label], base, strict=True))
        rows.append(row)
    return rows


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = ["## The frontier: quality beside speed", "",
             f"Written by `python -m benchmarks.frontier {meta['args']}`. STS 2012–2015: the mean of the per-year "
             "mean Pearson × 100 (the papers' protocol); STS-B test; STS2017 (the dev set every model choice here "
             f"uses). Speed: sentences/s on **one CPU thread**, tokenisation included, cold (each of {meta['rounds']} "
             f"rounds times every encoder on its own {meta['speed']:,} unseen STS-B train sentences; median over "
             f"rounds; rounds rotate the order), on {meta['machine']}.", "",
             "| encoder | STS 12–15 mean | STS-B test | STS2017 | sentences/s (1 thread) | × MiniLM |",
             "|---|---:|---:|---:|---:|---:|"]
    for row in sorted(rows, key=lambda r: -r["sentences_per_second"]):
        ratio = f"{row['x_minilm']:,.0f}×" if row.get("x_minilm") is not None else "–"
        lines.append(f"| {row['encoder']} | {row['mean']:.1f} | {row['stsb_test']:.1f} | {row['sts2017']:.1f} | "
                     f"{row['sentences_per_second']:,.0f} | {ratio} |")
    lines += ["", f"![quality vs speed]({meta['figure']})", ""]
    lines += meta.get("notes", [])
    return "\n".join(lines) + "\n"


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = {"baseline": "tab:gray", "paranmt": "tab:blue", "transformer": "tab:red"}
    fig, ax = plt.subplots(figsize=(8, 5))
    for row in rows:
        ax.scatter(row["sentences_per_second"], row["mean"], color=colours[row["kind"]], s=40, zorder=3)
        ax.annotate(row["encoder"], (row["sentences_per_second"], row["mean"]), textcoords="offset points",
                    xytext=(5, 4), fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("sentences/s, one CPU thread, tokenisation included (log scale)")
    ax.set_ylabel("STS 2012–2015 mean Pearson × 100")
    ax.set_title("Quality vs speed (grey: word-vector baselines, blue: paranmt, red: transformer)")
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parse_model(value: str) -> tuple[str, Path]:
    label, sep, directory = value.rpartition("=")
    if not sep or not label:
        raise argparse.ArgumentTypeError(f"--model {value!r}: expected LABEL=DIR")
    return label, Path(directory)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks.frontier", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", type=parse_model, action="append", default=[], metavar="LABEL=DIR",
                   help="a saved paranmt model (repeatable)")
    p.add_argument("--speed", type=int, default=1000, help="sentences per timing round (default 1000)")
    p.add_argument("--rounds", type=int, default=3, help="timing rounds (default 3)")
    p.add_argument("--no-minilm", action="store_true", help="leave all-MiniLM-L6-v2 out")
    p.add_argument("--word-frequencies", type=Path, default=SHARED / "data/wordfreq/enwiki_vocab_min200.txt",
                   help="p(w) for SIF-GloVe")
    p.add_argument("--docs", type=Path, help="markdown page whose 'frontier' section is (re)written")
    p.add_argument("--json", type=Path, help="write every number here")
    p.add_argument("--machine", default="this machine", help="how the docs describe the machine")
    p.add_argument("--note", action="append", default=[], help="a line under the table (repeatable): e.g. where "
                   "each model was trained")
    p.add_argument("--quick", action="store_true", help="STS2017-sized smoke run: 100 sentences, 1 round, no MiniLM")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for label, directory in args.model:
        if not directory.is_dir():
            print(f"error: --model {label}={directory}: not a directory", file=sys.stderr)
            return 2
    if args.quick:
        args.speed, args.rounds, args.no_minilm = 100, 1, True
    if args.speed < 1 or args.rounds < 1:
        print("error: --speed and --rounds must be positive", file=sys.stderr)
        return 2
    data = sts.load_benchmarks(years=YEARS)
    slices = timing_slices(data, args.speed, args.rounds)
    try:
        encoders = build_encoders(args.model, not args.no_minilm, args.word_frequencies, data.unique_sentences())
    except (ImportError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"[speed] {len(encoders)} encoders, {args.rounds} round(s) of {args.speed} sentences", flush=True)
    speeds = measure_speeds(encoders, slices)
    print("[quality] STS 2012-2015, STS-B test, STS2017", flush=True)
    quality = evaluate(encoders, data)
    rows = summarise(quality, speeds, {label: kind for label, _, kind in encoders})
    models = " ".join(f"--model {label}={shown(d)}" for label, d in args.model)
    meta = {"args": models + f" --speed {args.speed} --rounds {args.rounds}" + (" --no-minilm" if args.no_minilm
                                                                                else ""),
            "speed": args.speed, "rounds": args.rounds, "machine": args.machine,
            "notes": [f"- {note}" for note in args.note]}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n", encoding="utf-8")
    print(markdown(rows, {**meta, "figure": "frontier.png"}))
    if args.docs:
        figure = args.docs.parent / args.docs.stem / "frontier.png"
        plot(rows, figure)
        replace_section(args.docs, "frontier", markdown(rows, {**meta, "figure": f"{args.docs.stem}/frontier.png"}))
        print(f"wrote the frontier section of {args.docs} and {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
