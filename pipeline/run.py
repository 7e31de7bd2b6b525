"""The corpus pipeline: ``python -m pipeline.run --cs corpus.cs --en corpus.en --out runs/x [Beam options]``.

Stages (Beam PTransforms over the Beam-free functions of :mod:`pipeline.ingest`, :mod:`pipeline.prefilter`,
:mod:`pipeline.write` and :mod:`pipeline.summary`):

1. ingest -- plan (counting pre-pass, misalignment check), read bytes, decode; dead letters for what fails;
2. normalise and tokenise (sacremoses, cs and en);
3. pre-filter and global dedup on the normalised pair; rejections with stage and reason;
4. back-translate the Czech side (:mod:`pipeline.backtranslate`: chunks of fixed input ranges through
   :class:`pipeline.nmt_inference.BackTranslateChunks`, each cached the moment it is translated, so a killed run resumes
   without decoding again what it had finished; skipped when the input carries an MT column);
5. tokenise the MT output -> pair records in the :data:`core.pair_schema.PAIRS_SCHEMA` layout;
6. **score and select** (:mod:`pipeline.scorer_fit`): the scorer is fitted on the launcher (or loaded from
   ``score.scorer``), then :class:`pipeline.score_transforms.ScoreAndSelect` fills the scores, ``fold``, ``keep`` and
   ``reason`` by the ``filter`` section (default: the paper's rank rule); ``train/`` holds the kept pairs.
   ``pipeline.score=false`` skips it (``pairs/`` then has null scores and decisions, and no ``train/``), and a
   custom stage can be passed as ``score_and_select``;
7. write deterministic Parquet shards (staged, renamed into place on success);
8. summarise from Beam metrics and from the written files; ``read = pairs + rejected + deadletter`` is checked.

A custom ``score_and_select`` (a PTransform, or a factory ``config -> PTransform``) gets dicts with exactly the
PAIRS_SCHEMA column names (see :func:`pipeline.prefilter.pair_record`) and must emit every input pair exactly once,
with the score columns, ``scorer_id``, ``keep`` (bool) and ``reason`` (a :class:`core.pair_schema.Reason` value:
``kept`` or a training-filter reason) filled. An optional ``metadata`` attribute (dict) on the transform is added
to the Parquet schema metadata of ``pairs/`` and ``train/``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import apache_beam as beam
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.options.pipeline_options import PipelineOptions, TestOptions
from apache_beam.portability import common_urns
from apache_beam.portability.api import beam_runner_api_pb2

from configs import ConfigError, add_config_arguments, load_config
from configs.command_line import ArgumentParser, command_name, config_flags, run_main
from core.errors import ParanmtError
from filters.decontaminate import ExclusionError
from pipeline import progress
from pipeline.analysis.pmi_lexicon import STATS_FILE
from pipeline.graph import ScoreAndSelect, build_pipeline
from pipeline.input_files import InputError
from pipeline.input_plan import InputSpec
from pipeline.interrupts import exit_on_interrupt
from pipeline.options import beam_argv, runner_name
from pipeline.run_folder import LEXICON_DIR, own_output
from pipeline.summary import (
    OUTPUTS,
    RUNNERS_DROPPING_COUNTERS,
    build_summary,
    decontamination_check,
    dumps,
    file_counts,
    format_table,
    held_sizes,
    metric_counts,
    stage_seconds,
)
from pipeline.write import clear_staging, finalize, write_marker
from translate.card import ModelDirError

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------------------------------- assembly


def run(
    config: Any,
    specs: Sequence[InputSpec],
    output: str | os.PathLike,
    beam_args: Sequence[str] = (),
    *,
    score_and_select: ScoreAndSelect | None = None,
    handler_kwargs: dict[str, Any] | None = None,
    show_progress: bool = False,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Build and run the pipeline, move the outputs into place, write ``summary.json`` and ``_SUCCESS``.

    ``show_progress``: a live progress line on stderr while a local runner works (:mod:`pipeline.progress`); a
    runner that returns at once (Dataflow, portable) always gets progress lines in the log from its metrics.
    Returns the summary; raises :class:`AccountingError` if ``read = pairs + rejected + deadletter`` fails.
    """
    output = str(output)
    argv = beam_argv(config.pipeline, beam_args)
    options = PipelineOptions(argv)
    runner = runner_name(argv)
    dry_run = options.view_as(TestOptions).dry_run
    if dry_run and runner != "DataflowRunner":  # other runners ignore the flag and run the job
        raise InputError(f"--dry_run True builds a DataflowRunner job without submitting it; {runner} "
                         "would run the whole job: drop --dry_run or add --runner DataflowRunner")
    with own_output(output):  # one run per folder; created (and locked) before the checks below
        started = time.perf_counter()
        p = beam.Pipeline(options=options)
        # Input, model and output-folder errors are raised here, before anything is written.
        built = build_pipeline(p, config, specs, output, score_and_select=score_and_select,
                               handler_kwargs=handler_kwargs, overwrite=overwrite)
        clear_staging(output)
        expected = built.ingest.plan.expected_rows
        local = runner in progress.LOCAL_RUNNERS
        translating = (f"model {built.nmt_model_id}, beam {config.translate.beam_size}"
                       if built.mode == "translate" else "")
        with progress.LocalProgress(expected, enabled=show_progress and local, translating=translating):
            result = p.run()
            if dry_run:  # built and translated for Dataflow, never submitted
                return dry_run_summary(result, runner)
            if not local:
                progress.log_until_done(result, expected)
            result.wait_until_finish()
        metrics = metric_counts(result)
        finalize(output, (*OUTPUTS, LEXICON_DIR))
        files = file_counts(output)
        lexicon = _lexicon_stats(output) if config.lexicon.enabled else None
        summary = build_summary(metrics, files, output_dir=output, expected_read=built.ingest.plan.expected_rows,
                                scored=built.scored, counters_may_drop=runner in RUNNERS_DROPPING_COUNTERS,
                                extra={"mode": built.mode, "nmt_model_id": built.nmt_model_id,
                                       "runner": runner, "sources": built.ingest.plan.sources,
                                       "notes": built.ingest.plan.notes, **({"lexicon": lexicon} if lexicon else {})})
        if built.excluded is not None:
            summary["decontamination"] = decontamination_check(files["shards"]["train"], built.excluded,
                                                               summary["pairs_by_decision"])
            if summary["decontamination"]["train_overlap"]:
                summary["identity"]["problems"].append(
                    f"train/ holds {summary['decontamination']['train_overlap']} pairs with an evaluation sentence")
                summary["identity"]["holds"] = False
        if lexicon is not None and lexicon["read"] != summary["pairs"]:  # the lexicon sees every pair record
            summary["identity"]["problems"].append(f"lexicon read {lexicon['read']} pairs but pairs/ holds "
                                                   f"{summary['pairs']}")
            summary["identity"]["holds"] = False
        summary_path = FileSystems.join(output, "summary.json")
        handle = FileSystems.create(summary_path, compression_type=CompressionTypes.UNCOMPRESSED)
        try:
            handle.write(dumps(summary).encode("utf-8"))
        finally:
            handle.close()
        summary["wall_seconds"] = round(time.perf_counter() - started, 3)  # console only: summary.json is stable
        summary["stage_seconds"] = stage_seconds(result)
        summary["step_seconds"] = stage_seconds(result, depth=2)
        summary["held"] = held_sizes(result)
        if not summary["identity"]["holds"]:
            raise AccountingError("; ".join(summary["identity"]["problems"]), summary)
        write_marker(output)
        return summary


