"""The local progress display: worker counters published to files, summed and shown with a rate and an ETA."""

from __future__ import annotations

import io
import os
import random
import threading
import time
from collections import Counter

import pytest
from apache_beam.metrics.execution import MetricKey, MetricResult
from apache_beam.metrics.metricbase import MetricName

from pipeline.launcher import progress
from pipeline.metrics import (
    CACHE_HIT_COUNTER,
    DECODED_PROGRESS,
    FITTED_PROGRESS,
    FITTING_PROGRESS,
    METRICS_NAMESPACE,
    SCORED_PROGRESS,
    SCORING_PROGRESS,
    StageCounter,
    metric_counts,
)


def test_progress_line_reads_counts_rate_and_eta():
    line = progress.progress_line(Counter(read=6000, translated=2000, written_pairs=0), 65.0, 10_000, rate=40.0)
    assert line == "read 6,000/10,000 · translated 2,000 (40.0/s, ETA ≈ 3 min 20 s) · pairs written 0 · 1 min 05 s"
    assert progress.progress_line(Counter(read=5), 2.0, None) == "read 5 · pairs written 0 · 2 s"


def _wait_for(condition, seconds: float = 120.0) -> None:
    """Poll until ``condition()``: the publisher and the display are threads a loaded machine may delay."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)


def test_counts_are_published_and_shown_while_the_block_runs():
    stream = io.StringIO()
    with progress.LocalProgress(1000, stream=stream, interval=0.05, log_every=0.2) as display:
        assert os.environ[progress.ENV]
        for _ in range(10):
            StageCounter(progress.READ).inc(50)
            StageCounter(progress.TRANSLATED).inc(40)
            time.sleep(0.05)
        _wait_for(lambda: progress.read_counts(os.environ[progress.ENV])[progress.READ] == 500)
        published = progress.read_counts(os.environ[progress.ENV])
        _wait_for(lambda: "read 500/1,000" in stream.getvalue())
    assert progress.ENV not in os.environ
    assert published[progress.READ] == 500 and published[progress.TRANSLATED] == 400
    lines = stream.getvalue().splitlines()
    assert lines and all(line.startswith("read ") for line in lines) and "read 500/1,000" in lines[-1]
    assert "translated 400" in display.last_line


def test_a_new_run_in_the_same_process_starts_from_zero():
    for _ in range(2):
        with progress.LocalProgress(None, enabled=False):
            StageCounter(progress.READ).inc(7)
            _wait_for(lambda: progress.read_counts(os.environ[progress.ENV])[progress.READ] >= 7)
            assert progress.read_counts(os.environ[progress.ENV])[progress.READ] == 7


def _steady_run(seed: int = 0, polls: int = 1200, chunk: int = 500, every: float = 30.0, workers: int = 1):
    """A synthetic clock: ``workers`` each finish a ``chunk``-line chunk every ``every`` seconds (+-10% jitter,
    seeded), the first ones after 20 s of model loading; the display polls every 0.5 s. Yields (now, translated)."""
    rng = random.Random(seed)
    finished: list[float] = []
    for worker in range(workers):
        t = 20.0 + worker * every / workers
        while t < polls * 0.5:
            t += every * rng.uniform(0.9, 1.1)
            finished.append(t)
    finished.sort()
    for poll in range(polls):
        now = poll * 0.5
        yield now, chunk * sum(1 for t in finished if t <= now)


def test_the_rate_is_steady_on_a_steady_run():
    """500-line chunks every ~30 s (16.7 lines/s), where a 30-s window would show 16.8/s, then 33.8/s: the rate
    from the first step stays within 10% of the truth once a few chunks are in, for one or two workers."""
    for workers in (1, 2):
        rate = progress.TranslationRate()
        seen = [(now, rate.update(now, n), n) for now, n in _steady_run(workers=workers)]
        assert all(r is None for _, r, n in seen if n <= 500)  # one step: nothing to measure yet
        late = [r for now, r, n in seen if n >= 5 * 500]
        assert late and all(abs(r - 500 / 30 * workers) < 0.1 * 500 / 30 * workers for r in late), (workers, late)


def test_a_stall_lowers_the_rate_instead_of_freezing_it():
    rate = progress.TranslationRate()
    steps = [(20.0 + 30 * k, 500 * (k + 1)) for k in range(6)]  # a chunk every 30 s until 170 s
    assert [rate.update(now, n) for now, n in steps][1:] == [500 / 30] * 5
    assert rate.update(170.0 + 25, 3000) == 500 / 30  # the next chunk is not overdue yet
    assert rate.update(170.0 + 600, 3000) < 500 / 30 / 3  # ten minutes without a chunk


def test_the_line_shows_a_steady_eta_on_an_injected_clock():
    """LocalProgress.update on a synthetic clock (no thread, no sleep): the ETA falls by about the time that passed."""
    display = progress.LocalProgress(63_517, enabled=False)
    lines = {}
    for now, n in _steady_run(polls=1200):
        if now in (300.0, 330.0, 360.0):
            lines[now] = display.update(Counter(read=63_517, translated=n), now, now)
        else:
            display.update(Counter(read=63_517, translated=n), now, now)
    etas = [int(line.split("ETA ≈ ")[1].split(" min")[0]) for line in lines.values()]
    assert all("/s, ETA ≈ " in line for line in lines.values()) and etas[0] >= etas[1] >= etas[2] >= etas[0] - 3, lines


def test_the_last_line_carries_the_finished_jobs_counts():
    """The live line's last update can stay below the final count and read ``pairs written 0`` (the writers count
    only in a job's last seconds): the block ends with a line of the job's own final counts."""
    stream = io.StringIO()
    final = {progress.READ: 400, progress.TRANSLATED: 400, progress.WRITTEN: 400}
    with progress.LocalProgress(400, stream=stream, interval=0.05, log_every=1000.0) as display:
        display.finish(final)
    assert stream.getvalue().splitlines()[-1].startswith("read 400/400 · translated 400 · pairs written 400 · ")
    assert display.last_line.startswith("read 400/400")
    quiet = io.StringIO()
    with progress.LocalProgress(400, enabled=False, stream=quiet) as display:
        display.finish(final)
    assert quiet.getvalue() == ""
    failed = io.StringIO()
    try:
        with progress.LocalProgress(400, stream=failed, interval=0.05, log_every=1000.0) as display:
            display.finish(final)
            raise RuntimeError("the job failed")
    except RuntimeError:
        pass
    assert "pairs written 400" not in failed.getvalue()


class _RemoteJob:
    """A job on a remote runner, as the launcher sees its ``PipelineResult``, with the two traits of Beam 2.77's
    portable result that broke the old progress loop: every ``wait_until_finish`` call starts readers of the job's
    one message stream, which go on reading after a ``duration`` ends, so a second call fails as gRPC does
    (``Internal gRPC call error 8``); and ``metrics()`` keeps its first answer. Without a duration the call blocks
    until the job ends and raises if it failed (Dataflow's result does the same). The job lives for ``polls``
    metric queries, one per progress line, so the test needs no clock: each query reads 100 more rows."""

    def __init__(self, polls: int, rows: int, error: Exception | None = None) -> None:
        self.life = {"queries": 0, "waits": [], "readers": 0}  # shared with copies, like the job service
        self.ended, self.polls, self.rows, self.error = threading.Event(), polls, rows, error
        self._metrics = None

    @property
    def state(self) -> str:
        return ("FAILED" if self.error else "DONE") if self.ended.is_set() else "RUNNING"

    def wait_until_finish(self, duration: int | None = None) -> str:
        self.life["waits"].append(duration)
        if self.life["readers"]:
            raise ValueError("Internal gRPC call error 8. Please report to https://github.com/grpc/grpc/issues")
        self.life["readers"] += 1  # stays: the reader threads outlive a timed call
        if not self.ended.wait(None if duration is None else duration / 1000):
            return self.state
        if self.error is not None:
            raise self.error
        return self.state

    def metrics(self) -> object:
        if self._metrics is None:
            self.life["queries"] += 1
            if self.life["queries"] >= self.polls:
                self.ended.set()
            done = min(self.life["queries"], self.polls)  # an ended job's counts stay
            self._metrics = _Counters({progress.READ: min(100 * done, self.rows)})
        return self._metrics


class _Counters:
    def __init__(self, counts: dict[str, int]) -> None:
        self.counts = counts

    def query(self, _filter: object) -> dict[str, list[MetricResult]]:
        return {"counters": [MetricResult(MetricKey("Step", MetricName(METRICS_NAMESPACE, name)), value, value)
                             for name, value in self.counts.items()]}


def test_a_remote_job_is_waited_for_once_and_shows_its_counts_every_interval():
    """A portable job longer than one progress interval (a second timed wait would die with ``Internal gRPC call
    error 8`` and leave its shards in _staging/): the job is waited for by one call without a duration, its counts
    are shown every interval as they grow, and the result's own metrics stay those of the finished job (the
    launcher's summary reads them next)."""
    job, stream = _RemoteJob(polls=4, rows=400), io.StringIO()
    progress.wait_showing_progress(job, 400, every=0.001, stream=stream)
    lines = stream.getvalue().splitlines()
    assert job.life["waits"] == [None]
    assert len(lines) >= 4 and lines[0].startswith("RUNNING: read 100/400 · pairs written 0 · ")
    assert lines[-1].startswith("DONE: read 400/400 · ")
    assert metric_counts(job)[progress.READ] == 400

    quiet = _RemoteJob(polls=4, rows=400)
    quiet.ended.set()
    progress.wait_showing_progress(quiet, 400, every=0.001)  # --quiet: the same wait, no lines
    assert quiet.life["waits"] == [None] and quiet.life["queries"] == 0


def test_a_failed_remote_job_raises_its_own_error_after_its_last_line():
    error = RuntimeError("Pipeline job-1 failed in state FAILED: a worker ran out of memory")
    job, stream = _RemoteJob(polls=2, rows=400, error=error), io.StringIO()
    with pytest.raises(RuntimeError) as raised:
        progress.wait_showing_progress(job, 400, every=0.001, stream=stream)
    assert raised.value is error and job.life["waits"] == [None]
    assert stream.getvalue().splitlines()[-1].startswith("FAILED: read 200/400 · ")


def test_a_chunk_shows_its_batches_and_a_rate_before_it_is_done():
    """A one-chunk run: the model's decoded batches move the line and give a rate within the chunk, not
    "translating: 0 of 500 rows" until the chunk is done (a synthetic clock)."""
    display = progress.LocalProgress(500, enabled=False, translating="model m, beam 12")
    started = Counter({progress.READ: 500, progress.STARTED_CHUNKS: 1})
    assert "translating: 0 of 500 rows (model m, beam 12)" in display.update(started, 30.0, 30.0)
    lines = [display.update(started + Counter({DECODED_PROGRESS: 100 * k}), 30.0 + 10 * k, 30.0 + 10 * k)
             for k in (1, 2, 3)]
    assert lines[0].startswith("read 500/500 · translated 100 · pairs written 0")
    assert lines[2].startswith("read 500/500 · translated 300 (10.0/s, ETA ≈ 20 s) · pairs written 0")
    assert display.update(started + Counter({DECODED_PROGRESS: 500}), 80.0, 80.0).startswith(
        "read 500/500 · translated 500 · pairs written 0")  # all translated: no rate left to decay
    reused = progress.progress_line(Counter({progress.READ: 500, CACHE_HIT_COUNTER: 200, DECODED_PROGRESS: 50,
                                             progress.TRANSLATED: 200}), 5.0, 500)
    assert reused.startswith("read 500/500 · reused 200 · translated 50 · ")  # the summary's words and counts
    from_the_cache = progress.progress_line(Counter({progress.READ: 400, CACHE_HIT_COUNTER: 400,
                                                     progress.TRANSLATED: 400, progress.WRITTEN: 400}), 9.0, 400)
    assert from_the_cache == "read 400/400 · reused 400 · pairs written 400 · 9 s"  # the summary: 400 reused, 0 …


def test_the_line_names_the_stage_at_work():
    """The line names the stage that runs (fitting the scorer, scoring), not only "pairs written 0"."""
    done = Counter({progress.READ: 500, progress.TRANSLATED: 500})
    fitting = progress.progress_line(done + Counter({FITTING_PROGRESS: 1}), 61.0, 500)
    assert fitting == "read 500/500 · translated 500 · fitting the scorer · pairs written 0 · 1 min 01 s"
    fitted = Counter({FITTING_PROGRESS: 1, FITTED_PROGRESS: 1})
    scoring = progress.progress_line(done + fitted + Counter({SCORING_PROGRESS: 480}), 80.0, 500)
    assert scoring == "read 500/500 · translated 500 · scoring: 0 scored · pairs written 0 · 1 min 20 s"
    scored = done + fitted + Counter({SCORING_PROGRESS: 480, SCORED_PROGRESS: 480, progress.WRITTEN: 480})
    assert progress.progress_line(scored, 81.0, 500) == ("read 500/500 · translated 500 · scored 480 · "
                                                        "pairs written 480 · 1 min 21 s")


def test_a_chunk_counts_its_decoded_batches_for_the_line():
    """The back-translation hands the Translator a per-batch callback (called in its background thread) whose
    counts reach the launcher's line."""
    from pipeline.stages.worker_translator import TranslateChunks
    from translate.translator import Status, Translation

    class TwoBatches:  # a Translator's translate(): calls progress once per decoded batch
        def translate(self, sentences, progress=None):
            half = len(sentences) // 2
            progress(half)
            progress(len(sentences) - half)
            return [Translation(s, Status.OK, hypothesis=s.upper()) for s in sentences]

    class Handler:
        def load_model(self):
            return TwoBatches()

        def record(self, translations):
            """Counted elsewhere."""

    with progress.LocalProgress(None, enabled=False):
        stage = TranslateChunks(Handler())
        stage.setup()
        stage.start_bundle()
        out = [*stage.process(("chunk", ["a", "b", "c"])), *(w.value for w in stage.finish_bundle())]
        stage.teardown()
        _wait_for(lambda: progress.read_counts(os.environ[progress.ENV])[DECODED_PROGRESS] == 3)
        counts = progress.read_counts(os.environ[progress.ENV])
    assert counts[DECODED_PROGRESS] == 3 and counts[progress.STARTED_CHUNKS] == 1
    assert [(key, [t.hypothesis for t in ts]) for key, ts in out] == [("chunk", ["A", "B", "C"])]


class _SilentJob(_RemoteJob):
    """A portable job service's result: no metrics until the job ends (its workers write files meanwhile)."""

    def __init__(self, polls: int, rows: int, on_poll) -> None:
        super().__init__(polls, rows)
        self.on_poll = on_poll

    def metrics(self) -> object:
        self.life["queries"] += 1
        self.on_poll(self.life["queries"])
        if self.life["queries"] >= self.polls:
            self.ended.set()
        return _Counters({progress.READ: self.rows} if self.ended.is_set() else {})


def _chunk(path, rows: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({"cs": ["věta"] * rows}), path)


def test_a_job_without_live_metrics_shows_the_rows_its_workers_have_written(tmp_path):
    """A PortableRunner job's service reports metrics only at the end: its lines count the rows of the translation
    cache's chunks written since the job started, and of the staged shards, so they do not read ``read 0/1,600 ·
    pairs written 0`` for minutes; a chunk an earlier run cached is not counted."""
    cache = tmp_path / "cache" / "translations" / "m"
    old = cache / "old.parquet"
    _chunk(old, 70)
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    written = progress.WrittenRows({progress.TRANSLATED: str(tmp_path / "cache" / "translations" / "*" / "*.parquet"),
                                    progress.WRITTEN: str(tmp_path / "_staging" / "pairs" / "*.parquet")},
                                   since=time.time())
    assert written.counts() == Counter()

    def workers_write(poll: int) -> None:  # a chunk of 100 rows per poll; the shards at the end
        if poll <= 4:
            _chunk(cache / f"chunk-{poll}.parquet", 100)
        if poll == 4:
            _chunk(tmp_path / "_staging" / "pairs" / "shard-0.parquet", 380)

    job, stream = _SilentJob(polls=5, rows=400, on_poll=workers_write), io.StringIO()
    progress.wait_showing_progress(job, 400, every=0.001, stream=stream, written=written)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("RUNNING: translated 100/400 (new chunks in the translation cache) · pairs written 0 · ")
    assert lines[0].endswith("; rows read are counted when the job ends")
    assert lines[3].startswith("RUNNING: translated 400/400 (new chunks in the translation cache) · pairs written 380")
    assert lines[-1].startswith("DONE: read 400/400 · ")
    silent = _SilentJob(polls=2, rows=400, on_poll=lambda poll: None)
    stream = io.StringIO()
    progress.wait_showing_progress(silent, 400, every=0.001, stream=stream)  # no files to watch: it says so
    assert stream.getvalue().startswith("RUNNING: no counts from the job yet (a job service may report them only "
                                        "when the job ends) · ")


def test_the_first_line_comes_at_once_when_stderr_is_not_a_terminal():
    """With stderr a file or a pipe the first line comes after :data:`pipeline.launcher.progress.FIRST_LINE_SECONDS`,
    then every ``log_every`` seconds (here 1,000: no second line)."""
    stream = io.StringIO()
    with progress.LocalProgress(10, stream=stream, interval=0.05, log_every=1000.0):
        _wait_for(lambda: stream.getvalue())
    assert stream.getvalue().startswith("read 0/10 · pairs written 0 · ") and len(stream.getvalue().splitlines()) == 1
    assert progress.FIRST_LINE_SECONDS <= 5
