"""A user's own rules and score, defined outside the package: the pipeline finds them by import path
(``tests.support.plugin_examples:LongEnglish``), exactly as it would ``mypackage.filters:LanguageId``."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import Field

from filters.plugins import Rule, Score, Stage


class LongEnglish(Rule):
    """Before translation: an English side longer than ``max_chars`` characters is not worth decoding."""

    stage: ClassVar[Stage] = Stage.PREFILTER
    reason: ClassVar[str] = "too_many_characters"
    columns: ClassVar[tuple[str, ...]] = ("en",)
    max_chars: int = Field(ge=1)

    def check(self, table: pa.Table) -> np.ndarray:
        return np.asarray(pc.utf8_length(table["en"]).to_numpy(zero_copy_only=False)) <= self.max_chars

    def detail(self, table: pa.Table) -> list[str]:
        return [f"en has {len(text)} characters > {self.max_chars}" for text in table["en"].to_pylist()]


class LengthGap(Score):
    """|tokens(en) - tokens(mt)| / max(tokens): 0 for sides of equal length."""

    column: str = "length_gap"

    @property
    def fields(self) -> tuple[pa.Field, ...]:
        return (pa.field(self.column, pa.float32()),)

    def score(self, table: pa.Table) -> dict[str, pa.Array]:
        en, mt = (np.asarray(pc.list_value_length(table[c]).to_numpy(zero_copy_only=False), np.float64)
                  for c in ("en_tokens", "mt_tokens"))
        return {self.column: pa.array(np.abs(en - mt) / np.maximum(np.maximum(en, mt), 1), pa.float32())}


class SameEnding(Rule):
    """After scoring: both sides end with the same punctuation mark (or neither does)."""

    reason: ClassVar[str] = "ending_differs"
    columns: ClassVar[tuple[str, ...]] = ("en", "mt")

    def check(self, table: pa.Table) -> np.ndarray:
        ends = [pc.utf8_slice_codeunits(pc.utf8_rtrim_whitespace(table[c]), -1) for c in ("en", "mt")]
        return np.asarray(pc.fill_null(pc.equal(*ends), False).to_numpy(zero_copy_only=False), dtype=bool)
