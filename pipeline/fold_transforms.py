"""Fold assignment at any scale: the Beam transforms behind ``filter.folds`` in the pipeline.

:func:`filters.folds.assign_folds` ranks a table that fits in memory; these transforms rank a PCollection of row
dicts with Beam's approximate quantiles and split ties by the same id hash, so on small inputs the folds are the
exact ones.
"""

from __future__ import annotations

import apache_beam as beam
from apache_beam.transforms.stats import ApproximateQuantilesCombineFn

from filters.folds import DEFAULT_EPSILON, check_folds, interior_boundaries, row_fold, row_sort_key


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


class ApproxFoldBoundaries(beam.PTransform):
    """Row dicts -> one list of the ``folds - 1`` interior boundary keys ``(present, value, pair key hash)``.

    Uses ``ApproximateQuantilesCombineFn`` with ``num_quantiles = folds + 1``: each boundary's rank is within
    ``epsilon * n`` of its exact rank ``j * n / folds`` (for ``n`` below ``max_num_elements``, default 1e9).
    The sort key includes the pair key's hash, so ties are split exactly as :func:`assign_folds` splits them.
    """

    def __init__(self, criterion: str, folds: int = 10, seed: int = 1234, epsilon: float = DEFAULT_EPSILON,
                 max_num_elements: int | None = None):
        super().__init__()
        self.boundaries = FoldBoundaries(folds, epsilon, max_num_elements)
        self.criterion, self.folds, self.seed, self.epsilon = criterion, folds, seed, epsilon
        self.max_num_elements = max_num_elements

    def expand(self, rows):
        return (rows
                | "SortKey" >> beam.Map(row_sort_key, self.criterion, self.seed)
                | "Boundaries" >> self.boundaries)

class AssignFoldsApprox(beam.PTransform):
    """Row dicts -> the same dicts with ``fold_key`` (1..``folds``) added, at any scale.

    Boundaries come from :class:`ApproxFoldBoundaries` as a side input. Each fold's size is within
    ``2 * epsilon * n + 1`` of ``n / folds`` (two boundaries, each ``epsilon * n`` off, plus rounding); with
    ``epsilon=1e-3`` on 50M pairs, a decile of 5M is at most 100k off. Missing values rank lowest, as in
    :func:`assign_folds`; filter rows (e.g. with :func:`filters.rules.apply_rules`) before ranking.
    """

    def __init__(self, criterion: str, folds: int = 10, seed: int = 1234, epsilon: float = DEFAULT_EPSILON,
                 max_num_elements: int | None = None, fold_key: str = "fold"):
        super().__init__()
        self.boundaries = ApproxFoldBoundaries(criterion, folds, seed, epsilon, max_num_elements)
        self.fold_key = fold_key

    def expand(self, rows):
        b = self.boundaries
        interior = rows | "Boundaries" >> b
        return rows | "AssignFold" >> beam.Map(
            row_fold, beam.pvalue.AsSingleton(interior), b.criterion, b.seed, self.fold_key)

