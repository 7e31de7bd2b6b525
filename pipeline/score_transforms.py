"""Apache Beam glue for the pair scores: :class:`ScorePairs` applies :func:`filters.scores.score_pairs` to rows.

    from pipeline.score_transforms import ScorePairs
    scored_rows = pair_rows | ScorePairs("scorer.npz")      # dicts in, the same dicts + the four score keys out

Rows are ``dict`` s in the :data:`core.pair_schema.PAIRS_SCHEMA` layout (at least ``en_tokens`` and ``mt_tokens``).
They are batched with ``BatchElements``, turned into one Arrow table per batch, scored with the vectorised core
and turned back into rows; scores do not depend on how rows are batched. The scorer is loaded once per worker
process (``DoFn.setup`` through a process-wide cache) from a saved ``.npz``, so every worker scores with the same
fitted state. Fit and save the scorer before the pipeline (``ParagramScorer.fit(...).save(path)``, or
``python -m filters.scores --save-scorer``).

Metrics (namespace ``paranmt_scores``): counters ``pairs_scored``, ``no_known_words``, ``batches``.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apache_beam as beam
import pyarrow as pa
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from configs.schema import FilterConfig, ScoreConfig
from core.pair_schema import EN_TOKENS, FOLD, ID, KEEP, MT_TOKENS, NO_KNOWN_WORDS, PAIRS_SCHEMA, REASON, Reason
from filters.decontaminate import ExcludedSentences
from filters.folds import ID_HASH_KEY, id_hash, sample_hashes_of
from filters.paragram import ParagramScorer
from filters.rules import apply_rules, rules_from_config
from filters.scores import SCORE_COLUMNS, score_pairs
from pipeline.fold_transforms import AssignFoldsApprox
from pipeline.write import records_to_table

__all__ = ["METRICS_NAMESPACE", "ScoreAndSelect", "ScorePairs"]

METRICS_NAMESPACE = "paranmt_scores"
ScorerSource = str | Path | ScoreConfig | ParagramScorer

_lock = threading.Lock()


@functools.lru_cache(maxsize=4)
def _cached_scorer(path: str, mtime_ns: int, size: int) -> ParagramScorer:  # mtime/size: reload if rewritten
    return ParagramScorer.load(path)


def _local_copy(url: str) -> Path:
    """A scorer on gs://, s3://, ... copied once per worker process to a local temporary file."""
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    local = Path(tempfile.gettempdir()) / f"paranmt-scorer-{digest}.npz"
    if not local.exists():
        partial = local.with_suffix(f".{os.getpid()}.partial")
        with FileSystems.open(url, compression_type=CompressionTypes.UNCOMPRESSED) as source, \
                partial.open("wb") as target:
            shutil.copyfileobj(source, target, 1 << 24)
        partial.replace(local)
    return local


def load_scorer(source: ScorerSource) -> ParagramScorer:
    """A scorer from a local or remote (any Beam FileSystems URL) ``.npz``, a config, or as is; cached per process."""
    if isinstance(source, ParagramScorer):
        return source
    if isinstance(source, ScoreConfig):
        if source.scorer is None:
            return ParagramScorer.from_config(source)  # only possible without fitting (raises otherwise)
        source = source.scorer
    if "://" in str(source):
        source = _local_copy(str(source))
    path = Path(source).resolve()
    stat = path.stat()
    with _lock:  # DoFn instances on several threads of one worker share one loaded scorer
        return _cached_scorer(str(path), stat.st_mtime_ns, stat.st_size)


