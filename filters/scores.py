"""Score pairs: trigram overlap and PARAGRAM-PHRASE paraphrase score on a pairs table (ParaNMT-50M §3, §5.4).

    paranmt score --input pairs.parquet|runs/x/pairs --out scored.parquet \\
        [--scorer fitted.npz | --embeddings VECTORS [--embeddings-format F] [--word-frequencies FREQ]] \\
        [--save-scorer fitted.npz] [--config NAME_OR_PATH] [--set score.sif_a=1e-4] [--batch-rows 65536]

Adds (or overwrites) ``trigram_overlap``, ``paraphrase_score``, ``no_known_words`` and ``scorer_id`` (types from
:data:`core.pair_schema.PAIRS_SCHEMA`); every other column, the translation score included, is carried unchanged.
Without ``--scorer`` the scorer is fitted first on a systematic sample of the input's sentences (``score.fit_sample``
sentences, both sides, spread over the whole file); ``--save-scorer`` keeps it so later runs and other workers
score identically. The output's schema metadata records the scorer id and parameters.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from configs import ConfigError
from core.pair_schema import (
    EN_TOKENS,
    MT_TOKENS,
    NO_KNOWN_WORDS,
    PAIRS_SCHEMA,
    PARAPHRASE_SCORE,
    SCORER_ID,
    TRIGRAM_OVERLAP,
    check_schema,
)
from core.token_arrays import encode_tokens
from filters.paragram import ParagramScorer
from filters.trigram import trigram_overlap_encoded

__all__ = ["SCORE_COLUMNS", "fit_sample_from_parquet", "input_files", "parquet_batches", "score_pairs",
           "scored_schema"]

SCORE_COLUMNS = (TRIGRAM_OVERLAP, PARAPHRASE_SCORE, NO_KNOWN_WORDS, SCORER_ID)


def score_pairs(table: pa.Table, scorer: ParagramScorer) -> pa.Table:
    """``table`` with the four score columns added, or overwritten in place where present.

    Needs ``en_tokens`` and ``mt_tokens`` (list<string> Moses tokens). Both scores share one dictionary encoding
    of the batch. A null or empty token list scores 0.0 on both and sets ``no_known_words``.
    """
    check_schema(table.schema, required=(EN_TOKENS, MT_TOKENS))
    encoded = encode_tokens(table[EN_TOKENS], table[MT_TOKENS])
    overlap = trigram_overlap_encoded(encoded)
    paraphrase, no_known = scorer.score_encoded(encoded)
    values = {
        TRIGRAM_OVERLAP: pa.array(overlap, pa.float32()),
        PARAPHRASE_SCORE: pa.array(paraphrase, pa.float32()),
        NO_KNOWN_WORDS: pa.array(no_known, pa.bool_()),
        SCORER_ID: pa.repeat(pa.scalar(scorer.scorer_id, pa.string()), table.num_rows),
    }
    for name, column in values.items():
        field = PAIRS_SCHEMA.field(name)
        index = table.schema.get_field_index(name)
        table = table.set_column(index, field, column) if index >= 0 else table.append_column(field, column)
    return table


def scored_schema(schema: pa.Schema) -> pa.Schema:
    """The schema :func:`score_pairs` gives a table of ``schema`` (score fields replaced in place or appended)."""
    for name in SCORE_COLUMNS:
        field = PAIRS_SCHEMA.field(name)
        index = schema.get_field_index(name)
        schema = schema.set(index, field) if index >= 0 else schema.append(field)
    return schema


def input_files(path: Path) -> list[Path]:
    """A Parquet file, or the shards of a directory (``*.parquet`` in name order, as the pipeline writes
    ``pairs/``; hidden and ``_``-prefixed files skipped). Raises :class:`ConfigError` naming the problem."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise ConfigError(f"--input {path} does not exist")
    files = sorted(f for f in path.glob("*.parquet") if f.is_file() and not f.name.startswith((".", "_")))
    if not files:
        raise ConfigError(f"--input {path} is a directory without .parquet files: give a pairs file or a "
                          "directory of shards such as runs/x/pairs")
    first = pq.read_schema(files[0]).remove_metadata()
    for other in files[1:]:
        if not pq.read_schema(other).remove_metadata().equals(first):
            raise ConfigError(f"--input {path}: {other.name} has a different schema from {files[0].name}; score "
                              "shards of one table only")
    return files


def parquet_batches(files: list[Path], batch_rows: int, columns: list[str] | None = None) -> Iterator[pa.RecordBatch]:
    """The record batches of ``files`` in order, ``batch_rows`` at most each (``columns``: only those)."""
    for file in files:
        yield from pq.ParquetFile(file).iter_batches(batch_size=batch_rows, columns=columns)


def fit_sample_from_parquet(path: Path | list[Path], sentences: int, batch_rows: int = 65536) -> pa.ChunkedArray:
    """About ``sentences`` token lists (both sides of every k-th row, k spread over the whole input: a file, a
    directory of shards, or a list of files)."""
    files = path if isinstance(path, list) else input_files(Path(path))
    rows_wanted = max(1, math.ceil(sentences / 2))
    step = max(1, sum(pq.ParquetFile(f).metadata.num_rows for f in files) // rows_wanted)
    chunks: list[pa.Array] = []
    start = 0
    for batch in parquet_batches(files, batch_rows, [EN_TOKENS, MT_TOKENS]):
        first = (-start) % step  # the first multiple of step in this batch
        take = pa.array(np.arange(first, batch.num_rows, step))
        start += batch.num_rows
        if len(take):
            chunks += [batch.column(EN_TOKENS).take(take), batch.column(MT_TOKENS).take(take)]
    return pa.chunked_array(chunks, type=pa.list_(pa.string())) if chunks else pa.chunked_array(
        [], type=pa.list_(pa.string()))

