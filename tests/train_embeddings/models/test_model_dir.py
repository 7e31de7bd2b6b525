"""Saved-model directories (train_embeddings/models/model_dir.py): finding the model in a directory or a training
run, the one-line error otherwise, and directory writes that a reader never sees half done."""

from __future__ import annotations

from pathlib import Path

import pytest

from paranmt.core.errors import ParanmtError
from train_embeddings.models.model_dir import MODEL_JSON, ModelLoadError, model_directory, staged_directory


def _model(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / MODEL_JSON).write_text("{}")
    return folder


def test_a_model_or_a_run_s_best_else_its_final_model(tmp_path):
    model = _model(tmp_path / "m")
    assert model_directory(model) == model
    run = tmp_path / "run"
    _model(run / "model")
    assert model_directory(run) == run / "model"
    _model(run / "best")
    assert model_directory(run) == run / "best"  # the best checkpoint on dev wins


def test_anything_else_is_one_line_naming_the_folder(tmp_path):
    (tmp_path / "run" / "best").mkdir(parents=True)  # a run killed before it saved anything
    with pytest.raises(ModelLoadError) as error:
        model_directory(tmp_path / "run")
    message = str(error.value)
    assert message == f"{tmp_path / 'run'} is not a saved model (no model.json) nor a training run with best/ or model/"
    assert isinstance(error.value, ParanmtError) and "\n" not in message


def test_a_staged_directory_replaces_the_old_one_on_success(tmp_path):
    target = tmp_path / "out" / "model"
    with staged_directory(target) as staging:
        assert staging.parent == target.parent and staging.is_dir() and not any(staging.iterdir())
        (staging / "a.txt").write_text("first")
        assert not target.exists()  # nothing visible before it is complete
    assert (target / "a.txt").read_text() == "first"
    with staged_directory(target) as staging:
        (staging / "b.txt").write_text("second")
        assert (target / "a.txt").read_text() == "first"  # the old one stays readable meanwhile
    assert sorted(p.name for p in target.iterdir()) == ["b.txt"]
    assert sorted(p.name for p in target.parent.iterdir()) == ["model"]  # no staging or old folder left


def test_a_failed_write_leaves_the_old_directory_as_it_was(tmp_path):
    target = tmp_path / "model"
    with staged_directory(target) as staging:
        (staging / "a.txt").write_text("first")
    with pytest.raises(RuntimeError, match="disk full"), staged_directory(target) as staging:
        (staging / "half.txt").write_text("half")
        raise RuntimeError("disk full")
    assert sorted(p.name for p in target.iterdir()) == ["a.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]
