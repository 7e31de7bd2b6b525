"""The records that flow between the pipeline's stages, as ``TypedDict``s.

At run time they are plain dicts of Python primitives (Beam's fast coder handles them without pickling); the types
say which keys each stage hands to the next. Column names are those of :mod:`core.pair_schema`.

ingest --DecodedRow--> prefilter --PrefilteredRow--> dedup --> back-translation --TranslatedRow--> pair record
--PairRecord--> score and select --> ``pairs/`` and ``train/``; every stage may instead emit a
:class:`RejectedRecord` (``rejected/``), and ingest a :class:`DeadLetterRecord` (``deadletter/``).
"""

from __future__ import annotations

from typing import TypedDict


class DecodedRow(TypedDict):
    """One decoded input pair (:func:`pipeline.ingest.decode_record`); ``mt`` and ``mt_score`` only when the input
    carries a machine-translation column."""

    id: str
    source: str
    cs: str
    en: str
    mt: str | None
    mt_score: float | None


class PrefilteredRow(DecodedRow):
    """A pair that passed the pre-filter (:func:`pipeline.prefilter.prefilter_row`): English Moses tokens and the
    key of global dedup (a hash of the normalised pair)."""

    en_tokens: list[str]
    dedup_key: bytes


class TranslatedRow(PrefilteredRow, total=False):
    """A pre-filtered row with its back-translation filled in (:mod:`pipeline.backtranslate`)."""

    hit_length_cap: bool | None


class PairRecord(TypedDict):
    """One row of ``pairs/`` in the :data:`core.pair_schema.PAIRS_SCHEMA` layout
    (:func:`pipeline.prefilter.pair_record`); the score columns, ``fold``, ``keep`` and ``reason`` are null until
    score and select fills them."""

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
    """One row of ``rejected/`` (:func:`pipeline.prefilter.rejection`): the stage, a :class:`core.pair_schema.Reason`
    value and a human-readable detail, with the raw text."""

    id: str
    source: str
    stage: str
    reason: str
    detail: str
    cs: str | None
    en: str | None
    mt: str | None


class DeadLetterRecord(TypedDict):
    """One row of ``deadletter/`` (:func:`pipeline.ingest.dead_letter`): input that could not be read as a pair,
    with (a prefix of) its raw bytes."""

    id: str
    source: str
    stage: str
    reason: str
    error: str
    raw: bytes
    raw_bytes: int
    raw_truncated: bool

