"""Score pairs: trigram overlap and PARAGRAM-PHRASE paraphrase score on a pairs table (ParaNMT-50M §3, §5.4).

:func:`score_pairs` adds (or overwrites) ``trigram_overlap``, ``paraphrase_score``, ``no_known_words`` and
``scorer_id`` (types from :data:`paranmt.core.pair_schema.PAIRS_SCHEMA`) on one Arrow table; every other column, the
translation score included, is carried unchanged. :func:`score_parquet` does it for Parquet files, batch by
batch, into one Parquet file whose schema metadata records the scorer id and parameters (``paranmt score`` is this
function behind a command line). :func:`fit_sample_from_parquet` draws the sentences a scorer is fitted on.
"""
from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from configs import ConfigError
from filters.paragram import ParagramScorer
from filters.trigram import trigram_overlap_encoded
from paranmt.core.pair_schema import (
    EN_TOKENS,
    MT_TOKENS,
    NO_KNOWN_WORDS,
    PAIRS_SCHEMA,
    PARAPHRASE_SCORE,
    SCORER_ID,
    TRIGRAM_OVERLAP,
    check_schema,
    with_metadata,
)
from paranmt.core.token_arrays import encode_tokens

__all__ = ["SCORE_COLUMNS", "ScoredFile", "fit_sample_from_parquet", "input_files", "parquet_batches", "score_pairs",
           "score_parquet", "scored_schema"]

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



@dataclass(frozen=True)
class ScoredFile:
    """What :func:`score_parquet` wrote: the file, its pairs and the scores' summary."""

    path: Path
    pairs: int
    no_known_words: int
    trigram_overlap_sum: float
    paraphrase_score_sum: float
    seconds: float

    @property
    def mean_trigram_overlap(self) -> float:
        return self.trigram_overlap_sum / self.pairs if self.pairs else float("nan")

    @property
    def mean_paraphrase_score(self) -> float:
        return self.paraphrase_score_sum / self.pairs if self.pairs else float("nan")


def score_parquet(files: Sequence[Path], out: Path, scorer: ParagramScorer, *, batch_rows: int = 65536,
                  progress: Callable[[int], object] | None = None) -> ScoredFile:
    """Score the pairs of ``files`` (one table's shards, in order: :func:`input_files`) into the Parquet file
    ``out``, ``batch_rows`` rows at a time; ``progress(rows)`` after each batch. ``out`` appears only when complete
    (written as a hidden ``.NAME.partial`` beside it, then renamed): a killed call leaves no half file under its
    name. The schema is the input's with the score columns (:func:`scored_schema`) and the scorer's id and
    parameters as metadata. A call that fails removes its partial file."""
    if not files:
        raise ValueError("score_parquet: no input files")
    schema = with_metadata(scored_schema(pq.read_schema(files[0])), scorer_id=scorer.scorer_id, score=scorer.params)
    started = time.perf_counter()
    pairs = no_known = 0
    overlap_sum = paraphrase_sum = 0.0
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.partial")
    try:
        with pq.ParquetWriter(partial, schema) as writer:
            for batch in parquet_batches(list(files), batch_rows):
                table = score_pairs(pa.Table.from_batches([batch]), scorer).replace_schema_metadata(schema.metadata)
                writer.write_table(table)
                pairs += table.num_rows
                no_known += int(np.count_nonzero(table[NO_KNOWN_WORDS].to_numpy()))
                overlap_sum += float(np.sum(table[TRIGRAM_OVERLAP].to_numpy(), dtype=np.float64))
                paraphrase_sum += float(np.sum(table[PARAPHRASE_SCORE].to_numpy(), dtype=np.float64))
                if progress is not None:
                    progress(table.num_rows)
    except BaseException:  # a bad batch, a Ctrl-C: nothing half-written stays behind
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, out)
    return ScoredFile(out, pairs, no_known, overlap_sum, paraphrase_sum, time.perf_counter() - started)
