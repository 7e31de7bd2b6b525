"""``paranmt run``: build the corpus from bitext."""

from __future__ import annotations

import argparse
import functools
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from apache_beam.io.filesystems import FileSystems

from cli.command_line import (
    ArgumentParser,
    add_config_arguments,
    command,
    config_flags,
    not_a_user_error_traceback,
)
from configs import load_config
from pipeline import progress
from pipeline.backtranslate import interrupted_line
from pipeline.input_files import InputError
from pipeline.input_plan import InputSpec
from pipeline.interrupts import exit_on_interrupt
from pipeline.run import AccountingError, run
from pipeline.run_folder import LEXICON_DIR
from pipeline.summary import format_table


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog="paranmt run", allow_abbrev=False,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Build a ParaNMT-style paraphrase corpus: bitext -> back-translation -> Parquet shards.",
        epilog="Any other --option is a Beam pipeline option (--runner DataflowRunner --project ... "
               "--region ... --temp_location gs://...; --direct_running_mode multi_processing "
               "--direct_num_workers 2). Precedence: YAML config < --set < dedicated flags < Beam options.",
    )
    i = p.add_argument_group("inputs (repeatable; local paths or any Beam file system, e.g. gs://)")
    i.add_argument("--cs", action="append", default=[], metavar="FILE", help="Czech side of line-aligned pair files")
    i.add_argument("--en", action="append", default=[], metavar="FILE", help="English side (same line count)")
    i.add_argument("--mt", action="append", default=[], metavar="FILE",
                   help="machine translations of the Czech side, line-aligned (skips back-translation)")
    i.add_argument("--tsv", action="append", default=[], metavar="PATTERN", help="TSV file(s), one pair per line")
    i.add_argument("--jsonl", action="append", default=[], metavar="PATTERN", help="JSON-lines file(s)")
    i.add_argument("--parquet", action="append", default=[], metavar="PATTERN", help="Parquet file(s)")
    i.add_argument("--cs-column", help="TSV: 0-based index (default 0); JSONL/Parquet: name (default cs)")
    i.add_argument("--en-column", help="TSV: 0-based index (default 1); JSONL/Parquet: name (default en)")
    i.add_argument("--mt-column", help="a column that already holds the machine translation (skips stage 4)")
    i.add_argument("--mt-score-column", help="a column with the translation score of --mt-column (optional)")
    i.add_argument("--tsv-header", action="store_true", default=None, help="TSV files start with a header line")
    p.add_renamed("--out", "--output", required=True, help="output folder (local or gs://...)")
    add_config_arguments(p, "pipeline.num_shards=16")
    g = p.add_argument_group("pipeline (each is also pipeline.<key> in the config)")
    g.add_argument("--limit", type=int, help="only the first N input rows")
    g.add_argument("--num-shards", type=int, help="shards of pairs/, train/, rejected/ (default 4)")
    g.add_argument("--allow-misaligned", action="store_true", default=None,
                   help="dead-letter the unmatched tail of pair files with different line counts")
    g.add_argument("--no-dedup", dest="dedup", action="store_false", default=None,
                   help="keep exact duplicates (prefilter.dedup: false)")
    g.add_argument("--no-translation-cache", dest="translation_cache", action="store_false", default=None)
    g.add_argument("--no-score", dest="score", action="store_false", default=None,
                   help="skip scoring and selection: pairs/ without scores, no train/")
    g.add_argument("--cache-dir", help="translation cache root (default <output>/cache)")
    g.add_argument("--lexicon", action="store_true", default=None,
                   help="also build the PMI paraphrase lexicon in <output>/lexicon/ (lexicon.enabled)")
    t = p.add_argument_group("back-translation (translate.<key> in the config)")
    t.add_argument("--model", type=Path, help="model directory (default: the bundled small-cs-en model)")
    t.add_argument("--backend", choices=["auto", "ctranslate2", "fairseq"])
    t.add_argument("--device", choices=["auto", "cpu", "cuda"])
    t.add_argument("--compute-type")
    t.add_argument("--beam", type=int, help="beam size (default 12)")
    t.add_argument("--max-batch-tokens", type=int)
    t.add_argument("--max-source-tokens", type=int)
    t.add_argument("--threads", type=int)
    p.add_argument("--overwrite", action="store_true",
                   help="replace a different run already in --out (the same run is always resumed)")
    p.add_argument("--quiet", action="store_true", help="no progress line, no summary table")
    return p


def _not_a_folder(flag: str, path: str) -> None:
    """A local folder given as an input file would fail deep in the read as ``IsADirectoryError``."""
    if os.path.isdir(path):
        hint = (f"a pattern such as '{path.rstrip('/')}/*.{flag[2:]}'" if flag in ("--tsv", "--jsonl", "--parquet")
                else "a text file, one sentence per line")
        raise InputError(f"{flag} {path} is a folder, not a file: give {hint}")


