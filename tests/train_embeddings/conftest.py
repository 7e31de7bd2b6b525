"""Real training pairs the trainer's tests share, written once per session (tests/support/training_pairs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.training_pairs import tatoeba_pairs_parquet


@pytest.fixture(scope="session")
def tatoeba_pairs(tmp_path_factory) -> Path:
    return tatoeba_pairs_parquet(tmp_path_factory.mktemp("tatoeba-pairs"), n=300)
