"""``paranmt export-vectors``: a saved WORD model's word table as paragram text vectors; a folder that is no saved
model is one error line."""

from __future__ import annotations

import numpy as np

from paranmt.cli.export_vectors_command import main
from paranmt.core.word_vectors import load_word_vectors
from train_embeddings.models.model_io import load_model


def test_a_training_run_exports_its_word_table_in_both_formats(word_run, tmp_path):
    """Given the run folder (not its model/), both formats hold the model's words and rows exactly."""
    assert main(["--model", str(word_run.out_dir), "--out", str(tmp_path / "v.txt")]) == 0
    assert main(["--model", str(word_run.out_dir), "--out", str(tmp_path / "v"), "--format", "word_model"]) == 0
    model = load_model(word_run.model_dir)
    table = model.encoder.parts["word"].table.full_matrix().detach().numpy()
    for exported in (load_word_vectors(tmp_path / "v.txt"), load_word_vectors(tmp_path / "v")):
        assert exported.words.to_pylist() == model.words.words[1:]  # every word but the unknown
        assert np.array_equal(exported.matrix, table[1:])


def test_a_folder_that_is_no_saved_model_is_one_line(tmp_path, capsys):
    assert main(["--model", str(tmp_path / "nowhere"), "--out", str(tmp_path / "w.txt")]) == 2
    err = capsys.readouterr().err
    assert "not a saved model" in err and err.count("\n") == 1
