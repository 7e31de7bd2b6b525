"""A backend that cannot translate stops the translation in one line instead of failing sentence by sentence (issue
42): a missing library or a device error on the first batch; the same error on a batch, on both its halves and on
the probe batch; the probe batch at load; and ``backend: auto`` falling back only to a backend that translated it.
Counted in decode calls and log lines, never in seconds."""

from __future__ import annotations

import logging

import pytest

from configs.schema import TranslateConfig
from tests.support.shared_data import small_cs_en
from tests.support.taste_data import taste_pairs
from translate.card import ModelDir
from translate.ct2_backend import CTranslate2Backend
from translate.cuda_libraries import CUBLAS_FIX
from translate.fairseq_backend import FairseqBackend
from translate.loading import load_backend, load_translator
from translate.text_chain import SourceEncoder
from translate.translator import (
    PROBE_SENTENCES,
    BackendFailed,
    BackendUnavailable,
    RawHypothesis,
    Status,
    Translator,
    backend_fault,
)

CUBLAS_MISSING = RuntimeError("Library libcublas.so.12 is not found or cannot be loaded")
# fairseq's error when a batch's sample["id"] is left on the CPU beside a GPU model: every batch, whatever its
# sentences
WRONG_DEVICE = RuntimeError("indices should be either on cpu or on the same device as the indexed tensor (cpu)")


class FailingBackend:
    """Raises ``error`` for every batch holding a sentence of ``failing`` (every batch when None)."""

    name, device = "fake", "cuda"

    def __init__(self, error: Exception, failing: set[tuple[str, ...]] | None = None):
        self.error, self.failing = error, failing
        self.calls: list[int] = []
        self.probe = SourceEncoder(ModelDir(small_cs_en())).encode_batch(PROBE_SENTENCES)
        self.probed = 0  # decodes of the probe batch

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        self.calls.append(len(batch))
        self.probed += batch == self.probe
        if self.failing is None or any(tuple(tokens) in self.failing for tokens in batch):
            raise self.error
        return [[RawHypothesis(list(tokens), -0.5)] for tokens in batch]

    def recover(self) -> None:
        pass


class FailingAsyncBackend(FailingBackend):
    """The same through ``submit``: every batch queued at once, each failure raised where its result is read."""

    def submit(self, batch: list[list[str]]):
        backend = self

        class Pending:
            def result(self) -> list[list[RawHypothesis]]:
                return backend.decode(batch)

        return Pending()


@pytest.fixture(scope="module")
def czech() -> list[str]:
    return taste_pairs(300)[0]


def translator(backend) -> Translator:
    model = ModelDir(small_cs_en())
    return Translator(model, backend, TranslateConfig(model=model.root, max_batch_tokens=512))


@pytest.mark.parametrize("backend_class", [FailingBackend, FailingAsyncBackend])
@pytest.mark.parametrize(("error", "cause", "calls"), [
    (CUBLAS_MISSING, "a library is missing", 1),
    (OSError("libcudart.so.13: cannot open shared object file: No such file or directory"), "a library is missing", 1),
    (RuntimeError("CUDA failed with error an illegal memory access was encountered"), "a device error", 1),
    (WRONG_DEVICE, "the same error on a batch, on both its halves and on the probe batch", 4),
])
def test_a_broken_backend_stops_the_translation_in_one_line(czech, caplog, backend_class, error, cause, calls):
    backend = backend_class(error)
    with caplog.at_level(logging.INFO), pytest.raises(BackendFailed) as stopped:
        translator(backend).translate(czech)
    assert len(backend.calls) == calls  # of the ~25 batches of 300 sentences, each of which would fail
    assert backend.probed == (calls == 4)  # the fourth: the probe batch, which translated at load
    assert str(stopped.value) == (f"translation stopped: the fake backend on cuda cannot translate ({cause}): "
                                  f"{type(error).__name__}: {error}"
                                  + (f" -- {CUBLAS_FIX}" if error is CUBLAS_MISSING else ""))
    assert isinstance(stopped.value, BackendUnavailable)  # what a caller of load_translator already catches
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(caplog.records) <= 1  # at most the one "splitting and retrying" of the batch whose halves failed too


