"""Rebuild, from ``../shared``, every back-translated corpus the benchmarks and ``docs/reproduction.md`` need.

Each corpus is one ``paranmt run`` over a bitext folder of ``../shared/data`` with
``benchmarks.reproduction.reproduce``'s settings (the real model ``../shared/models/small-cs-en``, CTranslate2 int8 on
the CPU, beam 12, every STS / STS-B / SICK sentence excluded from training):

* ``<out>/bitext/corpus`` — ``../shared/data/bitext`` (Multi30k, Tatoeba, newstest; the 53,517 ranked pairs of the
  reproduction, its ``train/`` the paper's selection);
* ``<out>/software/corpus`` — ``../shared/data/bitext-software`` (LibreOffice help and UI strings).

Translations are cached per corpus in ``<out>/<name>/translation-cache`` the moment a chunk is translated, so a
killed build resumes where it stopped and a rebuild reads them back instead of translating again. With
``--translations DIR``, a corpus whose every source has ``DIR/<source>.tsv[.gz]`` (the output of ``paranmt translate
--model <the same model> --beam 12 --compute-type int8 --input <source>.cs``, e.g. run on a machine with more cores)
is built from those translations (``paranmt run --mt``) instead of translating here. The bitext
corpus is built first (the one everything needs). Consumers: ``benchmarks.reproduction.reproduce --out
runs/corpora/bitext`` (finds the same cache), ``benchmarks.reproduction.learning_curve --corpus
runs/corpora/bitext/corpus --software runs/corpora/software/corpus`` and ``benchmarks.reproduction.static_table`` (reads
both). ``--figures`` then regenerates every figure of docs/reproduction.md that these corpora feed, in order:
``benchmarks.reproduction.static_table`` (the static table, its learning curve, the frontier section and plot) and
``benchmarks.reproduction.learning_curve`` (its section and plot; 117 training runs: hours on 2 cores, minutes on a
16-core machine with ``--workers 12``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.paths import REPO
from benchmarks.reproduction.reproduce import SHARED, bitext_sources, build_corpus, evaluation_files
from benchmarks.result import argument_parser

# corpus name -> its bitext folder under ../shared/data, in build order (the most needed first)
CORPORA = {"bitext": "bitext", "software": "bitext-software"}
DEFAULT_OUT = REPO / "runs" / "corpora"


def corpus_dir(out: Path, name: str) -> Path:
    """Where corpus ``name``'s ``paranmt run`` output lives."""
    return out / name / "corpus"


def translated_files(translations: Path, sources: Sequence[str], target: Path) -> list[Path] | None:
    """``<target>/mt/<source>.mt`` (line-aligned hypotheses) from ``paranmt translate``'s TSVs in
    ``translations``, or None when a source has none."""
    found = []
    for source in sources:
        tsv = next((p for p in (translations / f"{source}.tsv.gz", translations / f"{source}.tsv") if p.is_file()),
                   None)
        if tsv is None:
            return None
        found.append(tsv)
    (target / "mt").mkdir(parents=True, exist_ok=True)
    files = []
    for source, tsv in zip(sources, found, strict=True):
        opener = gzip.open if tsv.suffix == ".gz" else open
        with opener(tsv, "rt", encoding="utf-8") as handle:
            rows = [line.rstrip("\n").split("\t") for line in handle][1:]
        hypotheses = [r[4] if len(r) > 4 else "" for r in rows if len(r) > 1 and r[1] == "1"]
        mt = target / "mt" / f"{source}.mt"
        mt.write_text("".join(h + "\n" for h in hypotheses), encoding="utf-8")
        files.append(mt)
    return files


