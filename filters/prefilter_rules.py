"""The built-in pre-filter rules (stage ``prefilter``, before translation: a pair rejected here costs no decoding).

They see a batch after Moses normalisation and tokenisation (``cs``, ``en``, ``cs_tokens``, ``en_tokens``) and
run in the order ``prefilter.rules`` lists them; the default order is the order below, so the most basic problem
names the reason:

* :class:`Garbage` -- control characters or U+FFFD (a decoder already gave up on something), or too few
  letters/digits among the non-space characters (checked only where both sides have tokens);
* :class:`EmptySide` -- nothing left after normalisation;
* :class:`Untranslated` -- the two token sequences are equal, ignoring case;
* :class:`SourceTooLong` -- more Czech Moses tokens than the translator takes (subword tokens are never fewer);
* :class:`SourceTargetRatio` -- longer / shorter side in Moses tokens, for pairs whose longer side is long
  enough for a ratio to mean something.
"""

from __future__ import annotations

import re
from typing import ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import Field

from filters.plugins import CS_TOKENS, Rule, Stage
from paranmt.core.pair_schema import CS, EN, EN_TOKENS, Reason

__all__ = ["EmptySide", "Garbage", "SourceTargetRatio", "SourceTooLong", "Untranslated", "token_counts"]

# C0 and C1 control characters (a sentence has none: a newline ends its line, and ingest made a tab inside it a
# space, paranmt.core.text.sentence_text), U+FFFD, line/paragraph separators, BOM/zero-width no-break space
# inside text. RE2 (Arrow) and Python spellings of one class.
_CONTROL_RE2 = r"[\x{00}-\x{1f}\x{7f}-\x{9f}\x{fffd}\x{2028}\x{2029}\x{feff}]"
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ufffd\u2028\u2029\ufeff]")
# Python's str.isalnum() letters and numbers; once control characters are ruled out, the whitespace str.split()
# drops is exactly Unicode category Zs.
_ALNUM_RE2, _SPACE_RE2 = r"[\p{L}\p{N}]", r"\p{Zs}"


def token_counts(table: pa.Table, column: str) -> np.ndarray:
    """Tokens per row of a list<string> column (a null list counts 0)."""
    return np.asarray(pc.fill_null(pc.list_value_length(table.column(column)), 0).to_numpy(), dtype=np.int64)


def _bools(array: pa.Array | pa.ChunkedArray) -> np.ndarray:
    return np.asarray(pc.fill_null(array, False).to_numpy(zero_copy_only=False), dtype=bool)


class Garbage(Rule):
    """Control characters (or U+FFFD) on either side, or fewer letters and digits than ``min_alnum_ratio`` of a
    side's non-space characters (reason ``garbage``)."""

    key: ClassVar[str] = "garbage"
    stage: ClassVar[Stage] = Stage.PREFILTER
    reason: ClassVar[str] = Reason.GARBAGE
    columns: ClassVar[tuple[str, ...]] = (CS, EN, CS_TOKENS, EN_TOKENS)
    min_alnum_ratio: float = Field(default=0.3, ge=0, le=1)

    def _control(self, table: pa.Table) -> np.ndarray:
        return _bools(pc.match_substring_regex(table[CS], _CONTROL_RE2)) | _bools(
            pc.match_substring_regex(table[EN], _CONTROL_RE2))

    def _low_alnum(self, text: pa.ChunkedArray) -> np.ndarray:
        nonspace = (np.asarray(pc.utf8_length(text).to_numpy(zero_copy_only=False), np.int64)
                    - np.asarray(pc.count_substring_regex(text, _SPACE_RE2).to_numpy(zero_copy_only=False), np.int64))
        alnum = np.asarray(pc.count_substring_regex(text, _ALNUM_RE2).to_numpy(zero_copy_only=False), np.int64)
        return (nonspace > 0) & (alnum < self.min_alnum_ratio * nonspace)

    def check(self, table: pa.Table) -> np.ndarray:
        tokenised = (token_counts(table, CS_TOKENS) > 0) & (token_counts(table, EN_TOKENS) > 0)
        low = tokenised & (self._low_alnum(table[CS]) | self._low_alnum(table[EN]))
        return ~(self._control(table) | low)

    def detail(self, table: pa.Table) -> list[str]:
        return [self._explain(row[CS], row[EN]) for row in table.select([CS, EN]).to_pylist()]

    def _explain(self, cs: str, en: str) -> str:
        for side, text in ((CS, cs), (EN, en)):
            bad = _CONTROL.search(text)
            if bad is not None:
                return f"{side} has control character U+{ord(bad.group()):04X} at {bad.start()}"
        for side, text in ((CS, cs), (EN, en)):
            nonspace = len("".join(text.split()))
            alnum = sum(c.isalnum() for c in text)
            if nonspace and alnum < self.min_alnum_ratio * nonspace:
                return (f"{side} has {alnum} letters/digits in {nonspace} non-space characters "
                        f"(< {self.min_alnum_ratio:g})")
        return self.name


