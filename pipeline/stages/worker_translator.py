"""The back-translation's work on a worker: one :class:`~translate.translator.Translator` per worker process
(:class:`WorkerTranslator`; one decoder per machine, :class:`SharedDecoder`) translating chunks of Czech sentences,
several at once (:class:`TranslateChunks`). :class:`pipeline.stages.backtranslate.BackTranslate` forms the chunks, looks
them up in the translation cache and applies the translations to the rows.
"""

from __future__ import annotations

import functools
import logging
import time
import uuid
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import apache_beam as beam
from apache_beam.metrics import Metrics
from apache_beam.transforms.window import GlobalWindows
from apache_beam.utils.multi_process_shared import MultiProcessShared
from apache_beam.utils.shared import Shared
from apache_beam.utils.windowed_value import WindowedValue

from configs.schema import TranslateConfig
from pipeline.metrics import (
    DECODED_PROGRESS,
    STARTED_CHUNKS_COUNTER,
    TRANSLATE_CLOCK,
    TRANSLATE_NAMESPACE,
    StageCounter,
    count_progress,
)
from translate.card import ModelDir, model_or_default
from translate.loading import load_backend
from translate.translator import RawHypothesis, Status, Translation, Translator

log = logging.getLogger(__name__)


class SharedDecoder:
    """The one decoding backend of a machine, served to all its worker processes: batches of model tokens in,
    n-best lists out (pickled both ways to the other processes). The text chain (Moses, subwords) stays in each
    worker, so it runs on every core while the model decodes; a GPU holds one copy of the model."""

    def __init__(self, config: TranslateConfig) -> None:
        _, self._backend = load_backend(config)

    def describe(self) -> tuple[str, str, str]:
        backend = self._backend
        return backend.name, backend.device, str(getattr(backend, "compute_type", ""))

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        return self._backend.decode(batch)

    def recover(self) -> None:
        self._backend.recover()


class ProxiedBackend:
    """A worker's handle on its machine's :class:`SharedDecoder`, usable as a Translator's backend: ``submit``
    keeps up to ``in_flight`` batches at the decoder while the worker detokenises finished ones."""

    def __init__(self, proxy: SharedDecoder, in_flight: int = 2) -> None:  # a multiprocessing proxy of one
        self._proxy = proxy
        self.name, self.device, self.compute_type = proxy.describe()
        self.queue_depth = in_flight  # the Translator's batches at the decoder at once, this process's share
        self._pool = ThreadPoolExecutor(in_flight, thread_name_prefix="paranmt-decode")

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        return self._proxy.decode(batch)

    def submit(self, batch: list[list[str]]) -> Future[list[list[RawHypothesis]]]:
        return self._pool.submit(self._proxy.decode, batch)

    def recover(self) -> None:
        self._proxy.recover()


#: Chunks between a worker's INFO lines of its translation rate (``--verbose``).
RATE_LOG_EVERY_CHUNKS = 50


