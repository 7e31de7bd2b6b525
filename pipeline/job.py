"""The corpus pipeline's job: :func:`run_job` checks it, claims the run folder, builds it, runs it, moves its outputs
into place and writes the summary. Its command line is :mod:`pipeline.run` (``paranmt run --cs corpus.cs --en
corpus.en --out runs/x [Beam options]``, also ``python -m pipeline.run``); :func:`run_job` is its Python API
(``from pipeline.job import run_job``).

Stages (Beam PTransforms over the Beam-free functions of :mod:`pipeline.stages.ingest`,
:mod:`pipeline.stages.prefilter`, :mod:`pipeline.stages.write` and :mod:`pipeline.outputs.summary`):

- ingest -- plan (counting pre-pass, misalignment check), read bytes, decode; dead letters for what fails;
- pre-filter and dedup -- normalise and tokenise (sacremoses, cs and en), the pre-filter rules (``prefilter.rules``,
  a user's own included) and global dedup on the normalised pair (:mod:`pipeline.stages.prefilter`,
  :mod:`pipeline.stages.dedup`); rejections with stage and reason;
- back-translation -- the Czech side (:mod:`pipeline.stages.backtranslate`: chunks of fixed input ranges through
  :class:`pipeline.stages.worker_translator.TranslateChunks`, each cached the moment it is translated, so a killed run
  resumes without decoding again what it had finished; skipped when the input carries an MT column);
- pair records -- tokenise the MT output -> pair records in the :data:`paranmt.core.pair_schema.PAIRS_SCHEMA` layout
  (:mod:`pipeline.stages.pair_records`);
- **the selection** -- the scorer is fitted in the job or on the launcher, or loaded from ``score.scorer``
  (:mod:`pipeline.stages.scorer_fit`), then :class:`pipeline.stages.selection.Select` fills the scores
  (``select.scores`` add their own columns), ``fold``, ``keep`` and ``reason`` by the ``select`` section (default:
  the paper's rank rule; ``select.rules`` adds rules, a user's own included); ``train/`` holds the kept pairs.
  ``pipeline.score=false`` skips it (``pairs/`` then has null scores and decisions, and no ``train/``);
- write -- deterministic Parquet shards (staged, renamed into place on success);
- summary -- from Beam metrics and from the written files; ``read = pairs + rejected + deadletter`` is checked.

Rules and scores of your own: :mod:`filters.plugins` and docs/filters.md.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import os
import re
import sys
import time
from collections.abc import Sequence
from typing import Any

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems
from apache_beam.options.pipeline_options import DirectOptions, PipelineOptions, TestOptions
from apache_beam.portability import common_urns
from apache_beam.portability.api import beam_runner_api_pb2
from apache_beam.runners.runner import PipelineResult

from configs.schema import ParaNMTConfig
from paranmt.core.errors import ParanmtError
from paranmt.core.import_path import OWN_PACKAGES
from paranmt.core.run_layout import LEXICON_DIR, OUTPUTS, STAGING
from pipeline.graph import CheckedRun, build_pipeline, check_run
from pipeline.inputs.files import InputError, file_system_problem
from pipeline.inputs.plan import InputSpec
from pipeline.launcher import progress
from pipeline.launcher.job_log import JobLog, job_log
from pipeline.launcher.options import beam_checks_speak_last, local_worker_logging
from pipeline.launcher.preflight import LOCAL_RUNNERS, beam_argv, paths_for_workers, runner_class_name
from pipeline.metrics import (
    CACHE_HIT_COUNTER,
    TRANSLATED_COUNTER,
    held_sizes,
    metric_counts,
    stage_seconds,
    translation_seconds,
    translation_window,
)
from pipeline.outputs.run_folder import (
    cache_root,
    cached_chunk_path,
    claim_output,
    clear_staging,
    finalize,
    own_output,
)
from pipeline.outputs.summary import write_summary
from translate.cpu_kernel import cpu_info, run_kernel

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------------------------------- assembly


def run_job(
    config: ParaNMTConfig,
    specs: Sequence[InputSpec],
    output: str | os.PathLike,
    beam_args: Sequence[str] = (),
    *,
    show_progress: bool = False,
    progress_every: float | None = None,
    overwrite: bool = False,
    shared_mounts: Sequence[str | os.PathLike] = (),
) -> dict[str, Any]:
    """Check the run, then -- the one place that writes to the run folder -- claim it (locked, definition written,
    a launcher-fitted scorer saved), build and run the pipeline, move the outputs into place, write
    ``summary.json`` and (when its checks hold) ``_SUCCESS``.

    ``show_progress``: progress on stderr (:mod:`pipeline.launcher.progress`): a live line while a local runner
    works, or, for a runner that returns at once (Dataflow, portable), a line from the job's metrics every
    ``progress_every`` seconds (None: :data:`pipeline.launcher.progress.REMOTE_PROGRESS_SECONDS`).
    Every local path is made absolute for the workers, or refused where they cannot read this machine's disk
    (:func:`pipeline.launcher.preflight.paths_for_workers`; ``shared_mounts``: folders every worker mounts); the
    outputs' metadata and the run's definition keep the settings as given and name the input files by name, size
    and content digest (:func:`pipeline.inputs.plan.recorded_inputs`), so the same files typed another way write
    the same bytes.
    Returns the summary; raises :class:`AccountingError` if ``read = pairs + rejected + deadletter`` fails.
    """
    argv = beam_argv(config.pipeline, beam_args)
    given_config, given_specs = config, list(specs)
    output = str(output)  # the launcher's own file operations and messages keep the folder as given
    config, specs, worker_output = paths_for_workers(config, specs, output, argv, shared_mounts)
    options = PipelineOptions(argv)
    runner = runner_class_name(argv)
    p = _beam_pipeline(options, runner, output)
    started = time.perf_counter()
    with own_output(output):  # one run per folder; created (and locked) before the checks below
        # Input, model and output-folder errors are raised here, before anything is written.
        checked = check_run(p, config, specs, worker_output)
        # everything checkable was checked
        defined = claim_output(output, given_config, checked.specs, checked.plan, overwrite=overwrite)
        clear_staging(output)  # a killed run's staging folder and success marker
        checked = checked.with_finished_scorer()  # the same run's scorer, fitted and saved before, is reused
        if checked.scorer is not None:
            checked.scorer.save()  # a scorer the launcher fitted
        # The stages were built with the workers' paths; the outputs' metadata describes the run as given.
        build_pipeline(p, dataclasses.replace(checked, config=given_config, specs=given_specs), defined)
        watch = _Watch(show_progress, progress_every, _written_rows(config, worker_output, started))
        result, metrics = _run_and_wait(p, options, runner, output, checked, watch)
        if metrics is None:  # a Dataflow dry run: built, never submitted
            return dry_run_summary(result, runner)
        summary = _summary(output, result, metrics, runner, checked, config)
        summary["wall_seconds"] = round(time.perf_counter() - started, 3)  # console only: summary.json is stable
        if not summary["identity"]["holds"]:
            raise AccountingError("; ".join(summary["identity"]["problems"]), summary)
        return summary


def _beam_pipeline(options: PipelineOptions, runner: str, output: str) -> beam.Pipeline:
    """The Beam pipeline for ``options``, or one line naming what the runner's options lack."""
    if options.view_as(TestOptions).dry_run and runner != "DataflowRunner":  # other runners would run the job
        raise InputError(f"--dry_run True builds a DataflowRunner job without submitting it; {runner} "
                         "would run the whole job: drop --dry_run or add --runner DataflowRunner")
    problem = file_system_problem(output)
    if problem is not None:
        raise InputError(f"--out {output}: {problem}")
    try:
        with beam_checks_speak_last():
            return beam.Pipeline(options=options)
    except ValueError as error:  # an unknown runner, or options the runner requires (Dataflow's project, ...)
        raise InputError(f"Beam options for {runner}: {' '.join(str(error).split())} (docs/dataflow.md)") from None


