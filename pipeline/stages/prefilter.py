"""The pre-filter: Moses normalisation and tokenisation (sacremoses, ``cs`` and ``en``), then the rules of
``prefilter.rules`` (:mod:`filters.prefilter_rules` and a user's own :class:`filters.plugins.Rule` s of stage
``prefilter``), vectorised over each batch. Kept rows go on to dedup with their English tokens and the dedup key (a
hash of the normalised pair); a rejected row gets the reason of the first rule it fails, with that rule's detail.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
from collections.abc import Iterator
from typing import Any

import apache_beam as beam
import numpy as np
import pyarrow as pa

from configs.schema import ParaNMTConfig
from filters.fit_sample import fit_candidates
from filters.plugins import CS_TOKENS, Rule
from filters.rules import apply_rules, prefilter_rules
from paranmt.core import pair_schema as S
from paranmt.core.pair_schema import Stage
from paranmt.core.text import TextProcessor
from pipeline.records import PREFILTERED_SCHEMA, RejectingDoFn, rejection

__all__ = ["FIT_TAG", "PrefilterRows", "dedup_keys", "tokenized_batch"]

FIT_TAG = "fit"
_TOKENS = pa.list_(pa.string())


def tokenized_batch(batch: pa.Table, text: TextProcessor) -> pa.Table:
    """``batch`` with ``cs_tokens`` and ``en_tokens`` (Moses, after punctuation normalisation) appended."""
    cs = [text.tokenize(value, "cs") for value in batch.column(S.CS).to_pylist()]
    en = [text.tokenize(value, "en") for value in batch.column(S.EN).to_pylist()]
    return batch.append_column(CS_TOKENS, pa.array(cs, _TOKENS)).append_column(S.EN_TOKENS, pa.array(en, _TOKENS))


def dedup_keys(table: pa.Table) -> pa.Array:
    """The exact-duplicate key of each normalised pair (Moses tokens, case kept): 16 bytes of BLAKE2b."""
    cs, en = (table.column(c).to_pylist() for c in (CS_TOKENS, S.EN_TOKENS))
    return pa.array([hashlib.blake2b(f"{' '.join(c)}\x00{' '.join(e)}".encode(), digest_size=16).digest()
                     for c, e in zip(cs, en, strict=True)], pa.binary(16))


class PrefilterRows(RejectingDoFn):
    """Decoded row batches -> kept row batches (main; :data:`~pipeline.records.PREFILTERED_SCHEMA`, with
    ``en_tokens`` and ``dedup_key``) and rejections (``rejected``).

    With ``fit_sentences`` > 0 it also hands the English tokens it made to the scorer fit (``fit``;
    :data:`~filters.fit_sample.FIT_SAMPLE_SCHEMA`): those of every row with a non-empty English side, kept or not (the
    first ``fit_sentences`` of each batch by id), so the fit tokenises nothing again.

    ``warm_modules`` are imported in ``setup``: the scorer needs torch (slow to import), and a worker that
    imports it while it pre-filters does not hold up the scorer fit and the scoring stage, which wait for each
    other and, on a local runner, run one at a time."""

    def __init__(self, rules: list[Rule], fit_sentences: int = 0, warm_modules: tuple[str, ...] = ()):
        self._rules, self._fit_sentences, self._warm_modules = rules, fit_sentences, warm_modules

    @classmethod
    def for_run(cls, config: ParaNMTConfig, fit_sentences: int) -> PrefilterRows:
        """The pre-filter of a run, its rules checked on the launcher (:func:`filters.rules.prefilter_rules`); torch
        is warmed when the run scores."""
        return cls(prefilter_rules(config), fit_sentences, ("torch",) if config.pipeline.score else ())

    def setup(self) -> None:
        self._text = TextProcessor()
        for name in self._warm_modules:
            importlib.import_module(name)
        # What the worker has loaded now (Beam, torch, the tokenisers) lives as long as the process: out of the
        # cyclic collector's sight, it is neither traversed by later collections nor at exit, where a local
        # runner's worker spent time collecting it while the runner waited (it stops its workers one by one;
        # docs/scaling.md measures it).
        gc.freeze()

    def process(self, batch: pa.Table) -> Iterator[Any]:
        table = tokenized_batch(batch, self._text)
        result = apply_rules(table, self._rules, respect_upstream=False)
        rejected = np.flatnonzero(~result.keep)
        for rule in self._rules:  # the rejected rows of each rule, with its details
            mine = rejected[result.rule[rejected] == rule.name]
            if len(mine):
                rows = table.take(mine)
                for row, detail in zip(rows.select([S.ID, S.SOURCE, S.CS, S.EN]).to_pylist(), rule.detail(rows),
                                       strict=True):
                    yield self._reject(rejection(row, Stage.PREFILTER, rule.reason, detail))
        kept = table.filter(pa.array(result.keep))
        if kept.num_rows:
            columns = kept.select(PREFILTERED_SCHEMA.names[:-1]).columns
            yield pa.Table.from_arrays([*columns, dedup_keys(kept)], schema=PREFILTERED_SCHEMA)
        if self._fit_sentences:
            fit = self._fit_rows(table)
            if fit.num_rows:
                yield beam.pvalue.TaggedOutput(FIT_TAG, fit)

    def _fit_rows(self, table: pa.Table) -> pa.Table:
        """The rows of this batch that can be in the scorer's fit sample (:func:`filters.fit_sample.fit_candidates`:
        the first ``fit_sentences`` by id with English tokens, kept or not)."""
        return fit_candidates(table, self._fit_sentences)