class WorkerTranslator:
    """The Translator of a worker process, loaded once there (:meth:`load_model`), and the counts of what it
    translates (:meth:`record`).

    One decoder per worker machine: one worker process serves the model (:class:`SharedDecoder`) and the others
    call it through a proxy with their token batches, while the text chain runs in every worker.
    """

    def __init__(self, config: TranslateConfig) -> None:
        self._config = config
        # One name per run, handed to every worker with this object: the workers of a run find the same decoder,
        # and a run never waits on an address an earlier run's (exited) server left behind.
        self._decoder_tag = f"paranmt_decoder_{uuid.uuid4().hex}"
        self._reset_progress()

    @property
    def config(self) -> TranslateConfig:
        return self._config

    def _reset_progress(self) -> None:
        self._chunks = 0
        self._window_sentences = 0
        self._window_started = time.perf_counter()

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A fresh copy on a worker starts its own throughput window.
        self.__dict__.update(state)
        self._reset_progress()

    def load_model(self) -> Translator:
        # The first worker process to get here serves the decoder from a thread of its own and calls it directly;
        # the machine's other worker processes call it through a proxy.
        config = self._config
        shared = MultiProcessShared(lambda: SharedDecoder(config), self._decoder_tag)
        translator = Translator(ModelDir(model_or_default(config.model)), ProxiedBackend(shared.acquire()), config)
        log.info("loaded translator %s", translator.describe())
        return translator

    def record(self, translations: Sequence[Translation]) -> None:
        """Count a chunk's ``translations`` by status in the run's metrics, and log the rate every
        :data:`RATE_LOG_EVERY_CHUNKS` chunks."""
        by_status = dict.fromkeys(Status, 0)
        capped = 0
        for t in translations:
            by_status[t.status] += 1
            capped += t.hit_length_cap
        for status, count in by_status.items():
            if count:
                Metrics.counter(TRANSLATE_NAMESPACE, f"translate_{status.value}").inc(count)
        if capped:
            Metrics.counter(TRANSLATE_NAMESPACE, "hit_length_cap").inc(capped)
        Metrics.distribution(TRANSLATE_NAMESPACE, "translate_batch_sentences").update(len(translations))
        self._chunks += 1
        self._window_sentences += len(translations)
        if self._chunks % RATE_LOG_EVERY_CHUNKS == 0:
            elapsed = time.perf_counter() - self._window_started
            log.info("translated %d chunks; last %d sentences at %.1f sentences/s", self._chunks,
                     self._window_sentences, self._window_sentences / elapsed if elapsed > 0 else 0.0)
            self._window_sentences = 0
            self._window_started = time.perf_counter()


#: Chunks a worker has in translation at once: while the later steps of the fused stage (cache, pair records,
#: scores) work on one chunk's rows, the next two encode and decode in background threads, so the decoder -- a GPU
#: above all -- does not wait for the worker's Python between chunks.
CHUNKS_IN_FLIGHT = 2


class TranslateChunks(beam.DoFn):
    """``(key, [czech, ...])`` -> ``(key, [Translation, ...])``, one chunk per translate call, up to
    :data:`CHUNKS_IN_FLIGHT` calls running in background threads. A chunk's batches are formed from the chunk
    alone, so it translates the same way whichever thread, worker, run or retry handles it, and in whatever order
    the chunks finish (CTranslate2's scores move by up to ~1e-5 with a batch's composition: a resumed run that
    translates only the missing chunks then writes exactly what an uninterrupted run writes). Chunks should be a
    few hundred sentences or more so each call fills the Translator's token buckets."""

    def __init__(self, worker: WorkerTranslator) -> None:
        self._worker = worker
        self._shared = Shared()  # one Translator per worker process, whatever the DoFn instances

    def setup(self) -> None:
        self._translator = self._shared.acquire(self._worker.load_model)
        self._pool = ThreadPoolExecutor(CHUNKS_IN_FLIGHT, thread_name_prefix="paranmt-chunk")
        self._started = StageCounter(STARTED_CHUNKS_COUNTER)
        self._clock = Metrics.distribution(TRANSLATE_NAMESPACE, TRANSLATE_CLOCK)
        self._decoded = functools.partial(count_progress, DECODED_PROGRESS)  # batch by batch: the live line moves

    def start_bundle(self) -> None:
        self._in_flight: deque[tuple[Any, Future[list[Translation]]]] = deque()

    def process(self, element: tuple[Any, Sequence[str]]) -> Iterator[tuple[Any, list[Translation]]]:
        key, chunk = element
        self._started.inc()
        self._clock.update(int(time.time() * 1000))
        self._in_flight.append((key, self._pool.submit(self._translator.translate, list(chunk),
                                                       progress=self._decoded)))
        if len(self._in_flight) > CHUNKS_IN_FLIGHT:  # the oldest chunk's rows go on while the others translate
            yield self._finished()

    def finish_bundle(self) -> Iterator[WindowedValue]:
        while self._in_flight:
            yield GlobalWindows.windowed_value(self._finished())

    def _finished(self) -> tuple[Any, list[Translation]]:
        key, future = self._in_flight.popleft()
        translations = future.result()  # a decoding error is raised here, in the bundle's thread
        self._worker.record(translations)
        self._clock.update(int(time.time() * 1000))
        return key, translations

    def teardown(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown(cancel_futures=True)
