"""Apache Beam glue for the pair scores: :class:`ScorePairs` applies :func:`filters.scores.score_pairs` to rows.

    from filters.beam import ScorePairs
    scored_rows = pair_rows | ScorePairs("scorer.npz")      # dicts in, the same dicts + the four score keys out

Rows are ``dict`` s in the :data:`pipeline.schema.PAIRS_SCHEMA` layout (at least ``en_tokens`` and ``mt_tokens``).
They are batched with ``BatchElements``, turned into one Arrow table per batch, scored with the vectorised core
and turned back into rows; scores do not depend on how rows are batched. The scorer is loaded once per worker
process (``DoFn.setup`` through a process-wide cache) from a saved ``.npz``, so every worker scores with the same
fitted state. Fit and save the scorer before the pipeline (``ParagramScorer.fit(...).save(path)``, or
``python -m filters.scores --save-scorer``).

Metrics (namespace ``paranmt_scores``): counters ``pairs_scored``, ``no_known_words``, ``batches``.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apache_beam as beam
import pyarrow as pa
from apache_beam.metrics import Metrics

from configs.schema import ScoreConfig
from filters.paragram import ParagramScorer
from filters.scores import SCORE_COLUMNS, score_pairs
from pipeline.schema import EN_TOKENS, MT_TOKENS, NO_KNOWN_WORDS

__all__ = ["METRICS_NAMESPACE", "ScorePairs"]

METRICS_NAMESPACE = "paranmt_scores"
ScorerSource = str | Path | ScoreConfig | ParagramScorer

_lock = threading.Lock()


@functools.lru_cache(maxsize=4)
def _cached_scorer(path: str, mtime_ns: int, size: int) -> ParagramScorer:  # mtime/size: reload if rewritten
    return ParagramScorer.load(path)


def _load_scorer(source: ScorerSource) -> ParagramScorer:
    if isinstance(source, ParagramScorer):
        return source
    if isinstance(source, ScoreConfig):
        if source.scorer is None:
            return ParagramScorer.from_config(source)  # only possible without fitting (raises otherwise)
        source = source.scorer
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
        self._scorer = _load_scorer(self._source)

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
        if isinstance(path, str | Path) and not Path(path).is_file():
            raise FileNotFoundError(f"scorer file {path} not found (fit and save a scorer first)")
        self._scorer = scorer
        self._batch = {"min_batch_size": min_batch_size, "max_batch_size": max_batch_size}

    def expand(self, rows: beam.PCollection) -> beam.PCollection:
        return (rows
                | "BatchPairs" >> beam.BatchElements(**self._batch)
                | "Score" >> beam.ParDo(_ScoreBatches(self._scorer)))

