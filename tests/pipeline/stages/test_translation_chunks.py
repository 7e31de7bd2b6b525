"""How many rows one translation call gets, and the cache key it is stored under: decided on the worker that
decodes (where the translator is loaded), not on the launcher, so GPU workers behind a launcher without a GPU get
the GPU's chunk and key with ``translate.device auto``; the device's default chunk unless
``pipeline.cache_chunk_lines`` is set."""

from __future__ import annotations

import pytest

import translate.loading
from configs.schema import ParaNMTConfig
from pipeline.stages.backtranslate import BackTranslate, TranslationSettings, _KeyByChunk, _LookupChunk


def _settings(tmp_path, **sections) -> TranslationSettings:
    config = ParaNMTConfig.model_validate(sections)
    # local=False: a remote runner's launcher checks no GPU of its own (the workers may have it)
    return BackTranslate.for_run(config, str(tmp_path), local=False).settings


@pytest.mark.parametrize(("device", "gpu", "plan_device", "chunk"), [
    ("auto", True, "cuda", 4096), ("auto", False, "cpu", 500), ("cuda", False, "cuda", 4096),
    ("cpu", True, "cpu", 500)])
def test_the_worker_decides_device_chunk_and_cache_key(tmp_path, device, gpu, plan_device, chunk):
    settings = _settings(tmp_path, translate={"device": device})
    plan = settings.on_worker(gpu_visible=lambda: gpu)
    assert (plan.device, plan.chunk_lines) == (plan_device, chunk)
    key = dict(plan.cache.settings)
    assert key["device"] == plan_device and key["max_batch_tokens"] == (512 if plan_device == "cpu" else 32768)
    chosen = _settings(tmp_path, translate={"device": device}, pipeline={"cache_chunk_lines": 64})
    assert chosen.on_worker(gpu_visible=lambda: gpu).chunk_lines == 64
    assert _settings(tmp_path, pipeline={"translation_cache": False}).on_worker(lambda: gpu).cache is None


def test_a_cpu_launcher_leaves_auto_to_gpu_workers(tmp_path, monkeypatch):
    """The launcher sees no GPU; its settings, pickled to a worker that sees one, give that worker the GPU's
    chunk and key: the DoFns decide in setup(), on the worker."""
    monkeypatch.setattr(translate.loading, "cuda_device_count", lambda kernel: 0)
    monkeypatch.setattr(translate.loading, "_torch_has_cuda", lambda: False)
    settings = _settings(tmp_path)  # translate.device auto, built by a launcher without a GPU
    assert settings.on_worker().device == "cpu"
    monkeypatch.setattr(translate.loading, "cuda_device_count", lambda kernel: 1)  # now a GPU worker
    keyer, lookup = _KeyByChunk(settings), _LookupChunk(settings)
    keyer.setup()
    lookup.setup()
    assert keyer._lines == 4096 and dict(lookup._cache.settings)["device"] == "cuda"