def test_what_only_some_sentences_raise_is_still_isolated(czech, caplog):
    """Sentences that fail alone, all with the same error (here: those with a comma, about one in ten), among good
    ones: each batch splits down to them and only they fail -- also where both halves of a batch fail alike: the
    probe batch still translates then, so the failure is the sentences' own."""
    backend = FailingBackend(ValueError("cannot decode this sentence"), failing=set())
    run = translator(backend)
    pieces = run.encoder.encode_batch(czech)
    backend.failing = {tuple(p) for p in pieces if "," in p}
    with caplog.at_level(logging.WARNING):
        out = run.translate(czech)
    failed = [i for i, t in enumerate(out) if t.status is Status.FAILED]
    assert failed == [i for i, p in enumerate(pieces) if "," in p] and 10 <= len(failed) <= 100
    assert all(t.status is Status.OK for i, t in enumerate(out) if i not in failed)
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == len(failed)
    assert backend.probed > 0, "no batch had both halves fail: the probe went untested"


def test_what_is_the_backends_fault():
    assert backend_fault(CUBLAS_MISSING) == "a library is missing"
    assert backend_fault(ImportError("libcublasLt.so.12: undefined symbol: cublasLtCreate")) == "a library is missing"
    assert backend_fault(ConnectionResetError("the decoder's process is gone")) == "a library is missing"
    assert backend_fault(RuntimeError("CUDA error: device-side assert triggered")) == "a device error"
    assert backend_fault(RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                                      "cuda:0 and cpu!")) == "a device error"
    assert backend_fault(RuntimeError("CUDA failed with error out of memory")) is None  # a long sentence's own
    assert backend_fault(MemoryError()) is None
    assert backend_fault(WRONG_DEVICE) is None  # the same error on both halves says it (above)
    assert backend_fault(ValueError("cannot decode this sentence")) is None


def toy_config(model, backend: str) -> TranslateConfig:
    return TranslateConfig(model=model, backend=backend, device="cpu", compute_type="float32", threads=1)


def test_a_backend_that_loads_but_cannot_translate_fails_at_load(toy_model, monkeypatch):
    def no_cublas(self, batch):
        raise CUBLAS_MISSING

    monkeypatch.setattr(CTranslate2Backend, "decode", no_cublas)
    with pytest.raises(BackendUnavailable) as error:
        load_translator(toy_config(toy_model, "ctranslate2"))
    assert str(error.value) == ("the ctranslate2 backend loads on cpu but cannot translate a probe batch: "
                                f"RuntimeError: {CUBLAS_MISSING} -- {CUBLAS_FIX}")


def test_auto_falls_back_once_to_a_backend_that_translated_the_probe(toy_model, monkeypatch, caplog):
    probes: list[str] = []
    real_ct2, real_fairseq = CTranslate2Backend.decode, FairseqBackend.decode

    def broken_ct2(self, batch):
        probes.append("ctranslate2")
        raise CUBLAS_MISSING

    def counted_fairseq(self, batch):
        probes.append("fairseq")
        return real_fairseq(self, batch)

    monkeypatch.setattr(CTranslate2Backend, "decode", broken_ct2)
    monkeypatch.setattr(FairseqBackend, "decode", counted_fairseq)
    with caplog.at_level(logging.WARNING):
        _, backend = load_backend(toy_config(toy_model, "auto"))
    assert backend.name == "fairseq" and probes == ["ctranslate2", "fairseq"]
    assert [r.getMessage() for r in caplog.records] == [
        "the ctranslate2 backend loads on cpu but cannot translate a probe batch: RuntimeError: Library "
        f"libcublas.so.12 is not found or cannot be loaded -- {CUBLAS_FIX} -- falling back to the fairseq backend "
        "on cpu"]

    caplog.clear()
    monkeypatch.setattr(FairseqBackend, "decode", lambda self, batch: [[] for _ in batch])  # no hypotheses at all
    with caplog.at_level(logging.WARNING), pytest.raises(BackendUnavailable) as error:
        load_backend(toy_config(toy_model, "auto"))
    assert not caplog.records  # no warning for a fallback that did not happen
    assert str(error.value) == (
        f"the ctranslate2 backend loads on cpu but cannot translate a probe batch: RuntimeError: {CUBLAS_MISSING} -- "
        f"{CUBLAS_FIX}; and the fairseq fallback: the fairseq backend loads on cpu but cannot translate a probe batch: "
        "RuntimeError: 2 n-best lists for 2 sentences, or an empty one")

    monkeypatch.setattr(CTranslate2Backend, "decode", real_ct2)
    assert load_backend(toy_config(toy_model, "auto"))[1].name == "ctranslate2"  # a working CTranslate2 is kept


