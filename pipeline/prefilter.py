"""Stages 2, 3 and 5: Moses normalisation and tokenisation, the pre-filter, global dedup, the pair record.

Beam-free core (usable and testable on its own):

* :class:`TextProcessor` -- sacremoses ``MosesPunctNormalizer(lang)`` then ``MosesTokenizer(lang)`` with
  ``escape=False``, for ``cs`` and ``en``; the sacremoses objects are built lazily and never pickled.
* :func:`prefilter_row` -- one decoded row in, either the row with ``en_tokens`` and a dedup key, or a rejection.
  Checks, in order (the first failure is the reason): ``empty_side`` (nothing left after normalisation),
  ``garbage`` (control characters or U+FFFD, or too few letters/digits), ``untranslated`` (the Czech and English
  token sequences are equal, ignoring case), ``source_too_long`` (Czech Moses tokens over the NMT limit),
  ``length_ratio`` (longer / shorter side in Moses tokens).
* :func:`pick_duplicates` -- for one group of rows with the same normalised pair, keep the smallest id and reject
  the others as ``duplicate`` (detail: the kept id).
* :func:`pair_record` -- a translated row (``mt`` set) to a record in the :data:`core.pair_schema.PAIRS_SCHEMA`
  layout with ``mt_tokens``; a translation with no tokens after normalisation is rejected
  (``translation_empty``).

The Beam stages apply these row functions to Arrow batches (:mod:`pipeline.records`); dedup is column-wise
(:func:`duplicates_in`) within hash buckets of the dedup key.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import apache_beam as beam
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from apache_beam.metrics import Metrics

from core import pair_schema as S
from core.pair_schema import Reason
from core.text import TextProcessor
from pipeline.records import (
    BATCH_ROWS,
    DEDUP_KEY,
    FIT_SCHEMA,
    PREFILTERED_SCHEMA,
    ROW,
    DecodedRow,
    PairRecord,
    PrefilteredRow,
    RejectedRecord,
    TranslatedRow,
    partition,
)
from pipeline.summary import METRICS_NAMESPACE, record_size, rejected_counter

__all__ = [
    "REJECTED_TAG",
    "STAGE_DEDUP",
    "STAGE_PREFILTER",
    "STAGE_TRANSLATE",
    "Dedup",
    "PairRecords",
    "PrefilterOptions",
    "PrefilterRows",
    "dedup_key",
    "pair_record",
    "pick_duplicates",
    "prefilter_row",
    "rejection",
]

STAGE_PREFILTER = "prefilter"
STAGE_DEDUP = "dedup"
STAGE_TRANSLATE = "translate"
REJECTED_TAG = "rejected"
FIT_TAG = "fit"
_PAIR_COLUMNS = tuple(S.PAIRS_SCHEMA.names)

# C0 and C1 control characters (tab and newline included: a sentence has none), U+FFFD (a decoder already gave
# up on something), line/paragraph separators, BOM/zero-width no-break space inside text.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ufffd\u2028\u2029\ufeff]")
_NOT_ALNUM = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class PrefilterOptions:
    max_source_tokens: int = 200
    max_length_ratio: float | None = 3.0
    length_ratio_min_tokens: int = 6
    min_alnum_ratio: float = 0.3
    dedup: bool = True

    @classmethod
    def from_config(cls, pipeline_config: Any, translate_config: Any) -> PrefilterOptions:
        limit = pipeline_config.max_source_tokens or translate_config.max_source_tokens
        return cls(max_source_tokens=limit, max_length_ratio=pipeline_config.max_length_ratio,
                   length_ratio_min_tokens=pipeline_config.length_ratio_min_tokens,
                   min_alnum_ratio=pipeline_config.min_alnum_ratio, dedup=pipeline_config.dedup)


def rejection(row: Mapping[str, Any], stage: str, reason: Reason, detail: str) -> RejectedRecord:
    """A ``rejected/`` record: the row's id, source and raw text with the stage, reason and a detail."""
    return {S.ID: row[S.ID], S.SOURCE: row[S.SOURCE], "stage": stage, S.REASON: reason.value, "detail": detail,
            S.CS: row.get(S.CS), S.EN: row.get(S.EN), S.MT: row.get(S.MT)}


def _control(text: str, side: str) -> str | None:
    bad = _CONTROL.search(text)
    return None if bad is None else f"{side} has control character U+{ord(bad.group()):04X} at {bad.start()}"


