"""What ``paranmt run`` does once :mod:`pipeline.run` has checked its arguments and config: the job
(:func:`pipeline.job.run_job`) under the interrupt guard, then what the console shows. This module imports Beam; the
command imports it only after its checks."""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Sequence

from apache_beam.io.filesystems import FileSystems

from configs.schema import ParaNMTConfig
from paranmt.core.run_layout import CARD_FILE, LEXICON_DIR, OUTPUTS, SUMMARY_FILE
from pipeline.inputs.plan import InputSpec
from pipeline.job import AccountingError, run_job
from pipeline.launcher import progress
from pipeline.launcher.interrupts import exit_on_interrupt
from pipeline.outputs.run_folder import interrupted_line
from pipeline.outputs.summary import format_table

log = logging.getLogger(__name__)

def run_and_report(config: ParaNMTConfig, specs: Sequence[InputSpec], out: str, beam_args: Sequence[str], *,
                   quiet: bool = False, progress_every: float | None = None, overwrite: bool = False,
                   shared_mounts: Sequence[str] = ()) -> int:
    """Run the job :func:`pipeline.run.main` checked (:func:`pipeline.job.run_job`, the same parameters) and print its
    report; the exit status (1: the row accounting failed). ``quiet``: no progress line, no summary table."""
    try:
        with exit_on_interrupt(functools.partial(interrupted_line, config.pipeline, out),
                               cleanup=progress.discard_local):
            summary = run_job(config, specs, out, beam_args, show_progress=not quiet, progress_every=progress_every,
                              overwrite=overwrite, shared_mounts=shared_mounts)
    except AccountingError as error:
        if not quiet:
            print(format_table(error.summary), file=sys.stderr)
        print(f"error: row accounting failed: {error}", file=sys.stderr)
        return 1
    if summary.get("dry_run"):
        print(f"{summary['runner']} job built with {summary['transforms']} transforms and nothing submitted "
              f"(--dry_run True); worker environment: {', '.join(summary['environments']) or 'default'}")
        return 0
    if not quiet:
        print(format_table(summary))
    for warning in summary["identity"].get("warnings", []):  # warnings on stderr in the log's style, --quiet too
        log.warning("%s", warning)
    hint = (summary.get("translator_check") or {}).get("hint")
    if hint:  # train/ is likely not paraphrases
        log.warning("%s", hint)
    rate = summary["read"] / summary["wall_seconds"] if summary["wall_seconds"] else 0.0
    print(f"{summary['read']} rows in {summary['wall_seconds']:.1f}s ({rate:.0f} rows/s) on {summary['runner']}")
    busiest = [item for item in sorted(summary.get("stage_seconds", {}).items(), key=lambda item: -item[1])
               if item[1] >= 0.05][:6]
    if busiest and not quiet:
        print("time by stage (Beam's execution time, all workers): "
              + ", ".join(f"{stage} {seconds:.1f}s" for stage, seconds in busiest))
    if summary.get("translation_seconds") and not quiet:
        span, translated = summary["translation_seconds"], summary["translated_rows"]
        print(f"translation: {translated} rows in {span:.1f}s, first call to last ({translated / span:.0f} rows/s)")
    for name in OUTPUTS:
        paths = summary["shards"].get(name) or []
        if paths:
            folder = FileSystems.join(out, name)  # as the user named --out (the workers were given it absolute)
            print(f"{name + '/':<12} {folder}/ ({len(paths)} shard{'s' if len(paths) != 1 else ''})")
    if summary.get("lexicon"):
        print(f"{'lexicon/':<12} {FileSystems.join(out, LEXICON_DIR)}/ (paranmt lexicon neighbours "
              f"--lexicon ... WORD)")
    print(f"summary     {FileSystems.join(out, SUMMARY_FILE)}")
    print(f"card        {FileSystems.join(out, CARD_FILE)} (the dataset card: datasets.load_dataset reads the folder)")
    return 0
