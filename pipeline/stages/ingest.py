"""Ingest: read raw bytes by the launcher's plan, decode them into rows or dead letters (the Beam stage).

The launcher's plan is :mod:`pipeline.inputs.plan`, file access (compression, line counting)
:mod:`pipeline.inputs.files`, and reading raw records :mod:`pipeline.inputs.reading`; this module decodes and composes.

Inputs (``InputSpec``), on local disk or anything Beam's ``FileSystems`` reads (``gs://``, ``s3://``, ...):

* **pair files** -- line-aligned ``corpus.cs`` + ``corpus.en`` (+ optionally a third line-aligned file of machine
  translations), plain or compressed. Lines are split on ``\\n`` only (a trailing ``\\r`` is dropped), so
  ``\\x0b``, ``\\x85`` or U+2028 inside a sentence never shift the alignment.
* **TSV** -- one pair per line with configurable 0-based column indices (CzEng's export); a glob pattern.
* **JSONL** -- one JSON object per line with named fields; a glob pattern.
* **Parquet** -- named string columns; a file, a folder of shards or a glob pattern, resolved as every command
  resolves it (:func:`paranmt.core.parquet_inputs.read_parquet_input`).

Splitting (all decided before the pipeline starts, by ``plan_reads``):

* Pair files get a **counting pre-pass** (``index_lines``): each file is read once, its lines are counted and
  the byte offset of every ``index_every``-th line is recorded. Different line counts are an error naming both
  files and their counts (``MisalignedInputError``) before any work is done, unless ``allow_misaligned`` is
  set: then the unmatched tail becomes dead letters with reason ``misaligned``. Read tasks are line ranges that
  start on recorded offsets, so each task seeks straight to its first line. A **compressed** pair file (``.gz``,
  ...) cannot seek: the pre-pass still counts its lines, but it is read as one sequential task, and the rows are
  reshuffled after reading so the later stages still spread over workers. For very large compressed pair files,
  decompress them first (or convert to TSV) to parallelise the reading itself.
* TSV and JSONL files get the same counting pre-pass and the same line-range tasks (a TSV header line is skipped
  and not counted). Compressed files are one task each.
* Parquet files are read one row group per task; their row counts come from the metadata.

Every row gets a **row number** (:data:`pipeline.records.ROW`), 0-based over all inputs in the order given (a
glob's files in name order): the same pairs have the same row numbers whether they come as pair files, TSV, JSONL
or Parquet, plain or compressed, in one file or sharded. What must not depend on the container is decided by it:
``--limit`` (the first N rows), the translation chunks, which copy dedup keeps, the scorer fit's first sentences.

Checks on the launcher, before any work (each an ``InputError`` naming the file and the fix): a compressed
file is decompressed to its end in the counting pre-pass, so
a truncated or corrupt one (``CorruptInputError``) is never read short; read tasks check the stream again.
Inputs without a row, a TSV none of whose first lines has the columns asked for, a file given to ``--parquet``
that is not Parquet and a Parquet text column that is not a string are errors too.

Ids are stable across runs and independent of the splitting: ``<source>:L<row>``, the row 1-based within its file
(the line number of a pair file, or of a TSV/JSONL file without a header), zero-padded to 12 digits so ids sort in
input order within a source. ``<source>`` is the file name without its compression and format suffixes (``.cs``,
``.tsv``, ``.jsonl``, ``.parquet``, ...), so the same file converted to another format keeps its ids.

Decoding (:func:`decode_record`) never raises for bad data: invalid UTF-8, lines over ``max_line_bytes`` (never
decoded, kept truncated), unparseable TSV/JSON lines, null fields and misaligned tails become dead letters with a
:class:`~core.pair_schema.Reason` and an error message.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import apache_beam as beam
import pyarrow as pa
from apache_beam.metrics import Metrics

from configs.schema import PipelineConfig
from paranmt.core.chunking import in_lists
from paranmt.core.pair_schema import (
    CS,
    EN,
    ERROR,
    ID,
    MT,
    RAW,
    RAW_BYTES,
    RAW_TRUNCATED,
    REASON,
    SOURCE,
    STAGE,
    TRANSLATION_SCORE,
    Reason,
    Stage,
)
from paranmt.core.text import sentence_text
from pipeline.inputs.plan import InputSpec, plan_reads
from pipeline.inputs.reading import read_task
from pipeline.metrics import METRICS_NAMESPACE, READ_COUNTER, StageCounter, deadletter_counter
from pipeline.records import BATCH_ROWS, DECODED_SCHEMA, ROW, DeadLetterRecord, DecodedRow

__all__ = [
    "DecodeRecords",
    "Ingest",
    "decode_record",
]

DEADLETTER_TAG = "deadletter"


# ---------------------------------------------------------------------------------------------------- reading


# --------------------------------------------------------------------------------------------------- decoding


class _Dead(Exception):
    def __init__(self, reason: Reason, error: str, raw: bytes | None):
        super().__init__(error)
        self.reason, self.error, self.raw = reason, error, raw


def dead_letter(raw: dict[str, Any], reason: Reason, error: str, data: bytes | None, keep: int,
                length: int | None = None) -> DeadLetterRecord:
    data = data if data is not None else b""
    size = len(data) if length is None else length
    return {ID: raw[ID], SOURCE: raw[SOURCE], STAGE: Stage.INGEST.value, REASON: reason.value, ERROR: error,
            RAW: data[:keep], RAW_BYTES: size, RAW_TRUNCATED: size > min(len(data), keep)}


def _text(data: bytes | None, what: str) -> str:
    if data is None:
        raise _Dead(Reason.UNPARSEABLE, f"{what} is missing (null)", None)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _Dead(Reason.INVALID_UTF8, f"invalid UTF-8 in {what} at byte {error.start}: {error.reason}",
                    data) from None
    return text[1:] if text.startswith("\ufeff") else text


def _score(value: object, what: str) -> float | None:  # a cell as read: bytes, str, a number, None, ...
    if value is None or value == b"" or value == "":
        return None
    if isinstance(value, bool):
        raise _Dead(Reason.UNPARSEABLE, f"{what} is not a number: {value!r}", None)
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(value.decode("ascii") if isinstance(value, bytes) else value)
    except (ValueError, UnicodeDecodeError):
        raise _Dead(Reason.UNPARSEABLE, f"{what} is not a number: {value!r}", None) from None


def _json_text(obj: dict[str, Any], key: str, line: bytes) -> str:
    if key not in obj or obj[key] is None:
        raise _Dead(Reason.UNPARSEABLE, f"JSON object has no {key!r} string", line)
    value = obj[key]
    if not isinstance(value, str):
        raise _Dead(Reason.UNPARSEABLE, f"JSON field {key!r} is a {type(value).__name__}, not a string", line)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise _Dead(Reason.INVALID_UTF8, f"JSON field {key!r} has a lone surrogate at {error.start}", line) from None
    return value[1:] if value.startswith("\ufeff") else value


def _decode_fields(raw: dict[str, Any], spec: InputSpec) -> tuple[str, str, str | None, float | None]:
    fmt = raw["fmt"]
    if fmt == "pair":
        cs, en = _text(raw[CS], "cs line"), _text(raw[EN], "en line")
        mt = _text(raw[MT], "mt line") if MT in raw else None
        return cs, en, mt, None
    if fmt == "tsv":
        line: bytes = raw["line"]
        fields = line.split(b"\t")
        wanted = {CS: spec.cs_column, EN: spec.en_column, MT: spec.mt_column,
                  TRANSLATION_SCORE: spec.translation_score_column}
        need = max(int(v) for v in wanted.values() if v is not None)
        if need >= len(fields):
            raise _Dead(Reason.UNPARSEABLE, f"TSV line has {len(fields)} field(s); columns up to {need} "
                        "(0-based) are needed", line)
        cs = _text(fields[int(spec.cs_column)], f"TSV column {spec.cs_column} (cs)")
        en = _text(fields[int(spec.en_column)], f"TSV column {spec.en_column} (en)")
        mt = _text(fields[int(spec.mt_column)], f"TSV column {spec.mt_column} (mt)") \
            if spec.mt_column is not None else None
        score_column = spec.translation_score_column
        score = _score(fields[int(score_column)], f"TSV column {score_column} (translation score)") \
            if score_column is not None else None
        return cs, en, mt, score
    if fmt == "jsonl":
        line = raw["line"]
        text = _text(line, "JSON line")
        if not text.strip():
            raise _Dead(Reason.UNPARSEABLE, "empty JSONL line", line)
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as error:
            raise _Dead(Reason.UNPARSEABLE, f"not valid JSON: {error}", line) from None
        if not isinstance(obj, dict):
            raise _Dead(Reason.UNPARSEABLE, f"JSON line is a {type(obj).__name__}, not an object", line)
        cs, en = _json_text(obj, str(spec.cs_column), line), _json_text(obj, str(spec.en_column), line)
        mt = _json_text(obj, str(spec.mt_column), line) if spec.mt_column is not None else None
        score = _score(obj.get(str(spec.translation_score_column)), f"JSON field {spec.translation_score_column!r}") \
            if spec.translation_score_column is not None else None
        return cs, en, mt, score
    if fmt == "parquet":
        values = raw["values"]
        cs = _text(values[spec.cs_column], f"column {spec.cs_column} (cs)")
        en = _text(values[spec.en_column], f"column {spec.en_column} (en)")
        mt = _text(values[spec.mt_column], f"column {spec.mt_column} (mt)") if spec.mt_column is not None else None
        score = _score(values[spec.translation_score_column], f"column {spec.translation_score_column}") \
            if spec.translation_score_column is not None else None
        return cs, en, mt, score
    raise ValueError(f"unknown record format {fmt!r}")


def _first_bytes(raw: dict[str, Any]) -> bytes | None:
    for key in ("line", CS, EN, MT):
        if raw.get(key) is not None:
            return raw[key]
    return None


def decode_record(raw: dict[str, Any], spec: InputSpec, max_line_bytes: int,
                  keep_bytes: int) -> tuple[str, DecodedRow | DeadLetterRecord]:
    """``("row", {id, source, cs, en, mt, translation_score})`` or ``("deadletter", record)``; never raises for bad
    data."""
    if raw.get("missing"):
        data = next((raw[s] for s in (CS, EN, MT) if raw.get(s) is not None), None)
        return DEADLETTER_TAG, dead_letter(raw, Reason.MISALIGNED, raw["missing"], data, keep_bytes)
    if raw["overlong"] is not None:
        what, length = raw["overlong"]
        data = raw["line"] if what == "line" else raw[what]
        return DEADLETTER_TAG, dead_letter(
            raw, Reason.LINE_TOO_LONG, f"{'the' if what == 'line' else what} line is {length} bytes, over "
            f"pipeline.max_line_bytes={max_line_bytes}: not decoded", data, keep_bytes, length)
    if raw["fmt"] == "parquet":
        for name, value in raw["values"].items():
            if isinstance(value, bytes) and len(value) > max_line_bytes:
                return DEADLETTER_TAG, dead_letter(
                    raw, Reason.LINE_TOO_LONG, f"column {name} is {len(value)} bytes, over "
                    f"pipeline.max_line_bytes={max_line_bytes}: not decoded", value, keep_bytes)
    try:
        cs, en, mt, score = _decode_fields(raw, spec)
    except _Dead as dead:
        data = dead.raw if dead.raw is not None else _first_bytes(raw)
        return DEADLETTER_TAG, dead_letter(raw, dead.reason, dead.error, data, keep_bytes)
    return "row", {ID: raw[ID], SOURCE: raw[SOURCE], CS: sentence_text(cs), EN: sentence_text(en),
                   MT: None if mt is None else sentence_text(mt), TRANSLATION_SCORE: score}


# ------------------------------------------------------------------------------------------------------ Beam


class _ReadTask(beam.DoFn):
    """A read task -> its raw records, in lists of at most ``batch_rows`` (fewer, bigger elements downstream)."""

    def __init__(self, max_line_bytes: int, keep_bytes: int, batch_rows: int = BATCH_ROWS):
        self._cap, self._keep, self._batch_rows = max_line_bytes, keep_bytes, batch_rows

    def process(self, task: dict[str, Any]) -> Iterator[list[dict[str, Any]]]:
        yield from in_lists(read_task(task, self._cap, self._keep), self._batch_rows)


def decode_batch(raws: Sequence[dict[str, Any]], specs: Sequence[InputSpec], max_line_bytes: int,
                 keep_bytes: int) -> tuple[pa.Table, list[DeadLetterRecord]]:
    """Raw records -> a :data:`~pipeline.records.DECODED_SCHEMA` table of the rows and the dead letters."""
    rows: list[DecodedRow] = []
    dead: list[DeadLetterRecord] = []
    for raw in raws:
        tag, record = decode_record(raw, specs[raw["input"]], max_line_bytes, keep_bytes)
        if tag == DEADLETTER_TAG:
            dead.append(record)  # type: ignore[arg-type]
        else:
            record[ROW] = raw["row"]
            rows.append(record)  # type: ignore[arg-type]
    return pa.Table.from_pylist(rows, schema=DECODED_SCHEMA), dead


class DecodeRecords(beam.DoFn):
    """Lists of raw records -> decoded row batches (main output, Arrow tables) and dead letters (tagged
    ``deadletter``); counts ``read``."""

    def __init__(self, specs: Sequence[InputSpec], max_line_bytes: int, keep_bytes: int):
        self._specs = list(specs)
        self._cap, self._keep = max_line_bytes, keep_bytes

    def setup(self) -> None:
        self._read = StageCounter(READ_COUNTER)
        self._dead = {reason: Metrics.counter(METRICS_NAMESPACE, deadletter_counter(reason)) for reason in Reason}

    def process(self, raws: list[dict[str, Any]]) -> Iterator[Any]:
        self._read.inc(len(raws))
        rows, dead = decode_batch(raws, self._specs, self._cap, self._keep)
        for record in dead:
            self._dead[Reason(record[REASON])].inc()
            yield beam.pvalue.TaggedOutput(DEADLETTER_TAG, record)
        if rows.num_rows:
            yield rows


class Ingest(beam.PTransform):
    """Plans the reads at construction (errors before any work), then reads and decodes.

    ``pcoll_begin | Ingest(specs, config)`` returns ``{"rows": ..., "deadletter": ...}``; ``.plan`` is the
    :class:`ReadPlan` (tasks, sources, expected row count when known).
    """

    def __init__(self, specs: Sequence[InputSpec], config: PipelineConfig, label: str | None = None):
        super().__init__(label)
        self.specs = list(specs)
        self.config = config
        self.plan = plan_reads(self.specs, config)

    def expand(self, pbegin: beam.pvalue.PBegin) -> dict[str, beam.PCollection]:
        cfg = self.config
        raw = (
            pbegin
            | "ReadTasks" >> beam.Create(self.plan.tasks)  # reshuffled: tasks spread over workers
            | "Read" >> beam.ParDo(_ReadTask(cfg.max_line_bytes, cfg.deadletter_raw_bytes))
        )
        if self.plan.sequential:
            raw = raw | "SpreadSequential" >> beam.Reshuffle()
        decoded = raw | "Decode" >> beam.ParDo(
            DecodeRecords(self.specs, cfg.max_line_bytes, cfg.deadletter_raw_bytes)
        ).with_outputs(DEADLETTER_TAG, main="rows")
        return {"rows": decoded.rows, DEADLETTER_TAG: decoded[DEADLETTER_TAG]}
