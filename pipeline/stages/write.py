"""Write: deterministic Parquet shards, staged and renamed into place on success.

Layout under ``<output>/`` (shard names are fixed: ``<name>-SSSSS-of-NNNNN.parquet``, every shard is written
even when empty, so the set of files depends only on the arguments; the schemas are :mod:`paranmt.core.pair_schema`'s):

    pairs/pairs-00000-of-00004.parquet        every pair that reached scoring (PAIRS_SCHEMA)
    train/train-00000-of-00004.parquet        rows of pairs/ with keep == true (only with a selection stage)
    rejected/rejected-00000-of-00004.parquet  REJECTED_SCHEMA: id, source, stage, reason, detail, cs, en, mt
    deadletter/deadletter-00000-of-00001.parquet  DEADLETTER_SCHEMA: id, source, stage, reason, error, raw bytes
    summary.json, _SUCCESS

Why not ``WriteToParquet(num_shards=N)``: Beam assigns rows to its N shards round-robin from a *random* start
per bundle (``iobase._RoundRobinKeyFn``), so a rerun puts rows in different files. Here a row's shard is
``crc32(id) % N``, each shard is sorted by id and written with one ``pyarrow.parquet.write_table`` call (zstd,
row groups of ``row_group_rows``, schema with ``paranmt.*`` metadata and no timestamps): the same input and
arguments give byte-identical files. A shard is built in the memory of one worker: choose ``num_shards`` so a
shard stays well under a worker's memory (e.g. <= 2M pairs per shard).

Atomicity: workers write into ``<output>/_staging/``; after the pipeline succeeds,
:func:`pipeline.outputs.run_folder.finalize` replaces each output folder by its staged files
(``FileSystems.rename``, so it works on ``gs://`` too) and removes the staging folder. A killed run leaves the
previous outputs untouched (plus a stale ``_staging/`` that the next run clears).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import apache_beam as beam
import numpy as np
import pyarrow as pa
import pyarrow.compute as arrow_compute
import pyarrow.parquet as pq
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from configs.schema import PipelineConfig
from paranmt.core import pair_schema as S
from paranmt.core.run_layout import DEADLETTER, PAIRS, REJECTED, STAGING, TRAIN
from pipeline.disk_space import room_for
from pipeline.metrics import StageCounter, Step, record_size, written_counter
from pipeline.records import BATCH_ROWS, partition

__all__ = [
    "RecordTables",
    "WriteParquetShards",
    "records_to_table",
    "shard_name",
    "shard_of",
    "write_run_outputs",
    "write_table",
]


def shard_name(prefix: str, index: int, count: int) -> str:
    return f"{prefix}-{index:05d}-of-{count:05d}.parquet"


def shard_of(row_id: str, count: int) -> int:
    return zlib.crc32(row_id.encode("utf-8")) % count


def records_to_table(records: Sequence[Mapping[str, Any]], schema: pa.Schema = S.PAIRS_SCHEMA) -> pa.Table:
    """Dicts (keys = column names; missing keys are null, extra keys ignored) to a table with ``schema``."""
    if not records:
        return schema.empty_table()
    return pa.Table.from_pylist(list(records), schema=schema)


def plain_schema(schema: pa.Schema) -> pa.Schema:
    """``schema`` with its dictionary columns as their value type: how a shard's parts travel; the shard's own
    dictionaries are built once it is sorted (:func:`sorted_shard_table`)."""
    return pa.schema([f.with_type(f.type.value_type) if pa.types.is_dictionary(f.type) else f for f in schema])


class RecordTables(beam.PTransform):
    """Records (dicts: rejections, dead letters) -> Arrow tables of up to :data:`~pipeline.records.BATCH_ROWS`
    rows with the columns of ``schema``, as the writers take them."""

    def __init__(self, schema: pa.Schema, label: str | None = None):
        super().__init__(label)
        self._schema = plain_schema(schema)

    def expand(self, records: beam.PCollection) -> beam.PCollection:
        return (records
                | "Batch" >> beam.BatchElements(min_batch_size=1, max_batch_size=BATCH_ROWS)
                | "ToTable" >> beam.Map(records_to_table, self._schema))


def write_table(table: pa.Table, path: str, *, row_group_rows: int, compression: str,
                compression_level: int | None = None, what: str | None = None) -> None:
    """Write one Parquet file through Beam's FileSystems (local, gs://, s3://, ...); a full disk is
    :class:`~pipeline.disk_space.OutOfSpaceError` naming ``what`` (default: the file's name) and the file's
    size."""
    options: dict[str, Any] = {"row_group_size": row_group_rows,
                               "compression": None if compression == "none" else compression,
                               "compression_level": compression_level, "write_statistics": True}

    def write(sink: Any) -> None:
        if table.num_rows:
            pq.write_table(table, sink, **options)
            return
        # An empty shard holds no row group (pyarrow would write one of 0 rows, which Hugging Face datasets'
        # Parquet reader cannot read: batch size 0); readers see the schema and no rows.
        pq.ParquetWriter(sink, table.schema, **{k: v for k, v in options.items() if k != "row_group_size"}).close()

    def size() -> int:  # asked only when the disk is full: the same bytes, counted instead of stored
        counter = pa.MockOutputStream()
        write(counter)
        return counter.size()

    with room_for(path, what or path.rsplit("/", 1)[-1], size):
        try:
            handle = FileSystems.create(path, mime_type="application/octet-stream",
                                        compression_type=CompressionTypes.UNCOMPRESSED)
            try:
                write(handle)
            finally:
                handle.close()
        except BaseException:
            if FileSystems.exists(path):  # a partial file (a full disk) holds space and is never read
                FileSystems.delete([path])
            raise


def shards_of(ids: pa.Array | pa.ChunkedArray, count: int) -> np.ndarray:
    """:func:`shard_of` of every id."""
    return np.fromiter((shard_of(row_id, count) for row_id in ids.to_pylist()), np.int64, len(ids))


def sorted_shard_table(parts: Iterable[pa.Table | None], schema: pa.Schema) -> pa.Table:
    """One shard's row batches (None: the shard's marker) as one table with ``schema``, sorted by id; the same
    table (dictionaries in order of first appearance, one chunk per column) as :func:`records_to_table` of the rows
    sorted by id, so the Parquet bytes do not depend on how rows were batched."""
    plain = plain_schema(schema)
    tables = [part.select(schema.names).cast(plain) for part in parts if part is not None]
    if not tables:
        return schema.empty_table()
    table = pa.concat_tables(tables)
    table = table.take(arrow_compute.sort_indices(table, [(S.ID, "ascending")])).combine_chunks()
    columns = [table.column(f.name).dictionary_encode().cast(f.type) if pa.types.is_dictionary(f.type)
               else table.column(f.name) for f in schema]
    return pa.Table.from_arrays(columns, schema=schema)


class _KeyByShard(beam.DoFn):
    def __init__(self, count: int, counter: str | None):
        self._count, self._counter_name = count, counter

    def setup(self) -> None:
        self._counter = StageCounter(self._counter_name) if self._counter_name else None

    def process(self, batch: pa.Table) -> Iterator[tuple[int, pa.Table]]:
        if self._counter is not None:
            self._counter.inc(batch.num_rows)
        yield from partition(batch, shards_of(batch.column(S.ID), self._count))


def _marker(index: int) -> tuple[int, None]:
    return index, None


class _WriteShard(beam.DoFn):
    def __init__(self, directory: str, prefix: str, count: int, schema: pa.Schema, row_group_rows: int,
                 compression: str, compression_level: int | None):
        self._directory, self._prefix, self._count = directory, prefix, count
        self._schema = schema
        self._row_group_rows, self._compression, self._level = row_group_rows, compression, compression_level

    def process(self, element: tuple[int, Iterable[pa.Table | None]],
                late_metadata: dict[str, Any] | None = None) -> Iterator[str]:
        index, parts = element
        schema = S.with_metadata(self._schema, **late_metadata) if late_metadata else self._schema
        table = sorted_shard_table(parts, schema)
        record_size(f"shard_{self._prefix}", table.num_rows, table.nbytes)
        path = FileSystems.join(self._directory, shard_name(self._prefix, index, self._count))
        write_table(table, path, row_group_rows=self._row_group_rows, compression=self._compression,
                    compression_level=self._level, what=f"{self._prefix}/ shard {index + 1} of {self._count}")
        yield path


class WriteParquetShards(beam.PTransform):
    """Row batches (Arrow tables) -> ``<directory>/<prefix>-SSSSS-of-NNNNN.parquet``, sorted by id; yields the
    paths.

    ``counter`` (default ``written_<prefix>``) counts the records in :data:`~pipeline.metrics.METRICS_NAMESPACE`.
    ``late_metadata``: a one-element PCollection of metadata entries known only once the job runs (the id of a
    scorer it fitted), set over the entries of ``schema`` (an entry already there keeps its place).
    """

    def __init__(self, directory: str, prefix: str, schema: pa.Schema, *, num_shards: int,
                 row_group_rows: int = 100_000, compression: str = "zstd", compression_level: int | None = None,
                 counter: str | None = None, late_metadata: beam.PCollection | None = None,
                 label: str | None = None):
        super().__init__(label)
        self._late_metadata = late_metadata
        self._directory, self._prefix, self._schema = directory, prefix, schema
        self._num_shards, self._row_group_rows = num_shards, row_group_rows
        self._compression, self._level = compression, compression_level
        self._counter = counter if counter is not None else written_counter(prefix)

    def expand(self, batches: beam.PCollection) -> beam.PCollection:
        n = self._num_shards
        late = [beam.pvalue.AsSingleton(self._late_metadata)] if self._late_metadata is not None else []
        keyed = batches | "KeyByShard" >> beam.ParDo(_KeyByShard(n, self._counter))
        # One marker per shard, so every shard file is written, empty or not.
        markers = batches.pipeline | "ShardMarkers" >> beam.Create(list(range(n))) | "Marker" >> beam.Map(_marker)
        return (
            (keyed, markers)
            | "Together" >> beam.Flatten()
            | "GroupByShard" >> beam.GroupByKey()
            | "WriteShard" >> beam.ParDo(_WriteShard(self._directory, self._prefix, n, self._schema,
                                                     self._row_group_rows, self._compression, self._level),
                                         *late)
        )


def _kept_rows(batch: pa.Table) -> Iterator[pa.Table]:
    kept = batch.filter(arrow_compute.fill_null(batch[S.KEEP], False))
    if kept.num_rows:
        yield kept


def write_run_outputs(output: str, pipeline_config: PipelineConfig, metadata: dict[str, Any], pairs: beam.PCollection,
                      rejected: Sequence[beam.PCollection], deadletter: beam.PCollection, *,
                      score_fields: Sequence[pa.Field], select_metadata: dict[str, Any] | None,
                      late_metadata: beam.PCollection | None) -> None:
    """Write every output folder as deterministic shards under ``<output>/_staging`` (:func:`clear_staging` clears
    a killed run's first): ``pairs/`` (with the configured scores' columns), ``train/`` (the kept pairs, when a
    selection ran: ``select_metadata``), ``rejected/`` and ``deadletter/``, each schema carrying ``metadata``."""
    staging = FileSystems.join(output, STAGING)
    shards = {"num_shards": pipeline_config.num_shards, "row_group_rows": pipeline_config.row_group_rows,
              "compression": pipeline_config.compression, "compression_level": pipeline_config.compression_level}
    pairs_schema = S.with_metadata(pa.schema([*S.PAIRS_SCHEMA, *score_fields]), **metadata,
                                   **(select_metadata or {}))
    _ = pairs | Step.WRITE_PAIRS >> WriteParquetShards(FileSystems.join(staging, PAIRS), PAIRS, pairs_schema,
                                                   late_metadata=late_metadata, **shards)
    if select_metadata is not None:
        _ = (pairs
             | "Selected" >> beam.FlatMap(_kept_rows)
             | Step.WRITE_TRAIN >> WriteParquetShards(FileSystems.join(staging, TRAIN), TRAIN, pairs_schema,
                                                  late_metadata=late_metadata, **shards))
    _ = (tuple(rejected)
         | "AllRejected" >> beam.Flatten()
         | "RejectedTables" >> RecordTables(S.REJECTED_SCHEMA)
         | Step.WRITE_REJECTED >> WriteParquetShards(FileSystems.join(staging, REJECTED), REJECTED,
                                                 S.with_metadata(S.REJECTED_SCHEMA, **metadata), **shards))
    _ = (deadletter
         | "DeadletterTables" >> RecordTables(S.DEADLETTER_SCHEMA)
         | Step.WRITE_DEADLETTER >> WriteParquetShards(FileSystems.join(staging, DEADLETTER), DEADLETTER,
                                                   S.with_metadata(S.DEADLETTER_SCHEMA, **metadata),
                                                   **{**shards, "num_shards": pipeline_config.deadletter_shards}))