def _low_alnum(text: str, side: str, min_alnum_ratio: float) -> str | None:
    nonspace = len("".join(text.split()))
    alnum = len(_NOT_ALNUM.sub("", text))
    if nonspace and alnum < min_alnum_ratio * nonspace:
        return f"{side} has {alnum} letters/digits in {nonspace} non-space characters (< {min_alnum_ratio:g})"
    return None


def dedup_key(cs_tokens: list[str], en_tokens: list[str]) -> bytes:
    """Exact-duplicate key of the normalised pair (Moses tokens, case kept)."""
    return _dedup_key(" ".join(cs_tokens), " ".join(en_tokens))


def _dedup_key(cs_joined: str, en_joined: str) -> bytes:
    return hashlib.blake2b(f"{cs_joined}\x00{en_joined}".encode(), digest_size=16).digest()


def prefilter_row(row: DecodedRow, text: TextProcessor,
                  options: PrefilterOptions) -> tuple[PrefilteredRow | None, RejectedRecord | None]:
    """``(kept row with en_tokens and dedup_key, None)`` or ``(None, rejection)``."""
    kept, rejected, _ = _prefilter(row, text, options)
    return kept, rejected


def _prefilter(row: DecodedRow, text: TextProcessor, options: PrefilterOptions
               ) -> tuple[PrefilteredRow | None, RejectedRecord | None, list[str] | None]:
    """:func:`prefilter_row`, plus the English tokens when it got as far as tokenising."""
    cs, en = row[S.CS], row[S.EN]
    for side, value in ((S.CS, cs), (S.EN, en)):
        problem = _control(value, side)
        if problem:
            return None, rejection(row, STAGE_PREFILTER, Reason.GARBAGE, problem), None
    cs_tokens = text.tokenize(cs, "cs")
    en_tokens = text.tokenize(en, "en")
    if not cs_tokens or not en_tokens:
        empty = " and ".join(side for side, toks in ((S.CS, cs_tokens), (S.EN, en_tokens)) if not toks)
        return (None, rejection(row, STAGE_PREFILTER, Reason.EMPTY_SIDE, f"{empty} empty after normalisation"),
                en_tokens)
    for side, value in ((S.CS, cs), (S.EN, en)):
        problem = _low_alnum(value, side, options.min_alnum_ratio)
        if problem:
            return None, rejection(row, STAGE_PREFILTER, Reason.GARBAGE, problem), en_tokens
    # Tokens hold no spaces, so comparing the joined strings compares the token sequences.
    cs_joined, en_joined = " ".join(cs_tokens), " ".join(en_tokens)
    if cs_joined.casefold() == en_joined.casefold():
        return (None, rejection(row, STAGE_PREFILTER, Reason.UNTRANSLATED, "cs equals en after normalisation"),
                en_tokens)
    n_cs, n_en = len(cs_tokens), len(en_tokens)
    if n_cs > options.max_source_tokens:
        return None, rejection(row, STAGE_PREFILTER, Reason.SOURCE_TOO_LONG,
                               f"cs has {n_cs} Moses tokens > {options.max_source_tokens}"), en_tokens
    if options.max_length_ratio is not None:
        longer, shorter = max(n_cs, n_en), min(n_cs, n_en)
        if longer >= options.length_ratio_min_tokens and longer > options.max_length_ratio * shorter:
            return None, rejection(row, STAGE_PREFILTER, Reason.LENGTH_RATIO,
                                   f"{n_cs} cs vs {n_en} en tokens: ratio {longer / shorter:.2f} > "
                                   f"{options.max_length_ratio:g}"), en_tokens
    kept: PrefilteredRow = dict(row)  # type: ignore[assignment]
    kept[S.EN_TOKENS] = en_tokens
    kept[DEDUP_KEY] = _dedup_key(cs_joined, en_joined)
    return kept, None, en_tokens


def pick_duplicates(rows: Iterable[PrefilteredRow]) -> tuple[PrefilteredRow, list[RejectedRecord]]:
    """The first row in input order (the smallest row number), and rejections (``duplicate``) for the others."""
    ordered = sorted(rows, key=lambda r: r[ROW])
    kept = ordered[0]
    return kept, [rejection(r, STAGE_DEDUP, Reason.DUPLICATE, f"duplicate of {kept[S.ID]}") for r in ordered[1:]]


