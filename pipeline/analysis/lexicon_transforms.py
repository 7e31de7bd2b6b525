"""The PMI paraphrase lexicon as a Beam branch (ParaNMT-50M Appendix A.1) over the counting core in
:mod:`pipeline.analysis.pmi_lexicon`; ``lexicon.enabled: true`` adds it to ``python -m pipeline.run``.

Pass 1 (word types per sentence and side, and the row accounting) is a ``CombineGlobally`` over Arrow batches of
pairs, so runners lift it into per-bundle partial combines. The vocabulary it yields is a side input of pass 2,
which counts word pairs in a ``DoFn`` that keeps one :class:`~pipeline.analysis.pmi_lexicon.PairCounts` per
bundle (combiner lifting by hand: a combine with a side input is not lifted) and emits it at the end of the
bundle; the partial counts are merged by a second ``CombineGlobally``. Memory per worker: one batch of
``batch_pairs`` pairs, at most ``chunk_keys`` materialised word pairs, and the distinct pairs of its bundle. The
merged counts are written once, by :func:`pipeline.analysis.pmi_lexicon.write_outputs` -- the same function the
stand-alone command uses.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import apache_beam as beam
import pyarrow as pa
from apache_beam.transforms.window import GlobalWindow
from apache_beam.utils.timestamp import MIN_TIMESTAMP
from apache_beam.utils.windowed_value import WindowedValue

from configs.schema import LexiconConfig
from core.pair_schema import PAIRS_SCHEMA
from pipeline.analysis.pmi_lexicon import Marginals, PairCounts, Vocabulary, required_columns, write_outputs
from pipeline.summary import record_size

__all__ = ["BuildLexicon", "records_to_batch"]

log = logging.getLogger(__name__)


def records_to_batch(records: Iterable[Mapping[str, Any]], columns: tuple[str, ...]) -> pa.Table:
    """Pair records (dicts) -> an Arrow table of ``columns`` with the types of the pairs schema."""
    rows = list(records)
    return pa.table({name: pa.array([r.get(name) for r in rows], PAIRS_SCHEMA.field(name).type) for name in columns})


def _columns_of(batch: pa.Table, columns: tuple[str, ...]) -> pa.Table:
    return batch.select(list(columns))


class _MarginalsFn(beam.CombineFn):
    def __init__(self, config: LexiconConfig):
        self._config = config

    def create_accumulator(self) -> Marginals:
        return Marginals()

    def add_input(self, accumulator: Marginals, batch: pa.Table) -> Marginals:
        accumulator.add_table(batch, self._config)
        return accumulator

    def merge_accumulators(self, accumulators: Iterable[Marginals]) -> Marginals:
        merged = Marginals()
        for accumulator in accumulators:
            merged.merge(accumulator)
        return merged

    def extract_output(self, accumulator: Marginals) -> Marginals:
        return accumulator


class _CountBundle(beam.DoFn):
    """Pair counts of one bundle (vocabulary as a side input), emitted once at the end of the bundle."""

    def __init__(self, config: LexiconConfig):
        self._config = config
        self._counts: PairCounts | None = None

    def start_bundle(self) -> None:
        self._counts = None

    def process(self, batch: pa.Table, vocab: Vocabulary) -> Iterator[PairCounts]:
        if self._counts is None:
            self._counts = PairCounts(len(vocab), self._config.chunk_keys)
        self._counts.add_table(batch, vocab, self._config)
        return iter(())

    def finish_bundle(self) -> Iterator[WindowedValue]:
        if self._counts is not None:
            yield WindowedValue(self._counts.compact(), MIN_TIMESTAMP, [GlobalWindow()])
            self._counts = None


class _MergeCountsFn(beam.CombineFn):
    def create_accumulator(self) -> PairCounts | None:
        return None

    def add_input(self, accumulator: PairCounts | None, counts: PairCounts) -> PairCounts:
        return counts if accumulator is None else accumulator.merge(counts)

    def merge_accumulators(self, accumulators: Iterable[PairCounts | None]) -> PairCounts | None:
        merged = None
        for accumulator in accumulators:
            if accumulator is not None:
                merged = accumulator if merged is None else merged.merge(accumulator)
        return merged

    def extract_output(self, accumulator: PairCounts | None) -> PairCounts | None:
        return accumulator.compact() if accumulator is not None else None


def _write(counts: PairCounts | None, vocab: Vocabulary, marginals: Marginals, out_dir: str,
           config: LexiconConfig, metadata: dict[str, Any]) -> dict[str, Any]:
    if counts is None:  # no pair passed the filter: empty lexicon, stats still account for every row
        log.warning("lexicon: no pair passed the filter (%s); writing an empty lexicon", marginals.stats())
        counts = PairCounts(len(vocab), config.chunk_keys)
    merged = [counts.cross, *counts.within.values()]
    record_size("lexicon_counts", sum(len(c.keys) for c in merged),
                sum(c.keys.nbytes + c.counts.nbytes for c in merged))
    return write_outputs(out_dir, counts, vocab, marginals, config, metadata)


class BuildLexicon(beam.PTransform):
    """Pair records (dicts in the :data:`core.pair_schema.PAIRS_SCHEMA` layout, or with ``tables=True`` Arrow
    batches of them, as the pipeline has them) -> the lexicon files in ``out_dir``; the output PCollection holds one
    element, the stats dict (rows read / used / skipped by reason)."""

    def __init__(self, config: LexiconConfig, out_dir: str, metadata: Mapping[str, Any] | None = None,
                 label: str | None = None, *, tables: bool = False):
        super().__init__(label)
        self._config, self._out_dir, self._metadata = config, out_dir, dict(metadata or {})
        self._tables = tables

    def expand(self, records: beam.PCollection) -> beam.PCollection:
        config = self._config
        if self._tables:
            batches = records | "Columns" >> beam.Map(_columns_of, required_columns(config))
        else:
            batches = (
                records
                | "Batch" >> beam.BatchElements(min_batch_size=1, max_batch_size=config.batch_pairs)
                | "ToArrow" >> beam.Map(records_to_batch, required_columns(config))
            )
        marginals = batches | "WordCounts" >> beam.CombineGlobally(_MarginalsFn(config))
        vocab = marginals | "Vocabulary" >> beam.Map(Vocabulary.from_marginals, config)
        counts = (
            batches
            | "PairCountsPerBundle" >> beam.ParDo(_CountBundle(config), beam.pvalue.AsSingleton(vocab))
            | "MergePairCounts" >> beam.CombineGlobally(_MergeCountsFn())
        )
        return counts | "Write" >> beam.Map(_write, beam.pvalue.AsSingleton(vocab),
                                            beam.pvalue.AsSingleton(marginals), self._out_dir, config,
                                            self._metadata)
