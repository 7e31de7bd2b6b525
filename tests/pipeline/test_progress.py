"""The local progress display: worker counters published to files, summed and shown with a rate and an ETA."""

from __future__ import annotations

import io
import os
import time
from collections import Counter

from pipeline import progress


def test_progress_line_reads_counts_rate_and_eta():
    line = progress.progress_line(Counter(read=6000, translated=2000, written_pairs=0), 65.0, 10_000, rate=40.0)
    assert line == "read 6,000/10,000 · translated 2,000 (40.0/s, ETA ≈ 3 min 20 s) · pairs written 0 · 1 min 05 s"
    assert progress.progress_line(Counter(read=5), 2.0, None) == "read 5 · pairs written 0 · 2 s"


def test_counts_are_published_and_shown_while_the_block_runs():
    stream = io.StringIO()
    with progress.LocalProgress(1000, stream=stream, interval=0.05, log_every=0.2) as display:
        assert os.environ[progress.ENV]
        for _ in range(10):
            progress.count(progress.READ, 50)
            progress.count(progress.TRANSLATED, 40)
            time.sleep(0.25)
        deadline = time.monotonic() + 5  # the publisher writes every 0.5 s; a loaded machine may delay it
        while (published := progress.read_counts(os.environ[progress.ENV]))[progress.READ] < 500 \
                and time.monotonic() < deadline:
            time.sleep(0.05)
    assert progress.ENV not in os.environ
    assert published[progress.READ] == 500 and published[progress.TRANSLATED] == 400
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 5 and lines[-1].startswith("read ") and "/1,000" in lines[-1]
    assert "translated" in display.last_line and "/s" in display.last_line


def test_a_new_run_in_the_same_process_starts_from_zero():
    for _ in range(2):
        with progress.LocalProgress(None, enabled=False):
            progress.count(progress.READ, 7)
            time.sleep(0.6)
            assert progress.read_counts(os.environ[progress.ENV])[progress.READ] == 7


def test_count_is_a_no_op_without_a_launcher():
    os.environ.pop(progress.ENV, None)
    progress.count(progress.READ)  # nothing to publish to, and no error
