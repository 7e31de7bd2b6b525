"""Lexicons the tests of several modules read, built once per test session by the stand-alone command."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from paranmt.cli.lexicon_command import main
from tests.conftest import read_lines, shared_data, taste_pairs
from tests.support.lexicon_pairs import token_pairs


def _built_lexicon(root: Path, en: list[list[str]], mt: list[list[str]], split: int) -> Path:
    """The stand-alone command's lexicon (4 shards, min_joint 5) of two Parquet files, rows before and after
    ``split``; every 50th pair scores 0.1, the rest 0.9."""
    score = pa.array(np.where(np.arange(len(en)) % 50 == 0, 0.1, 0.9), pa.float32())
    (root / "pairs").mkdir()
    pq.write_table(token_pairs(en[:split], mt[:split], paraphrase_score=score[:split]), root / "pairs" / "a.parquet")
    pq.write_table(token_pairs(en[split:], mt[split:], paraphrase_score=score[split:]), root / "pairs" / "b.parquet")
    assert main(["build", "--input", str(root / "pairs"), "--out", str(root / "lex"), "--quiet",
                 "--set", "lexicon.min_joint=5", "--set", "lexicon.num_shards=4"]) == 0
    return root / "lex"


@pytest.fixture(scope="package")
def caption_lexicon(tmp_path_factory) -> Path:
    """A lexicon from 2,000 images x 10 real caption pairs, written by the stand-alone command from Parquet."""
    root = tmp_path_factory.mktemp("captions")
    caps = [read_lines(shared_data(f"paraphrase/multi30k-captions/train.{k}.en"))[:2000] for k in range(1, 6)]
    en, mt = [], []
    for i, j in itertools.combinations(range(5), 2):
        en += [c.lower().replace(".", " .").split() for c in caps[i]]
        mt += [c.lower().replace(".", " .").split() for c in caps[j]]
    return _built_lexicon(root, en, mt, split=10_000)


@pytest.fixture(scope="package")
def pairs_lexicon(tmp_path_factory) -> Path:
    """A lexicon from the 2,000 bundled back-translation pairs (tests/conftest.py:taste_pairs), written by the
    stand-alone command from Parquet in four shards."""
    root = tmp_path_factory.mktemp("pairs")
    _, en_lines, mt_lines = taste_pairs(2000)
    en = [line.lower().replace(".", " .").split() for line in en_lines]
    mt = [line.lower().replace(".", " .").split() for line in mt_lines]
    return _built_lexicon(root, en, mt, split=1000)
