"""Pair records: translated rows -> rows of ``pairs/`` in the :data:`paranmt.core.pair_schema.PAIRS_SCHEMA` layout,
with the back-translation Moses-tokenised (``mt_tokens``); a translation with no tokens is rejected
(``translation_empty``). The step ends the back-translation (stage ``translate``), whether the run translated or the
input carried its translations, so its rejections are that stage's (:class:`pipeline.metrics.Step`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paranmt.core import pair_schema as S
from paranmt.core.pair_schema import Reason, Stage
from paranmt.core.text import TextProcessor
from pipeline.records import RejectedRecord, RejectingDoFn, rejection

__all__ = ["PairRecords", "pair_table"]


class PairRecords(RejectingDoFn):
    """Translated row batches -> pair record batches in the PAIRS_SCHEMA layout (main) and ``translation_empty``
    rejections."""

    def __init__(self, nmt_model_id: str | None):
        self._model_id = nmt_model_id

    def setup(self) -> None:
        self._text = TextProcessor()

    def process(self, batch: pa.Table) -> Iterator[Any]:
        pairs, rejected = pair_table(batch, self._text, self._model_id)
        for record in rejected:
            yield self._reject(record)
        if pairs.num_rows:
            yield pairs


def pair_table(batch: pa.Table, text: TextProcessor,
               nmt_model_id: str | None) -> tuple[pa.Table, list[RejectedRecord]]:
    """A table of translated rows -> the pair records (a :data:`~core.pair_schema.PAIRS_SCHEMA` table: ``mt_tokens``,
    the translation score and the model id filled; the score columns, ``fold``, ``keep`` and ``reason`` null until
    the selection) and ``translation_empty`` rejections (a translation with no tokens after normalisation)."""
    mt_tokens = [text.tokenize(mt, "en") if mt else [] for mt in batch.column(S.MT).to_pylist()]
    empty = np.fromiter(map(len, mt_tokens), np.int64, len(mt_tokens)) == 0
    rejected = [rejection(row, Stage.TRANSLATE, Reason.TRANSLATION_EMPTY,
                          "machine translation is empty after normalisation")
                for row in batch.take(np.flatnonzero(empty)).to_pylist()]
    kept = batch.filter(pa.array(~empty)) if empty.any() else batch
    given = {S.MT_TOKENS: pa.array([t for t, e in zip(mt_tokens, empty, strict=True) if not e],
                                   S.PAIRS_SCHEMA.field(S.MT_TOKENS).type),
             S.NMT_MODEL_ID: pa.repeat(pa.scalar(nmt_model_id, pa.string()), kept.num_rows),
             **{name: kept.column(name) for name in (S.ID, S.SOURCE, S.CS, S.EN, S.MT, S.EN_TOKENS,
                                                     S.TRANSLATION_SCORE, S.HIT_LENGTH_CAP)
                if name in kept.column_names}}
    columns = [pa.nulls(kept.num_rows, field.type) if given.get(field.name) is None
               else pc.cast(given[field.name], field.type) for field in S.PAIRS_SCHEMA]
    return pa.Table.from_arrays(columns, schema=S.PAIRS_SCHEMA), rejected