class QueuingBackend(FailingBackend):
    """CTranslate2's ``submit``: a batch is the backend's the moment it is queued (it will decode whatever happens
    after), and a failure is raised where its result is read. ``calls`` counts every batch queued."""

    queue_depth = 2  # one decoding, one waiting: a GPU's

    def submit(self, batch: list[list[str]]):
        self.calls.append(len(batch))
        error = self.error

        class Pending:
            def result(self) -> list[list[RawHypothesis]]:
                raise error

        return Pending()


DEVICE_ERROR = RuntimeError("CUDA failed with error an illegal memory access was encountered")


@pytest.mark.parametrize("backend_class", [FailingBackend, QueuingBackend])
def test_a_failed_backend_gets_no_more_batches_from_the_translator(czech, backend_class):
    """After a device error no further batch goes to the backend in that process -- not the call's queued
    batches, not a later call's, not those of calls in flight in other threads (a worker's chunks) -- and every
    later call raises the same one line without calling the backend."""
    backend = backend_class(DEVICE_ERROR)
    run = translator(backend)
    with pytest.raises(BackendFailed) as first:
        run.translate(czech)
    assert len(backend.calls) <= 2, "at most one batch after the one that failed (it was queued before)"
    calls = len(backend.calls)
    for _ in range(3):
        with pytest.raises(BackendFailed) as again:
            run.translate(czech[:40])
        assert str(again.value) == str(first.value)
    assert len(backend.calls) == calls, "no batch after the failure"


def test_chunks_in_flight_stop_with_the_first_failure(czech):
    """Two chunks translating at once in one process (the pipeline's chunks in flight) share the translator's
    queue at the backend: the backend gets at most two batches in all, the failing one and one queued beside it."""
    from concurrent.futures import ThreadPoolExecutor

    backend = QueuingBackend(DEVICE_ERROR)
    run = translator(backend)
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(run.translate, czech[k::2]) for k in range(2)]
        errors = [future.exception() for future in futures]
    assert all(isinstance(error, BackendFailed) for error in errors)
    assert len({str(error) for error in errors}) == 1
    assert len(backend.calls) <= 2


def test_the_device_fault_stand_in_gets_one_batch_after_its_probe(czech, monkeypatch):
    """benchmarks/broken_backend.DeviceFault (CTranslate2 for the load-time probe, then a CUDA error on every batch)
    through load_translator, as the GPU suite's third failure scenario runs it: one batch reaches it after the
    probe, and none after the failure."""
    from tests.support.repo import load_benchmark

    fault = load_benchmark("gpu/broken_backend").DeviceFault
    calls: list[int] = []
    real = fault.decode

    def counted(self, batch):
        calls.append(len(batch))
        return real(self, batch)

    monkeypatch.setattr(fault, "decode", counted)
    model = ModelDir(small_cs_en())
    config = TranslateConfig(model=model.root, backend="broken_backend:DeviceFault", device="cpu", threads=1,
                             beam_size=2, max_batch_tokens=512)
    backend = fault(model, config, "cpu")
    run = Translator(model, backend, config)
    backend.decode(run.encoder.encode_batch(PROBE_SENTENCES))  # the probe, as translate.loading.probe sends it
    with pytest.raises(BackendFailed, match="a device error"):
        run.translate(czech)
    with pytest.raises(BackendFailed, match="a device error"):
        run.translate(czech[:10])
    assert len(calls) == 2, "the probe, then the one batch that failed"
