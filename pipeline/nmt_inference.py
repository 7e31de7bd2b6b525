"""Apache Beam RunInference glue for the back-translation :class:`~translate.translator.Translator`.

    from pipeline.nmt_inference import BackTranslate
    keyed_czech | BackTranslate(TranslateConfig(model=...))     # (key, czech) -> (key, Translation)

Batching (read from apache_beam 2.77's ``ml/inference/base.py`` and ``transforms/util.py``):

* ``ModelHandler(max_batch_weight=...)`` is stored in ``batch_elements_kwargs()``, but ``RunInference`` passes
  those kwargs to ``beam.BatchElements``, which has no ``max_batch_weight`` parameter: the pipeline fails at
  construction with a ``TypeError``. What does bound weight is ``BatchElements(element_size_fn=...)``: its
  ``min_batch_size``/``max_batch_size`` are then measured in *weight units* (here: estimated source tokens).
  So the token budget is passed as ``max_batch_size`` and the handler overrides ``batch_elements_kwargs()``.
* ``batch_length_fn``/``batch_bucket_boundaries`` only act on the stateful path (``max_batch_duration_secs``
  set), and that path ignores ``element_size_fn`` entirely (it counts elements). Length buckets and token
  weights cannot be combined, so neither is used: the Translator re-buckets each batch by exact length anyway.
* ``BatchElements`` flushes *before* appending an element that would overflow the budget, so an element that
  alone weighs more than the budget first flushes an empty batch, which the keyed handler cannot unzip.
  The size estimate is therefore clamped to the budget (see :func:`estimate_source_tokens`).
"""

from __future__ import annotations

import functools
import json
import logging
import math
import time
import uuid
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypedDict, Unpack

import apache_beam as beam
from apache_beam.metrics import Metrics
from apache_beam.ml.inference.base import KeyedModelHandler, ModelHandler, PredictionResult, RunInference
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
from translate.loading import load_backend, load_translator
from translate.translator import RawHypothesis, Status, Translation, Translator

log = logging.getLogger(__name__)



def estimate_source_tokens(element: str | tuple[Any, str], cap: int | None = None) -> int:
    """A cheap upper-ish estimate of the source subword tokens of a sentence: ``ceil(words * 1.5) + 2``.

    Only an estimate, used to bound Beam batches without running the tokeniser twice; the Translator tokenises
    exactly and re-buckets each Beam batch by padded token count. Accepts a bare sentence or a ``(key,
    sentence)`` pair, because ``KeyedModelHandler`` hands the handler's batching kwargs to a ``BatchElements``
    that sees the keyed elements. ``cap`` clamps the estimate so that no single element outweighs the budget
    (Beam would otherwise emit an empty batch before it).
    """
    text = element[1] if isinstance(element, tuple) else element
    estimate = math.ceil(len(text.split()) * 1.5) + 2
    return estimate if cap is None else min(estimate, cap)


class HandlerOptions(TypedDict, total=False):
    """The keyword arguments of :class:`TranslatorModelHandler` that the transforms below (and
    :func:`pipeline.job.run_job`) pass through."""

    max_batch_tokens: int | None
    min_batch_tokens: int | None
    share_across_processes: bool
    log_every_batches: int


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

    def __init__(self, proxy: SharedDecoder, in_flight: int = 4) -> None:  # a multiprocessing proxy of one
        self._proxy = proxy
        self.name, self.device, self.compute_type = proxy.describe()
        self._pool = ThreadPoolExecutor(in_flight, thread_name_prefix="paranmt-decode")

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        return self._proxy.decode(batch)

    def submit(self, batch: list[list[str]]) -> Future[list[list[RawHypothesis]]]:
        return self._pool.submit(self._proxy.decode, batch)

    def recover(self) -> None:
        self._proxy.recover()