@dataclasses.dataclass(frozen=True)
class _Watch:
    """How the launcher shows a running job: ``show`` progress on stderr, every ``every`` seconds for a remote
    runner (None: :data:`pipeline.launcher.progress.REMOTE_PROGRESS_SECONDS`), counting rows from what ``written``
    finds."""

    show: bool
    every: float | None
    written: progress.WrittenRows


def _run_and_wait(p: beam.Pipeline, options: PipelineOptions, runner: str, output: str, checked: CheckedRun,
                  watch: _Watch) -> tuple[PipelineResult, dict[str, int] | None]:
    """Run the job and wait for it, showing progress; a failure inside the job is one line citing the job's log.
    The result and its metric counts (None for a dry run, which is never submitted)."""
    local = runner in LOCAL_RUNNERS
    translating = (f"model {checked.nmt_model_id}, beam {checked.config.translate.beam_size}"
                   if checked.mode == "translate" else "")
    with job_log(output, worker_processes=local and _worker_processes(options)) as log, \
            progress.LocalProgress(checked.plan.expected_rows, enabled=watch.show and local,
                                   translating=translating) as shown, \
            local_worker_logging(options, local=local):
        try:
            result = p.run()
            if options.view_as(TestOptions).dry_run:
                return result, None
            if local:  # run() returned when the job ended
                result.wait_until_finish()
            else:
                every = progress.REMOTE_PROGRESS_SECONDS if watch.every is None else watch.every
                progress.wait_showing_progress(result, checked.plan.expected_rows, every=every,
                                               stream=sys.stderr if watch.show else None, written=watch.written)
        except ParanmtError as error:  # raised in this process (the in-process runner)
            raise _citing(error, log) from None
        except RuntimeError as error:
            user_error = raised_in_a_worker(error)
            if user_error is None:
                raise
            raise _citing(user_error, log) from None
        metrics = metric_counts(result)
        shown.finish(metrics)
    return result, metrics


