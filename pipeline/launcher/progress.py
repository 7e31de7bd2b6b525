"""Progress of a running pipeline: a live line on a local run, a periodic line from Beam metrics elsewhere.

Beam metrics reach the launcher only when bundles finish, and a local runner hands back control only at the end,
so a local run watches the stages' own counters as they count (:class:`pipeline.metrics.StageCounter`: one name, a
Beam counter and, while a local launcher watches, a copy that each worker process writes every half second to
``<dir>/<host>-<pid>.json``). :class:`LocalProgress` sets the folder (``PARANMT_PROGRESS_DIR``), sums those files
and redraws one line on a terminal (or logs a line every 30 s when stderr is not one):

    read 48,210/64,505 · translated 12,000 (41.3/s, ETA ≈ 20 min) · pairs written 0 · 5 min 02 s
    read 500/500 · translated 500 · scoring: 0 scored · pairs written 0 · 2 min 41 s
    read 500/500 · reused 500 · pairs written 500 · 9 s

On a distributed runner (Dataflow, Flink, Spark, portable: ``run()`` returns at once) :func:`wait_showing_progress`
waits for the job and writes the same counts from its Beam metrics once a minute (``--progress-every``). Counters
are progress only: the summary recounts every row from the written files.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import TextIO

import pyarrow.parquet as pq
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.runners.runner import PipelineResult, PipelineState

from pipeline.metrics import (
    CACHE_HIT_COUNTER,
    DECODED_PROGRESS,
    FITTED_PROGRESS,
    FITTING_PROGRESS,
    READ_COUNTER,
    SCORED_PROGRESS,
    SCORING_PROGRESS,
    STARTED_CHUNKS_COUNTER,
    TRANSLATED_COUNTER,
    metric_counts,
    stop_watching,
    written_counter,
)
from pipeline.metrics import (
    WATCH_ENV as ENV,
)

READ, TRANSLATED, WRITTEN, STARTED_CHUNKS = (READ_COUNTER, TRANSLATED_COUNTER, written_counter("pairs"),
                                           STARTED_CHUNKS_COUNTER)


def read_counts(directory: str | Path) -> Counter[str]:
    """The sum of every worker's published counters."""
    total: Counter[str] = Counter()
    for path in Path(directory).glob("*.json"):
        try:
            total.update(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):  # being replaced right now: the next poll reads it
            continue
    return total


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def translation_rows(counts: Counter[str] | Mapping[str, int]) -> tuple[int, int]:
    """Rows with a translation so far, in the summary's words: ``(reused, translated)`` -- reused from the
    translation cache, and translated by the model (whole chunks, or, finer while a chunk decodes, the rows decoded
    batch by batch)."""
    reused = counts.get(CACHE_HIT_COUNTER, 0)
    return reused, max(counts.get(TRANSLATED, 0) - reused, counts.get(DECODED_PROGRESS, 0))


def progress_line(counts: Counter[str] | Mapping[str, int], elapsed: float, expected: int | None,
                  rate: float | None = None, translating: str = "") -> str:
    """One line: rows read (of the known total), reused from the translation cache and translated (rate, ETA), as
    the summary counts them, the scorer's fit and the scoring while they work, pairs written, time so far.
    ``rate``: translations per second (:class:`TranslationRate`); the ETA assumes every row still to read is
    translated. Until the model's first batch is decoded, a started translation shows as ``translating: 0 of N rows
    (<translating>)``, ``translating`` naming the model and beam; a stage at work without rows to show is named
    (``fitting the scorer``, ``scoring: 0 scored``), so a line that does not move still says what runs."""
    read, written = counts.get(READ, 0), counts.get(WRITTEN, 0)
    reused, translated = translation_rows(counts)
    parts = [f"read {read:,}" + (f"/{expected:,}" if expected else "")]
    if counts.get(STARTED_CHUNKS, 0) and not (translated or reused or rate):  # decoding, no batch finished yet
        parts.append(f"translating: 0 of {expected:,} rows" if expected else "translating: 0 rows")
        if translating:
            parts[-1] += f" ({translating})"
    if reused:
        parts.append(f"reused {reused:,}")
    if translated or rate:
        text = f"translated {translated:,}"
        left = expected - reused - translated if expected else None
        if rate and not (left is not None and left <= 0):  # once all is translated a rate would only decay
            text += f" ({rate:.1f}/s"
            if left is not None:
                text += f", ETA ≈ {_duration(left / rate)}"
            text += ")"
        parts.append(text)
    if counts.get(FITTING_PROGRESS, 0) > counts.get(FITTED_PROGRESS, 0):
        parts.append("fitting the scorer")
    scoring, scored = counts.get(SCORING_PROGRESS, 0), counts.get(SCORED_PROGRESS, 0)
    if scoring > scored:
        parts.append(f"scoring: {scored:,} scored")
    elif scored:
        parts.append(f"scored {scored:,}")
    parts.append(f"pairs written {written:,}")
    parts.append(_duration(elapsed))
    return " · ".join(parts)