class TranslatorModelHandler(ModelHandler[str, PredictionResult, Translator]):
    """RunInference handler: raw Czech sentences in, one ``PredictionResult(sentence, Translation, model_id)``
    out per sentence.

    Batches are bounded by estimated source tokens (``max_batch_tokens``, default four of the Translator's GPU
    buckets, so it can sort each Beam batch into well-filled length buckets). By default
    the budget is fixed (``min_batch_tokens == max_batch_tokens``); a smaller ``min_batch_tokens`` lets Beam's
    timing-driven estimator grow batches from there, which optimises CPU overhead, not GPU memory.

    One decoder per worker machine by default (``share_across_processes``): one worker process serves the model
    (:class:`SharedDecoder`) and the others call it through a proxy with their token batches, while the text chain
    runs in every worker.
    """

    def __init__(
        self,
        config: TranslateConfig,
        *,
        max_batch_tokens: int | None = None,
        min_batch_tokens: int | None = None,
        share_across_processes: bool = True,
        log_every_batches: int = 50,
    ) -> None:
        # The GPU's (larger) bucket whatever the worker's device: the Translator cuts a Beam batch into its own.
        budget = max_batch_tokens if max_batch_tokens is not None else config.batch_tokens("cuda") * 4
        floor = budget if min_batch_tokens is None else min_batch_tokens
        if not 1 <= floor <= budget:
            raise ValueError(f"need 1 <= min_batch_tokens ({floor}) <= max_batch_tokens ({budget})")
        # The decoder is shared by load_model itself, not by Beam (large_model), which would share the whole
        # Translator and so run every worker's text chain in one process. The base class's batching kwargs are
        # replaced below.
        super().__init__()
        self._config = config
        self._max_batch_tokens = budget
        self._min_batch_tokens = floor
        self._shares_decoder = share_across_processes
        # One name per run, handed to every worker with the handler: the workers of a run find the same decoder,
        # and a run never waits on an address an earlier run's (exited) server left behind.
        self._decoder_tag = f"paranmt_decoder_{uuid.uuid4().hex}"
        self._log_every_batches = max(1, log_every_batches)
        self._model_id: str | None = None
        self._reset_progress()

    @property
    def config(self) -> TranslateConfig:
        return self._config

    @property
    def max_batch_tokens(self) -> int:
        return self._max_batch_tokens

    def _reset_progress(self) -> None:
        self._batches = 0
        self._window_sentences = 0
        self._window_started = time.perf_counter()

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A fresh copy on a worker starts its own throughput window.
        self.__dict__.update(state)
        self._reset_progress()

    def load_model(self) -> Translator:
        if self._shares_decoder:
            # The first worker process to get here serves the decoder from a thread of its own and calls it
            # directly; the machine's other worker processes call it through a proxy.
            config = self._config
            shared = MultiProcessShared(lambda: SharedDecoder(config), self._decoder_tag)
            backend = ProxiedBackend(shared.acquire())
            translator = Translator(ModelDir(model_or_default(self._config.model)), backend, self._config)
        else:
            translator = load_translator(self._config)
        log.info("loaded translator %s", translator.describe())
        return translator

    def run_inference(
        self,
        batch: Sequence[str],
        model: Translator,
        inference_args: dict[str, Any] | None = None,
    ) -> Iterable[PredictionResult]:
        sentences = list(batch)
        if not sentences:
            return []
        # One call for the whole batch: the Translator buckets by exact length and splits/retries on OOM.
        translations = model.translate(sentences)
        self.record(translations)
        model_id = self._model_id_of(model)
        return [PredictionResult(s, t, model_id=model_id) for s, t in zip(sentences, translations, strict=True)]

    def _model_id_of(self, model: Translator) -> str:
        if self._model_id is None:
            try:
                self._model_id = model.model_id
            except AttributeError:
                # A model shared across processes is a proxy that exposes methods only, not properties.
                self._model_id = str(model.describe()["model_id"])
        return self._model_id

    def record(self, translations: Sequence[Translation]) -> None:
        """Count ``translations`` by status in the run's metrics, and log the rate every ``log_every_batches`` calls."""
        ns = self.get_metrics_namespace()
        by_status = dict.fromkeys(Status, 0)
        capped = 0
        for t in translations:
            by_status[t.status] += 1
            capped += t.hit_length_cap
        for status, count in by_status.items():
            if count:
                Metrics.counter(ns, f"translate_{status.value}").inc(count)
        if capped:
            Metrics.counter(ns, "hit_length_cap").inc(capped)
        Metrics.distribution(ns, "translate_batch_sentences").update(len(translations))
        self._batches += 1
        self._window_sentences += len(translations)
        if self._batches % self._log_every_batches == 0:
            elapsed = time.perf_counter() - self._window_started
            log.info("translated %d batches; last %d sentences at %.1f sentences/s", self._batches,
                     self._window_sentences, self._window_sentences / elapsed if elapsed > 0 else 0.0)
            self._window_sentences = 0
            self._window_started = time.perf_counter()

    def validate_inference_args(self, inference_args: dict[str, Any] | None) -> None:
        if inference_args:
            raise ValueError(f"TranslatorModelHandler takes no inference_args; got {sorted(inference_args)}: "
                             "set decoding options in the TranslateConfig")

    def get_num_bytes(self, batch: Sequence[str]) -> int:
        return sum(len(s.encode("utf-8")) for s in batch)  # cheaper than the default pickle.dumps

    def get_metrics_namespace(self) -> str:
        return TRANSLATE_NAMESPACE

    def shares_decoder(self) -> bool:
        return self._shares_decoder

    def batch_elements_kwargs(self) -> Mapping[str, Any]:
        # With element_size_fn, BatchElements measures min/max_batch_size in weight units (tokens here).
        return {
            "min_batch_size": self._min_batch_tokens,
            "max_batch_size": self._max_batch_tokens,
            "element_size_fn": functools.partial(estimate_source_tokens, cap=self._max_batch_tokens),
        }


