"""Pair tables built by hand for the tests (no tests here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyarrow as pa

from paranmt.core.pair_schema import PAIRS_SCHEMA


def table_from_columns(columns: Mapping[str, Any], schema: pa.Schema = PAIRS_SCHEMA) -> pa.Table:
    """Build a table in schema order; columns not given are null."""
    length = len(next(iter(columns.values()))) if columns else 0
    arrays = [pa.array(columns[f.name], type=f.type) if f.name in columns else pa.nulls(length, f.type)
              for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema)