class EmptySide(Rule):
    """A side with no tokens after Moses normalisation (reason ``empty_side``)."""

    key: ClassVar[str] = "empty_side"
    stage: ClassVar[Stage] = Stage.PREFILTER
    reason: ClassVar[str] = Reason.EMPTY_SIDE
    columns: ClassVar[tuple[str, ...]] = (CS_TOKENS, EN_TOKENS)

    def check(self, table: pa.Table) -> np.ndarray:
        return (token_counts(table, CS_TOKENS) > 0) & (token_counts(table, EN_TOKENS) > 0)

    def detail(self, table: pa.Table) -> list[str]:
        cs, en = token_counts(table, CS_TOKENS) == 0, token_counts(table, EN_TOKENS) == 0
        return [" and ".join(side for side, empty in ((CS, c), (EN, e)) if empty) + " empty after normalisation"
                for c, e in zip(cs.tolist(), en.tolist(), strict=True)]


class Untranslated(Rule):
    """The Czech and English token sequences are equal, ignoring case (reason ``untranslated``)."""

    key: ClassVar[str] = "untranslated"
    stage: ClassVar[Stage] = Stage.PREFILTER
    reason: ClassVar[str] = Reason.UNTRANSLATED
    columns: ClassVar[tuple[str, ...]] = (CS_TOKENS, EN_TOKENS)

    def check(self, table: pa.Table) -> np.ndarray:
        # Tokens hold no spaces, so comparing the joined strings compares the sequences. Full case folding (ß = ss)
        # has no Arrow kernel: one str.casefold per row, cheap beside the tokeniser that made these tokens.
        cs, en = (pc.binary_join(table[c], " ") for c in (CS_TOKENS, EN_TOKENS))
        same = [a is not None and b is not None and a.casefold() == b.casefold()
                for a, b in zip(cs.to_pylist(), en.to_pylist(), strict=True)]
        return ~np.asarray(same, dtype=bool)

    def detail(self, table: pa.Table) -> list[str]:
        return ["cs equals en after normalisation"] * table.num_rows


class SourceTooLong(Rule):
    """More Czech Moses tokens than ``max_tokens`` (reason ``source_too_long``); null: the translator's limit
    (``translate.max_source_tokens``), filled in by the launcher."""

    key: ClassVar[str] = "source_too_long"
    stage: ClassVar[Stage] = Stage.PREFILTER
    reason: ClassVar[str] = Reason.SOURCE_TOO_LONG
    columns: ClassVar[tuple[str, ...]] = (CS_TOKENS,)
    max_tokens: int | None = Field(default=None, ge=1)

    def _limit(self) -> int:
        if self.max_tokens is None:
            raise ValueError("source_too_long.max_tokens is unset (the launcher fills it from translate)")
        return self.max_tokens

    def check(self, table: pa.Table) -> np.ndarray:
        return token_counts(table, CS_TOKENS) <= self._limit()

    def detail(self, table: pa.Table) -> list[str]:
        return [f"cs has {n} Moses tokens > {self._limit()}" for n in token_counts(table, CS_TOKENS).tolist()]


class SourceTargetRatio(Rule):
    """Longer / shorter side (Czech vs English, Moses tokens) above ``max_ratio``, for pairs whose longer side has
    at least ``min_tokens`` tokens (reason ``length_ratio``). Not :class:`filters.rules.LengthRatio`, which compares
    the English side with its back-translation after translation."""

    key: ClassVar[str] = "source_target_ratio"
    stage: ClassVar[Stage] = Stage.PREFILTER
    reason: ClassVar[str] = Reason.LENGTH_RATIO
    columns: ClassVar[tuple[str, ...]] = (CS_TOKENS, EN_TOKENS)
    max_ratio: float = Field(default=3.0, gt=1)
    min_tokens: int = Field(default=6, ge=1)

    def _counts(self, table: pa.Table) -> tuple[np.ndarray, np.ndarray]:
        return token_counts(table, CS_TOKENS), token_counts(table, EN_TOKENS)

    def check(self, table: pa.Table) -> np.ndarray:
        cs, en = self._counts(table)
        longer, shorter = np.maximum(cs, en), np.minimum(cs, en)
        return ~((longer >= self.min_tokens) & (longer > self.max_ratio * shorter))

    def detail(self, table: pa.Table) -> list[str]:
        cs, en = self._counts(table)
        return [f"{c} cs vs {e} en tokens: ratio {max(c, e) / min(c, e) if min(c, e) else float('inf'):.2f} > "
                f"{self.max_ratio:g}" for c, e in zip(cs.tolist(), en.tolist(), strict=True)]
