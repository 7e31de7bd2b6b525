"""Correlation statistics for evaluation: Pearson's r and Spearman's rho with average ranks for ties."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def pearson(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Pearson's r; NaN when undefined (fewer than 2 values, or a constant side)."""
    a, b = np.asarray(x, np.float64).reshape(-1), np.asarray(y, np.float64).reshape(-1)
    if a.shape != b.shape:
        raise ValueError(f"{a.size} values against {b.size}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("correlation of non-finite values")
    if a.size < 2:
        return math.nan
    a = a - a.mean()
    b = b - b.mean()
    denominator = math.sqrt(float(a @ a) * float(b @ b))
    if denominator == 0.0:
        return math.nan
    return float(np.clip(float(a @ b) / denominator, -1.0, 1.0))


def rankdata(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """1-based ranks with ties given their average rank (``scipy.stats.rankdata(method="average")``)."""
    a = np.asarray(values, np.float64).reshape(-1)
    order = np.argsort(a, kind="mergesort")
    inverse = np.empty(a.size, np.int64)
    inverse[order] = np.arange(a.size)
    ordered = a[order]
    new_value = np.r_[True, ordered[1:] != ordered[:-1]]
    dense = np.cumsum(new_value)[inverse]
    bounds = np.r_[np.flatnonzero(new_value), a.size]
    return 0.5 * (bounds[dense] + bounds[dense - 1] + 1)


def spearman(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Spearman's ρ: Pearson's r of the average ranks; NaN when undefined."""
    a, b = np.asarray(x, np.float64).reshape(-1), np.asarray(y, np.float64).reshape(-1)
    if a.shape != b.shape:
        raise ValueError(f"{a.size} values against {b.size}")
    return pearson(rankdata(a), rankdata(b))