def specs_from_args(args: argparse.Namespace) -> list[InputSpec]:
    for flag in ("cs", "en", "mt", "tsv", "jsonl", "parquet"):
        for path in getattr(args, flag):
            _not_a_folder(f"--{flag}", path)
    if len(args.cs) != len(args.en):
        raise InputError(f"give --cs and --en in pairs (got {len(args.cs)} --cs and {len(args.en)} --en)")
    if args.mt and len(args.mt) != len(args.cs):
        raise InputError(f"give one --mt per --cs/--en pair (got {len(args.mt)} --mt for {len(args.cs)} pairs)")
    specs = [InputSpec.pair(cs, en, args.mt[k] if args.mt else None) for k, (cs, en) in
             enumerate(zip(args.cs, args.en, strict=True))]
    for kind in ("tsv", "jsonl", "parquet"):
        specs += [InputSpec.from_flags(kind, pattern, args.cs_column, args.en_column, args.mt_column,
                                       args.mt_score_column) for pattern in getattr(args, kind)]
    return specs


@command
def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, beam_args = parser.parse_known_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", force=True)
    for handler in logging.getLogger().handlers:
        handler.addFilter(not_a_user_error_traceback)
    values = {
        "pipeline.limit": args.limit, "pipeline.num_shards": args.num_shards,
        "pipeline.allow_misaligned": args.allow_misaligned, "prefilter.dedup": args.dedup,
        "pipeline.translation_cache": args.translation_cache, "pipeline.cache_dir": args.cache_dir,
        "pipeline.tsv_header": args.tsv_header, "pipeline.score": args.score, "lexicon.enabled": args.lexicon,
        "translate.model": str(args.model.resolve()) if args.model else None,
        "translate.backend": args.backend, "translate.device": args.device,
        "translate.compute_type": args.compute_type, "translate.beam_size": args.beam,
        "translate.max_batch_tokens": args.max_batch_tokens,
        "translate.max_source_tokens": args.max_source_tokens, "translate.threads": args.threads,
    }
    config = load_config(args.config, args.overrides, values, flags=config_flags(
        parser, values, {"translate.beam_size": "--beam", "lexicon.enabled": "--lexicon"}))
    specs = specs_from_args(args)
    try:
        with exit_on_interrupt(functools.partial(interrupted_line, config.pipeline, args.out),
                               cleanup=progress.discard_local):
            summary = run(config, specs, args.out, beam_args, show_progress=not args.quiet,
                          overwrite=args.overwrite)
    except AccountingError as error:
        if not args.quiet:
            print(format_table(error.summary), file=sys.stderr)
        print(f"error: row accounting failed: {error}", file=sys.stderr)
        return 1
    if summary.get("dry_run"):
        print(f"{summary['runner']} job built with {summary['transforms']} transforms and nothing submitted "
              f"(--dry_run True); worker environment: {', '.join(summary['environments']) or 'default'}")
        return 0
    if not args.quiet:
        print(format_table(summary))
    hint = (summary.get("translator_check") or {}).get("hint")
    if hint:  # even with --quiet: train/ is likely not paraphrases
        print(f"warning: {hint}")
    rate = summary["read"] / summary["wall_seconds"] if summary["wall_seconds"] else 0.0
    print(f"{summary['read']} rows in {summary['wall_seconds']:.1f}s ({rate:.0f} rows/s) on {summary['runner']}")
    busiest = [item for item in sorted(summary.get("stage_seconds", {}).items(), key=lambda item: -item[1])
               if item[1] >= 0.05][:6]
    if busiest and not args.quiet:
        print("time by stage (Beam's execution time, all workers): "
              + ", ".join(f"{stage} {seconds:.1f}s" for stage, seconds in busiest))
    if summary.get("translation_seconds") and not args.quiet:
        span, translated = summary["translation_seconds"], summary["translated_rows"]
        print(f"translation: {translated} rows in {span:.1f}s, first call to last ({translated / span:.0f} rows/s)")
    for name in ("pairs", "train", "rejected", "deadletter"):
        paths = summary["shards"].get(name) or []
        if paths:
            folder = paths[0].rsplit("/", 1)[0]
            print(f"{name + '/':<12} {folder}/ ({len(paths)} shard{'s' if len(paths) != 1 else ''})")
    if summary.get("lexicon"):
        print(f"{'lexicon/':<12} {FileSystems.join(args.out, LEXICON_DIR)}/ (paranmt lexicon neighbours "
              f"--lexicon ... WORD)")
    print(f"summary     {FileSystems.join(args.out, 'summary.json')}")
    return 0
