"""Dedup, global and exact: of the pairs with the same normalised text (the pre-filter's ``dedup_key``), the
one with the smallest row number is kept, whatever file holds it; the others are rejected as ``duplicate`` (detail:
the kept id). Column-wise within hash buckets of the key (:func:`duplicates_in`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import apache_beam as beam
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from apache_beam.metrics import Metrics

from paranmt.core import pair_schema as S
from paranmt.core.pair_schema import Reason, Stage
from pipeline.metrics import METRICS_NAMESPACE, record_size, rejected_counter
from pipeline.records import BATCH_ROWS, DEDUP_KEY, REJECTED_TAG, ROW, partition, rejection

__all__ = ["Dedup", "duplicates_in"]


def duplicates_in(table: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """Dedup of a table with ``dedup_key`` and ``row``: the row indices to keep (the
    smallest row number of each key) and an ``(m, 2)`` array of ``(dropped row, the kept row it duplicates)``."""
    order = pc.sort_indices(table, [(DEDUP_KEY, "ascending"), (ROW, "ascending")]).to_numpy()
    keys = table.column(DEDUP_KEY).take(order)
    first = np.ones(len(order), bool)
    if len(order) > 1:
        first[1:] = pc.not_equal(keys.slice(1), keys.slice(0, len(order) - 1)).to_numpy(zero_copy_only=False)
    winner = order[np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))]  # each row's group head
    return order[first], np.column_stack([order[~first], winner[~first]])


def _bucket_of_keys(table: pa.Table, buckets: int) -> np.ndarray:
    keys = table.column(DEDUP_KEY).combine_chunks()
    data = np.frombuffer(keys.buffers()[1], dtype="<u8")[2 * keys.offset: 2 * (keys.offset + len(keys))]
    return (data[::2] % np.uint64(buckets)).astype(np.int64)


class _KeyByBucket(beam.DoFn):
    def __init__(self, buckets: int):
        self._buckets = buckets

    def process(self, batch: pa.Table) -> Iterator[tuple[int, pa.Table]]:
        yield from partition(batch, _bucket_of_keys(batch, self._buckets))


class _PickDuplicates(beam.DoFn):
    """One bucket of rows (every row of a dedup key is in the same bucket) -> the first row of each key in input
    order (main, in batches) and ``duplicate`` rejections."""

    def setup(self) -> None:
        self._counter = Metrics.counter(METRICS_NAMESPACE, rejected_counter(Reason.DUPLICATE))

    def process(self, element: tuple[int, Iterable[pa.Table]]) -> Iterator[Any]:
        _, tables = element
        table = pa.concat_tables(tables)
        record_size("dedup_bucket", table.num_rows, table.nbytes)
        kept, dropped = duplicates_in(table)
        if len(dropped):
            ids = table.column(S.ID)
            for row, winner in zip(table.take(dropped[:, 0]).to_pylist(), ids.take(dropped[:, 1]).to_pylist(),
                                   strict=True):
                self._counter.inc()
                yield beam.pvalue.TaggedOutput(REJECTED_TAG, rejection(row, Stage.DEDUP, Reason.DUPLICATE,
                                                                       f"duplicate of {winner}"))
        kept_rows = table.drop_columns([DEDUP_KEY]).take(np.sort(kept))
        for start in range(0, kept_rows.num_rows, BATCH_ROWS):
            yield kept_rows.slice(start, BATCH_ROWS)


def _drop_key(batch: pa.Table) -> pa.Table:
    return batch.drop_columns([DEDUP_KEY])


#: Rows a dedup bucket is sized for: one worker holds a bucket in memory (its size: docs/scaling.md).
DEDUP_BUCKET_ROWS = 50_000


def dedup_buckets(expected_rows: int) -> int:
    """Buckets of global dedup for a run of ``expected_rows`` input rows: enough for about
    :data:`DEDUP_BUCKET_ROWS` rows each however the input is split, at least 16."""
    return max(16, -(-expected_rows // DEDUP_BUCKET_ROWS))


class Dedup(beam.PTransform):
    """Global exact dedup on the normalised pair, keeping the first copy in input order (whatever file holds it):
    the batches are split into ``buckets``
    by their dedup key's hash, and each bucket is deduplicated column-wise on one worker (a bucket holds about
    ``1/buckets`` of the rows).

    Returns ``{"rows": ..., "rejected": ...}``; with ``enabled=False`` it only drops the key.
    """

    def __init__(self, enabled: bool = True, buckets: int = 16, label: str | None = None):
        super().__init__(label)
        self._enabled, self._buckets = enabled, buckets

    def expand(self, rows: beam.PCollection) -> dict[str, beam.PCollection]:
        if not self._enabled:
            kept = rows | "DropKey" >> beam.Map(_drop_key)
            empty = rows.pipeline | "NoDuplicates" >> beam.Create([])
            return {"rows": kept, REJECTED_TAG: empty}
        picked = (
            rows
            | "KeyByBucket" >> beam.ParDo(_KeyByBucket(self._buckets))
            | "GroupByBucket" >> beam.GroupByKey()
            | "Pick" >> beam.ParDo(_PickDuplicates()).with_outputs(REJECTED_TAG, main="rows")
        )
        return {"rows": picked.rows, REJECTED_TAG: picked[REJECTED_TAG]}
