"""pipeline.records: the batch schemas between the stages, splitting a batch into parts (checked against a
row-by-row grouping), a rejection record and the rejecting DoFn's tagged, counted output."""

from __future__ import annotations

import random

import apache_beam as beam
import numpy as np
import pyarrow as pa

from paranmt.core import pair_schema as S
from paranmt.core.pair_schema import Reason, Stage
from pipeline import records
from pipeline.metrics import METRICS_NAMESPACE
from pipeline.records import (
    DECODED_SCHEMA,
    DEDUP_KEY,
    PREFILTERED_SCHEMA,
    REJECTED_TAG,
    ROW,
    RejectingDoFn,
    partition,
    rejection,
)
from tests.support.taste_data import taste_pairs


def test_the_prefiltered_schema_is_the_decoded_one_with_tokens_and_a_16_byte_key():
    assert PREFILTERED_SCHEMA.names == [*DECODED_SCHEMA.names, S.EN_TOKENS, DEDUP_KEY]
    assert PREFILTERED_SCHEMA.field(DEDUP_KEY).type == pa.binary(16)
    assert DECODED_SCHEMA.field(ROW).type == pa.int64() and not DECODED_SCHEMA.field(ROW).nullable
    assert set(DECODED_SCHEMA.names) - {ROW} <= set(S.PAIRS_SCHEMA.names)  # the contract's columns, by its names


def test_partition_groups_rows_by_part_in_their_order():
    """Real pairs in 7 parts drawn at random: each part's rows, in table order, as grouping row by row gives."""
    cs, en, _ = taste_pairs(500)
    table = pa.table({S.CS: cs, S.EN: en, ROW: list(range(500))})
    parts = np.array([random.Random(5).choice([0, 2, 3, 5, 8, 13, 21]) for _ in range(500)], dtype=np.int64)
    expected: dict[int, list[dict]] = {}
    for row, part in zip(table.to_pylist(), parts.tolist(), strict=True):
        expected.setdefault(part, []).append(row)
    got = partition(table, parts)
    assert [part for part, _ in got] == sorted(expected)
    assert {part: rows.to_pylist() for part, rows in got} == expected
    assert partition(table.slice(0, 0), parts[:0]) == []


def test_a_rejection_keeps_the_rows_text_and_names_stage_and_reason():
    row = {S.ID: "news:L000000000007", S.SOURCE: "news", S.CS: "Ahoj.", S.EN: "Hello.", "en_tokens": ["Hello", "."]}
    assert rejection(row, Stage.DEDUP, Reason.DUPLICATE, "duplicate of news:L000000000002") == {
        S.ID: "news:L000000000007", S.SOURCE: "news", S.STAGE: "dedup", S.REASON: "duplicate",
        S.DETAIL: "duplicate of news:L000000000002", S.CS: "Ahoj.", S.EN: "Hello.", S.MT: None}
    assert set(rejection(row, Stage.SELECT, "too_many_digits", "")) == set(S.REJECTED_SCHEMA.names)


def test_a_rejecting_dofn_tags_and_counts_each_rejection_under_its_reason(monkeypatch):
    """Counted under ``rejected_<reason>`` of the pipeline's namespace, a plug-in rule's own reason too (Beam's
    counters count only inside a job: the counter handed out is recorded here)."""
    counted: list[tuple[str, str, int]] = []

    class _Counter:
        def __init__(self, namespace: str, name: str) -> None:
            self.key = (namespace, name)

        def inc(self, n: int = 1) -> None:
            counted.append((*self.key, n))

    monkeypatch.setattr(records.Metrics, "counter", _Counter)
    record = rejection({S.ID: "a:L000000000001", S.SOURCE: "a", S.CS: "x", S.EN: "y"}, Stage.SELECT,
                       "too_many_digits", "12 digits")
    out = RejectingDoFn()._reject(record)
    assert isinstance(out, beam.pvalue.TaggedOutput) and out.tag == REJECTED_TAG and out.value == record
    assert counted == [(METRICS_NAMESPACE, "rejected_too_many_digits", 1)]