def _translation_only(keyed: tuple[Any, PredictionResult]) -> tuple[Any, Translation]:
    key, result = keyed
    return key, result.inference


class BackTranslate(beam.PTransform):
    """``(key, czech_text)`` -> ``(key, Translation)`` with RunInference over a :class:`TranslatorModelHandler`.

    Every input comes back exactly once; inputs that cannot be translated come back with status
    ``empty``/``too_long``/``failed`` rather than being dropped. Keyword arguments go to the handler.
    """

    def __init__(self, config: TranslateConfig, *, label: str | None = None,
                 **handler_kwargs: Unpack[HandlerOptions]) -> None:
        super().__init__(label)
        self._handler = TranslatorModelHandler(config, **handler_kwargs)

    @property
    def handler(self) -> TranslatorModelHandler:
        return self._handler

    def expand(self, pcoll: beam.PCollection) -> beam.PCollection:
        return (
            pcoll
            | "Translate" >> RunInference(KeyedModelHandler(self._handler))
            | "DropPrediction" >> beam.Map(_translation_only)
        )


#: Chunks a worker has in translation at once: while the later steps of the fused stage (cache, pair records,
#: scores) work on one chunk's rows, the next two encode and decode in background threads, so the decoder -- a GPU
#: above all -- does not wait for the worker's Python between chunks.
CHUNKS_IN_FLIGHT = 2


class _TranslateChunks(beam.DoFn):
    """``(key, [czech, ...])`` -> ``(key, [Translation, ...])``, one chunk per translate call, up to
    :data:`CHUNKS_IN_FLIGHT` calls running in background threads. A chunk's batches are formed from the chunk
    alone, so it translates the same way whichever thread, worker, run or retry handles it, and in whatever order
    the chunks finish (CTranslate2's scores move by up to ~1e-5 with a batch's composition: a resumed run that
    translates only the missing chunks then writes exactly what an uninterrupted run writes). Chunks should be a
    few hundred sentences or more so each call fills the Translator's token buckets."""

    def __init__(self, handler: TranslatorModelHandler) -> None:
        self._handler = handler
        self._shared = Shared()  # one Translator per worker process, whatever the DoFn instances (as RunInference)

    def setup(self) -> None:
        self._translator = self._shared.acquire(self._handler.load_model)
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
        self._handler.record(translations)
        self._clock.update(int(time.time() * 1000))
        return key, translations

    def teardown(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown(cancel_futures=True)


class BackTranslateChunks(beam.PTransform):
    """``(key, [czech, ...])`` -> ``(key, [Translation, ...])``: each chunk translated by one Translator call
    (translations in input order), several chunks of a worker at once (:class:`_TranslateChunks`). Keyword
    arguments go to the :class:`TranslatorModelHandler` that loads the model and counts the results."""

    def __init__(self, config: TranslateConfig, *, label: str | None = None,
                 **handler_kwargs: Unpack[HandlerOptions]) -> None:
        super().__init__(label)
        self._handler = TranslatorModelHandler(config, **handler_kwargs)

    def expand(self, pcoll: beam.PCollection) -> beam.PCollection:
        return pcoll | "TranslateChunks" >> beam.ParDo(_TranslateChunks(self._handler))


def translation_to_dict(t: Translation, model_id: str | None = None) -> dict[str, Any]:
    """A JSON-ready record of a translation (NaN scores become None, tuples lists, the status its string)."""
    record: dict[str, Any] = {
        "source": t.source,
        "status": t.status.value,
        "hypothesis": t.hypothesis,
        "score": None if math.isnan(t.score) else t.score,
        "tokens": list(t.tokens),
        "nbest": [{"text": h.text, "tokens": list(h.tokens), "score": h.score} for h in t.nbest],
        "hit_length_cap": t.hit_length_cap,
        "source_tokens": t.source_tokens,
        "error": t.error,
    }
    if model_id is not None:
        record["model_id"] = model_id
    return record


def keyed_translation_to_json(element: tuple[Any, Translation]) -> str:
    """One JSON line ``{"key": ..., **translation_to_dict(t)}`` for ``beam.io.WriteToText``; keys must be JSON."""
    key, translation = element
    return json.dumps({"key": key, **translation_to_dict(translation)}, ensure_ascii=False, allow_nan=False)
