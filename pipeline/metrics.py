"""Every metric the pipeline counts, in one place: names, the helpers that count, and the readers.

Stages count with these names in :data:`METRICS_NAMESPACE`: a dropped row is ``rejected_<reason>`` or
``deadletter_<reason>``, the decode step counts ``read``, the writers ``written_<output>``; the score stage counts
in :data:`SCORES_NAMESPACE`. The live progress line (:mod:`pipeline.launcher.progress`) and the summary
(:mod:`pipeline.outputs.summary`) read these counters; no stage reports to either directly.
"""

from __future__ import annotations

import atexit
import json
import os
import socket
import threading
import time
from collections import Counter
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from apache_beam.metrics import Metrics
from apache_beam.metrics.execution import MetricResult
from apache_beam.metrics.metric import MetricsFilter
from apache_beam.runners.runner import PipelineResult

from paranmt.core.pair_schema import Reason, Stage

METRICS_NAMESPACE = "paranmt_pipeline"
READ_COUNTER = "read"
#: The stages whose drops leave pairs/, in order: ingest's as dead letters, the others' in ``rejected/`` (its
#: ``stage`` column). Select is the one stage not among them: its rejections stay in pairs/ (``reason``), out of
#: train/ only.
DROPPING_STAGES = tuple(stage.value for stage in Stage if stage is not Stage.SELECT)


class Step(StrEnum):
    """The run's top-level Beam steps (:func:`pipeline.graph.build_pipeline`) by label: the names "time by stage"
    (:func:`stage_seconds`) and Dataflow show, read here by the benchmarks and tests. A step's rejections are counted
    under its :class:`~core.pair_schema.Stage`; PairRecords still counts under the back-translation's stage,
    ``translate`` (it tokenises the translation, given or made, and an empty one is ``translation_empty``)."""

    INGEST = "Ingest"
    PREFILTER = "Prefilter"
    FIT_SCORER = "FitScorer"
    DEDUP = "Dedup"
    BACK_TRANSLATE = "BackTranslate"
    PAIR_RECORDS = "PairRecords"
    SELECT = "Select"
    LEXICON = "Lexicon"
    WRITE_PAIRS = "WritePairs"
    WRITE_TRAIN = "WriteTrain"
    WRITE_REJECTED = "WriteRejected"
    WRITE_DEADLETTER = "WriteDeadletter"


SCORES_NAMESPACE = "paranmt_scores"
TRANSLATE_NAMESPACE = "paranmt_translate"  # the back-translation's counts by status, chunk sizes and clock
TRANSLATED_COUNTER = "translated"  # rows with a translation, from the cache or the model
CACHE_HIT_COUNTER = "translation_cache_hit_rows"  # rows whose translation came from the translation cache
CACHE_MISS_COUNTER = "translation_cache_miss_rows"  # rows the model translated (and the cache then kept)
STARTED_CHUNKS_COUNTER = "translation_chunks_started"  # chunks handed to the model: translation has begun
TRANSLATE_CLOCK = "translate_clock_ms"  # wall clock at the start and end of every translate call
#: Counters of the live progress line only (:func:`count_progress`, not Beam metrics): rows the model has decoded,
#: counted batch by batch inside a chunk (the chunk's rows reach TRANSLATED_COUNTER when it is done); rows that
#: entered and left the score stage; scorer fits begun and done. They say which stage is at work.
DECODED_PROGRESS = "progress_decoded"
SCORING_PROGRESS, SCORED_PROGRESS = "progress_scoring", "progress_scored"
FITTING_PROGRESS, FITTED_PROGRESS = "progress_fitting", "progress_fitted"
#: The folder a local launcher watches (:mod:`pipeline.launcher.progress`): workers write their counters there as
#: they count.
WATCH_ENV = "PARANMT_PROGRESS_DIR"


class StageCounter:
    """A counter of :data:`METRICS_NAMESPACE` that a local launcher can watch while the job runs: Beam metrics
    reach the launcher only when bundles finish (a local runner: at the end), so each worker process also keeps a
    copy, written to :data:`WATCH_ENV`'s folder every half second while that is set."""

    def __init__(self, name: str) -> None:
        self.name = name

    def inc(self, n: int = 1) -> None:
        Metrics.counter(METRICS_NAMESPACE, self.name).inc(n)
        _watched(self.name, n)


def count_progress(name: str, n: int = 1) -> None:
    """Add ``n`` to a counter only the live progress line reads (:data:`DECODED_PROGRESS`, ...): finer than the
    stage counters and of no use to the summary."""
    _watched(name, n)


def rejected_counter(reason: Reason | str) -> str:
    """A built-in :class:`Reason` or a plug-in rule's own reason code."""
    return f"rejected_{reason}"


def deadletter_counter(reason: Reason | str) -> str:
    return f"deadletter_{Reason(reason).value}"


def written_counter(output: str) -> str:
    return f"written_{output}"


def metric_counts(result: PipelineResult) -> dict[str, int]:
    """Counters of :data:`METRICS_NAMESPACE` from a finished ``PipelineResult`` (committed values where the runner
    has them, else attempted), summed over steps."""

    counts: Counter[str] = Counter()
    for counter in result.metrics().query(MetricsFilter().with_namespace(METRICS_NAMESPACE))["counters"]:
        counts[counter.key.metric.name] += int(_metric_value(counter) or 0)
    return dict(sorted(counts.items()))


