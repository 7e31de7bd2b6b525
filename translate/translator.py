"""The backend-independent translator: text chain, input checks, token buckets and failure isolation.

A backend only turns batches of model tokens into n-best lists of (tokens, score); everything a user relies on
(the same statuses, scores and error handling from every backend) lives here.

A batch that fails is split in halves and retried, down to single sentences, so that only the sentences that fail
alone fail (status ``failed``): that is for what is one sentence's own (out of memory on a long one). A failure that
is not -- a missing library, a device error, or the same error on a batch and on both its halves when the probe
batch the backend translated at load fails now too -- stops the translation at once with :class:`BackendFailed`,
one line naming the cause, instead of failing every sentence one by one.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

import numpy as np

from configs.schema import TranslateConfig
from paranmt.core.errors import ParanmtError
from translate.batching import token_buckets
from translate.card import ModelDir
from translate.cuda_libraries import cublas_hint
from translate.text_chain import SourceEncoder, TargetDecoder, TextProcesses

log = logging.getLogger(__name__)

# A few real words, through the model's own text chain: what every backend must translate before it is used
# (translate.loading.probe), and again when a batch and both its halves fail alike.
PROBE_SENTENCES = ("Dobrý den.", "Kde je nádraží?")
# Fewer items than this go through this process's own text chain, even with translate.text_processes: not worth the
# trip to the text processes (the same text either way).
TEXT_PROCESS_MIN = 64


class BackendUnavailable(ParanmtError, RuntimeError):
    """The backend cannot run here (library missing, CUDA libraries missing, ...); the message says what to do."""


class BackendFailed(BackendUnavailable):
    """Decoding failed for a reason that is not one sentence's own (:func:`backend_fault`): the translation stops."""


class Status(StrEnum):
    OK = "ok"
    EMPTY = "empty"  # nothing left after normalisation: not sent to the model
    TOO_LONG = "too_long"  # more than max_source_tokens subword tokens: not sent to the model
    FAILED = "failed"  # the model raised even for this sentence alone; `error` says why


@dataclass(frozen=True, slots=True)
class Hypothesis:
    text: str  # detokenised target text
    tokens: tuple[str, ...]  # the model's output tokens (subwords), EOS excluded
    score: float  # mean natural-log probability per token, EOS included


@dataclass(frozen=True, slots=True)
class Translation:
    source: str
    status: Status
    hypothesis: str = ""
    tokens: tuple[str, ...] = ()
    score: float = math.nan
    nbest: tuple[Hypothesis, ...] = ()  # best first; nbest[0] is the hypothesis above
    hit_length_cap: bool = False  # decoding stopped at max_decoding_length: the hypothesis may be cut
    source_tokens: int = 0
    error: str | None = None


@dataclass(slots=True)
class RawHypothesis:
    tokens: list[str]
    score: float


class DecodeBackend(Protocol):
    """What a backend implements: beam search over batches of model tokens."""

    name: str
    device: str

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        """One n-best list (best first, ``nbest`` long) per input, in input order."""
        ...

    def recover(self) -> None:
        """Called after an out-of-memory error, before retrying smaller batches."""
        ...


class PendingDecode(Protocol):
    """A batch being decoded in the background (a backend may offer ``submit(batch) -> PendingDecode``, and a
    ``queue_depth``: how many batches of a Translator it holds at once, default 2)."""

    def result(self) -> list[list[RawHypothesis]]:
        """The batch's n-best lists, as :meth:`DecodeBackend.decode` returns them; raises what decoding raised."""
        ...


class _Failed:
    """A submission that raised at once: raises again where the result is read, so failures stay isolated."""

    def __init__(self, error: Exception):
        self._error = error

    def result(self) -> list[list[RawHypothesis]]:
        raise self._error


def _submit_or_error(submit: Callable[[list[list[str]]], PendingDecode], batch: list[list[str]]) -> PendingDecode:
    try:
        return submit(batch)
    except Exception as error:
        return _Failed(error)


def is_out_of_memory(error: BaseException) -> bool:
    if isinstance(error, MemoryError):
        return True
    message = str(error).lower()
    return "out of memory" in message or "bad_alloc" in message or "cudaerrormemoryallocation" in message


