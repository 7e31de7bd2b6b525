"""pipeline.metrics: the counter names, the readers of a finished job's metrics (summed over steps, committed values
where the runner has them, sizes, the translation's clock, seconds by stage) on a result that answers queries as
Beam's runners do, and the worker-side copies a local launcher watches."""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

import pytest
from apache_beam.metrics.cells import DistributionData, DistributionResult
from apache_beam.metrics.execution import MetricKey, MetricResult
from apache_beam.metrics.metric import MetricResults
from apache_beam.metrics.metricbase import MetricName

from paranmt.core.pair_schema import Reason
from pipeline.metrics import (
    DROPPING_STAGES,
    METRICS_NAMESPACE,
    READ_COUNTER,
    SCORES_NAMESPACE,
    TRANSLATE_CLOCK,
    TRANSLATE_NAMESPACE,
    WATCH_ENV,
    StageCounter,
    cache_counts,
    count_progress,
    deadletter_counter,
    held_sizes,
    metric_counts,
    rejected_counter,
    stage_seconds,
    stop_watching,
    translation_seconds,
    translation_window,
    written_counter,
)

EXECUTION_TIME = "metric:ptransform_execution_time:total_msecs:v1"  # Beam's name for a step's sampled time


class _NoCommitted(MetricResult):
    """A runner without committed metrics: reading them raises (the direct runner's way)."""

    @property
    def committed(self):
        raise NotImplementedError("committed metrics are not supported")

    @committed.setter
    def committed(self, value) -> None:
        pass


def _result(step: str, namespace: str, name: str, value, committed=True) -> MetricResult:
    key = MetricKey(step, MetricName(namespace, name))
    return MetricResult(key, value, value) if committed else _NoCommitted(key, None, value)


class _Results:
    """A query answered as Beam's MetricResults answer it: only the metrics the filter matches."""

    def __init__(self, counters=(), distributions=()) -> None:
        self.counters, self.distributions = list(counters), list(distributions)

    def query(self, filter=None) -> dict[str, list[MetricResult]]:
        return {"counters": [m for m in self.counters if MetricResults.matches(filter, m.key)],
                "distributions": [m for m in self.distributions if MetricResults.matches(filter, m.key)],
                "gauges": []}


class _Job:
    def __init__(self, metrics: _Results | None = None, monitoring: _Results | None = None) -> None:
        self._metrics, self._monitoring = metrics, monitoring

    def metrics(self) -> _Results:
        if self._metrics is None:
            raise NotImplementedError("no metrics")
        return self._metrics

    def monitoring_metrics(self) -> _Results:
        if self._monitoring is None:
            raise NotImplementedError("no monitoring metrics")
        return self._monitoring


def _distribution(values: list[int]) -> DistributionResult:
    return DistributionResult(DistributionData(sum(values), len(values), min(values), max(values)))


def test_counter_names():
    assert rejected_counter(Reason.DUPLICATE) == "rejected_duplicate"
    assert rejected_counter("too_many_digits") == "rejected_too_many_digits"  # a plug-in rule's own reason
    assert deadletter_counter("misaligned") == deadletter_counter(Reason.MISALIGNED) == "deadletter_misaligned"
    with pytest.raises(ValueError):
        deadletter_counter("too_many_digits")  # dead letters are ingest's, with built-in reasons only
    assert written_counter("pairs") == "written_pairs"
    assert DROPPING_STAGES == ("ingest", "prefilter", "dedup", "translate")


def test_metric_counts_sum_each_counter_over_steps_in_the_pipelines_namespace():
    job = _Job(_Results(counters=[
        _result("Ingest/Decode", METRICS_NAMESPACE, READ_COUNTER, 70),
        _result("Ingest/Decode2", METRICS_NAMESPACE, READ_COUNTER, 30, committed=False),  # attempted counts
        _result("Dedup/Pick", METRICS_NAMESPACE, "rejected_duplicate", 4),
        MetricResult(MetricKey("Ingest/Decode3", MetricName(METRICS_NAMESPACE, READ_COUNTER)), None, 5),  # none yet
        _result("Select/Score", SCORES_NAMESPACE, "scored", 999),  # another namespace: not a stage count
    ]))
    assert metric_counts(job) == {"read": 105, "rejected_duplicate": 4}
    assert list(metric_counts(job)) == ["read", "rejected_duplicate"]  # sorted by name


