"""The static component's teacher (train_embeddings/static/teacher.py): its model2vec distillation, equal to
model2vec's own and cached by teacher; where the cache lives; the teacher's fingerprint; the one guarded import of
the ``static`` extra and its install line."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from tests.support.static_teacher import PROBE
from train_embeddings.static.teacher import (
    INSTALL_HINT,
    distill_teacher,
    import_model2vec,
    static_cache_dir,
    teacher_id,
)


def test_distillation_is_model2vec_and_is_cached(teacher, tmp_path) -> None:
    from model2vec.distill import distill

    vocab = distill_teacher(teacher, pca_dims=8, cache=tmp_path)
    assert vocab.initial is not None and vocab.initial.shape[1] == 8 and len(vocab) > 300
    reference = distill(model_name=str(teacher), pca_dims=8, device="cpu", quantize_to="float32")
    np.testing.assert_allclose(vocab.initial, reference.embedding, atol=1e-5)
    ids, offsets = vocab.encode_strings(PROBE)
    assert [list(ids[offsets[i]:offsets[i + 1]]) for i in range(len(PROBE))] == reference.tokenize(PROBE)
    again = distill_teacher(teacher, pca_dims=8, cache=tmp_path)  # read back, not recomputed
    np.testing.assert_array_equal(again.initial, vocab.initial)


def test_the_cache_is_the_one_given_else_under_paranmt_cache(tmp_path: Path, monkeypatch) -> None:
    assert static_cache_dir(tmp_path / "given") == tmp_path / "given"
    monkeypatch.setenv("PARANMT_CACHE", str(tmp_path / "cache"))
    assert static_cache_dir() == tmp_path / "cache" / "static"
    monkeypatch.delenv("PARANMT_CACHE")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert static_cache_dir() == tmp_path / "home" / ".cache" / "paranmt" / "static"


def test_the_fingerprint_follows_the_weights_and_configs_not_other_files(tmp_path: Path) -> None:
    teacher = tmp_path / "teacher"
    (teacher / "sub").mkdir(parents=True)
    (teacher / "config.json").write_text("{}")
    (teacher / "sub" / "model.safetensors").write_bytes(b"1234")
    first = teacher_id(teacher)
    assert len(first) == 12 and teacher_id(teacher) == first
    (teacher / "notes.md").write_text("not part of the model")
    assert teacher_id(teacher) == first
    (teacher / "sub" / "model.safetensors").write_bytes(b"12345")  # another size: another model
    assert teacher_id(teacher) != first
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "config.json").write_text("{}")
    (tmp_path / "elsewhere" / "model.safetensors").write_bytes(b"1234")
    assert teacher_id(tmp_path / "elsewhere") != first  # the folder is part of it


def test_without_the_static_extra_the_error_says_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "model2vec", None)  # as if not installed
    with pytest.raises(ImportError) as missing:
        import_model2vec()
    line = str(missing.value)
    assert "\n" not in line and line.endswith(INSTALL_HINT) and "model2vec and skeletoken" in line
