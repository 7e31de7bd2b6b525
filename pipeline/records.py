"""The records that flow between the pipeline's stages, as ``TypedDict``s.

From ingest to the writers they travel as Arrow tables of :data:`BATCH_ROWS` rows (:data:`DECODED_SCHEMA`,
:data:`PREFILTERED_SCHEMA`, then :data:`paranmt.core.pair_schema.PAIRS_SCHEMA`; after back-translation one table per
translation chunk), so Beam moves hundreds to thousands of rows per element and the stages work column-wise;
rejections and dead letters, which are few, stay plain dicts until the writers batch them
(:class:`pipeline.stages.write.RecordTables`). The types say which columns (keys) each stage hands to the next. Column
names are those of :mod:`paranmt.core.pair_schema`.

ingest --DecodedRow--> prefilter --PrefilteredRow--> dedup --> back-translation --TranslatedRow--> pair record
--PairRecord--> selection --> ``pairs/`` and ``train/``; every stage may instead emit a
:class:`RejectedRecord` (``rejected/``), and ingest a :class:`DeadLetterRecord` (``deadletter/``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

import apache_beam as beam
import numpy as np
import pyarrow as pa
from apache_beam.metrics import Metrics

from paranmt.core import pair_schema as S
from paranmt.core.pair_schema import Reason, Stage
from pipeline.metrics import METRICS_NAMESPACE, rejected_counter

#: The tagged output every stage sends its rejections to (one :class:`RejectedRecord` each).
REJECTED_TAG = "rejected"

#: Rows per Arrow batch between the stages (one Beam element): big enough that Beam's per-element cost and the
#: per-call cost of the vectorised scores vanish, small enough that a batch is a few MB.
BATCH_ROWS = 4096

#: A row's place in the input: 0-based over the inputs in the order given (a glob's files in name order, a TSV
#: header not counted), so it is the same whatever container, compression or sharding holds the pairs. Translation
#: chunks, dedup's choice among copies and the scorer fit's "first sentences" are decided by it, never by an id.
ROW = "row"
#: Ingest -> pre-filter: decoded rows (:class:`DecodedRow`), with their row number.
DECODED_SCHEMA = pa.schema([
    pa.field(S.ID, pa.string(), nullable=False),
    pa.field(S.SOURCE, pa.string(), nullable=False),
    pa.field(S.CS, pa.string()),
    pa.field(S.EN, pa.string()),
    pa.field(S.MT, pa.string()),
    pa.field(S.TRANSLATION_SCORE, pa.float64()),
    pa.field(ROW, pa.int64(), nullable=False),
])

DEDUP_KEY = "dedup_key"
#: Pre-filter -> dedup: pre-filtered rows (:class:`PrefilteredRow`), with the English tokens and the dedup key.
PREFILTERED_SCHEMA = pa.schema([*DECODED_SCHEMA, pa.field(S.EN_TOKENS, pa.list_(pa.string())),
                                pa.field(DEDUP_KEY, pa.binary(16))])



def partition(table: pa.Table, parts: np.ndarray) -> list[tuple[int, pa.Table]]:
    """``(part, rows of table in that part)`` for every part present, parts ascending; ``parts[i]`` is row ``i``'s
    part. Rows keep their order within a part."""
    if not len(parts):
        return []
    order = np.argsort(parts, kind="stable")
    ordered = parts[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], len(order)]
    return [(int(ordered[start]), table.take(order[start:end])) for start, end in zip(starts, ends, strict=True)]


class DecodedRow(TypedDict):
    """One decoded input pair (:func:`pipeline.stages.ingest.decode_record`); ``mt`` and ``translation_score`` only
    when the input carries a machine-translation column."""

    id: str
    source: str
    cs: str
    en: str
    mt: str | None
    translation_score: float | None
    row: int


class PrefilteredRow(DecodedRow):
    """A pair that passed the pre-filter (:class:`pipeline.stages.prefilter.PrefilterRows`): English Moses tokens and
    the key of global dedup (a hash of the normalised pair)."""

    en_tokens: list[str]
    dedup_key: bytes


class TranslatedRow(PrefilteredRow, total=False):
    """A pre-filtered row with its back-translation filled in (:mod:`pipeline.stages.backtranslate`)."""

    hit_length_cap: bool | None


class PairRecord(TypedDict):
    """One row of ``pairs/`` in the :data:`paranmt.core.pair_schema.PAIRS_SCHEMA` layout
    (:func:`pipeline.stages.pair_records.pair_table`); the score columns, ``fold``, ``keep`` and ``reason`` are null
    until the selection fills them."""

    id: str
    source: str
    cs: str
    en: str
    mt: str
    en_tokens: list[str]
    mt_tokens: list[str]
    translation_score: float | None
    trigram_overlap: float | None
    paraphrase_score: float | None
    no_known_words: bool | None
    hit_length_cap: bool | None
    nmt_model_id: str | None
    scorer_id: str | None
    fold: int | None
    keep: bool | None
    reason: str | None


class RejectedRecord(TypedDict):
    """One row of ``rejected/`` (:func:`rejection`): the stage, a :class:`paranmt.core.pair_schema.Reason`
    value (or a plug-in rule's own reason code) and a human-readable detail, with the raw text."""

    id: str
    source: str
    stage: str
    reason: str
    detail: str
    cs: str | None
    en: str | None
    mt: str | None


def rejection(row: Mapping[str, Any], stage: Stage, reason: Reason | str, detail: str) -> RejectedRecord:
    """A ``rejected/`` record: the row's id, source and raw text with the stage, reason and a detail."""
    return {S.ID: row[S.ID], S.SOURCE: row[S.SOURCE], S.STAGE: str(stage), S.REASON: str(reason), S.DETAIL: detail,
            S.CS: row.get(S.CS), S.EN: row.get(S.EN), S.MT: row.get(S.MT)}


class RejectingDoFn(beam.DoFn):
    """A stage's DoFn that sends rejections to :data:`REJECTED_TAG`, counting each under ``rejected_<reason>``
    (a plug-in rule's own reason included)."""

    def _reject(self, record: RejectedRecord) -> beam.pvalue.TaggedOutput:
        Metrics.counter(METRICS_NAMESPACE, rejected_counter(record[S.REASON])).inc()
        return beam.pvalue.TaggedOutput(REJECTED_TAG, record)


class DeadLetterRecord(TypedDict):
    """One row of ``deadletter/`` (:func:`pipeline.stages.ingest.dead_letter`): input that could not be read as a pair,
    with (a prefix of) its raw bytes."""

    id: str
    source: str
    stage: str
    reason: str
    error: str
    raw: bytes
    raw_bytes: int
    raw_truncated: bool

