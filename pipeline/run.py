"""``paranmt run``, also started as ``python -m pipeline.run``: build the corpus from bitext.

One command, two ways in: ``paranmt run`` imports this module's :func:`main`, ``python -m pipeline.run`` runs it;
the help, checks, outputs and exit statuses are the same. The module imports no Beam: the help, a flag that does
not parse, a bad config value and flags that do not fit together are answered before :mod:`pipeline.launcher.launch`
loads Beam and runs the job (:func:`pipeline.launcher.launch.run_and_report`).

The job's Python API is :func:`pipeline.job.run_job` (the README's "The same job in Python").
"""

from __future__ import annotations

import argparse
import os

from configs import command_config
from configs.schema import ParaNMTConfig
from paranmt.core.command_line import (
    ArgumentParser,
    ConfigFlag,
    UsageError,
    add_config_arguments,
    add_config_flags,
    command,
    run_program,
)
from pipeline.launcher.preflight import check_before_beam
from pipeline.outputs.run_lock import refuse_if_busy

__all__ = ["CONFIG_FLAGS", "build_parser", "main"]

# The flags that set config values, by help group; each one's type, help and default are its schema field's, and
# its help names the key it sets.
INPUT_FLAGS = (ConfigFlag("--tsv-header", "pipeline.tsv_header"),)
PIPELINE_FLAGS = (
    ConfigFlag("--limit", "pipeline.limit"),
    ConfigFlag("--num-shards", "pipeline.num_shards"),
    ConfigFlag("--allow-misaligned", "pipeline.allow_misaligned"),
    ConfigFlag("--no-dedup", "prefilter.dedup", off="keep exact duplicates"),
    ConfigFlag("--no-translation-cache", "pipeline.translation_cache",
               off="keep no cache of translated chunks: a rerun translates everything again"),
    ConfigFlag("--no-score", "pipeline.score", off="write pairs/ unscored, without train/"),
    ConfigFlag("--cache-dir", "pipeline.cache_dir"),
    ConfigFlag("--lexicon", "lexicon.enabled"),
)
TRANSLATE_FLAGS = (
    ConfigFlag("--model", "translate.model"),
    ConfigFlag("--backend", "translate.backend"),  # a name or a backend's import path, as the schema checks it
    ConfigFlag("--device", "translate.device"),
    ConfigFlag("--compute-type", "translate.compute_type"),
    ConfigFlag("--beam", "translate.beam_size"),
    ConfigFlag("--max-batch-tokens", "translate.max_batch_tokens"),
    ConfigFlag("--max-source-tokens", "translate.max_source_tokens"),
    ConfigFlag("--threads", "translate.threads"),
)
CONFIG_FLAGS = INPUT_FLAGS + PIPELINE_FLAGS + TRANSLATE_FLAGS


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
    i.add_argument("--parquet", action="append", default=[], metavar="PATH",
                   help="a Parquet file, a folder of shards (runs/x/pairs) or a pattern")
    i.add_argument("--cs-column", help="TSV: 0-based index (default 0); JSONL/Parquet: name (default cs)")
    i.add_argument("--en-column", help="TSV: 0-based index (default 1); JSONL/Parquet: name (default en)")
    i.add_argument("--mt-column", help="a column that already holds the machine translation (skips back-translation)")
    i.add_argument("--translation-score-column",
                   help="a column with the translation score of --mt-column (optional; translation_score in pairs/)")
    add_config_flags(i, ParaNMTConfig, INPUT_FLAGS)
    p.add_argument("--out", required=True, help="output folder (local or gs://...)")
    add_config_arguments(p, "pipeline.num_shards=16")
    g = p.add_argument_group("pipeline")
    add_config_flags(g, ParaNMTConfig, PIPELINE_FLAGS)
    t = p.add_argument_group("back-translation")
    add_config_flags(t, ParaNMTConfig, TRANSLATE_FLAGS)
    p.add_argument("--shared-mount", action="append", default=[], metavar="FOLDER",
                   help="a folder every worker of a remote runner (Dataflow, a job service on another machine) "
                        "mounts at the same path, e.g. an NFS mount: local paths in it are accepted for such a runner")
    p.add_argument("--overwrite", action="store_true",
                   help="replace a different run already in --out (the same run is always resumed)")
    p.add_argument("--quiet", action="store_true", help="no progress line, no summary table")
    p.add_argument("--progress-every", type=float, metavar="SECONDS",
                   help="a job on a remote runner (Dataflow, portable): seconds between its progress lines "
                        "(default: once a minute)")
    return p


_PATH_FLAGS = ("cs", "en", "mt", "tsv", "jsonl", "parquet")  # the flags that name input files, as args' names
_FILE_FLAGS = tuple(f for f in _PATH_FLAGS if f != "parquet")  # a folder is no input of these (--parquet reads one)


def _not_a_folder(flag: str, path: str) -> None:
    """A local folder given as an input file would fail deep in the read as ``IsADirectoryError``."""
    if os.path.isdir(path):
        hint = (f"a pattern such as '{path.rstrip('/')}/*.{flag[2:]}'" if flag in ("--tsv", "--jsonl")
                else "a text file, one sentence per line")
        raise UsageError(f"{flag} {path} is a folder, not a file: give {hint}")


def _check_input_flags(args: argparse.Namespace) -> None:
    """The input and progress flags fit together (checked before Beam loads; the files are read by the job)."""
    for flag in _FILE_FLAGS:
        for path in getattr(args, flag):
            _not_a_folder(f"--{flag}", path)
    if len(args.cs) != len(args.en):
        raise UsageError(f"give --cs and --en in pairs (got {len(args.cs)} --cs and {len(args.en)} --en)")
    if args.mt and len(args.mt) != len(args.cs):
        raise UsageError(f"give one --mt per --cs/--en pair (got {len(args.mt)} --mt for {len(args.cs)} pairs)")
    if args.progress_every is not None and not args.progress_every > 0:
        raise UsageError(f"--progress-every {args.progress_every:g}: give a number of seconds above 0")


@command(build_parser, passthrough="beam_args", config=command_config, config_flags=CONFIG_FLAGS)
def main(args: argparse.Namespace, config: ParaNMTConfig) -> int:
    _check_input_flags(args)
    refuse_if_busy(args.out)  # at once: Beam and the model check take seconds
    named = [(f"--{flag}", path) for flag in _PATH_FLAGS for path in getattr(args, flag)]
    check_before_beam(config, args.beam_args, named, args.out, args.shared_mount)
    # Beam loads here, once the arguments and the config are checked
    from pipeline.inputs.plan import InputSpec
    from pipeline.launcher.launch import run_and_report

    specs = [InputSpec.pair(cs, en, args.mt[k] if args.mt else None)
             for k, (cs, en) in enumerate(zip(args.cs, args.en, strict=True))]
    for kind in ("tsv", "jsonl", "parquet"):  # then the patterns, in this order
        specs += [InputSpec.from_flags(kind, pattern, args.cs_column, args.en_column, args.mt_column,
                                       args.translation_score_column) for pattern in getattr(args, kind)]
    return run_and_report(config, specs, args.out, args.beam_args, quiet=args.quiet,
                          progress_every=args.progress_every, overwrite=args.overwrite,
                          shared_mounts=args.shared_mount)


if __name__ == "__main__":
    run_program(main)
