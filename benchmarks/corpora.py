"""Rebuild, from ``../shared``, every back-translated corpus the benchmarks and ``docs/reproduction.md`` need.

    python -m benchmarks.corpora [--out runs/corpora] [--only bitext,software] [--figures]

Each corpus is one ``python -m pipeline.run`` over a bitext folder of ``../shared/data`` with
``benchmarks.reproduce``'s settings (the real model ``../shared/models/small-cs-en``, CTranslate2 int8 on the CPU,
beam 12, every STS / STS-B / SICK sentence excluded from training):

* ``<out>/bitext/corpus`` — ``../shared/data/bitext`` (Multi30k, Tatoeba, newstest; the 53,517 ranked pairs of the
  reproduction, its ``train/`` the paper's selection);
* ``<out>/software/corpus`` — ``../shared/data/bitext-software`` (LibreOffice help and UI strings).

Translations are cached per corpus in ``<out>/<name>/translation-cache`` the moment a chunk is translated, so a
killed build resumes where it stopped and a rebuild reads them back instead of translating again. The bitext
corpus is built first (the one everything needs). Consumers: ``benchmarks.reproduce --out runs/corpora/bitext``
(finds the same cache), ``benchmarks.learning_curve --corpus runs/corpora/bitext/corpus --software
runs/corpora/software/corpus`` and ``benchmarks.static_table`` (reads both). ``--figures`` then regenerates every
figure of docs/reproduction.md that these corpora feed, in order: ``benchmarks.static_table`` (the static table,
its learning curve, the frontier section and plot) and ``benchmarks.learning_curve`` (its section and plot; 117
training runs: hours on 2 cores, minutes on a 16-core machine with ``--workers 12``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.reproduce import SHARED, bitext_sources, build_corpus  # noqa: E402

# corpus name -> its bitext folder under ../shared/data, in build order (the most needed first)
CORPORA = {"bitext": "bitext", "software": "bitext-software"}
DEFAULT_OUT = REPO / "runs" / "corpora"


def corpus_dir(out: Path, name: str) -> Path:
    """Where corpus ``name``'s ``pipeline.run`` output lives."""
    return out / name / "corpus"


def build(names: Sequence[str], out: Path, model: Path, data: Path) -> dict[str, dict]:
    """Build (or finish, or re-read from the cache) each corpus of ``names``; returns their build facts."""
    facts = {}
    for name in names:
        bitext = data / CORPORA[name]
        files = [(bitext / f"{n}.cs", bitext / f"{n}.en") for n in bitext_sources(bitext)]
        target = out / name
        target.mkdir(parents=True, exist_ok=True)
        print(f"[corpora] {name}: {len(files)} sources of {bitext} -> {corpus_dir(out, name)}", flush=True)
        started = time.perf_counter()
        facts[name] = build_corpus(files, model, data, target)
        facts[name]["wall_seconds"] = round(time.perf_counter() - started, 1)
        (target / "build.json").write_text(json.dumps(facts[name], indent=2, default=str) + "\n", encoding="utf-8")
        print(f"[corpora] {name}: {facts[name]['summary']['pairs']:,} pairs in {facts[name]['wall_seconds']} s "
              f"({facts[name]['rows_from_cache']:,} rows from the cache)", flush=True)
    return facts


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks.corpora", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the corpora go (default runs/corpora)")
    p.add_argument("--only", default=",".join(CORPORA), help=f"comma-separated subset of {','.join(CORPORA)}")
    p.add_argument("--model", type=Path, default=SHARED / "models" / "small-cs-en")
    p.add_argument("--data", type=Path, default=SHARED / "data", help="the shared data folder (../shared/data)")
    p.add_argument("--figures", action="store_true", help="then regenerate the figures these corpora feed")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    names = [n for n in args.only.split(",") if n]
    unknown = sorted(set(names) - set(CORPORA))
    if unknown:
        print(f"error: unknown corpus {unknown}; choose from {list(CORPORA)}", file=sys.stderr)
        return 2
    out = args.out.resolve()
    build(names, out, args.model.resolve(), args.data.resolve())
    if args.figures:
        docs = str(REPO / "docs" / "reproduction.md")
        commands = [["-m", "benchmarks.static_table", "--corpora", str(out), "--docs", docs],
                    ["-m", "benchmarks.learning_curve", "--corpus", str(corpus_dir(out, "bitext")),
                     "--software", str(corpus_dir(out, "software")), "--out", str(REPO / "runs" / "learning-curve"),
                     "--docs", docs]]
        for command in commands:
            print(f"[figures] python {' '.join(command)}", flush=True)
            if subprocess.run([sys.executable, *command], cwd=REPO).returncode != 0:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