def test_held_sizes_are_the_max_sum_and_count_over_workers():
    job = _Job(_Results(distributions=[
        _result("Dedup/Pick", METRICS_NAMESPACE, "dedup_bucket_rows", _distribution([10, 40])),
        _result("Dedup/Pick2", METRICS_NAMESPACE, "dedup_bucket_rows", _distribution([25]), committed=False),
        _result("WritePairs", METRICS_NAMESPACE, "shard_pairs_bytes", DistributionResult(DistributionData(0, 0, 0, 0))),
        _result("BackTranslate", TRANSLATE_NAMESPACE, TRANSLATE_CLOCK, _distribution([5])),
    ]))
    assert held_sizes(job) == {"dedup_bucket_rows": {"max": 40, "sum": 75, "count": 3}}
    assert held_sizes(_Job()) == {}


def test_the_translation_window_spans_every_workers_calls():
    clock = [_result("BackTranslate/A", TRANSLATE_NAMESPACE, TRANSLATE_CLOCK, _distribution([1_700_000_000_500,
                                                                                              1_700_000_060_000])),
             _result("BackTranslate/B", TRANSLATE_NAMESPACE, TRANSLATE_CLOCK, _distribution([1_700_000_001_000,
                                                                                              1_700_000_090_250]))]
    job = _Job(_Results(distributions=clock))
    assert translation_window(job) == (1_700_000_000.5, 1_700_000_090.25)
    assert translation_seconds(job) == 89.75
    nothing = _Job(_Results(distributions=[_result("X", TRANSLATE_NAMESPACE, TRANSLATE_CLOCK,
                                                   DistributionResult(DistributionData(0, 0, 0, 0)))]))
    assert translation_window(nothing) is None and translation_seconds(nothing) is None
    assert translation_window(_Job()) is None


def test_stage_seconds_group_beams_execution_time_by_step():
    monitoring = _Results(counters=[
        _result("Dedup/KeyByBucket", "beam", EXECUTION_TIME, 1500),
        _result("Dedup/Pick/ParDo", "beam", EXECUTION_TIME, 250, committed=False),
        _result("Ingest/Read", "beam", EXECUTION_TIME, 4000),
        _result("Select", "beam", EXECUTION_TIME, 0),  # never sampled: not shown
        _result("Ingest/Read", "beam", "metric:pcollection_distribution_byte_size", 10**9),
    ])
    assert stage_seconds(_Job(monitoring=monitoring)) == {"Dedup": 1.75, "Ingest": 4.0}
    assert stage_seconds(_Job(monitoring=monitoring), depth=2) == {"Dedup/KeyByBucket": 1.5, "Dedup/Pick": 0.25,
                                                                   "Ingest/Read": 4.0}
    assert stage_seconds(_Job()) == {}


def test_cache_counts_only_where_the_run_translated():
    assert cache_counts({"read": 10, "translation_cache_hit_rows": 6}) == (6, 0)
    assert cache_counts({"translation_cache_miss_rows": 4}) == (0, 4)
    assert cache_counts({"read": 10}) is None


def _published(directory: Path, name: str, expected: int) -> dict[str, int]:
    """This process's published counters once ``name`` reads ``expected`` (the publisher is a thread)."""
    path = directory / f"{socket.gethostname()}-{os.getpid()}.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if path.is_file():
            counts = json.loads(path.read_text(encoding="utf-8"))
            if counts.get(name) == expected:
                return counts
        time.sleep(0.02)
    raise AssertionError(f"{path} never showed {name} = {expected}")


def test_a_watched_worker_publishes_its_counts_and_a_new_folder_starts_from_zero(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    try:
        monkeypatch.setenv(WATCH_ENV, str(first))
        StageCounter(READ_COUNTER).inc(5)
        StageCounter(READ_COUNTER).inc(2)
        count_progress("progress_decoded", 3)
        assert _published(first, READ_COUNTER, 7) == {"read": 7, "progress_decoded": 3}
        monkeypatch.setenv(WATCH_ENV, str(second))
        count_progress("progress_decoded", 1)
        assert _published(second, "progress_decoded", 1) == {"progress_decoded": 1}
    finally:
        stop_watching()


def test_count_is_a_no_op_without_a_launcher(tmp_path, monkeypatch):
    monkeypatch.delenv(WATCH_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    StageCounter(READ_COUNTER).inc()  # nothing to publish to, and no error
    count_progress("progress_decoded")
    assert list(tmp_path.iterdir()) == []
