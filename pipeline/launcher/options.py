"""How Beam options are assembled from the ``pipeline`` section of the configuration
(:class:`configs.schema.PipelineConfig`) and the command line.

Precedence, lowest first:

1. built-in defaults (:mod:`configs.schema`);
2. the YAML file (``--config NAME_OR_PATH``);
3. ``--set section.key=value`` overrides;
4. dedicated flags (``--num-shards``, ``--beam``, ``--limit``, ...);
5. Beam options on the command line (``--runner``, ``--direct_num_workers``, ...), which also override
   ``pipeline.runner`` and ``pipeline.beam_options``.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from apache_beam.options.pipeline_options import DirectOptions, PipelineOptions, StandardOptions, WorkerOptions

# The SDK harness (apache_beam.runners.worker.sdk_worker_main) reads its pipeline options from the JSON file this
# variable names, before the ones its runner hands it: the channel Beam's worker containers use.
WORKER_OPTIONS_FILE = "PIPELINE_OPTIONS_FILE"

__all__ = [
    "WORKER_OPTIONS_FILE",
    "beam_checks_speak_last",
    "local_worker_logging",
    "runner_of",
]


def runner_of(options: PipelineOptions) -> str:
    return str(options.view_as(StandardOptions).runner)


@contextmanager
def local_worker_logging(options: PipelineOptions, *, local: bool) -> Iterator[None]:
    """The worker processes of a local multi-process run (``--direct_running_mode multi_processing``) log as the
    launcher does, while the block runs.

    Beam's local runner starts those workers with no pipeline options at all: each printed every INFO line of the
    SDK harness and never saw ``--default_sdk_harness_log_level``. The workers inherit the launcher's
    environment, so the block points :data:`WORKER_OPTIONS_FILE` at a file holding the harness log options the
    command line gave, or else WARNING, and ERROR for the harness's own module (``__main__``), whose one warning
    (no semi-persistent directory) is about worker containers. Other runs, and a variable already set, are left
    as they are."""
    if not local or options.view_as(DirectOptions).direct_running_mode != "multi_processing" \
            or WORKER_OPTIONS_FILE in os.environ:
        yield
        return
    harness = options.view_as(WorkerOptions)
    given = {"default_sdk_harness_log_level": harness.default_sdk_harness_log_level,
             "sdk_harness_log_level_overrides": harness.sdk_harness_log_level_overrides}
    logging_options = {name: value for name, value in given.items() if value} or {
        "default_sdk_harness_log_level": "WARNING", "sdk_harness_log_level_overrides": {"__main__": "ERROR"}}
    with tempfile.TemporaryDirectory(prefix="paranmt-worker-options-") as folder:
        path = Path(folder) / "options.json"
        path.write_text(json.dumps({"options": logging_options}), encoding="utf-8")
        os.environ[WORKER_OPTIONS_FILE] = str(path)
        try:
            yield
        finally:
            os.environ.pop(WORKER_OPTIONS_FILE, None)


class _Held(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def beam_checks_speak_last() -> Iterator[None]:
    """Beam's own option checks log before they fail (Dataflow's "Unable to create default GCS bucket." when no
    project is given), so their warning came before the one ``error:`` line that says what is missing. The block's
    Beam log records are held: dropped when it fails (the error says it all), logged as usual when it succeeds."""
    beam_log = logging.getLogger("apache_beam")
    held, propagates = _Held(), beam_log.propagate
    beam_log.addHandler(held)
    beam_log.propagate = False
    try:
        yield
    finally:
        beam_log.removeHandler(held)
        beam_log.propagate = propagates
    for record in held.records:  # reached only when the block succeeded
        logging.getLogger(record.name).handle(record)
