"""The PMI paraphrase lexicon as a Beam branch (ParaNMT-50M Appendix A.1) over the counting of
:mod:`pipeline.analysis.lexicon.counting`; ``lexicon.enabled: true`` adds it to ``paranmt run``.

Pass 1 (word types per sentence and side, and the row accounting) is a ``CombineGlobally`` over Arrow batches of
pairs, so runners lift it into per-bundle partial combines. The vocabulary it yields is a side input of pass 2,
which counts word pairs in a ``DoFn`` that keeps one :class:`~pipeline.analysis.lexicon.counting.PairCounts` per
bundle (combiner lifting by hand: a combine with a side input is not lifted) and emits it at the end of the
bundle, split by lexicon shard (a word pair goes to the shards of both its words: a shard is a run of words in
byte order, :meth:`~pipeline.analysis.lexicon.counting.Vocabulary.shards`); a ``CombinePerKey`` merges each shard's
counts and :func:`~pipeline.analysis.lexicon.shards.write_lexicon_shard` turns them into PMI and writes that shard.
Memory per worker: one batch of pairs, at most ``chunk_keys`` materialised word pairs, the distinct
pairs of its bundle, and the merged counts of one shard. Only the shards' top-k lists and stats (at most
``max_vocab x top_k`` rows) meet on one worker, which writes ``top_k.tsv``, ``vocabulary.parquet`` and
``stats.json`` with :func:`~pipeline.analysis.lexicon.shards.write_lexicon_summary` -- the functions the stand-alone
command uses too.
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
from pipeline.analysis.lexicon.counting import Marginals, PairCounts, Vocabulary, required_columns
from pipeline.analysis.lexicon.shards import LexiconShard, write_lexicon_shard, write_lexicon_summary
from pipeline.metrics import record_size

__all__ = ["BuildLexicon"]

log = logging.getLogger(__name__)


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
    """Pair counts of one bundle (vocabulary as a side input), emitted once at the end of the bundle as
    (shard, the counts that shard needs)."""

    def __init__(self, config: LexiconConfig, num_shards: int):
        self._config, self._num_shards = config, num_shards
        self._counts: PairCounts | None = None
        self._vocab: Vocabulary | None = None

    def start_bundle(self) -> None:
        self._counts = None

    def process(self, batch: pa.Table, vocab: Vocabulary) -> Iterator[tuple[int, PairCounts]]:
        if self._counts is None:
            self._counts = PairCounts(len(vocab), self._config.chunk_keys)
        self._vocab = vocab
        self._counts.add_table(batch, vocab, self._config)
        return iter(())

    def finish_bundle(self) -> Iterator[WindowedValue]:
        if self._counts is not None:
            shard_of = self._vocab.shards(self._num_shards)
            for shard in self._counts.split(shard_of, self._num_shards):
                yield WindowedValue(shard, MIN_TIMESTAMP, [GlobalWindow()])
            self._counts = None


class _MergeCountsFn(beam.CombineFn):
    """Merges the bundles' counts of one shard; None stands for a shard no bundle counted anything for."""

    def create_accumulator(self) -> PairCounts | None:
        return None

    def add_input(self, accumulator: PairCounts | None, counts: PairCounts | None) -> PairCounts | None:
        return self.merge_accumulators([accumulator, counts])

    def merge_accumulators(self, accumulators: Iterable[PairCounts | None]) -> PairCounts | None:
        merged = None
        for accumulator in accumulators:
            if accumulator is not None:
                merged = accumulator if merged is None else merged.merge(accumulator)
        return merged

    def extract_output(self, accumulator: PairCounts | None) -> PairCounts | None:
        return accumulator.compact() if accumulator is not None else None


def _write_shard(shard: tuple[int, PairCounts | None], vocab: Vocabulary, out_dir: str, num_shards: int,
                 config: LexiconConfig, metadata: dict[str, Any]) -> LexiconShard:
    index, counts = shard
    if counts is not None:
        merged = [counts.cross, *counts.within.values()]
        record_size("lexicon_counts", sum(len(c.keys) for c in merged),
                    sum(c.keys.nbytes + c.counts.nbytes for c in merged))
    return write_lexicon_shard(out_dir, index, num_shards, counts, vocab, config, metadata)


def _write_summary(shards: list[LexiconShard], vocab: Vocabulary, marginals: Marginals, out_dir: str,
                   config: LexiconConfig, metadata: dict[str, Any]) -> dict[str, Any]:
    if marginals.used == 0:  # no pair passed the filter: empty lexicon, stats still account for every row
        log.warning("lexicon: no pair passed the filter (%s); writing an empty lexicon", marginals.stats())
    return write_lexicon_summary(out_dir, shards, vocab, marginals, config, metadata)


#: Input pairs per shard of the lexicon table when ``lexicon.num_shards`` is not set: the worker that merges and
#: writes a shard holds its word-pair counts, about the same at any input size (docs/scaling.md).
LEXICON_SHARD_PAIRS = 25_000


def lexicon_shards(expected_rows: int, config: LexiconConfig) -> int:
    """Shards of the lexicon table for a run of ``expected_rows`` input rows: ``lexicon.num_shards``, else one per
    :data:`LEXICON_SHARD_PAIRS` input rows."""
    return config.num_shards or max(1, -(-expected_rows // LEXICON_SHARD_PAIRS))


class BuildLexicon(beam.PTransform):
    """Batches of pair records (Arrow tables in the :data:`paranmt.core.pair_schema.PAIRS_SCHEMA` layout, as the
    pipeline has them) -> the lexicon files in ``out_dir``, the table in ``num_shards``
    shards (default: ``config.num_shards``, else 1), each merged and written by its own worker; the output
    PCollection holds one element, the stats dict (rows read / used / skipped by reason)."""

    def __init__(self, config: LexiconConfig, out_dir: str, metadata: Mapping[str, Any] | None = None,
                 label: str | None = None, *, num_shards: int | None = None):
        super().__init__(label)
        self._config, self._out_dir, self._metadata = config, out_dir, dict(metadata or {})
        self._num_shards = num_shards or config.num_shards or 1

    def expand(self, pairs: beam.PCollection) -> beam.PCollection:
        config, num_shards = self._config, self._num_shards
        batches = pairs | "Columns" >> beam.Map(_columns_of, required_columns(config))
        marginals = batches | "WordCounts" >> beam.CombineGlobally(_MarginalsFn(config))
        vocab = marginals | "Vocabulary" >> beam.Map(Vocabulary.from_marginals, config)
        counted = batches | "PairCountsPerBundle" >> beam.ParDo(_CountBundle(config, num_shards),
                                                               beam.pvalue.AsSingleton(vocab))
        # Every shard is written, also one no bundle counted anything for: the set is always complete.
        every_shard = pairs.pipeline | "EveryShard" >> beam.Create([(index, None) for index in range(num_shards)])
        return (
            (counted, every_shard)
            | "WithEveryShard" >> beam.Flatten()
            | "MergePairCounts" >> beam.CombinePerKey(_MergeCountsFn())
            | "WriteShards" >> beam.Map(_write_shard, beam.pvalue.AsSingleton(vocab), self._out_dir, num_shards,
                                        config, self._metadata)
            | "Shards" >> beam.combiners.ToList()
            | "Write" >> beam.Map(_write_summary, beam.pvalue.AsSingleton(vocab), beam.pvalue.AsSingleton(marginals),
                                  self._out_dir, config, self._metadata)
        )
