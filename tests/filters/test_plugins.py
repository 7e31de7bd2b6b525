"""The built-in score registry of filters.plugins: a score of a higher layer registers itself (issue 48: filters
named train_embeddings.pair_score by a string the architecture test could not see)."""

from __future__ import annotations

import subprocess
import sys
from typing import ClassVar

import pyarrow as pa
import pytest

from filters.plugins import BUILTIN_SCORES, PluginError, Score, build_scores, register_score
from tests.conftest import REPO_ROOT


def test_the_pipeline_graph_registers_the_model_score_without_loading_torch():
    probe = ("import sys, pipeline.graph, filters.plugins as p\n"
             "from train_embeddings.pair_score import ParanmtModelCosine\n"
             "print(p.BUILTIN_SCORES['paranmt_model'] is ParanmtModelCosine, 'torch' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True, text=True, check=True,
                          timeout=120)
    assert done.stdout.split() == ["True", "False"]


def test_a_registered_key_builds_like_a_built_in_and_cannot_be_taken_twice(monkeypatch):
    monkeypatch.setattr("filters.plugins.BUILTIN_SCORES", dict(BUILTIN_SCORES))

    class Length(Score):
        key: ClassVar[str] = "test_length"

        @property
        def fields(self) -> tuple[pa.Field, ...]:
            return (pa.field("length", pa.int32()),)

    assert register_score(Length) is Length and register_score(Length) is Length  # again: the same class, fine
    [built] = build_scores(["test_length"])
    assert type(built) is Length

    class Other(Score):
        key: ClassVar[str] = "test_length"

    with pytest.raises(TypeError, match="taken"):
        register_score(Other)
    with pytest.raises(TypeError, match="with a key"):
        register_score(type("NoKey", (Score,), {}))
    with pytest.raises(PluginError, match="neither a built-in"):
        build_scores(["no_such_score"])
