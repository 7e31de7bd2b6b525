"""A saved paranmt encoder's cosine as a filter score (train_embeddings/pair_score.py): the model's similarity of
``en`` and ``mt``, a null side null; a wrong model path stops at the parameters' check, before any work. The
static-only run needs the ``static`` and ``st`` extras."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from filters.plugins import PluginError, build_scores
from pipeline.graph import RUN_SCORES
from tests.support.static_teacher import PROBE
from train_embeddings.models.model_io import load_model


def test_scores_pairs_as_a_filter_score(static_run) -> None:
    [score] = build_scores([{"paranmt_model": {"model": str(static_run), "column": "static_cosine"}}], RUN_SCORES)
    table = pa.table({"en": [*PROBE, None], "mt": [PROBE[0], PROBE[0], PROBE[2], "x"]})
    values = score.score(table)["static_cosine"]
    expected = load_model(static_run).similarity(PROBE, [PROBE[0], PROBE[0], PROBE[2]])
    np.testing.assert_allclose(values.to_numpy(zero_copy_only=False)[:3], expected, atol=1e-6)
    assert values[3].as_py() is None and values[0].as_py() == pytest.approx(1.0, abs=1e-6)


def test_a_path_that_is_no_model_is_refused_with_its_name(tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(PluginError) as refused:
        build_scores([{"paranmt_model": {"model": str(tmp_path / "empty")}}], RUN_SCORES)
    assert str(refused.value) == (f"select.scores[0] (paranmt_model): parameters: {tmp_path / 'empty'} is not a saved "
                                  "model (no model.json) nor a training run with best/ or model/")