class TranslationRate:
    """Translations per second since the first translated rows were seen, steady on a steady run.

    Workers count decoded batches (or whole chunks), so the counter moves in steps seconds apart: a rate over a
    short window swings with how many steps happen to fall in it (2x between updates was seen). The rate here is
    (rows since the first step) / (time since the first step), both taken at the latest step, so a run that
    translates at a steady pace shows a steady rate and ETA; model loading before the first step is not counted.
    If no step has come for longer than the mean time between steps, the time since then counts too, so a stall
    lowers the rate instead of freezing it. None until two steps have been seen.
    """

    def __init__(self) -> None:
        self._first: tuple[float, int] | None = None  # (time, count) at the first step
        self._last: tuple[float, int] | None = None  # at the latest step
        self._steps = 0

    def update(self, now: float, translated: int) -> float | None:
        if translated <= 0:
            return None
        if self._first is None:
            self._first = self._last = (now, translated)
            return None
        if self._last is None or translated != self._last[1]:
            self._last = (now, translated)
            self._steps += 1
        if self._steps == 0:
            return None
        (t0, n0), (t1, n1) = self._first, self._last
        mean_gap = (t1 - t0) / self._steps
        span = max(t1 - t0, now - t0 - mean_gap)  # grows only once a step is overdue
        return (n1 - n0) / span if span > 0 else None


class LocalProgress:
    """Context manager for a local run: sets :data:`ENV`, then shows :func:`progress_line` until the block ends.
    ``stream`` defaults to stderr; on a terminal the line is redrawn in place every ``interval`` seconds,
    otherwise a line is written every ``log_every`` seconds. :meth:`update` takes the time, so tests drive
    it on a synthetic clock."""

    def __init__(self, expected: int | None, *, enabled: bool = True, stream: TextIO | None = None,
                 interval: float = 0.5, log_every: float = 30.0, translating: str = "") -> None:
        self.expected, self.enabled, self.translating = expected, enabled, translating
        self.rate = TranslationRate()
        self.stream = stream if stream is not None else sys.stderr
        self.interval, self.log_every = interval, log_every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._directory: str | None = None
        self._previous_env: str | None = None
        self._final: dict[str, int] | None = None
        self._started = time.perf_counter()
        self.last_line = ""

    def __enter__(self) -> LocalProgress:
        self._started = time.perf_counter()
        self._directory = tempfile.mkdtemp(prefix="paranmt-progress-")
        self._previous_env = os.environ.get(ENV)
        os.environ[ENV] = self._directory
        if self.enabled:
            self._thread = threading.Thread(target=self._show, name="paranmt-progress-display", daemon=True)
            self._thread.start()
        return self

    def _show(self) -> None:
        started = time.perf_counter()
        last_log = started - self.log_every + min(self.log_every, FIRST_LINE_SECONDS)  # the first line early
        tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        while not self._stop.wait(self.interval):
            now = time.perf_counter()
            self.last_line = self.update(read_counts(self._directory or "."), now - started, now)
            if tty:
                self.stream.write("\r\033[K" + self.last_line)
                self.stream.flush()
            elif now - last_log >= self.log_every:
                self.stream.write(self.last_line + "\n")
                self.stream.flush()
                last_log = now

    def update(self, counts: Counter[str], elapsed: float, now: float) -> str:
        """The line for ``counts`` read at time ``now`` (the rate comes from :class:`TranslationRate`, over the rows
        the model decoded: rows reused from the cache come in bursts and would inflate it)."""
        decoded = max(counts.get(DECODED_PROGRESS, 0), counts.get(TRANSLATED, 0) - counts.get(CACHE_HIT_COUNTER, 0))
        return progress_line(counts, elapsed, self.expected, self.rate.update(now, decoded), self.translating)

    def finish(self, counts: Mapping[str, int]) -> None:
        """The finished job's counts (Beam's metrics): shown as the last line when the block ends. The live line
        samples workers' files every ``interval`` and the writers count only in the job's last seconds, so without
        it the last line showed fewer rows than the run had, and ``pairs written 0``."""
        self._final = dict(counts)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            tty = hasattr(self.stream, "isatty") and self.stream.isatty()
            if tty:
                self.stream.write("\r\033[K")
            if self._final is not None and exc_type is None:
                self.last_line = progress_line(self._final, time.perf_counter() - self._started, self.expected)
                self.stream.write(self.last_line + "\n")
            self.stream.flush()
        if self._previous_env is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = self._previous_env
        shutil.rmtree(self._directory or "", ignore_errors=True)


def discard_local() -> None:
    """Remove the launcher's progress folder when the run ends without unwinding
    (:mod:`pipeline.launcher.interrupts`)."""
    directory = os.environ.get(ENV)
    if not directory or not Path(directory).name.startswith("paranmt-progress-"):
        return
    stop_watching()  # this process's publisher stops at its next turn
    for _ in range(3):  # a publisher may be writing its file right now: remove what it wrote, too
        shutil.rmtree(directory, ignore_errors=True)
        if not os.path.exists(directory):
            return



