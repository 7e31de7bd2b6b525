"""Questions to a written lexicon: the best paraphrases of a word, the scores of given word pairs; each reads only
the shards that hold the words asked about."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from pipeline.analysis.lexicon.pmi import LEXICON_SCHEMA
from pipeline.analysis.lexicon.shards import VOCABULARY_FILE, lexicon_files

__all__ = ["lookup_pairs", "neighbours", "read_rows"]


def _files_of_words(lexicon: str | os.PathLike, words: Sequence[str]) -> list[Path]:
    """The shards that hold the rows of ``words`` (from the shard column of ``vocabulary.parquet``)."""
    files = lexicon_files(lexicon)
    if len(files) == 1:
        return files
    vocabulary = pq.read_table(Path(lexicon) / VOCABULARY_FILE, columns=["shard"],
                               filters=[("word", "in", sorted(set(words)))])
    return [files[index] for index in sorted(set(vocabulary.column("shard").to_pylist()))]


def read_rows(lexicon: str | os.PathLike, words: Sequence[str], columns: Sequence[str] | None = None,
              min_joint: int = 1) -> pa.Table:
    """The rows of a written lexicon whose u is one of ``words`` and ``joint >= min_joint``, reading only the
    shards that hold them (with a pushed-down filter)."""
    files = _files_of_words(lexicon, words)
    if not files:
        return LEXICON_SCHEMA.empty_table().select(list(columns or LEXICON_SCHEMA.names))
    wanted = (pc.field("u").isin(sorted(set(words)))) & (pc.field("joint") >= min_joint)
    return ds.dataset([str(f) for f in files], format="parquet").to_table(columns=columns, filter=wanted)


def neighbours(lexicon: str | os.PathLike, word: str, k: int = 20, min_joint: int = 10,
               rank_by: str = "pmi_adj", lowercase: bool = True) -> pa.Table:
    """The ``k`` best paraphrases of ``word`` (joint count >= ``min_joint``), read from its shard."""
    word = word.lower() if lowercase else word
    table = read_rows(lexicon, [word], min_joint=min_joint)
    return table.sort_by([(rank_by, "descending"), ("v", "ascending")]).slice(0, k)


def lookup_pairs(lexicon: pa.Table | str | os.PathLike, first: Sequence[str], second: Sequence[str],
                 columns: Sequence[str] = ("pmi_cross", "pmi_adj"), min_joint: int = 1) -> dict[str, np.ndarray]:
    """Scores of word pairs in a lexicon (NaN where unseen), plus their ``joint`` counts; vectorised join."""
    if not isinstance(lexicon, pa.Table):
        lexicon = read_rows(lexicon, first, ["u", "v", "joint", *columns])
    lexicon = lexicon.filter(pc.greater_equal(lexicon.column("joint"), min_joint))
    query = pa.table({"u": pa.array(list(first), pa.string()), "v": pa.array(list(second), pa.string()),
                      "_row": pa.array(np.arange(len(first)), pa.int64())})
    joined = query.join(lexicon.select(["u", "v", "joint", *columns]), keys=["u", "v"], join_type="left outer")
    rows = joined.column("_row").to_numpy()
    out: dict[str, np.ndarray] = {}
    for name in ("joint", *columns):
        values = np.full(len(first), np.nan)
        values[rows] = pc.cast(joined.column(name), pa.float64()).to_numpy(zero_copy_only=False)
        out[name] = values
    return out