class _ScoreBatches(beam.DoFn):
    def __init__(self, source: ScorerSource) -> None:
        self._source = source
        self._scorer: ParagramScorer | None = None
        self._pairs = Metrics.counter(METRICS_NAMESPACE, "pairs_scored")
        self._no_known = Metrics.counter(METRICS_NAMESPACE, "no_known_words")
        self._batches = Metrics.counter(METRICS_NAMESPACE, "batches")

    def setup(self) -> None:
        self._scorer = load_scorer(self._source)

    def process(self, rows: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        assert self._scorer is not None
        table = pa.table({
            EN_TOKENS: pa.array([row.get(EN_TOKENS) for row in rows], pa.list_(pa.string())),
            MT_TOKENS: pa.array([row.get(MT_TOKENS) for row in rows], pa.list_(pa.string())),
        })
        scored = score_pairs(table, self._scorer)
        columns = {name: scored[name].to_pylist() for name in SCORE_COLUMNS}
        self._pairs.inc(len(rows))
        self._no_known.inc(sum(columns[NO_KNOWN_WORDS]))
        self._batches.inc()
        for i, row in enumerate(rows):
            yield {**row, **{name: values[i] for name, values in columns.items()}}


class ScorePairs(beam.PTransform):
    """Row dicts → the same dicts with ``trigram_overlap``, ``paraphrase_score``, ``no_known_words``, ``scorer_id``.

    ``scorer``: a saved scorer (``.npz`` path), a :class:`~configs.schema.ScoreConfig` whose ``scorer`` is set
    (or that needs no fitting), or a :class:`ParagramScorer` (pickled into the pipeline: small scorers only).
    ``min_batch_size`` / ``max_batch_size`` bound ``BatchElements`` (rows per vectorised call).
    """

    def __init__(self, scorer: ScorerSource, *, min_batch_size: int = 256, max_batch_size: int = 16384) -> None:
        super().__init__()
        if isinstance(scorer, ScoreConfig) and scorer.scorer is None and (
                scorer.remove_components > 0 or scorer.word_frequencies is None):
            raise ValueError("this ScoreConfig needs fitting on a sample: fit and save a scorer first "
                             "(ParagramScorer.fit(...).save(path)) and set score.scorer")
        path = scorer.scorer if isinstance(scorer, ScoreConfig) else scorer
        if isinstance(path, str | Path) and "://" not in str(path) and not Path(path).is_file():
            raise FileNotFoundError(f"scorer file {path} not found (fit and save a scorer first)")
        self._scorer = scorer
        self._batch = {"min_batch_size": min_batch_size, "max_batch_size": max_batch_size}

    def expand(self, rows: beam.PCollection) -> beam.PCollection:
        return (rows
                | "BatchPairs" >> beam.BatchElements(**self._batch)
                | "Score" >> beam.ParDo(_ScoreBatches(self._scorer)))



# ------------------------------------------------------------------------------------- scoring + selection


def _decide_by_rules(rows: list[dict[str, Any]], filter_config: FilterConfig, seed: int,
                     excluded: ExcludedSentences | None = None) -> Iterator[dict[str, Any]]:
    """Threshold rules on a batch (vectorised); with a ranking criterion the token limit waits until after ranking,
    as in :func:`filters.folds.select_training_pairs`. The id hashes the ranking and the sample need are computed
    here too, vectorised over the batch, and carried in private keys that the output schema drops."""
    rules = rules_from_config(filter_config, max_tokens=filter_config.rank_by is None, excluded=excluded)
    needed = {name for rule in rules for name in rule.columns} | {REASON}
    schema = pa.schema([field for field in PAIRS_SCHEMA if field.name in needed])
    result = apply_rules(records_to_table(rows, schema), rules)
    ids = [str(row[ID]) for row in rows]
    hashes: dict[str, list[int]] = {}
    if filter_config.rank_by is not None:
        hashes[ID_HASH_KEY] = id_hash(ids, seed).tolist()
    if filter_config.sample is not None:
        hashes[_SAMPLE_HASH_KEY] = sample_hashes_of(ids, seed).tolist()
    for i, (row, keep, reason) in enumerate(zip(rows, result.keep.tolist(), result.reason.tolist(), strict=True)):
        yield {**row, KEEP: bool(keep), REASON: str(Reason(reason)), FOLD: 0,
               **{key: values[i] for key, values in hashes.items()}}


def _after_ranking(row: dict[str, Any], filter_config: FilterConfig) -> dict[str, Any]:
    """Fold selection, then the token limit, for a ranked (rule-passing) row."""
    if row[FOLD] not in filter_config.select_folds:
        return {**row, KEEP: False, REASON: str(Reason.NOT_IN_SELECTED_FOLDS)}
    limit = filter_config.max_tokens
    if limit is not None and max(len(row[EN_TOKENS] or ()), len(row[MT_TOKENS] or ())) > limit:
        return {**row, KEEP: False, REASON: str(Reason.TOO_MANY_TOKENS)}
    return row


_SAMPLE_HASH_KEY = "_sample_hash"


def _sample_hash(row: dict[str, Any]) -> int:
    return row[_SAMPLE_HASH_KEY]


def _sample_threshold(smallest: list[int], n: int) -> int | None:
    """The largest hash among the ``n`` smallest, or None when fewer than ``n`` rows qualify (keep them all)."""
    return max(smallest) if len(smallest) >= n else None


def _apply_sample(row: dict[str, Any], threshold: int | None) -> dict[str, Any]:
    if row[KEEP] and threshold is not None and _sample_hash(row) > threshold:
        return {**row, KEEP: False, REASON: str(Reason.NOT_SAMPLED)}
    return row


def _is_candidate(row: dict[str, Any]) -> bool:
    return bool(row[KEEP])


def _is_rejected(row: dict[str, Any]) -> bool:
    return not row[KEEP]


class _CountDecisions(beam.DoFn):
    """Counts the decisions per reason and drops the private hash keys."""

    def process(self, row: dict[str, Any]) -> Iterator[dict[str, Any]]:
        Metrics.counter(METRICS_NAMESPACE, f"selection_{row[REASON]}").inc()
        yield {key: value for key, value in row.items() if key not in (ID_HASH_KEY, _SAMPLE_HASH_KEY)}


class ScoreAndSelect(beam.PTransform):
    """The pipeline's scoring and selection stage: pair rows -> the same rows with the scores, ``fold``, ``keep``
    and ``reason`` filled, each row exactly once.

    The same decisions as :func:`filters.folds.select_training_pairs`, at Beam scale: threshold rules (batched,
    vectorised), then — with ``rank_by`` — folds from approximate quantiles over the rule-passing rows
    (:class:`pipeline.fold_transforms.AssignFoldsApprox`; exact on small inputs, fold sizes within ``2εn + 1`` of
    ``n/k`` at scale), the selected folds, the per-side token limit, and the seeded sample of ``sample`` rows (the
    rows with the smallest salted id hash, found with ``Top.Smallest``). ``metadata`` (scorer id, filter config and the
    evaluation sentences excluded) goes into the output's Parquet metadata.

    ``filter.exclude_sentences`` is read here, on the launcher (a missing file fails before any work), and the
    normalised sentences travel with the transform, so workers need no access to the evaluation files.
    """

    def __init__(self, scorer: ScorerSource, filter_config: FilterConfig, seed: int, *, epsilon: float = 1e-3,
                 scorer_id: str | None = None) -> None:
        super().__init__()
        self._score = ScorePairs(scorer)
        self._config = filter_config
        self._seed = seed
        self._epsilon = epsilon
        self.excluded = (ExcludedSentences.load(filter_config.exclude_sentences)
                         if filter_config.exclude_sentences else None)
        self.metadata = {"scorer_id": scorer_id, "filter": filter_config.model_dump(mode="json"), "seed": seed}
        if self.excluded is not None:
            self.metadata["excluded_sentences"] = self.excluded.describe()

    def expand(self, rows: beam.PCollection) -> beam.PCollection:
        config, seed = self._config, self._seed
        judged = (rows
                  | "Score" >> self._score
                  | "BatchForRules" >> beam.BatchElements(min_batch_size=256, max_batch_size=16384)
                  | "Rules" >> beam.FlatMap(_decide_by_rules, config, seed, self.excluded))
        if config.rank_by is not None:
            passing = judged | "Passing" >> beam.Filter(_is_candidate)
            failing = judged | "Failing" >> beam.Filter(_is_rejected)
            ranked = (passing
                      | "Folds" >> AssignFoldsApprox(config.rank_by, config.folds, seed, self._epsilon,
                                                     fold_key=FOLD)
                      | "SelectFolds" >> beam.Map(_after_ranking, config))
            judged = (ranked, failing) | "AllJudged" >> beam.Flatten()
        if config.sample is not None:
            threshold = (judged
                         | "Candidates" >> beam.Filter(_is_candidate)
                         | "SampleHash" >> beam.Map(_sample_hash)
                         | "Smallest" >> beam.combiners.Top.Smallest(config.sample)
                         | "Threshold" >> beam.Map(_sample_threshold, config.sample))
            judged = judged | "Sample" >> beam.Map(_apply_sample, beam.pvalue.AsSingleton(threshold))
        return judged | "CountDecisions" >> beam.ParDo(_CountDecisions())
