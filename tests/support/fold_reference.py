"""The slow obvious reference of the pipeline's fold assignment: one row at a time, a bisect over the boundary
keys (:func:`pipeline.stages.selection.folds_of_keys` is the column-wise code it checks)."""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from typing import Any

from filters.folds import KEY_HASH_COLUMN, key_hash_scalar, pair_key
from paranmt.core.pair_schema import CS, EN, MT


def sort_key(value: float | None, key: str, seed: int) -> tuple[int, float, int]:
    """The total order of :func:`assign_folds` for one row: ``(present, value, key hash)``."""
    if value is None or math.isnan(value):
        return (0, 0.0, key_hash_scalar(key, seed))
    return (1, float(value), key_hash_scalar(key, seed))


def fold_of_key(key: Any, interior: Sequence[Any]) -> int:
    """Fold 1..len(interior)+1 of a sort key: a boundary key is the last of its fold."""
    return 1 + bisect.bisect_left(interior, key)


def row_sort_key(row: Mapping[str, Any], criterion: str, seed: int) -> tuple[int, float, int]:
    hashed = row.get(KEY_HASH_COLUMN)
    if hashed is None:
        return sort_key(row.get(criterion), pair_key(row.get(CS), row.get(EN), row.get(MT)), seed)
    value = row.get(criterion)
    return (0, 0.0, hashed) if value is None or math.isnan(value) else (1, float(value), hashed)


def row_fold(row: Mapping[str, Any], interior: Sequence[Any], criterion: str, seed: int,
             fold_key: str) -> dict[str, Any]:
    return {**row, fold_key: fold_of_key(row_sort_key(row, criterion, seed), interior)}
