"""The Parquet contract between the corpus builder and everything that reads its output.

One module defines the columns: the pipeline and filters write with :data:`PAIRS_SCHEMA` (and
:data:`REJECTED_SCHEMA`, :data:`DEADLETTER_SCHEMA`), the trainer and the reports read with it. Bump
:data:`SCHEMA_VERSION` on any incompatible change; readers check it with :func:`check_schema`.

A *pair* is an English reference (``en``) and the machine translation of its Czech side (``mt``), both as raw
text and as lower-cased-on-demand Moses tokens, with the three quality signals of ParaNMT-50M §3.
"""

from __future__ import annotations

import json
import os
from enum import StrEnum
from typing import Any

import pyarrow as pa

from paranmt.core.errors import ParanmtError

SCHEMA_VERSION = "1"
METADATA_PREFIX = b"paranmt."


class Reason(StrEnum):
    """Why a row is where it is. ``kept`` marks training pairs; every other code names one rejection."""

    KEPT = "kept"
    # pre-filter (before translation)
    EMPTY_SIDE = "empty_side"
    UNTRANSLATED = "untranslated"  # the Czech side equals the English side
    SOURCE_TOO_LONG = "source_too_long"
    # The sides' token counts too far apart, by two rules: Czech vs English in the pre-filter (source_target_ratio,
    # rejected/ with stage prefilter) and English vs its back-translation in the selection (length_ratio,
    # pairs/). One code: the stage tells them apart, and a second code would change the bytes of rejected/.
    LENGTH_RATIO = "length_ratio"
    GARBAGE = "garbage"  # control characters, mostly non-letters
    DUPLICATE = "duplicate"
    # back-translation
    TRANSLATION_EMPTY = "translation_empty"
    TRANSLATION_TOO_LONG = "translation_too_long"
    TRANSLATION_FAILED = "translation_failed"
    # the selection (pairs/ keeps these rows, train/ does not)
    MISSING_SCORE = "missing_score"
    SCORE_OUT_OF_RANGE = "score_out_of_range"
    TOO_MANY_TOKENS = "too_many_tokens"
    NOT_IN_SELECTED_FOLDS = "not_in_selected_folds"
    NOT_SAMPLED = "not_sampled"
    NO_KNOWN_WORDS = "no_known_words"
    EVAL_OVERLAP = "eval_overlap"  # a side equals a sentence of an evaluation set (select.exclude_sentences)
    COPY = "copy"  # the back-translation equals the reference after normalisation: not a paraphrase
    # dead letters (rows that could not be read at all)
    INVALID_UTF8 = "invalid_utf8"
    UNPARSEABLE = "unparseable"
    LINE_TOO_LONG = "line_too_long"  # over pipeline.max_line_bytes: never decoded, kept truncated
    MISALIGNED = "misaligned"


class Stage(StrEnum):
    """A run's stages by name, in the order rows pass them: the ``stage`` column of ``rejected/`` and
    ``deadletter/``, the counters and the summary's stages, and where a plug-in rule or score runs."""

    INGEST = "ingest"  # decode: its drops are dead letters
    PREFILTER = "prefilter"
    DEDUP = "dedup"
    TRANSLATE = "translate"  # the back-translation (BackTranslate and PairRecords)
    SELECT = "select"  # the selection: its rejections stay in pairs/ (``reason``), out of train/


# Column names, used everywhere instead of string literals.
ID = "id"
SOURCE = "source"
CS = "cs"
EN = "en"
MT = "mt"
EN_TOKENS = "en_tokens"
MT_TOKENS = "mt_tokens"
TRANSLATION_SCORE = "translation_score"  # float64 between the stages (as decoded or translated), float32 in pairs/
TRIGRAM_OVERLAP = "trigram_overlap"
PARAPHRASE_SCORE = "paraphrase_score"
NO_KNOWN_WORDS = "no_known_words"
HIT_LENGTH_CAP = "hit_length_cap"
NMT_MODEL_ID = "nmt_model_id"
SCORER_ID = "scorer_id"
FOLD = "fold"
KEEP = "keep"
REASON = "reason"
STAGE = "stage"  # of rejected/ and deadletter/: a Stage value

PAIRS_SCHEMA = pa.schema(
    [
        pa.field(ID, pa.string(), nullable=False),  # source name + position: stable across runs
        pa.field(SOURCE, pa.string(), nullable=False),
        pa.field(CS, pa.string()),
        pa.field(EN, pa.string()),
        pa.field(MT, pa.string()),
        pa.field(EN_TOKENS, pa.list_(pa.string())),
        pa.field(MT_TOKENS, pa.list_(pa.string())),
        pa.field(TRANSLATION_SCORE, pa.float32()),  # mean natural-log probability per token (EOS included)
        pa.field(TRIGRAM_OVERLAP, pa.float32()),
        pa.field(PARAPHRASE_SCORE, pa.float32()),  # PARAGRAM-PHRASE cosine
        pa.field(NO_KNOWN_WORDS, pa.bool_()),  # a side had no word the scorer knows: paraphrase_score is 0
        pa.field(HIT_LENGTH_CAP, pa.bool_()),
        pa.field(NMT_MODEL_ID, pa.string()),
        pa.field(SCORER_ID, pa.string()),
        pa.field(FOLD, pa.int8()),  # 1..folds by the ranking criterion (0: not ranked), when folds were assigned
        pa.field(KEEP, pa.bool_()),  # selected for train/
        pa.field(REASON, pa.dictionary(pa.int8(), pa.string())),  # a Reason value
    ]
)

