"""The teacher loss's targets (train_embeddings/static/teacher_targets.py): the teacher's own vectors of the
sentences, a cache that only grows and is read back without loading the teacher, zero rows for sentences it lacks;
with the tiny teacher (tests/support/static_teacher.py)."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pytest

from tests.support.static_teacher import PROBE
from train_embeddings.static import teacher_targets as targets_module
from train_embeddings.static.teacher import teacher_id
from train_embeddings.static.teacher_targets import TeacherTargets, teacher_targets


def test_lookup_by_exact_sentence_with_zero_rows_for_the_rest() -> None:
    targets = TeacherTargets(["a b", "c"], np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert targets.dim == 2 and targets.vectors.dtype == np.float32
    rows = targets.lookup(pa.chunked_array([["c", "A b", None], ["a b"]]))
    np.testing.assert_array_equal(rows, [[3, 4], [0, 0], [0, 0], [1, 2]])  # case matters; a null has none


def test_the_teachers_vectors_cached_and_only_the_new_sentences_encoded(teacher, tmp_path, monkeypatch) -> None:
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(teacher), device="cpu").encode(PROBE, convert_to_numpy=True)
    first = teacher_targets(PROBE[:2] + PROBE[:1], teacher, cache=tmp_path, batch_size=1, save_every=1)
    np.testing.assert_allclose(first.lookup(pa.array(PROBE[:2])), reference[:2], atol=1e-5)
    folder = tmp_path / "teacher" / teacher_id(teacher)
    assert json.loads((folder / "texts.json").read_text()) == PROBE[:2]  # each sentence once
    grown = teacher_targets(PROBE[1:], teacher, cache=tmp_path)
    assert json.loads((folder / "texts.json").read_text()) == [PROBE[0], PROBE[1], PROBE[2]]
    np.testing.assert_allclose(grown.lookup(pa.array(PROBE)), reference, atol=1e-5)

    def no_teacher():
        raise AssertionError("the teacher was loaded for sentences the cache holds")

    monkeypatch.setattr(targets_module, "import_sentence_transformers", no_teacher)
    cached = teacher_targets([PROBE[2], PROBE[0]], teacher, cache=tmp_path)
    np.testing.assert_array_equal(cached.lookup(pa.array(PROBE)), grown.lookup(pa.array(PROBE)))
    with pytest.raises(AssertionError, match="teacher was loaded"):
        teacher_targets(["a sentence it never saw"], teacher, cache=tmp_path)
