"""Lexicons the tests of several lexicon modules read, built once per test package (tests/support/built_lexicons.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import built_lexicons


@pytest.fixture(scope="package")
def caption_lexicon(tmp_path_factory) -> Path:
    return built_lexicons.caption_lexicon(tmp_path_factory.mktemp("tatoeba-pairs"))


@pytest.fixture(scope="package")
def pairs_lexicon(tmp_path_factory) -> Path:
    return built_lexicons.taste_pairs_lexicon(tmp_path_factory.mktemp("pairs"))