# rejected/ and deadletter/ columns of their own
DETAIL = "detail"
ERROR = "error"
RAW = "raw"
RAW_BYTES = "raw_bytes"
RAW_TRUNCATED = "raw_truncated"

# rejected/: rows dropped by a pipeline stage, with their raw text.
REJECTED_SCHEMA = pa.schema([
    pa.field(ID, pa.string(), nullable=False),
    pa.field(SOURCE, pa.string(), nullable=False),
    pa.field(STAGE, pa.dictionary(pa.int8(), pa.string())),  # prefilter, dedup, translate
    pa.field(REASON, pa.dictionary(pa.int8(), pa.string())),  # a Reason value
    pa.field(DETAIL, pa.string()),
    pa.field(CS, pa.string()),
    pa.field(EN, pa.string()),
    pa.field(MT, pa.string()),
])

# deadletter/: records that could not be read as a pair at all; raw holds (a prefix of) the bytes that failed.
DEADLETTER_SCHEMA = pa.schema([
    pa.field(ID, pa.string(), nullable=False),
    pa.field(SOURCE, pa.string(), nullable=False),
    pa.field(STAGE, pa.dictionary(pa.int8(), pa.string())),  # ingest
    pa.field(REASON, pa.dictionary(pa.int8(), pa.string())),  # invalid_utf8, unparseable, misaligned
    pa.field(ERROR, pa.string()),
    pa.field(RAW, pa.binary()),
    pa.field(RAW_BYTES, pa.int64()),  # size of the original field/line
    pa.field(RAW_TRUNCATED, pa.bool_()),
])


def with_metadata(schema: pa.Schema, **entries: Any) -> pa.Schema:  # Any: JSON values, else their str()
    """Attach ``paranmt.*`` metadata (the schema version always; configs, model ids, ... as JSON)."""
    metadata = dict(schema.metadata or {})
    metadata[METADATA_PREFIX + b"schema_version"] = SCHEMA_VERSION.encode()
    for key, value in entries.items():
        metadata[METADATA_PREFIX + key.encode()] = json.dumps(value, sort_keys=True, default=str).encode()
    return schema.with_metadata(metadata)


def read_metadata(schema: pa.Schema) -> dict[str, Any]:
    """The ``paranmt.*`` metadata of a schema, JSON-decoded (the schema version stays a string)."""
    out: dict[str, Any] = {}
    for key, value in (schema.metadata or {}).items():
        if key.startswith(METADATA_PREFIX):
            name = key[len(METADATA_PREFIX):].decode()
            out[name] = value.decode() if name == "schema_version" else json.loads(value)
    return out


class SchemaMismatch(ParanmtError, ValueError):
    """A Parquet file does not follow this version of the contract; the message says how."""


def check_schema(schema: pa.Schema, required: tuple[str, ...] = (ID, EN_TOKENS, MT_TOKENS), *,
                 source: str | os.PathLike[str] | None = None) -> None:
    """Raise :class:`SchemaMismatch` if columns are missing, mistyped, or the schema version differs; the message
    starts with ``source`` (the file or folder read), when given."""
    where = f"{source}: " if source is not None else ""
    version = read_metadata(schema).get("schema_version")
    if version is not None and version != SCHEMA_VERSION:
        raise SchemaMismatch(f"{where}schema_version {version} but this code reads version {SCHEMA_VERSION}")
    missing = [name for name in required if name not in schema.names]
    if missing:
        raise SchemaMismatch(f"{where}missing columns {missing}; found {schema.names}")
    for name in required:
        if name not in PAIRS_SCHEMA.names:  # a stage's own column (cs_tokens) or a plug-in score's
            continue
        expected = PAIRS_SCHEMA.field(name).type
        actual = schema.field(name).type
        if not _compatible(actual, expected):
            raise SchemaMismatch(f"{where}column {name} has type {actual}, expected {expected}")


def _compatible(actual: pa.DataType, expected: pa.DataType) -> bool:
    if actual == expected:
        return True
    if pa.types.is_dictionary(expected):
        return pa.types.is_dictionary(actual) or pa.types.is_string(actual) or pa.types.is_large_string(actual)
    if pa.types.is_list(expected) and (pa.types.is_list(actual) or pa.types.is_large_list(actual)):
        return _compatible(actual.value_type, expected.value_type)
    if pa.types.is_floating(expected):
        return pa.types.is_floating(actual)
    return pa.types.is_string(expected) and pa.types.is_large_string(actual)


def empty_table(schema: pa.Schema = PAIRS_SCHEMA) -> pa.Table:
    return schema.empty_table()
