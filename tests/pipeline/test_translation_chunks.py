"""How many rows one translation call gets: the device's default (a GPU's chunk fills its large batches) unless
``pipeline.cache_chunk_lines`` is set; ``auto`` decided as the launcher sees the machine (as the translator decides
it: CTranslate2 or torch sees a GPU)."""

from __future__ import annotations

import pytest

import translate.loading
from configs.schema import ParaNMTConfig
from pipeline.backtranslate import BackTranslateRows


@pytest.mark.parametrize(("device", "gpus", "chunk"), [
    ("auto", 1, 4096), ("auto", 0, 500), ("cuda", 0, 4096), ("cpu", 1, 500)])
def test_a_run_translates_in_chunks_sized_for_its_device(monkeypatch, tmp_path, device, gpus, chunk):
    monkeypatch.setattr(translate.loading, "cuda_device_count", lambda: gpus)
    monkeypatch.setattr(translate.loading, "_torch_has_cuda", lambda: False)
    config = ParaNMTConfig.model_validate({"translate": {"device": device}})
    # local=False: a remote runner's launcher checks no GPU of its own (the workers may have it)
    assert BackTranslateRows.for_run(config, str(tmp_path), local=False)._chunk_lines == chunk
    chosen = ParaNMTConfig.model_validate({"translate": {"device": device}, "pipeline": {"cache_chunk_lines": 64}})
    assert BackTranslateRows.for_run(chosen, str(tmp_path), local=False)._chunk_lines == 64