#: Seconds between the progress lines of a job on a remote runner (``paranmt run --progress-every``): a Dataflow
#: job's counters move in minutes, and each line queries the job's metrics from its service.
REMOTE_PROGRESS_SECONDS = 60.0

#: Seconds to the first progress line when stderr is not a terminal (a log), on every runner.
FIRST_LINE_SECONDS = 2.0


class WrittenRows:
    """Rows in the Parquet files a job's workers have written since it started (``since``, epoch seconds): for a
    runner that reports its metrics only when the job ends (a portable job service), the live counts come from
    what the job has written -- the translation cache's chunks, each written the moment it is translated, and the
    staged output shards. ``patterns``: a counter name -> a file pattern (any Beam file system)."""

    def __init__(self, patterns: Mapping[str, str], since: float) -> None:
        self.patterns, self.since = dict(patterns), since
        self._rows: dict[tuple[str, int], int] = {}  # (path, size) -> rows: each finished file is read once

    def counts(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for name, pattern in self.patterns.items():
            try:
                found = FileSystems.match([pattern])[0].metadata_list
            except Exception:  # nothing written yet (a missing folder), or a file system hiccup: the next line
                continue
            for meta in found:
                if meta.last_updated_in_seconds < self.since - 1:  # a chunk an earlier run cached
                    continue
                key = (meta.path, meta.size_in_bytes)
                if key not in self._rows:
                    try:
                        with FileSystems.open(meta.path, compression_type=CompressionTypes.UNCOMPRESSED) as f:
                            self._rows[key] = pq.read_metadata(f).num_rows
                    except Exception:  # being written right now: counted once it is whole
                        continue
                total[name] += self._rows[key]
        return total


def written_line(counts: Mapping[str, int], elapsed: float, expected: int | None) -> str:
    """The counts :class:`WrittenRows` found: the rows translated into the cache and the pairs written so far."""
    translated = f"{counts.get(TRANSLATED, 0):,}" + (f"/{expected:,}" if expected else "")
    return (f"translated {translated} (new chunks in the translation cache) · pairs written "
            f"{counts.get(WRITTEN, 0):,} · {_duration(elapsed)}; rows read are counted when the job ends")


def wait_showing_progress(result: PipelineResult, expected: int | None, *, every: float = REMOTE_PROGRESS_SECONDS,
                          stream: TextIO | None = None, written: WrittenRows | None = None) -> None:
    """Wait until a job on a remote runner ends (its ``run()`` returns at once), raising what its wait raises;
    with a ``stream``, write a line of its counts after :data:`FIRST_LINE_SECONDS`, then every ``every`` seconds,
    and once at the end (from Beam metrics). While the job runs the counts come from the job's metrics, or, where
    they have none yet and ``written`` is given, from the files the workers have written (:class:`WrittenRows`).

    The job is waited for by one ``result.wait_until_finish()`` in a thread, never by calls with a duration in a
    loop: Beam 2.77's portable result starts two threads reading the job's gRPC message and state streams on every
    call and leaves them reading when the duration ends, so a second call's readers meet the first's on the same
    stream (gRPC refuses a second pending read: ``ValueError: Internal gRPC call error 8``) and a job that finished
    ended as a failed run with its shards left in ``_staging/``; Dataflow's result logs the job's messages again
    from the start on every call."""
    if stream is None:
        result.wait_until_finish()
        return
    failed: list[Exception] = []

    def wait() -> None:
        try:
            result.wait_until_finish()
        except Exception as error:  # raised again in the caller's thread
            failed.append(error)

    started = time.perf_counter()
    waiter = threading.Thread(target=wait, name="paranmt-job-wait", daemon=True)
    waiter.start()
    wait_for = min(every, FIRST_LINE_SECONDS)
    while waiter.is_alive():
        waiter.join(wait_for)
        wait_for = every
        elapsed = time.perf_counter() - started
        line = _job_line(result, elapsed, expected, written if waiter.is_alive() else None)
        stream.write(line + "\n")
        stream.flush()
    if failed:
        raise failed[0]


def _job_line(result: PipelineResult, elapsed: float, expected: int | None, written: WrittenRows | None) -> str:
    """The job's state and counts. Read through a copy of the result: Beam's portable result keeps the first
    metrics it is given for good, so counts read while the job runs would become the finished job's counts."""
    try:
        metrics = metric_counts(copy.copy(result))
    except Exception:  # a starting job may have no metrics yet; the next line tries again
        metrics = {}
    counts = {name: metrics.get(name, 0) for name in (READ, WRITTEN, TRANSLATED)}
    if not any(counts.values()) and not PipelineState.is_terminal(result.state):  # no live metrics (yet)
        if written is not None:
            return f"{result.state}: {written_line(written.counts(), elapsed, expected)}"
        return (f"{result.state}: no counts from the job yet (a job service may report them only when the job "
                f"ends) · {_duration(elapsed)}")
    return f"{result.state}: {progress_line(counts, elapsed, expected)}"