def _metric_value(metric: MetricResult) -> Any:  # Any: a counter's int, a distribution's DistributionResult, ...
    """A metric's committed value where the runner has one, else its attempted value."""
    try:
        value = metric.committed
    except Exception:  # runners without committed metrics raise
        value = None
    return metric.attempted if value is None else value


_EXECUTION_TIME = "metric:ptransform_execution_time:total_msecs:v1"


def record_size(name: str, rows: int, nbytes: int) -> None:
    """Note, from inside a transform, the rows and Arrow bytes one worker holds at once in a global step (a dedup
    bucket, a shard, the fit sample): Beam distributions ``<name>_rows`` and ``<name>_bytes``, whose maximum is
    that step's memory (:func:`held_sizes`)."""
    Metrics.distribution(METRICS_NAMESPACE, f"{name}_rows").update(int(rows))
    Metrics.distribution(METRICS_NAMESPACE, f"{name}_bytes").update(int(nbytes))


def held_sizes(result: PipelineResult) -> dict[str, dict[str, int]]:
    """``{name: {"max": ..., "sum": ..., "count": ...}}`` of the distributions :func:`record_size` wrote."""
    sizes: dict[str, dict[str, int]] = {}
    try:
        distributions = result.metrics().query(MetricsFilter().with_namespace(METRICS_NAMESPACE))["distributions"]
    except Exception:
        return sizes
    for distribution in distributions:
        value = _metric_value(distribution)
        if value is None or not value.count:
            continue
        entry = sizes.setdefault(distribution.key.metric.name, {"max": 0, "sum": 0, "count": 0})
        entry["max"] = max(entry["max"], int(value.max))
        entry["sum"] += int(value.sum)
        entry["count"] += int(value.count)
    return dict(sorted(sizes.items()))


def translation_window(result: PipelineResult) -> tuple[float, float] | None:
    """Wall-clock seconds since the epoch of the first translate call's start and the last one's end, over all
    workers (the :data:`TRANSLATE_CLOCK` distribution); None where nothing was translated or the runner has no
    distributions."""
    try:
        distributions = result.metrics().query(MetricsFilter().with_namespace(TRANSLATE_NAMESPACE)
                                               .with_name(TRANSLATE_CLOCK))["distributions"]
    except Exception:
        return None
    values = [v for v in (_metric_value(d) for d in distributions) if v is not None and v.count]
    if not values:
        return None
    return min(v.min for v in values) / 1000, max(v.max for v in values) / 1000


def translation_seconds(result: PipelineResult) -> float | None:
    """Wall seconds from the first translate call's start to the last one's end (:func:`translation_window`)."""
    window = translation_window(result)
    return None if window is None else round(window[1] - window[0], 3)


def stage_seconds(result: PipelineResult, depth: int = 1) -> dict[str, float]:
    """Seconds each top-level step (a :class:`Step`: ``Ingest``, ``Prefilter``, ``Dedup``, ``WritePairs``, ...)
    spent executing, summed over workers: Beam's own sampled execution time per transform (what Dataflow shows
    per step), grouped by the first ``depth`` parts of the transform's name. Empty where the runner does not
    report it."""
    seconds: Counter[str] = Counter()
    try:
        counters = result.monitoring_metrics().query()["counters"]
    except Exception:  # runners without monitoring metrics
        return {}
    for counter in counters:
        if counter.key.metric.namespace == "beam" and counter.key.metric.name == _EXECUTION_TIME:
            value = _metric_value(counter)
            seconds["/".join(counter.key.step.split("/")[:depth])] += (value or 0) / 1000
    return {stage: round(value, 3) for stage, value in seconds.items() if value > 0}


_counts: Counter[str] = Counter()
_lock = threading.Lock()
_directory: str | None = None  # where this process publishes; a new run (new folder) starts from zero


def _watched(name: str, n: int) -> None:
    """Add ``n`` to this worker process's copy of a counter (a no-op unless a local launcher watches)."""
    global _directory
    directory = os.environ.get(WATCH_ENV)
    if not directory:
        return
    with _lock:
        if directory != _directory:
            _counts.clear()
            _directory = directory
            path = Path(directory) / f"{socket.gethostname()}-{os.getpid()}.json"
            threading.Thread(target=_publish, args=(directory, path), name="paranmt-progress", daemon=True).start()
            atexit.register(_write_once, path)
        _counts[name] += n


def _write_once(path: Path) -> None:
    with _lock:
        payload = json.dumps(dict(_counts))
    try:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(payload, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # the launcher removed the folder at the end of the run: nothing left to report
        pass


def _publish(directory: str, path: Path) -> None:
    while _directory == directory and Path(directory).is_dir():
        _write_once(path)
        time.sleep(0.5)


def stop_watching() -> None:
    """This process stops writing its counters (the launcher is removing the folder)."""
    global _directory
    _directory = None


def cache_counts(metrics: Mapping[str, int]) -> tuple[int, int] | None:
    """``(rows reused from the translation cache, rows translated)`` of a run's metrics; None when it translated
    nothing (its translations were given)."""
    if CACHE_HIT_COUNTER not in metrics and CACHE_MISS_COUNTER not in metrics:
        return None
    return metrics.get(CACHE_HIT_COUNTER, 0), metrics.get(CACHE_MISS_COUNTER, 0)
