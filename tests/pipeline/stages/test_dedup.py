"""pipeline.stages.dedup: of the pairs with one normalised text the smallest row number is kept, whatever batch or
file holds it -- the column-wise dedup of a bucket checked against the one-group-at-a-time reference
(tests/support/prefilter_reference.py) on real pairs; every copy of a key in one bucket; the bucket count."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa

from paranmt.core import pair_schema as S
from pipeline.records import BATCH_ROWS, DEDUP_KEY, PREFILTERED_SCHEMA, REJECTED_TAG
from pipeline.stages import dedup
from pipeline.stages.dedup import dedup_buckets, duplicates_in
from tests.support.prefilter_reference import pick_duplicates
from tests.support.prefiltered_rows import decoded_row, dofn_outputs, prefilter
from tests.support.taste_data import TASTE_DATA
from tests.support.text_files import read_lines

SOFTWARE = TASTE_DATA / "bitext-software"  # the bundled licensed excerpt (300 pairs)


def _pick_duplicates(tables: list[pa.Table]) -> tuple[list[pa.Table], list[dict]]:
    """Dedup's per-bucket DoFn on one bucket of ``tables``: (kept batches, rejections)."""
    out = dofn_outputs(dedup._PickDuplicates(), (0, tables))
    assert set(out) <= {None, REJECTED_TAG}
    return out[None], out[REJECTED_TAG]


def _real_rows(n: int, distinct: int) -> list[dict]:
    """``n`` pre-filtered rows of the bundled LibreOffice help pairs, cycling through the first ``distinct``."""
    cs, en = read_lines(SOFTWARE / "libreoffice-help.cs"), read_lines(SOFTWARE / "libreoffice-help.en")
    rows, _, _ = prefilter([decoded_row(cs[i % distinct], en[i % distinct], i + 1) for i in range(n)])
    return rows


def test_dedup_keeps_the_first_row_on_the_normalised_pair():
    rows, _, _ = prefilter([decoded_row("Ahoj,  světe!", "Hello, world!", i) for i in (7, 3)]
                           + [decoded_row("Ahoj, světe !", "Hello , world!", 9)])
    assert len({r["dedup_key"] for r in rows}) == 1
    kept, duplicates = _pick_duplicates([pa.Table.from_pylist(rows, schema=PREFILTERED_SCHEMA)])
    assert [row["id"] for batch in kept for row in batch.to_pylist()] == ["t:L000000000003"]
    assert [(d["id"], d["stage"], d["reason"], d["detail"]) for d in duplicates] == [
        ("t:L000000000007", "dedup", "duplicate", "duplicate of t:L000000000003"),
        ("t:L000000000009", "dedup", "duplicate", "duplicate of t:L000000000003")]


def test_column_wise_dedup_equals_pick_duplicates_on_real_pairs():
    """duplicates_in (the pipeline's column-wise dedup in one bucket) against pick_duplicates per group (the obvious
    reference), on real pairs with many repeats, rows in shuffled order."""
    rows = _real_rows(300, 120)
    random.Random(3).shuffle(rows)
    table = pa.Table.from_pylist(rows, schema=PREFILTERED_SCHEMA)
    kept, dropped = duplicates_in(table)
    groups: dict[bytes, list[dict]] = {}
    for row in rows:
        groups.setdefault(row[DEDUP_KEY], []).append(row)
    expected = [pick_duplicates(group) for group in groups.values()]
    ids = table[S.ID].to_pylist()
    assert sorted(ids[i] for i in kept) == sorted(k[S.ID] for k, _ in expected)
    assert sorted((ids[d], ids[w]) for d, w in dropped) == sorted(
        (r[S.ID], r["detail"].removeprefix("duplicate of ")) for _, rejected in expected for r in rejected)
    assert len(dropped) == 300 - 120 - (300 - len(rows)) and np.intersect1d(kept, dropped[:, 0]).size == 0


def test_a_bucket_split_over_batches_keeps_the_same_rows_and_drops_the_key():
    """The bucket's batches in any order: the kept rows are the reference's, without the key column, and every
    duplicate is rejected naming the row it copies."""
    rows = _real_rows(300, 90)
    groups: dict[bytes, list[dict]] = {}
    for row in rows:
        groups.setdefault(row[DEDUP_KEY], []).append(row)
    expected = [pick_duplicates(group) for group in groups.values()]
    table = pa.Table.from_pylist(rows, schema=PREFILTERED_SCHEMA)
    batches = [table.slice(start, 70) for start in range(0, table.num_rows, 70)][::-1]
    kept, rejected = _pick_duplicates(batches)
    assert all(DEDUP_KEY not in batch.column_names and batch.num_rows <= BATCH_ROWS for batch in kept)
    assert sorted(row[S.ID] for batch in kept for row in batch.to_pylist()) == sorted(k[S.ID] for k, _ in expected)
    assert sorted(rejected, key=lambda r: r[S.ID]) == sorted((r for _, dropped in expected for r in dropped),
                                                             key=lambda r: r[S.ID])


def test_every_copy_of_a_key_goes_to_one_bucket_even_from_a_sliced_batch():
    """Buckets by the key's first 8 bytes (little-endian) modulo the count, read straight from the Arrow buffer:
    the same on a slice of a batch (an offset into that buffer) as on the rows alone."""
    rows = _real_rows(300, 120)
    table = pa.Table.from_pylist(rows, schema=PREFILTERED_SCHEMA)
    for buckets in (1, 16, 1028):
        key_by_bucket = dedup._KeyByBucket(buckets)
        for start, length in ((0, table.num_rows), (37, 101), (250, 50)):
            batch = table.slice(start, length)
            got = {row[S.ID]: bucket for bucket, part in key_by_bucket.process(batch) for row in part.to_pylist()}
            assert got == {r[S.ID]: int.from_bytes(r[DEDUP_KEY][:8], "little") % buckets
                           for r in rows[start:start + length]}
    used = {int.from_bytes(r[DEDUP_KEY][:8], "little") % 16 for r in rows}
    assert len(used) >= 12, "120 distinct pairs spread over the buckets"


def test_buckets_hold_about_fifty_thousand_rows_and_are_at_least_sixteen():
    assert [dedup_buckets(n) for n in (0, 1, 800_000, 800_001, 51_400_000)] == [16, 16, 16, 17, 1028]
