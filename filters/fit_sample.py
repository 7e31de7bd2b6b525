"""The scorer's fit sample: one definition for the pipeline and ``paranmt score``.

A PARAGRAM-PHRASE scorer (:mod:`filters.paragram`) is fitted on the English tokens (``en_tokens``) of the first
``score.fit_sample`` rows that have any, in id order, whatever a later stage decides about the row (a pre-filter
rejection and a duplicate count like a kept pair). The pipeline's ids (``<source>:L<row>``, zero-padded) sort in input
order within an input, so for a run of one input this is its first ``fit_sample`` English sentences. The sample depends
on the rows read and ``fit_sample`` alone: the pipeline draws it from the rows it decodes, ``paranmt score`` from a
Parquet table's rows (a run's ``pairs/`` with its ``rejected/``: every row the run read as a pair), and both fit the
same scorer.

:func:`fit_candidates` cuts one table to the rows that can still be in the sample, :func:`first_rows` merges such
tables; both keep at most ``n`` rows, sorted by id, so the sample can be gathered in any order and in pieces (a Beam
combiner, a stream of Parquet batches) and always comes out the same.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paranmt.core.pair_schema import EN_TOKENS, ID

__all__ = ["FIT_SAMPLE_SCHEMA", "first_rows", "fit_candidates", "last_id", "sample_sentences"]

#: A row of the fit sample: its id (the order) and its English tokens.
FIT_SAMPLE_SCHEMA = pa.schema([pa.field(ID, pa.string(), nullable=False), pa.field(EN_TOKENS, pa.list_(pa.string()))])


def _by_id(table: pa.Table, n: int) -> pa.Table:
    order = pc.sort_indices(table[ID]).to_numpy()[:n]
    return table.take(pa.array(order)).combine_chunks()


def fit_candidates(table: pa.Table | pa.RecordBatch, n: int) -> pa.Table:
    """The rows of ``table`` (it has ``id`` and ``en_tokens``) that can be in a sample of ``n``: the ``n`` first by
    id among those with English tokens, as :data:`FIT_SAMPLE_SCHEMA` rows sorted by id."""
    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    table = table.select([ID, EN_TOKENS]).cast(FIT_SAMPLE_SCHEMA)
    lengths = pc.fill_null(pc.list_value_length(table[EN_TOKENS]), 0).to_numpy()
    return _by_id(table.take(pa.array(np.flatnonzero(lengths > 0))), n)


def last_id(sample: pa.Table) -> str | None:
    """The largest id of a sample (sorted by id), or None when it is empty."""
    return sample[ID][-1].as_py() if sample.num_rows else None


def first_rows(tables: Iterable[pa.Table], n: int) -> pa.Table:
    """The first ``n`` rows by id of :data:`FIT_SAMPLE_SCHEMA` tables (each cut by :func:`fit_candidates` or by
    this function), sorted by id. A table whose smallest id comes after a full sample's last is skipped unsorted."""
    sample = FIT_SAMPLE_SCHEMA.empty_table()
    for table in tables:
        if not table.num_rows:
            continue
        full_until = last_id(sample) if sample.num_rows >= n else None
        if full_until is not None and pc.min(table[ID]).as_py() > full_until:
            continue
        sample = _by_id(pa.concat_tables([sample, table]), n)
    return sample


def sample_sentences(sample: pa.Table) -> list[list[str]]:
    """The token lists a scorer is fitted on, in id order."""
    return sample[EN_TOKENS].to_pylist()
