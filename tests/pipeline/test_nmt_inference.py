"""The Beam RunInference handler and the BackTranslate transform, on local runners with the toy model.

Runners are named explicitly: the default DirectRunner first tries the Prism runner, which downloads a binary.
"""

from __future__ import annotations

import json
import logging
import math
import pickle
import threading
import uuid
from pathlib import Path

import apache_beam as beam
import cloudpickle
import pytest
from apache_beam.options.pipeline_options import PipelineOptions
from apache_beam.runners.portability.fn_api_runner import FnApiRunner

from configs.schema import TranslateConfig
from pipeline.metrics import TRANSLATE_NAMESPACE
from pipeline.nmt_inference import (
    BackTranslate,
    ProxiedBackend,
    TranslatorModelHandler,
    _TranslateChunks,
    keyed_translation_to_json,
    translation_to_dict,
)
from translate.loading import load_translator
from translate.translator import Status, Translation


def _config(model: Path, **overrides) -> TranslateConfig:
    return TranslateConfig(model=model, backend="ctranslate2", device="cpu", threads=1, beam_size=4, **overrides)


class _Collect(beam.DoFn):
    """Writes each (key, Translation) to a pickle file (in-process runners only: workers cannot import tests)."""

    def __init__(self, out_dir: str):
        self._out_dir = out_dir

    def process(self, keyed):
        _, translation = keyed
        assert isinstance(translation, Translation) and isinstance(translation.status, Status)
        path = Path(self._out_dir) / f"{uuid.uuid4().hex}.pkl"
        path.write_bytes(pickle.dumps(keyed))


def _collected(out_dir: Path) -> list[tuple[int, Translation]]:
    return [pickle.loads(p.read_bytes()) for p in sorted(out_dir.glob("*.pkl"))]


def test_back_translate_pipeline_matches_standalone_translator(toy_model, toy_corpus, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="pipeline.nmt_inference")
    cs, en = toy_corpus
    held_cs, held_en = cs[-500:-300], en[-500:-300]  # the last 500 pairs are held out from training
    over_long = " ".join(["pes"] * 60)
    # The over-long line goes first: an element heavier than the whole budget at the start of a bundle made
    # Beam 2.77's BatchElements emit an empty batch (before the estimate was clamped to the budget).
    inputs = [over_long, *held_cs, ""]
    config = _config(toy_model, max_source_tokens=30)
    # A small budget forces many Beam batches, and the 60-word line's estimate (92) exceeds it.
    transform = BackTranslate(config, max_batch_tokens=64, log_every_batches=5)
    out = tmp_path / "out"
    out.mkdir()

    pipeline = beam.Pipeline(runner="BundleBasedDirectRunner")
    _ = (
        pipeline
        | beam.Create(list(enumerate(inputs)))
        | transform
        | beam.ParDo(_Collect(str(out)))
    )
    result = pipeline.run()
    result.wait_until_finish()

    got = _collected(out)
    keys = [k for k, _ in got]
    assert sorted(keys) == list(range(len(inputs))), "every key exactly once"
    by_key = dict(got)
    assert by_key[0].status is Status.TOO_LONG
    assert by_key[len(inputs) - 1].status is Status.EMPTY
    exact = sum(by_key[i + 1].hypothesis == held_en[i] for i in range(len(held_cs)))
    assert exact >= 0.95 * len(held_cs), f"only {exact}/{len(held_cs)} held-out sentences exact"

    standalone = load_translator(config).translate(inputs)
    for i, expected in enumerate(standalone):
        assert by_key[i].status == expected.status
        assert by_key[i].hypothesis == expected.hypothesis
        assert by_key[i].score == pytest.approx(expected.score, abs=1e-4, nan_ok=True)

    counters = {c.key.metric.name: c.committed for c in result.metrics().query(
        beam.metrics.MetricsFilter().with_namespace(TRANSLATE_NAMESPACE))["counters"]}
    statuses = [t.status for t in standalone]
    assert counters["translate_ok"] == statuses.count(Status.OK)
    assert counters["translate_empty"] == 1 and counters["translate_too_long"] == 1
    sizes = result.metrics().query(beam.metrics.MetricsFilter().with_name("translate_batch_sentences"))
    dist = sizes["distributions"][0].committed
    assert dist.sum == len(inputs) and dist.count > 1, "the token budget splits the input into several batches"

    assert any("sentences/s" in r.getMessage() for r in caplog.records), "a throughput line every 5 batches"

    record = translation_to_dict(by_key[len(inputs) - 1], model_id="toy")
    assert record["status"] == "empty" and record["score"] is None and record["model_id"] == "toy"
    json.dumps(translation_to_dict(by_key[1]), allow_nan=False)