def build_with_translations(files: Sequence[tuple[Path, Path]], mts: Sequence[Path], data: Path,
                            target: Path) -> dict[str, Any]:
    """``paranmt run --mt`` with ``benchmarks.reproduction.reproduce``'s selection settings over translations made
    elsewhere."""
    corpus = target / "corpus"
    command = [sys.executable, "-m", "paranmt", "run", "--out", str(corpus), "--runner", "FnApiRunner",
               "--set", f"select.exclude_sentences={json.dumps(evaluation_files(data))}"]
    for (cs, en), mt in zip(files, mts, strict=True):
        command += ["--cs", str(cs), "--en", str(en), "--mt", str(mt)]
    if corpus.exists() and not (corpus / "_SUCCESS").exists():
        shutil.rmtree(corpus)
    (target / "logs").mkdir(exist_ok=True)
    with (target / "logs" / "corpus.log").open("w", encoding="utf-8") as log:
        code = subprocess.run(command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT).returncode
    if code != 0:
        raise SystemExit(f"error: the pipeline failed (exit {code}); see {target / 'logs' / 'corpus.log'}")
    summary = json.loads((corpus / "summary.json").read_text(encoding="utf-8"))
    return {"command": " ".join(command), "translations": [str(m) for m in mts], "rows_from_cache": 0,
            "summary": {k: summary[k] for k in ("read", "pairs", "train", "rejected", "stages",
                                                "pairs_by_decision")}}


def build(names: Sequence[str], out: Path, model: Path, data: Path,
          translations: Path | None = None) -> dict[str, dict]:
    """Build (or finish, or re-read from the cache) each corpus of ``names``; returns their build facts."""
    facts = {}
    for name in names:
        bitext = data / CORPORA[name]
        sources = bitext_sources(bitext)
        files = [(bitext / f"{n}.cs", bitext / f"{n}.en") for n in sources]
        target = out / name
        target.mkdir(parents=True, exist_ok=True)
        print(f"[corpora] {name}: {len(files)} sources of {bitext} -> {corpus_dir(out, name)}", flush=True)
        started = time.perf_counter()
        mts = translated_files(translations, sources, target) if translations is not None else None
        facts[name] = (build_with_translations(files, mts, data, target) if mts is not None
                       else build_corpus(files, model, data, target))
        facts[name]["wall_seconds"] = round(time.perf_counter() - started, 1)
        (target / "build.json").write_text(json.dumps(facts[name], indent=2, default=str) + "\n", encoding="utf-8")
        print(f"[corpora] {name}: {facts[name]['summary']['pairs']:,} pairs in {facts[name]['wall_seconds']} s "
              f"({facts[name]['rows_from_cache']:,} rows from the cache)", flush=True)
    return facts


def build_parser() -> argparse.ArgumentParser:
    p = argument_parser(__file__, __doc__)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the corpora go (default runs/corpora)")
    p.add_argument("--only", default=",".join(CORPORA), help=f"comma-separated subset of {','.join(CORPORA)}")
    p.add_argument("--model", type=Path, default=SHARED / "models" / "small-cs-en")
    p.add_argument("--data", type=Path, default=SHARED / "data", help="the shared data folder (../shared/data)")
    p.add_argument("--figures", action="store_true", help="then regenerate the figures these corpora feed")
    p.add_argument("--translations", type=Path, help="DIR/<source>.tsv[.gz] of `paranmt translate` (same model, "
                   "beam 12): build from these instead of translating here")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    names = [n for n in args.only.split(",") if n]
    unknown = sorted(set(names) - set(CORPORA))
    if unknown:
        print(f"error: unknown corpus {unknown}; choose from {list(CORPORA)}", file=sys.stderr)
        return 2
    out = args.out.resolve()
    build(names, out, args.model.resolve(), args.data.resolve(),
          args.translations.resolve() if args.translations else None)
    if args.figures:
        docs = str(REPO / "docs" / "reproduction.md")
        commands = [["-m", "benchmarks.reproduction.static_table", "--corpora", str(out), "--docs", docs],
                    ["-m", "benchmarks.reproduction.learning_curve", "--corpus", str(corpus_dir(out, "bitext")),
                     "--software", str(corpus_dir(out, "software")), "--out", str(REPO / "runs" / "learning-curve"),
                     "--docs", docs]]
        for command in commands:
            print(f"[figures] python {' '.join(command)}", flush=True)
            if subprocess.run([sys.executable, *command], cwd=REPO).returncode != 0:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
