"""A static model as a model2vec directory (train_embeddings/export/static_export.py): model2vec's
``encode(normalize=False)`` equals paranmt's, through ``paranmt export`` as docs/embeddings.md shows; only a
static-only model exports as a table. Needs the ``static`` and ``st`` extras (the tiny teacher's run)."""

from __future__ import annotations

import numpy as np
import pytest

from paranmt.cli.paranmt_command import main as paranmt
from tests.support.static_teacher import PROBE
from tests.support.training_pairs import tiny
from train_embeddings.export.static_export import static_table
from train_embeddings.models.model_io import load_model
from train_embeddings.static.teacher import STATIC
from train_embeddings.training.preparation import prepare_training


def test_static_only_exports_to_model2vec_and_sentence_transformers(static_run, tmp_path) -> None:
    from model2vec import StaticModel
    from sentence_transformers import SentenceTransformer

    model = load_model(static_run)
    assert not model.spec.uses_tokens  # raw text only: Moses never runs on this path
    ours = model.encode(PROBE)
    assert paranmt(["export", "--format", "model2vec", "--model", str(static_run), "--out", str(tmp_path / "m2v")]) == 0
    m2v = StaticModel.from_pretrained(str(tmp_path / "m2v"))  # as docs/embeddings.md shows
    np.testing.assert_allclose(m2v.encode(PROBE, normalize=False), ours, atol=1e-5)
    assert paranmt(["export", "--format", "sentence-transformers", "--model", str(static_run),
                    "--out", str(tmp_path / "st")]) == 0
    st = SentenceTransformer(str(tmp_path / "st"), device="cpu")  # a library module: no trust_remote_code
    np.testing.assert_allclose(st.encode(PROBE), ours, atol=1e-5)


def test_the_table_is_the_trained_static_table_and_only_a_static_model_has_one(static_run, tatoeba_129_pairs,
                                                                                tmp_path) -> None:
    model = load_model(static_run)
    table = static_table(model)
    assert table.dtype == np.float32 and table.shape[1] == 8
    np.testing.assert_array_equal(table, model.encoder.parts[STATIC].embedding.weight.detach().numpy())
    word = prepare_training(tiny("word", tatoeba_129_pairs), tmp_path / "run", evaluate_fn=None, progress=False)
    with pytest.raises(ValueError, match="is not a static-only model: only --model static exports as a static table"):
        static_table(word.model)
