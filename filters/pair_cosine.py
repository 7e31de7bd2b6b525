"""The base of the encoder scores: one model's cosine between ``en`` and its back-translation ``mt``.

A subclass loads its model in :meth:`~filters.plugins.Score.setup` and implements :meth:`PairCosine.cosines`;
this class finds the rows with both sides, encodes only those and writes null where a side is null.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import Field

from filters.plugins import Score
from paranmt.core.pair_schema import EN, MT

__all__ = ["PairCosine"]


class PairCosine(Score):
    """Cosine of an encoder's embeddings of ``en`` and ``mt`` (float32 in [-1, 1]; a null side: null)."""

    columns: ClassVar[tuple[str, ...]] = (EN, MT)
    column: str = Field(default="cosine", min_length=1, description="The column the score is written to.")
    batch_size: int = Field(default=128, ge=1, description="Sentences encoded at a time.")

    @property
    def fields(self) -> tuple[pa.Field, ...]:
        return (pa.field(self.column, pa.float32()),)

    def cosines(self, left: list[str], right: list[str]) -> np.ndarray:
        """The cosine of each ``left[i]``, ``right[i]`` (both sides present)."""
        raise NotImplementedError

    def score(self, table: pa.Table) -> dict[str, pa.Array]:
        self.setup()
        present = pc.and_(table.column(EN).is_valid(), table.column(MT).is_valid()).to_numpy(zero_copy_only=False)
        rows = np.flatnonzero(present)
        cosine = np.full(table.num_rows, np.nan, dtype=np.float32)
        if len(rows):
            index = pa.array(rows)
            cosine[rows] = self.cosines(table.column(EN).take(index).to_pylist(),
                                        table.column(MT).take(index).to_pylist())
        return {self.column: pa.array(cosine, pa.float32(), mask=~present)}