def test_back_translate_multi_process_runner(toy_model, toy_corpus, tmp_path):
    cs, _ = toy_corpus
    inputs = cs[-50:]
    # FnApiRunner named directly: "--runner=DirectRunner" would try Prism (a download) before falling back.
    # Worker processes cannot import this test module, so every callable below lives in an importable module.
    options = PipelineOptions(["--direct_running_mode=multi_processing", "--direct_num_workers=2"])
    with beam.Pipeline(runner=FnApiRunner(), options=options) as pipeline:
        _ = (
            pipeline
            | beam.Create([(f"k{i}", s) for i, s in enumerate(inputs)])
            | "Spread" >> beam.Reshuffle()  # over both worker processes
            | BackTranslate(_config(toy_model), max_batch_tokens=128)
            | "Encode" >> beam.Reshuffle()  # (key, Translation) crosses processes through Beam's coders
            | beam.Map(keyed_translation_to_json)  # needs a real Status: it writes status.value
            | beam.io.WriteToText(str(tmp_path / "out"), file_name_suffix=".jsonl")
        )
    records = [json.loads(line) for path in sorted(tmp_path.glob("out*.jsonl"))
               for line in path.read_text(encoding="utf-8").splitlines()]
    assert sorted(r["key"] for r in records) == sorted(f"k{i}" for i in range(len(inputs)))
    assert all(r["status"] == "ok" and r["hypothesis"] for r in records)
    assert {r["source"] for r in records} == set(inputs)


def test_handler_batches_by_tokens_and_pickles(toy_model):
    config = _config(toy_model, max_batch_tokens=1000)
    handler = TranslatorModelHandler(config)
    kwargs = handler.batch_elements_kwargs()
    assert kwargs["max_batch_size"] == 4000 == handler.max_batch_tokens
    assert kwargs["min_batch_size"] == 4000  # a fixed token budget by default
    assert "max_batch_weight" not in kwargs  # beam.BatchElements in 2.77 rejects it
    size = kwargs["element_size_fn"]
    assert size("") == 2
    lengths = [size(" ".join(["slovo"] * n)) for n in (1, 5, 20, 80)]
    assert lengths == sorted(lengths) and len(set(lengths)) == 4
    assert size(("key", "a b c d")) == size("a b c d") == math.ceil(4 * 1.5) + 2
    assert size(" ".join(["x"] * 10_000)) == 4000, "an element never outweighs the budget"
    beam.BatchElements(**kwargs)  # the kwargs are accepted by the transform RunInference builds

    assert handler.shares_decoder() and not handler.share_model_across_processes()
    assert handler.get_metrics_namespace() == "paranmt_translate"
    local = TranslatorModelHandler(config, share_across_processes=False, max_batch_tokens=64,
                                   min_batch_tokens=16)
    assert not local.shares_decoder()
    assert local.batch_elements_kwargs()["min_batch_size"] == 16
    with pytest.raises(ValueError):
        TranslatorModelHandler(config, max_batch_tokens=8, min_batch_tokens=16)
    with pytest.raises(ValueError):
        handler.validate_inference_args({"beam_size": 2})

    for dumps, loads in ((pickle.dumps, pickle.loads), (cloudpickle.dumps, cloudpickle.loads)):
        copy = loads(dumps(handler))
        assert copy.config == config
        assert copy.batch_elements_kwargs()["max_batch_size"] == 4000
        assert copy.shares_decoder() and not copy.share_model_across_processes()

    translator = handler.load_model()
    results = list(handler.run_inference(["Velký pes vidí dům.", ""], translator))
    assert [r.example for r in results] == ["Velký pes vidí dům.", ""]
    assert [r.inference.status for r in results] == [Status.OK, Status.EMPTY]
    assert {r.model_id for r in results} == {translator.model_id}
    assert list(handler.run_inference([], translator)) == []

    # Shared across processes, only the decoder is: it runs in a process of its own, the text chain here, and the
    # translations are the local translator's, byte for byte.
    assert isinstance(translator.backend, ProxiedBackend)
    assert translator.backend.name == "ctranslate2" and translator.backend.device == "cpu"
    inputs = ["Velký pes vidí dům.", "Muž jede na kole po ulici.", "Dvě děti si hrají v parku."]
    local_translator = local.load_model()
    assert not isinstance(local_translator.backend, ProxiedBackend)
    assert translator.translate(inputs) == local_translator.translate(inputs)


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
    stage = _TranslateChunks(handler)
    stage.setup()
    stage.start_bundle()
    out = [element for k in range(6) for element in stage.process((f"chunk{k}", [str(k), str(k)]))]
    out += [windowed.value for windowed in stage.finish_bundle()]
    stage.teardown()
    assert [(key, [t.hypothesis for t in translations]) for key, translations in out] == \
        [(f"chunk{k}", [f"mt {k}", f"mt {k}"]) for k in range(6)], "every chunk once, with its own translations"
    assert handler.recorded == [2] * 6