def dry_run_summary(result: Any, runner: str) -> dict[str, Any]:
    """What ``--dry_run True`` proved: the runner took the graph (every DoFn pickled into its pipeline proto)."""
    job = getattr(result, "job", None)
    proto = getattr(job, "proto_pipeline", None)
    environments = proto.components.environments.values() if proto is not None else ()
    images = sorted({beam_runner_api_pb2.DockerPayload.FromString(env.payload).container_image
                     for env in environments if env.urn == common_urns.environments.DOCKER.urn})
    return {"dry_run": True, "runner": runner,
            "transforms": len(proto.components.transforms) if proto is not None else None,
            "environments": images}


def _lexicon_stats(output: str) -> dict[str, Any] | None:
    """Rows read / used / skipped by reason of the lexicon branch (its ``stats.json``)."""

    path = FileSystems.join(output, LEXICON_DIR, STATS_FILE)
    if not FileSystems.exists(path):
        return None
    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as handle:
        return json.loads(handle.read().decode("utf-8"))["stats"]


class AccountingError(ParanmtError, RuntimeError):
    """``read = pairs + rejected + deadletter`` does not hold (or a metric disagrees with the files)."""

    exit_status = 1  # the run went wrong, not its input

    def __init__(self, message: str, summary: dict[str, Any]):
        super().__init__(message)
        self.summary = summary