# A library the backend opens only when it decodes (CTranslate2's cuBLAS: "Library libcublas.so.12 is not found or
# cannot be loaded"), as the loader words it, or a CUDA error that is not out of memory (CTranslate2's "CUDA failed
# with error ...", torch's "CUDA error: ...", a tensor on cuda:0 beside one on the CPU).
_LIBRARY_MESSAGES = ("is not found or cannot be loaded", "cannot open shared object file", "undefined symbol")
_DEVICE_MESSAGE = re.compile(r"\bcuda\b|cublas|cudnn|device-side assert|illegal memory access", re.IGNORECASE)


def backend_fault(error: BaseException) -> str | None:
    """What ``error`` says about the backend when it cannot be one sentence's own (``"a library is missing"``,
    ``"a device error"``); None for what may be (out of memory, anything else)."""
    if is_out_of_memory(error):
        return None
    message = str(error)
    if isinstance(error, OSError | ImportError) or any(m in message for m in _LIBRARY_MESSAGES):
        return "a library is missing"  # or, for an OSError, the process that decodes is gone
    if _DEVICE_MESSAGE.search(message):
        return "a device error"
    return None


def _failure_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


@dataclass
class TranslationStats:
    sentences: int = 0
    ok: int = 0
    empty: int = 0
    too_long: int = 0
    failed: int = 0
    hit_length_cap: int = 0
    source_tokens: int = 0
    target_tokens: int = 0
    batches: int = 0
    oom_splits: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    def add(self, translations: Sequence[Translation]) -> None:
        for t in translations:
            self.sentences += 1
            setattr(self, t.status.value, getattr(self, t.status.value) + 1)
            self.hit_length_cap += t.hit_length_cap
            self.source_tokens += t.source_tokens
            self.target_tokens += len(t.tokens)

    def merge(self, other: TranslationStats) -> None:
        for name in ("sentences", "ok", "empty", "too_long", "failed", "hit_length_cap", "source_tokens",
                     "target_tokens", "batches", "oom_splits", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.errors.extend(other.errors[: max(0, 100 - len(self.errors))])

    def summary(self) -> str:
        rate = self.sentences / self.seconds if self.seconds else 0.0
        tok_rate = self.target_tokens / self.seconds if self.seconds else 0.0
        return (
            f"{self.sentences} sentences in {self.seconds:.1f}s ({rate:.1f} sent/s, {tok_rate:.0f} target tok/s): "
            f"ok {self.ok}, empty {self.empty}, too_long {self.too_long}, failed {self.failed}, "
            f"hit length cap {self.hit_length_cap}, batches {self.batches}, OOM splits {self.oom_splits}"
        )


class Translator:
    """Raw source text in, one :class:`Translation` per input out, in input order, whatever happens."""

    def __init__(self, model_dir: ModelDir, backend: DecodeBackend, config: TranslateConfig):
        self.model_dir = model_dir
        self.backend = backend
        self.config = config
        self.batch_tokens = config.batch_tokens(backend.device)
        self.batch_sentences = config.batch_sentences(backend.device)
        self.encoder = SourceEncoder(model_dir)
        self.decoder = TargetDecoder(model_dir)
        # The text chain of long lists in processes of its own (translate.text_processes): the same text.
        self._text = TextProcesses(model_dir, config.text_processes) if config.text_processes else None
        self.stats = TranslationStats()
        # A model shared across processes (Beam's large-model mode) is called from several threads at once.
        self._stats_lock = threading.Lock()
        # Batches of this translator at the backend at once (:meth:`_submitted`): the backend's queue_depth, or
        # one decoding and one waiting.
        self._at_backend = threading.BoundedSemaphore(getattr(backend, "queue_depth", 2))
        self._stopped: BackendFailed | None = None  # the backend failed: no more batches go to it

    @property
    def model_id(self) -> str:
        return self.model_dir.model_id

    def describe(self) -> dict[str, str | int]:
        return {"model_id": self.model_id, "backend": self.backend.name, "device": self.backend.device,
                "beam_size": self.config.beam_size, "compute_type": getattr(self.backend, "compute_type", "")}

    def translate(
        self, sentences: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> list[Translation]:
        self._raise_if_stopped()  # a backend that failed once gets no more batches from this process
        started = time.perf_counter()
        call = TranslationStats()  # merged into self.stats at the end, under a lock
        pieces = self._encoded(sentences)
        lengths = np.fromiter((len(p) for p in pieces), dtype=np.int64, count=len(pieces))
        results: list[Translation | None] = [None] * len(sentences)
        for i in np.flatnonzero(lengths == 0):
            results[i] = Translation(sentences[i], Status.EMPTY)
        for i in np.flatnonzero(lengths > self.config.max_source_tokens):
            results[i] = Translation(sentences[i], Status.TOO_LONG, source_tokens=int(lengths[i]),
                                     error=f"{lengths[i]} source tokens > max_source_tokens "
                                           f"{self.config.max_source_tokens}")
        decodable = np.flatnonzero((lengths > 0) & (lengths <= self.config.max_source_tokens))
        if progress is not None and len(decodable) < len(sentences):
            progress(len(sentences) - len(decodable))
        batches = [decodable[bucket] for bucket in token_buckets(lengths[decodable], self.batch_tokens,
                                                                  self.batch_sentences)]
        with closing(self._submitted(batches, lengths, pieces)) as submitted:  # closed: its slots freed at once
            for batch, future in submitted:
                indices = batch.tolist()
                self._decode_isolating_failures(indices, sentences, pieces, results, call, future)
                if progress is not None:
                    progress(len(indices))
        final = [r for r in results if r is not None]
        assert len(final) == len(sentences), "every input must get a result"
        call.add(final)
        call.seconds = time.perf_counter() - started
        with self._stats_lock:
            self.stats.merge(call)
        return final

    def _submitted(self, batches: list[np.ndarray], lengths: np.ndarray, pieces: list[list[str]],
                   ) -> Iterator[tuple[np.ndarray, PendingDecode | None]]:
        """Each batch with its decode submitted to the backend (None: the backend decodes when asked).

        A backend with ``submit`` gets the costliest batches (padded tokens) first, so the ones that finish last are
        short, and holds at most ``queue_depth`` batches of this translator at once (default 2), whatever the calls
        in flight: enough to keep its threads busy while this thread turns finished batches into text, few enough
        that after a failure of the backend's (:class:`BackendFailed`) at most one more batch decodes. Order and
        threads change no batch's result."""
        submit = getattr(self.backend, "submit", None)
        if submit is None:
            yield from ((batch, None) for batch in batches)
            return
        batches = sorted(batches, key=lambda b: -len(b) * int(lengths[b].max()))
        queued: deque[tuple[np.ndarray, PendingDecode]] = deque()
        try:
            for batch in batches:
                # Read this call's oldest batch rather than wait for a slot another call holds.
                while queued and not self._at_backend.acquire(blocking=False):
                    yield from self._oldest(queued)
                if not queued:
                    self._at_backend.acquire()
                if self._stopped is not None:
                    self._at_backend.release()
                    self._raise_if_stopped()
                queued.append((batch, _submit_or_error(submit, [pieces[i] for i in batch])))
            while queued:
                yield from self._oldest(queued)
        finally:
            for _ in queued:  # a call stopped by an error: its slots go back (the batches cannot be recalled)
                self._at_backend.release()

    def _oldest(self, queued: deque[tuple[np.ndarray, PendingDecode]],
                ) -> Iterator[tuple[np.ndarray, PendingDecode]]:
        """The oldest queued batch; its slot at the backend is free once the caller is done with it."""
        item = queued.popleft()
        try:
            yield item
        finally:
            self._at_backend.release()

    def _raise_if_stopped(self) -> None:
        if self._stopped is not None:
            raise BackendFailed(str(self._stopped))

    def _decode(self, indices: list[int], pieces: list[list[str]], stats: TranslationStats,
                pending: PendingDecode | None = None) -> list[list[RawHypothesis]] | Exception:
        """A batch's n-best lists (or its ``pending`` decode's), or the error decoding raised; never a call to a
        backend that has failed (:class:`BackendFailed` again)."""
        if pending is None:
            self._raise_if_stopped()
        stats.batches += 1
        try:
            return pending.result() if pending is not None else self.backend.decode([pieces[i] for i in indices])
        except Exception as error:
            return error

    def _decode_isolating_failures(
        self, indices: list[int], sentences: Sequence[str], pieces: list[list[str]],
        results: list[Translation | None], stats: TranslationStats, pending: PendingDecode | None = None,
    ) -> None:
        """Decode a batch (or wait for its ``pending`` decode); on failure see :meth:`_isolate`."""
        outcome = self._decode(indices, pieces, stats, pending)
        if isinstance(outcome, Exception):
            self._isolate(indices, outcome, sentences, pieces, results, stats)
        else:
            self._store(indices, outcome, sentences, pieces, results)

    def _isolate(self, indices: list[int], error: Exception, sentences: Sequence[str], pieces: list[list[str]],
                 results: list[Translation | None], stats: TranslationStats) -> None:
        """The batch ``indices`` failed with ``error``: split it in halves and retry, down to single sentences, so
        only the sentences that fail alone fail -- unless the failure is the backend's (:func:`backend_fault`, or the
        same error on the batch and on both its halves while the probe batch fails too): then
        :class:`BackendFailed`, and the translation stops."""
        fault = backend_fault(error)
        if fault is not None:
            raise self._failed(fault, error) from error
        oom = is_out_of_memory(error)
        if oom:
            self.backend.recover()
        if len(indices) == 1:
            i = indices[0]
            message = _failure_line(error)
            log.warning("translation failed for input %d: %s", i, message)
            stats.errors.append(message)
            results[i] = Translation(sentences[i], Status.FAILED, source_tokens=len(pieces[i]), error=message)
            return
        stats.oom_splits += oom
        log.info("batch of %d failed (%s); splitting and retrying", len(indices),
                 "out of memory" if oom else type(error).__name__)
        half = len(indices) // 2
        halves = [indices[:half], indices[half:]]
        if oom:  # one half at a time: the first one's buffers are freed (recover) before the second decodes
            for part in halves:
                self._decode_isolating_failures(part, sentences, pieces, results, stats)
            return
        outcomes = [self._decode(part, pieces, stats) for part in halves]
        if all(isinstance(o, Exception) and _failure_line(o) == _failure_line(error) for o in outcomes) \
                and isinstance(self._decode_probe(stats), Exception):
            raise self._failed("the same error on a batch, on both its halves and on the probe batch", error) \
                from error
        for part, outcome in zip(halves, outcomes, strict=True):
            if isinstance(outcome, Exception):
                self._isolate(part, outcome, sentences, pieces, results, stats)
            else:
                self._store(part, outcome, sentences, pieces, results)

    def _decode_probe(self, stats: TranslationStats) -> list[list[RawHypothesis]] | Exception:
        """:data:`PROBE_SENTENCES`, which the backend translated when it was loaded: if it cannot now, the backend
        is broken, whatever the sentences of the failing batch."""
        probe = self.encoder.encode_batch(PROBE_SENTENCES)
        return self._decode(list(range(len(probe))), probe, stats)

    def _failed(self, cause: str, error: Exception) -> BackendFailed:
        """The translation's stop, and this translator's for good: every later call raises it again."""
        message = _failure_line(error)
        failure = BackendFailed(f"translation stopped: the {self.backend.name} backend on {self.backend.device} "
                                f"cannot translate ({cause}): {message}{cublas_hint(message)}")
        if self._stopped is None:
            self._stopped = failure
        return failure

    def _encoded(self, sentences: Sequence[str]) -> list[list[str]]:
        if self._text is not None and len(sentences) >= TEXT_PROCESS_MIN:
            return self._text.encode_batch(sentences)
        return self.encoder.encode_batch(sentences)

    def _detokenised(self, token_lists: list[list[str]]) -> list[str]:
        if self._text is not None and len(token_lists) >= TEXT_PROCESS_MIN:
            return self._text.decode_all(token_lists)
        return [self.decoder.decode(tokens) for tokens in token_lists]

    def _store(self, indices: list[int], nbest_lists: list[list[RawHypothesis]], sentences: Sequence[str],
               pieces: list[list[str]], results: list[Translation | None]) -> None:
        cap = self.config.max_decoding_length
        texts = iter(self._detokenised([h.tokens for nbest in nbest_lists for h in nbest]))
        for i, nbest in zip(indices, nbest_lists, strict=True):
            hyps = tuple(Hypothesis(next(texts), tuple(h.tokens), float(h.score)) for h in nbest)
            best = hyps[0]
            results[i] = Translation(
                sentences[i], Status.OK, hypothesis=best.text, tokens=best.tokens, score=best.score,
                nbest=hyps, hit_length_cap=len(best.tokens) >= cap, source_tokens=len(pieces[i]),
            )
