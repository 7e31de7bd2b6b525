"""The back-translation's worker side: one Translator per worker process (its decoder shared by the machine's
processes), chunks translated several at once, on local runners with the toy model.

Runners are named explicitly: the default DirectRunner first tries the Prism runner, which downloads a binary.
"""

from __future__ import annotations

import logging
import pickle
import threading
import uuid
from pathlib import Path

import apache_beam as beam
import cloudpickle

from configs.schema import TranslateConfig
from pipeline.metrics import TRANSLATE_NAMESPACE
from pipeline.stages.worker_translator import RATE_LOG_EVERY_CHUNKS, ProxiedBackend, TranslateChunks, WorkerTranslator
from translate.loading import load_translator
from translate.translator import Status, Translation


def _config(model: Path, **overrides) -> TranslateConfig:
    return TranslateConfig(model=model, backend="ctranslate2", device="cpu", threads=1, beam_size=4, **overrides)


class _Collect(beam.DoFn):
    """Writes each (key, [Translation, ...]) to a pickle file (in-process runners only: workers cannot import
    tests)."""

    def __init__(self, out_dir: str):
        self._out_dir = out_dir

    def process(self, keyed):
        _, translations = keyed
        assert all(isinstance(t, Translation) and isinstance(t.status, Status) for t in translations)
        path = Path(self._out_dir) / f"{uuid.uuid4().hex}.pkl"
        path.write_bytes(pickle.dumps(keyed))


def test_chunks_translate_as_the_standalone_translator(toy_model, toy_corpus, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="pipeline.stages.worker_translator")
    cs, en = toy_corpus
    held_cs, held_en = cs[-500:-300], en[-500:-300]  # the last 500 pairs are held out from training
    inputs = [" ".join(["pes"] * 60), *held_cs, ""]
    config = _config(toy_model, max_source_tokens=30)
    size = len(inputs) // RATE_LOG_EVERY_CHUNKS  # enough chunks for one line of the translation rate
    chunks = [(k, inputs[k * size:(k + 1) * size]) for k in range((len(inputs) + size - 1) // size)]
    out = tmp_path / "out"
    out.mkdir()
    pipeline = beam.Pipeline(runner="BundleBasedDirectRunner")
    _ = (
        pipeline
        | beam.Create(chunks)
        | beam.ParDo(TranslateChunks(WorkerTranslator(config)))
        | beam.ParDo(_Collect(str(out)))
    )
    result = pipeline.run()
    result.wait_until_finish()

    by_key = dict(pickle.loads(p.read_bytes()) for p in out.glob("*.pkl"))
    assert sorted(by_key) == [k for k, _ in chunks], "every chunk exactly once"
    translator = load_translator(config)
    got = [t for k, _ in chunks for t in by_key[k]]
    expected = [t for _, chunk in chunks for t in translator.translate(chunk)]  # a chunk is one call
    assert [repr(t) for t in got] == [repr(t) for t in expected]  # repr: NaN scores compare equal
    assert got[0].status is Status.TOO_LONG and got[-1].status is Status.EMPTY
    exact = sum(t.hypothesis == e for t, e in zip(got[1:-1], held_en, strict=True))
    assert exact >= 0.95 * len(held_cs), f"only {exact}/{len(held_cs)} held-out sentences exact"

    counters = {c.key.metric.name: c.committed for c in result.metrics().query(
        beam.metrics.MetricsFilter().with_namespace(TRANSLATE_NAMESPACE))["counters"]}
    statuses = [t.status for t in expected]
    assert counters["translate_ok"] == statuses.count(Status.OK)
    assert counters["translate_empty"] == 1 and counters["translate_too_long"] == 1
    assert sum("sentences/s" in r.getMessage() for r in caplog.records) == 1, "one line of the translation rate"


def test_the_worker_translator_pickles_and_shares_its_decoder(toy_model):
    config = _config(toy_model)
    worker = WorkerTranslator(config)
    copies = [loads(dumps(worker)) for dumps, loads in ((pickle.dumps, pickle.loads),
                                                         (cloudpickle.dumps, cloudpickle.loads))]
    assert all(copy.config == config for copy in copies)
    # Shared across processes, only the decoder is: it runs in a process of its own, the text chain here, and the
    # translations are the local translator's, byte for byte.
    translator = copies[-1].load_model()  # a worker's copy, loaded as a worker loads it
    assert isinstance(translator.backend, ProxiedBackend)
    assert translator.backend.name == "ctranslate2" and translator.backend.device == "cpu"
    inputs = ["Velký pes vidí dům.", "Muž jede na kole po ulici.", "Dvě děti si hrají v parku.", ""]
    local_translator = load_translator(config)
    assert not isinstance(local_translator.backend, ProxiedBackend)
    assert translator.translate(inputs) == local_translator.translate(inputs)
    assert [t.status for t in translator.translate(inputs)] == [Status.OK] * 3 + [Status.EMPTY]


class _OverlapTranslator:
    """A translator whose chunk k finishes only once chunk k + 1 has started: a stage that translated one chunk at
    a time would wait on chunk 0 forever (a bounded wait here, so such a stage fails instead of hanging)."""

    def __init__(self, chunks: int) -> None:
        self.started = [threading.Event() for _ in range(chunks)]

    def translate(self, chunk: list[str], progress=None) -> list[Translation]:
        k = int(chunk[0])
        self.started[k].set()
        if k + 1 < len(self.started):
            assert self.started[k + 1].wait(timeout=60), f"chunk {k + 1} did not start while chunk {k} was in flight"
        return [Translation(text, Status.OK, hypothesis=f"mt {text}") for text in chunk]


class _FakeHandler:
    def __init__(self, translator: _OverlapTranslator) -> None:
        self.translator, self.recorded = translator, []

    def load_model(self) -> _OverlapTranslator:
        return self.translator

    def record(self, translations: list[Translation]) -> None:
        self.recorded.append(len(translations))


def test_chunks_of_a_worker_translate_at_once_and_come_back_in_order():
    handler = _FakeHandler(_OverlapTranslator(6))
    stage = TranslateChunks(handler)
    stage.setup()
    stage.start_bundle()
    out = [element for k in range(6) for element in stage.process((f"chunk{k}", [str(k), str(k)]))]
    out += [windowed.value for windowed in stage.finish_bundle()]
    stage.teardown()
    assert [(key, [t.hypothesis for t in translations]) for key, translations in out] == \
        [(f"chunk{k}", [f"mt {k}", f"mt {k}"]) for k in range(6)], "every chunk once, with its own translations"
    assert handler.recorded == [2] * 6