# ------------------------------------------------------------------------------------------------------- CLI


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog=command_name("python -m pipeline.run"), allow_abbrev=False,
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
    g.add_argument("--no-dedup", dest="dedup", action="store_false", default=None)
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


def _column(value: str | None, kind: str, default: int | str | None) -> int | str | None:
    if value is None:
        return default
    if kind == "tsv":
        if not value.isdigit():
            raise InputError(f"TSV columns are 0-based indices; got {value!r}")
        return int(value)
    return value


def _not_a_folder(flag: str, path: str) -> None:
    """A local folder given as an input file would fail deep in the read as ``IsADirectoryError``."""
    if os.path.isdir(path):
        hint = f"a pattern such as '{path.rstrip('/')}/*.{flag[2:]}'" if flag in ("--tsv", "--jsonl", "--parquet") \
            else "a text file, one sentence per line"
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
        index = kind == "tsv"
        for pattern in getattr(args, kind):
            specs.append(InputSpec(
                kind, (pattern,),
                _column(args.cs_column, kind, 0 if index else "cs"),
                _column(args.en_column, kind, 1 if index else "en"),
                _column(args.mt_column, kind, None),
                _column(args.mt_score_column, kind, None)))
    return specs


def main(argv: Sequence[str] | None = None, score_and_select: ScoreAndSelect | None = None) -> int:
    parser = build_parser()
    args, beam_args = parser.parse_known_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", force=True)

    loaded: list[Any] = []  # the config, once read: the interrupt line names the cache it kept
    with exit_on_interrupt(lambda: interrupted_line(loaded[0] if loaded else None, args.out),
                           cleanup=progress.discard_local):
        return _main(parser, args, beam_args, score_and_select, loaded)


def interrupted_line(config: Any, output: str) -> str:
    """What a Ctrl-C'd run kept: the translated chunks in its cache (``read_cache`` reuses them on a rerun)."""
    if config is not None and not config.pipeline.translation_cache:
        return "interrupted; the translation cache is off, so a rerun translates again — rerun the same command"
    root = (config.pipeline.cache_dir if config is not None else None) or FileSystems.join(output, "cache")
    pattern = FileSystems.join(root, "translations", "*", "*.parquet")
    try:
        chunks = len(FileSystems.match([pattern])[0].metadata_list)
    except Exception:  # no cache folder yet (or an unreachable one): nothing was kept there
        chunks = 0
    return (f"interrupted; {chunks} chunk{'' if chunks == 1 else 's'} translated {'is' if chunks == 1 else 'are'} "
            f"kept{f' in {root}' if chunks else ''} — rerun the same command to resume")


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace, beam_args: list[str],
          score_and_select: ScoreAndSelect | None, loaded: list[Any]) -> int:
    try:
        values = {
            "pipeline.limit": args.limit, "pipeline.num_shards": args.num_shards,
            "pipeline.allow_misaligned": args.allow_misaligned, "pipeline.dedup": args.dedup,
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
        loaded.append(config)
        specs = specs_from_args(args)
        summary = run(config, specs, args.out, beam_args, score_and_select=score_and_select,
                      show_progress=not args.quiet, overwrite=args.overwrite)
    except (ConfigError, InputError, ExclusionError, ModelDirError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
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
    rate = summary["read"] / summary["wall_seconds"] if summary["wall_seconds"] else 0.0
    print(f"{summary['read']} rows in {summary['wall_seconds']:.1f}s ({rate:.0f} rows/s) on {summary['runner']}")
    busiest = [item for item in sorted(summary.get("stage_seconds", {}).items(), key=lambda item: -item[1])
               if item[1] >= 0.05][:6]
    if busiest and not args.quiet:
        print("time by stage (Beam's execution time, all workers): "
              + ", ".join(f"{stage} {seconds:.1f}s" for stage, seconds in busiest))
    for name in ("pairs", "train", "rejected", "deadletter"):
        paths = summary["shards"].get(name) or []
        if paths:
            folder = paths[0].rsplit("/", 1)[0]
            print(f"{name + '/':<12} {folder}/ ({len(paths)} shard{'s' if len(paths) != 1 else ''})")
    if summary.get("lexicon"):
        print(f"{'lexicon/':<12} {FileSystems.join(args.out, LEXICON_DIR)}/ (python -m pipeline.analysis.pmi_lexicon "
              f"neighbours --lexicon ... WORD)")
    print(f"summary     {FileSystems.join(args.out, 'summary.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
