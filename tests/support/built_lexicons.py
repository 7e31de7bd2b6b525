"""Lexicons the tests of several lexicon modules read, built by the stand-alone command (``paranmt lexicon build``)
from Parquet pairs."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from paranmt.cli.lexicon_command import main
from tests.support.lexicon_pairs import token_pairs
from tests.support.shared_data import shared_data
from tests.support.taste_data import taste_pairs
from tests.support.text_files import read_lines


def built_lexicon(root: Path, en: list[list[str]], mt: list[list[str]], split: int) -> Path:
    """The stand-alone command's lexicon (4 shards, min_joint 5) of two Parquet files, rows before and after
    ``split``; every 50th pair scores 0.1, the rest 0.9."""
    score = pa.array(np.where(np.arange(len(en)) % 50 == 0, 0.1, 0.9), pa.float32())
    (root / "pairs").mkdir()
    pq.write_table(token_pairs(en[:split], mt[:split], paraphrase_score=score[:split]), root / "pairs" / "a.parquet")
    pq.write_table(token_pairs(en[split:], mt[split:], paraphrase_score=score[split:]), root / "pairs" / "b.parquet")
    assert main(["build", "--input", str(root / "pairs"), "--out", str(root / "lex"), "--quiet",
                 "--set", "lexicon.min_joint=5", "--set", "lexicon.num_shards=4"]) == 0
    return root / "lex"


def caption_lexicon(root: Path) -> Path:
    """A lexicon from 2,000 images x 10 real caption pairs (Multi30k's five English captions of each image,
    every two of them a pair)."""
    caps = [read_lines(shared_data(f"paraphrase/multi30k-captions/train.{k}.en"))[:2000] for k in range(1, 6)]
    en, mt = [], []
    for i, j in itertools.combinations(range(5), 2):
        en += [c.lower().replace(".", " .").split() for c in caps[i]]
        mt += [c.lower().replace(".", " .").split() for c in caps[j]]
    return built_lexicon(root, en, mt, split=10_000)


def taste_pairs_lexicon(root: Path) -> Path:
    """A lexicon from the 2,000 bundled back-translation pairs (:func:`tests.support.taste_data.taste_pairs`)."""
    _, en_lines, mt_lines = taste_pairs(2000)
    en = [line.lower().replace(".", " .").split() for line in en_lines]
    mt = [line.lower().replace(".", " .").split() for line in mt_lines]
    return built_lexicon(root, en, mt, split=1000)
