"""Write: shard assignment is a stable function of the id."""

from __future__ import annotations

from pipeline.stages.write import shard_of


def test_shards_are_stable():
    assert [shard_of(f"x:L{i:012d}", 4) for i in range(5)] == [shard_of(f"x:L{i:012d}", 4) for i in range(5)]
    assert {shard_of(f"x:L{i:012d}", 4) for i in range(100)} == {0, 1, 2, 3}


def test_a_shard_table_does_not_depend_on_batching():
    """sorted_shard_table over Arrow batches in any split (plain or dictionary-typed, as RecordTables and the
    stages give them), equals records_to_table of the rows sorted by id (the reference): same values, dictionaries
    in order of first appearance, one chunk -- same Parquet bytes."""
    import io
    import random

    import pyarrow.parquet as pq

    from paranmt.core import pair_schema as S
    from pipeline.stages.write import plain_schema, records_to_table, sorted_shard_table

    reasons = ["duplicate", "garbage", "length_ratio", None]
    rows = [{"id": f"s:L{i:012d}", "source": "s", "stage": "prefilter" if i % 3 else "dedup",
             "reason": reasons[i % 4], "detail": f"d{i}", "cs": "č" * (i % 5), "en": None, "mt": f"m{i}"}
            for i in range(500)]
    random.Random(5).shuffle(rows)
    reference = records_to_table(sorted(rows, key=lambda r: r[S.ID]), S.REJECTED_SCHEMA)
    parts = [records_to_table(rows[:100], S.REJECTED_SCHEMA), None,
             *(records_to_table([row], plain_schema(S.REJECTED_SCHEMA)) for row in rows[100:130]),
             records_to_table(rows[130:], plain_schema(S.REJECTED_SCHEMA))]
    table = sorted_shard_table(parts, S.REJECTED_SCHEMA)
    assert table.equals(reference) and table.schema.equals(reference.schema, check_metadata=True)

    def parquet(t):
        sink = io.BytesIO()
        pq.write_table(t, sink, compression="zstd")
        return sink.getvalue()

    assert parquet(table) == parquet(reference)
    assert sorted_shard_table([None], S.REJECTED_SCHEMA).num_rows == 0