def pair_record(row: TranslatedRow, text: TextProcessor,
                nmt_model_id: str | None) -> tuple[PairRecord | None, RejectedRecord | None]:
    """A translated row -> ``(pair record in PAIRS_SCHEMA layout, None)`` or ``(None, translation_empty)``: one row
    of what :func:`pair_table` (which the pipeline runs) makes column-wise, and the reference it is tested against.

    Score columns, ``keep`` and ``reason`` stay null here: the scoring/selection stage fills them.
    """
    mt = row[S.MT]
    mt_tokens = text.tokenize(mt, "en") if mt else []
    if not mt_tokens:
        return None, rejection(row, STAGE_TRANSLATE, Reason.TRANSLATION_EMPTY,
                               "machine translation is empty after normalisation")
    record: PairRecord = dict.fromkeys(_PAIR_COLUMNS)  # type: ignore[assignment]  # every column; unknown ones stay null
    record.update({
        S.ID: row[S.ID],
        S.SOURCE: row[S.SOURCE],
        S.CS: row[S.CS],
        S.EN: row[S.EN],
        S.MT: mt,
        S.EN_TOKENS: row[S.EN_TOKENS],
        S.MT_TOKENS: mt_tokens,
        S.TRANSLATION_SCORE: row.get("mt_score"),
        S.HIT_LENGTH_CAP: row.get(S.HIT_LENGTH_CAP),
        S.NMT_MODEL_ID: nmt_model_id,
    })
    return record, None


# ------------------------------------------------------------------------------------------------------ Beam


class _Rejecting(beam.DoFn):
    """A DoFn with a TextProcessor built in setup() and one counter per rejection reason."""

    def setup(self) -> None:
        self._text = TextProcessor()
        self._rejected = {reason: Metrics.counter(METRICS_NAMESPACE, rejected_counter(reason)) for reason in Reason}

    def _reject(self, record: dict[str, Any]) -> beam.pvalue.TaggedOutput:
        self._rejected[Reason(record[S.REASON])].inc()
        return beam.pvalue.TaggedOutput(REJECTED_TAG, record)


class PrefilterRows(_Rejecting):
    """Decoded row batches -> kept row batches (main; :data:`~pipeline.records.PREFILTERED_SCHEMA`, with
    ``en_tokens`` and ``dedup_key``) and rejections (``rejected``).

    With ``fit_sentences`` > 0 it also hands the English tokens it made to the scorer fit (``fit``;
    :data:`~pipeline.records.FIT_SCHEMA`): those of every row with a non-empty English side, kept or not (the
    first ``fit_sentences`` of each batch in input order), so the fit tokenises nothing again.

    ``warm_modules`` are imported in ``setup``: the scorer needs torch (~1.5 s to import), and a worker that
    imports it while it pre-filters does not hold up the scorer fit and the scoring stage, which wait for each
    other and, on a local runner, run one at a time."""

    def __init__(self, options: PrefilterOptions, fit_sentences: int = 0, warm_modules: tuple[str, ...] = ()):
        self._options, self._fit_sentences, self._warm_modules = options, fit_sentences, warm_modules

    def setup(self) -> None:
        super().setup()
        for name in self._warm_modules:
            importlib.import_module(name)
        # What the worker has loaded now (Beam, torch, the tokenisers) lives as long as the process: out of the
        # cyclic collector's sight, it is neither traversed by later collections nor at exit, where a local
        # runner's worker spent ~0.6 s collecting it while the runner waited (it stops its workers one by one).
        gc.freeze()

    def process(self, batch: pa.Table) -> Iterator[Any]:
        kept, en_lists, keys, fit = [], [], [], []
        for index, row in enumerate(batch.to_pylist()):
            row_kept, rejected, en_tokens = _prefilter(row, self._text, self._options)
            if rejected is None:
                kept.append(index)
                en_lists.append(en_tokens)
                keys.append(row_kept[DEDUP_KEY])
            else:
                yield self._reject(rejected)
            if self._fit_sentences and row[S.EN] and len(fit) < self._fit_sentences:
                if en_tokens is None:  # rejected before tokenising
                    en_tokens = self._text.tokenize(row[S.EN], "en")
                if en_tokens:
                    fit.append({ROW: row[ROW], S.EN_TOKENS: en_tokens})
        if kept:  # the kept rows' columns as they came, plus the two the pre-filter made
            columns = batch.take(kept).select(PREFILTERED_SCHEMA.names[:-2]).columns
            yield pa.Table.from_arrays([*columns, pa.array(en_lists, PREFILTERED_SCHEMA.field(S.EN_TOKENS).type),
                                        pa.array(keys, PREFILTERED_SCHEMA.field(DEDUP_KEY).type)],
                                       schema=PREFILTERED_SCHEMA)
        if fit:
            yield beam.pvalue.TaggedOutput(FIT_TAG, pa.Table.from_pylist(fit, schema=FIT_SCHEMA))


