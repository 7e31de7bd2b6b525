"""One translation case of ``gpu_suite.py`` in a process of its own, watched by the suite.

A case is stopped when it makes no progress for ``stall_seconds`` or runs past its deadline: its process is killed
with whatever it holds on the GPU, so a wedged decoder cannot slow the cases after it. Cases are forked from a
multiprocessing fork server that has imported the translator's modules (CTranslate2, torch, fairseq) once and never
touches a GPU, so a case costs a fork and a model load, not an interpreter start. The child loads a translator with
the loader it is handed (:func:`translate.loading.load_translator` in the suite), translates a warm-up and then the
timed sentences, and reports through a pipe: ``loaded``, ``progress`` after every batch, then ``done`` (with each
timed batch's end time and the sentences done by then, from which the suite takes its steady-state rate) or
``error``. Its stdout and stderr go to a log; a failed case keeps the log's last lines.

:func:`run_case` never returns a rate for a failure: the :class:`Outcome` of a case that raised, stalled, died,
had a translation fail (``Status.FAILED``) or put out no target token is ``failed`` with its error.
"""

from __future__ import annotations

import faulthandler
import json
import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from configs.schema import TranslateConfig
from translate.translator import Status

# What every case's process needs, imported once by the fork server; a module that is not installed (fairseq is
# an extra) is left out by the server.
PRELOAD = ["gpu_case", "translate.loading", "translate.fairseq_backend", "fairseq.checkpoint_utils", "fairseq.utils"]
LOG_TAIL = 40


@dataclass
class Outcome:
    status: str  # "ok" or "failed"
    error: str | None = None  # the first error ("Type: message"); None when ok
    failed: int = 0  # translations with Status.FAILED
    sentences: int = 0  # timed sentences (0 when the warm-up already failed)
    ran_backend: str = ""
    ran_compute_type: str = ""
    start: float | None = None  # time.monotonic() around the timed translation (system-wide: comparable with
    end: float | None = None  # the parent's clock)
    target_tokens: int = 0
    hit_length_cap: int = 0
    hypotheses: list[str] = field(default_factory=list)  # the first ``keep`` (all when keep is None)
    marks: list[tuple[float, int]] = field(default_factory=list)  # the timed call's batches: (end, sentences done)
    log_tail: list[str] = field(default_factory=list)

    @property
    def seconds(self) -> float | None:
        return None if self.start is None or self.end is None else self.end - self.start


def describe(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0][:300] if lines else ''}"


def _child(events: Connection, config: dict[str, Any], sentences_path: str, n: int | None, warmup: int,
           keep: int | None, loader: Callable[[TranslateConfig], Any], log: str) -> None:
    """The case's process: load, warm up, translate, report through ``events``."""
    descriptor = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(descriptor, 1)  # the libraries' own prints and logs too, C++ included
    os.dup2(descriptor, 2)
    faulthandler.enable()  # a crash leaves every thread's Python stack in the log
    try:
        translator = loader(TranslateConfig.model_validate(config))
        events.send(("loaded", {"backend": translator.backend.name,
                                "compute_type": str(getattr(translator.backend, "compute_type", ""))}))
        sentences = json.loads(Path(sentences_path).read_text(encoding="utf-8"))[:n]
        marks: list[tuple[float, int]] = []

        def progress(done: int) -> None:
            events.send(("progress", {"n": done}))

        def timed_progress(done: int) -> None:  # each batch of the timed call: its end and the sentences done
            marks.append((time.monotonic(), (marks[-1][1] if marks else 0) + done))
            progress(done)

        warm = translator.translate(sentences[:warmup], progress=progress)
        results, start, end = [], None, None
        if not any(t.status is Status.FAILED for t in warm):  # a failed warm-up already settles the case
            start = time.monotonic()
            results = translator.translate(sentences, progress=timed_progress)
            end = time.monotonic()
    except Exception as error:  # whatever the backend raises, fail-fast errors included: the case's error
        events.send(("error", {"error": describe(error)}))
        return
    failures = [t for t in (*warm, *results) if t.status is Status.FAILED]
    events.send(("done", {"failed": len(failures), "error": failures[0].error if failures else None,
                          "sentences": len(results), "start": start, "end": end,
                          "target_tokens": sum(len(t.tokens) for t in results),
                          "hit_length_cap": sum(t.hit_length_cap for t in results),
                          "hypotheses": [t.hypothesis for t in results[:keep]], "marks": marks}))


def _finished(kind: str, fields: dict[str, Any], outcome: Outcome) -> Outcome:
    """The outcome of a ``done`` or ``error`` event: failed unless every translation succeeded with tokens out."""
    if kind == "error":
        outcome.error = fields["error"]
        return outcome
    outcome.failed, outcome.sentences = fields["failed"], fields["sentences"]
    outcome.start, outcome.end = fields["start"], fields["end"]
    outcome.target_tokens, outcome.hit_length_cap = fields["target_tokens"], fields["hit_length_cap"]
    if outcome.failed:
        outcome.error = fields["error"]
    elif outcome.target_tokens == 0:
        outcome.error = f"0 target tokens out of {outcome.sentences} sentences"
    else:
        outcome.status, outcome.hypotheses, outcome.marks = "ok", fields["hypotheses"], fields["marks"]
    return outcome


def run_case(config: dict[str, Any], sentences: Path, n: int | None, warmup: int, keep: int | None,
             loader: Callable[[TranslateConfig], Any], log: Path, stall_seconds: float, deadline: float) -> Outcome:
    """Translate the first ``n`` (None: all) of the JSON list in ``sentences`` with
    ``loader(TranslateConfig(**config))`` in a process of its own (``loader`` travels by name: a module-level
    function), after a warm-up on the first ``warmup``; the hypotheses of the first ``keep`` (None: all) come back.
    ``deadline`` is on ``time.monotonic()``'s clock."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, config, str(sentences), n, warmup, keep, loader, str(log)),
                              daemon=True)
    process.start()
    sender.close()  # the child holds the only writer: its exit reads as EOF here
    outcome = Outcome("failed")
    last = time.monotonic()
    try:
        while True:
            now = time.monotonic()
            if now - last >= stall_seconds:
                outcome.error = f"stopped: no progress for {stall_seconds:.0f} s"
                break
            if now >= deadline:
                outcome.error = "stopped: past the time limit"
                break
            if not wait([receiver], timeout=min(last + stall_seconds, deadline) - now):
                continue
            try:
                kind, fields = receiver.recv()
            except EOFError:
                process.join()
                outcome.error = f"the case's process exited (status {process.exitcode}) before its result"
                break
            last = time.monotonic()
            if kind == "loaded":
                outcome.ran_backend, outcome.ran_compute_type = fields["backend"], fields["compute_type"]
            elif kind in ("done", "error"):
                outcome = _finished(kind, fields, outcome)
                break
    finally:
        process.kill()  # done or not: nothing of a case outlives it
        process.join()
        receiver.close()
    if outcome.status == "failed":
        outcome.log_tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-LOG_TAIL:]
    return outcome
