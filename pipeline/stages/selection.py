"""The selection: one transform, :class:`Select`, over the plugin API (:mod:`filters.plugins`), that scores the pairs
and decides which become training data.

Per batch of pair records (Arrow tables in the :data:`paranmt.core.pair_schema.PAIRS_SCHEMA` layout): the paraphrase
scores from the fitted PARAGRAM-PHRASE scorer (:func:`filters.scores.score_pairs`; loaded once per worker from its
``.npz``), then the configured scores (``select.scores``), then the rules (:func:`filters.rules.rules_from_config`: the
built-ins the ``select`` section asks for and its ``rules``); then, over the whole corpus, the ranking into folds, the
selected folds, the token limit and the seeded sample. Scores do not depend on how rows are batched.

Metrics (namespace :data:`pipeline.metrics.SCORES_NAMESPACE`): counters ``pairs_scored``, ``no_known_words``,
``batches`` and ``selection_<reason>``.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import shutil
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import apache_beam as beam
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics
from apache_beam.transforms.stats import ApproximateQuantilesCombineFn

from configs.schema import ScoreConfig, SelectConfig
from filters.decontaminate import ExcludedSentences
from filters.folds import (
    DEFAULT_EPSILON,
    KEY_HASH_COLUMN,
    check_folds,
    interior_boundaries,
    key_hash,
    pair_keys,
    sample_hashes_of,
)
from filters.paragram import ParagramScorer
from filters.plugins import Score, step_of
from filters.rules import apply_rules, rules_from_config
from filters.scores import score_pairs
from paranmt.core.pair_schema import EN_TOKENS, FOLD, ID, KEEP, MT_TOKENS, NO_KNOWN_WORDS, PAIRS_SCHEMA, REASON, Reason
from pipeline.metrics import SCORED_PROGRESS, SCORES_NAMESPACE, SCORING_PROGRESS, count_progress

__all__ = ["Select", "check_scorer", "load_scorer", "score_columns"]

ScorerSource = str | Path | ScoreConfig | ParagramScorer

_lock = threading.Lock()


@functools.lru_cache(maxsize=4)
def _cached_scorer(path: str, mtime_ns: int, size: int) -> ParagramScorer:  # mtime/size: reload if rewritten
    return ParagramScorer.load(path)


def _local_copy(url: str, refresh: bool = False) -> Path:
    """A scorer on gs://, s3://, ... copied once per worker process to a local temporary file (again with
    ``refresh``)."""
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    local = Path(tempfile.gettempdir()) / f"paranmt-scorer-{digest}.npz"
    if refresh or not local.exists():
        partial = local.with_suffix(f".{os.getpid()}.partial")
        with FileSystems.open(url, compression_type=CompressionTypes.UNCOMPRESSED) as source, \
                partial.open("wb") as target:
            shutil.copyfileobj(source, target, 1 << 24)
        partial.replace(local)
    return local


def check_scorer(scorer: ScorerSource) -> None:
    """A scorer that is missing, or a config that needs fitting first, fails here, before any work."""
    if isinstance(scorer, ScoreConfig) and scorer.scorer is None and (
            scorer.remove_components > 0 or scorer.word_frequencies is None):
        raise ValueError("this ScoreConfig needs fitting on a sample: fit and save a scorer first "
                         "(ParagramScorer.fit(...).save(path)) and set score.scorer")
    path = scorer.scorer if isinstance(scorer, ScoreConfig) else scorer
    if isinstance(path, str | Path) and "://" not in str(path) and not Path(path).is_file():
        raise FileNotFoundError(f"scorer file {path} not found (fit and save a scorer first)")


def load_scorer(source: ScorerSource, *, refresh: bool = False) -> ParagramScorer:
    """A scorer from a local or remote (any Beam FileSystems URL) ``.npz``, a config, or as is; cached per process
    (``refresh``: copy a remote file again, it may have been rewritten)."""
    if isinstance(source, ParagramScorer):
        return source
    if isinstance(source, ScoreConfig):
        if source.scorer is None:
            return ParagramScorer.from_config(source)  # only possible without fitting (raises otherwise)
        source = source.scorer
    if "://" in str(source):
        source = _local_copy(str(source), refresh)
    path = Path(source).resolve()
    stat = path.stat()
    with _lock:  # DoFn instances on several threads of one worker share one loaded scorer
        return _cached_scorer(str(path), stat.st_mtime_ns, stat.st_size)


# ------------------------------------------------------------------------------------------------ the selection

_SAMPLE_HASH_KEY = "_sample_hash"
_PRIVATE = (KEY_HASH_COLUMN, _SAMPLE_HASH_KEY)


def _reason_column(reasons: Sequence[str]) -> pa.Array:
    return pa.array(reasons, pa.string()).dictionary_encode().cast(PAIRS_SCHEMA.field(REASON).type)


def score_columns(table: pa.Table, scores: Sequence[Score]) -> pa.Table:
    """``table`` with the columns of each score appended (each score sees the columns of the ones before it)."""
    for score in scores:
        values = score.score(table)
        for field in score.fields:
            column = values[field.name]
            if len(column) != table.num_rows:
                raise ValueError(f"score {type(score).__name__} gave {len(column)} values for {table.num_rows} rows")
            table = table.append_column(field, pc.cast(column, field.type))
    return table


def _with(table: pa.Table, name: str, values: pa.Array | np.ndarray) -> pa.Table:
    field = PAIRS_SCHEMA.field(name) if name in PAIRS_SCHEMA.names else pa.field(name, pa.uint64())
    column = values if isinstance(values, pa.Array) else pa.array(values, field.type)
    index = table.schema.get_field_index(name)
    return table.set_column(index, field, column) if index >= 0 else table.append_column(field, column)


class _ScoreAndJudge(beam.DoFn):
    """A batch of pair records -> the same batch scored, with ``keep``/``reason`` from the threshold rules and
    ``fold`` 0; with a ranking criterion the token limit waits until after ranking, as in
    :func:`filters.folds.select_training_pairs`. The pair-key hashes the ranking and the sample need are added as
    private columns, which :class:`_CountDecisions` drops."""

    def __init__(self, source: ScorerSource, select_config: SelectConfig, seed: int,
                 excluded: ExcludedSentences | None, scores: Sequence[Score]):
        self._source, self._config, self._seed, self._excluded = source, select_config, seed, excluded
        self._scores = list(scores)

    def setup(self) -> None:
        self._scorer: ParagramScorer | None = None
        for score in self._scores:
            score.setup()
        self._rules = rules_from_config(self._config, max_tokens=self._config.rank_by is None,
                                        excluded=self._excluded)
        self._pairs = Metrics.counter(SCORES_NAMESPACE, "pairs_scored")
        self._no_known = Metrics.counter(SCORES_NAMESPACE, "no_known_words")
        self._batches = Metrics.counter(SCORES_NAMESPACE, "batches")

    def process(self, batch: pa.Table, fitted_id: str | None = None) -> Iterator[pa.Table]:
        if self._scorer is None:
            self._scorer = load_scorer(self._source)  # a scorer fitted in the job exists once fitted_id does
        if fitted_id is not None and self._scorer.scorer_id != fitted_id:  # an earlier run's file or copy
            self._scorer = load_scorer(self._source, refresh=True)
            if self._scorer.scorer_id != fitted_id:
                raise RuntimeError(f"{self._source} holds scorer {self._scorer.scorer_id}, not {fitted_id} that this "
                                   "job fitted: is another run writing to the same output folder?")
        count_progress(SCORING_PROGRESS, batch.num_rows)
        table = score_columns(score_pairs(batch, self._scorer), self._scores)
        count_progress(SCORED_PROGRESS, table.num_rows)
        self._pairs.inc(table.num_rows)
        self._no_known.inc(pc.sum(table[NO_KNOWN_WORDS]).as_py() or 0)
        self._batches.inc()
        result = apply_rules(table, self._rules)
        table = _with(table, KEEP, pa.array(result.keep, pa.bool_()))
        table = _with(table, REASON, _reason_column([str(r) for r in result.reason.tolist()]))
        table = _with(table, FOLD, pa.array(np.zeros(table.num_rows, np.int8)))
        if self._config.rank_by is not None:
            table = _with(table, KEY_HASH_COLUMN, key_hash(pair_keys(table), self._seed))
        if self._config.sample is not None:
            table = _with(table, _SAMPLE_HASH_KEY, sample_hashes_of(pair_keys(table), self._seed))
        yield table


class FoldBoundaries(beam.PTransform):
    """Sort keys ``(present, value, id hash)`` -> one list of the ``folds - 1`` interior boundary keys."""

    def __init__(self, folds: int, epsilon: float = DEFAULT_EPSILON, max_num_elements: int | None = None):
        super().__init__()
        check_folds(folds)
        if not 0 < epsilon < 1:
            raise ValueError(f"epsilon must be in (0, 1) (got {epsilon})")
        self.folds, self.epsilon, self.max_num_elements = folds, epsilon, max_num_elements

    def expand(self, keys):
        combine = ApproximateQuantilesCombineFn.create(
            num_quantiles=self.folds + 1, epsilon=self.epsilon, max_num_elements=self.max_num_elements)
        return (keys
                | "Quantiles" >> beam.CombineGlobally(combine)
                | "Interior" >> beam.Map(interior_boundaries, self.folds))


def _kept(batch: pa.Table) -> np.ndarray:
    return batch[KEEP].to_numpy(zero_copy_only=False).astype(bool)


def _candidate_sort_keys(batch: pa.Table, criterion: str) -> list[tuple[int, float, int]]:
    """The sort keys ``(present, value, key hash)`` of the rule-passing rows of a batch."""
    passing = batch.filter(pa.array(_kept(batch)))
    return [(0, 0.0, hashed) if value is None or math.isnan(value) else (1, value, hashed)
            for value, hashed in zip(passing[criterion].to_pylist(), passing[KEY_HASH_COLUMN].to_pylist(), strict=True)]


def folds_of_keys(present: np.ndarray, values: np.ndarray, hashes: np.ndarray, interior: Sequence[Any]) -> np.ndarray:
    """The fold of every sort key ``(present, value, hash)``, column-wise: one plus the
    number of boundaries that sort strictly before the key."""
    folds = np.ones(len(present), np.int64)
    for b_present, b_value, b_hash in interior:
        b_hash = np.uint64(b_hash)
        before = (b_present < present) | ((b_present == present) & (
            (b_value < values) | ((b_value == values) & (b_hash < hashes))))
        folds += before
    return folds


def _reject_where(batch: pa.Table, mask: np.ndarray, reason: Reason) -> pa.Table:
    """``batch`` with the rows of ``mask`` no longer kept, for ``reason``."""
    if not mask.any():
        return batch
    reasons = np.array(batch[REASON].to_pylist(), dtype=object)
    reasons[mask] = str(reason)
    batch = _with(batch, KEEP, pa.array(_kept(batch) & ~mask, pa.bool_()))
    return _with(batch, REASON, _reason_column(reasons.tolist()))


def _assign_folds(batch: pa.Table, interior: Sequence[Any], config: SelectConfig) -> pa.Table:
    """Folds of the rule-passing rows, then fold selection and the token limit (the rest is left as it is)."""
    ranked = _kept(batch)
    values = batch[config.rank_by].to_numpy(zero_copy_only=False).astype(np.float64)  # nulls -> nan
    present = (~np.isnan(values)).astype(np.int64)
    values = np.where(present == 1, values, 0.0)
    hashes = batch[KEY_HASH_COLUMN].to_numpy(zero_copy_only=False).astype(np.uint64)
    folds = np.where(ranked, folds_of_keys(present, values, hashes, interior), 0)
    batch = _with(batch, FOLD, pa.array(folds.astype(np.int8)))
    batch = _reject_where(batch, ranked & ~np.isin(folds, list(config.select_folds)),
                          Reason.NOT_IN_SELECTED_FOLDS)
    if config.max_tokens is not None:
        longest = np.maximum(*(pc.fill_null(pc.list_value_length(batch[side]), 0).to_numpy(zero_copy_only=False)
                               for side in (EN_TOKENS, MT_TOKENS)))
        batch = _reject_where(batch, _kept(batch) & (longest > config.max_tokens), Reason.TOO_MANY_TOKENS)
    return batch


def _candidate_sample_keys(batch: pa.Table) -> list[tuple[int, str]]:
    """``(sample hash, id)`` of the kept rows: the id only orders rows whose text is identical (dedup off)."""
    kept = batch.filter(pa.array(_kept(batch)))
    return list(zip(kept[_SAMPLE_HASH_KEY].to_pylist(), kept[ID].to_pylist(), strict=True))


def _sample_threshold(smallest: list[tuple[int, str]], n: int) -> tuple[int, str] | None:
    """The largest key among the ``n`` smallest, or None when fewer than ``n`` rows qualify (keep them all)."""
    return max(smallest) if len(smallest) >= n else None


def _apply_sample(batch: pa.Table, threshold: tuple[int, str] | None) -> pa.Table:
    if threshold is None:
        return batch
    hashes = batch[_SAMPLE_HASH_KEY].to_numpy(zero_copy_only=False).astype(np.uint64)
    limit, last_id = np.uint64(threshold[0]), pa.scalar(threshold[1], pa.string())
    after = (hashes > limit) | ((hashes == limit) & pc.greater(batch[ID], last_id).to_numpy(zero_copy_only=False))
    return _reject_where(batch, _kept(batch) & after, Reason.NOT_SAMPLED)


class _CountDecisions(beam.DoFn):
    """Counts the decisions per reason and drops the private hash columns."""

    def process(self, batch: pa.Table) -> Iterator[pa.Table]:
        for reason, count in Counter(batch[REASON].to_pylist()).items():
            Metrics.counter(SCORES_NAMESPACE, f"selection_{reason}").inc(count)
        yield batch.drop_columns([name for name in _PRIVATE if name in batch.schema.names])


class Select(beam.PTransform):
    """The selection step: batches of pair records (Arrow tables in the
    :data:`~core.pair_schema.PAIRS_SCHEMA` layout) -> the same rows with the scores, ``fold``, ``keep`` and
    ``reason`` filled, each row exactly once.

    The same decisions as :func:`filters.folds.select_training_pairs`, at Beam scale: threshold rules (vectorised
    per batch), then -- with ``rank_by`` -- folds from approximate quantiles over the rule-passing rows (the
    quantiles of :class:`FoldBoundaries`; exact on small inputs, fold sizes within
    ``2εn + 1`` of ``n/k`` at scale), the selected folds, the per-side token limit, and the seeded sample of
    ``sample`` rows (the rows with the smallest salted pair-key hash, found with ``Top.Smallest``). ``metadata`` (scorer
    id, the ``select`` section and the evaluation sentences excluded) goes into the output's Parquet metadata.

    ``select.exclude_sentences`` is read here, on the launcher (a missing file fails before any work), and the
    normalised sentences travel with the transform, so workers need no access to the evaluation files.

    ``fitted_id``: a one-element PCollection, the id of a scorer the job fits and saves to ``scorer``
    (:class:`pipeline.stages.scorer_fit.FitScorer`); scoring waits for it. ``metadata["scorer_id"]`` is then ``None``
    and the writers fill it from the same PCollection.
    """

    def __init__(self, scorer: ScorerSource, select_config: SelectConfig, seed: int, *, epsilon: float = 1e-3,
                 scorer_id: str | None = None, fitted_id: beam.PCollection | None = None,
                 scores: Sequence[Score] = (), excluded: ExcludedSentences | None = None) -> None:
        super().__init__()
        if fitted_id is None:
            check_scorer(scorer)
        self._scorer, self._fitted_id, self._scores = scorer, fitted_id, list(scores)
        self._config = select_config
        self._seed = seed
        self._epsilon = epsilon
        self.excluded = excluded if excluded is not None or not select_config.exclude_sentences else \
            ExcludedSentences.load(select_config.exclude_sentences)
        self.metadata = {"scorer_id": scorer_id, "select": select_config.model_dump(mode="json"), "seed": seed,
                         "scores": [step_of(score) for score in self._scores],
                         "rules": [step_of(rule) for rule in rules_from_config(select_config, excluded=self.excluded)]}
        if self.excluded is not None:
            self.metadata["excluded_sentences"] = self.excluded.describe()

    def expand(self, batches: beam.PCollection) -> beam.PCollection:
        config, seed = self._config, self._seed
        score = _ScoreAndJudge(self._scorer, config, seed, self.excluded, self._scores)
        judged = batches | "ScoreAndRules" >> (beam.ParDo(score) if self._fitted_id is None else
                                               beam.ParDo(score, beam.pvalue.AsSingleton(self._fitted_id)))
        if config.rank_by is not None:
            boundaries = (judged
                          | "SortKeys" >> beam.FlatMap(_candidate_sort_keys, config.rank_by)
                          | "Boundaries" >> FoldBoundaries(config.folds, self._epsilon))
            judged = judged | "Folds" >> beam.Map(_assign_folds, beam.pvalue.AsSingleton(boundaries), config)
        if config.sample is not None:
            threshold = (judged
                         | "SampleKeys" >> beam.FlatMap(_candidate_sample_keys)
                         | "Smallest" >> beam.combiners.Top.Smallest(config.sample)
                         | "Threshold" >> beam.Map(_sample_threshold, config.sample))
            judged = judged | "Sample" >> beam.Map(_apply_sample, beam.pvalue.AsSingleton(threshold))
        return judged | "CountDecisions" >> beam.ParDo(_CountDecisions())