def duplicates_in(table: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """:func:`pick_duplicates` column-wise over a table with ``dedup_key`` and ``row``: the row indices to keep (the
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
        yield from partition(batch, _bucket_of_keys(batch, self._buckets), self._buckets)


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
                yield beam.pvalue.TaggedOutput(REJECTED_TAG, rejection(row, STAGE_DEDUP, Reason.DUPLICATE,
                                                                       f"duplicate of {winner}"))
        kept_rows = table.drop_columns([DEDUP_KEY]).take(np.sort(kept))
        for start in range(0, kept_rows.num_rows, BATCH_ROWS):
            yield kept_rows.slice(start, BATCH_ROWS)


def _drop_key(batch: pa.Table) -> pa.Table:
    return batch.drop_columns([DEDUP_KEY])


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


def as_rows(batch: pa.Table | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A batch as row dicts (a list of dicts is already one)."""
    return batch.to_pylist() if isinstance(batch, pa.Table) else batch


class PairRecords(_Rejecting):
    """Translated row batches (Arrow tables or lists of dicts) -> pair record batches in the PAIRS_SCHEMA layout
    (main) and ``translation_empty`` rejections."""

    def __init__(self, nmt_model_id: str | None):
        self._model_id = nmt_model_id

    def process(self, batch: pa.Table | list[dict[str, Any]]) -> Iterator[Any]:
        table = batch if isinstance(batch, pa.Table) else pa.Table.from_pylist(batch)
        pairs, rejected = pair_table(table, self._text, self._model_id)
        for record in rejected:
            yield self._reject(record)
        if pairs.num_rows:
            yield pairs


def pair_table(batch: pa.Table, text: TextProcessor,
               nmt_model_id: str | None) -> tuple[pa.Table, list[RejectedRecord]]:
    """:func:`pair_record` column-wise over a table of translated rows: the pair records (a
    :data:`~core.pair_schema.PAIRS_SCHEMA` table, same values) and the ``translation_empty`` rejections."""
    mt_tokens = [text.tokenize(mt, "en") if mt else [] for mt in batch.column(S.MT).to_pylist()]
    empty = np.fromiter(map(len, mt_tokens), np.int64, len(mt_tokens)) == 0
    rejected = [rejection(row, STAGE_TRANSLATE, Reason.TRANSLATION_EMPTY,
                          "machine translation is empty after normalisation")
                for row in batch.take(np.flatnonzero(empty)).to_pylist()]
    kept = batch.filter(pa.array(~empty)) if empty.any() else batch
    model_id = pa.scalar(nmt_model_id, pa.string())
    if S.NMT_MODEL_ID in kept.column_names:  # a row's own model id where it has one ("" counts as none)
        own = kept.column(S.NMT_MODEL_ID)
        model_ids = pc.coalesce(pc.if_else(pc.equal(own, ""), pa.scalar(None, pa.string()), own), model_id)
    else:
        model_ids = pa.array([nmt_model_id] * kept.num_rows, pa.string())
    given = {S.MT_TOKENS: pa.array([t for t, e in zip(mt_tokens, empty, strict=True) if not e],
                                   S.PAIRS_SCHEMA.field(S.MT_TOKENS).type),
             S.NMT_MODEL_ID: model_ids,
             S.TRANSLATION_SCORE: kept.column("mt_score") if "mt_score" in kept.column_names else None,
             **{name: kept.column(name) for name in (S.ID, S.SOURCE, S.CS, S.EN, S.MT, S.EN_TOKENS, S.HIT_LENGTH_CAP)
                if name in kept.column_names}}
    columns = [pa.nulls(kept.num_rows, field.type) if given.get(field.name) is None
               else pc.cast(given[field.name], field.type) for field in S.PAIRS_SCHEMA]
    return pa.Table.from_arrays(columns, schema=S.PAIRS_SCHEMA), rejected