def _summary(output: str, result: PipelineResult, metrics: dict[str, int], runner: str, checked: CheckedRun,
             config: ParaNMTConfig) -> dict[str, Any]:
    """Move the outputs into place and write ``summary.json``; the returned summary adds the console's timings."""
    shards = finalize(output, (*OUTPUTS, LEXICON_DIR))
    summary = write_summary(output, metrics, shards, runner=runner, plan=checked.plan, mode=checked.mode,
                            nmt_model_id=checked.nmt_model_id, scored=checked.scored, excluded=checked.excluded,
                            lexicon=config.lexicon.enabled, translation_kernel=_kernel(checked, config))
    summary["stage_seconds"] = stage_seconds(result)
    summary["step_seconds"] = stage_seconds(result, depth=2)
    summary["translation_seconds"] = translation_seconds(result)
    summary["translation_window"] = translation_window(result)  # epoch seconds: a GPU's samples over the span
    # rows the model translated in this run (not taken from the translation cache), over that span
    summary["translated_rows"] = metrics.get(TRANSLATED_COUNTER, 0) - metrics.get(CACHE_HIT_COUNTER, 0)
    summary["held"] = held_sizes(result)
    return summary

def _kernel(checked: CheckedRun, config: ParaNMTConfig) -> dict[str, str] | None:
    """summary.json's ``translation_kernel``: the run's kernel and the launcher's CPU (None: nothing translated)."""
    if checked.back_translate is None:
        return None
    cpu = cpu_info()
    return {**run_kernel(config.translate), "launcher_cpu": cpu.model, "launcher_cpu_vendor": cpu.vendor}


def _worker_processes(options: PipelineOptions) -> bool:
    """The local runner starts worker processes of its own (they inherit the launcher's stderr)."""
    return options.view_as(DirectOptions).direct_running_mode == "multi_processing"


def _written_rows(config: ParaNMTConfig, output: str, started: float) -> progress.WrittenRows:
    """What a job's workers write as it runs: the translation cache's chunks and the staged pairs shards."""
    return progress.WrittenRows({progress.TRANSLATED: cached_chunk_path(cache_root(config.pipeline, output), "*", "*"),
                                 progress.WRITTEN: FileSystems.join(output, STAGING, "pairs", "*.parquet")},
                                since=time.time() - (time.perf_counter() - started))


def _citing(error: ParanmtError, log: JobLog) -> ParanmtError:
    """``error`` with the job's log named, where Beam or a worker wrote to it (the full text of the failure)."""
    if not log.written:
        return error
    try:
        return type(error)(log.cite(str(error)))
    except TypeError:  # an error that takes more than its message
        return error


def dry_run_summary(result: PipelineResult, runner: str) -> dict[str, Any]:
    """What ``--dry_run True`` proved: the runner took the graph (every DoFn pickled into its pipeline proto)."""
    job = getattr(result, "job", None)
    proto = getattr(job, "proto_pipeline", None)
    environments = proto.components.environments.values() if proto is not None else ()
    images = sorted({beam_runner_api_pb2.DockerPayload.FromString(env.payload).container_image
                     for env in environments if env.urn == common_urns.environments.DOCKER.urn})
    return {"dry_run": True, "runner": runner,
            "transforms": len(proto.components.transforms) if proto is not None else None,
            "environments": images}


class AccountingError(ParanmtError, RuntimeError):
    """``read = pairs + rejected + deadletter`` does not hold (or a metric disagrees with the files)."""

    exit_status = 1  # the run went wrong, not its input

    def __init__(self, message: str, summary: dict[str, Any]):
        super().__init__(message)
        self.summary = summary


def raised_in_a_worker(error: RuntimeError) -> ParanmtError | None:
    """The :class:`ParanmtError` a worker process raised, rebuilt from the error a multi-process or portable runner
    re-raises with the worker's traceback as text (its last line ``package.module.Class: message``); None where
    that line names no error of paranmt's own packages (a real failure keeps its traceback)."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    found = re.fullmatch(r"([\w.]+)\.(\w+): (.*)", lines[-1].strip()) if len(lines) > 1 else None
    if found is None or found.group(1).partition(".")[0] not in OWN_PACKAGES:
        return None
    try:  # the runner's own error stays the one raised, whatever this text names
        cls = getattr(importlib.import_module(found.group(1)), found.group(2), None)
    except ImportError:
        return None
    if not (isinstance(cls, type) and issubclass(cls, ParanmtError)):
        return None
    try:
        return cls(found.group(3))
    except TypeError:  # an error that takes more than its message (AccountingError): keep the traceback
        return None
