"""filters.pair_cosine: a user's encoder score as docs/filters.md shows it (setup + cosines), null sides kept null."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pyarrow as pa

from filters.pair_cosine import PairCosine


class LetterCosine(PairCosine):
    """Cosine of letter-count vectors: an encoder simple enough to check by hand."""

    key: ClassVar[str] = "letters"
    calls: ClassVar[list[int]] = []

    def setup(self) -> None:
        self._letters = "abcdefghijklmnopqrstuvwxyz"

    def _vector(self, text: str) -> np.ndarray:
        return np.array([text.lower().count(c) for c in self._letters], dtype=np.float64)

    def cosines(self, left: list[str], right: list[str]) -> np.ndarray:
        LetterCosine.calls.append(len(left))
        a, b = np.stack([self._vector(t) for t in left]), np.stack([self._vector(t) for t in right])
        return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


def test_only_rows_with_both_sides_are_encoded_and_nulls_stay_null():
    table = pa.table({"en": ["A dog runs.", None, "Cats sleep.", "abc"],
                      "mt": ["A dog is running.", "x", None, "cba"]})
    score = LetterCosine(column="letters")
    assert [f.name for f in score.fields] == ["letters"]
    column = score.score(table)["letters"]
    assert column.type == pa.float32() and column.null_count == 2
    assert LetterCosine.calls == [2]
    values = column.to_pylist()
    assert values[1] is None and values[2] is None
    assert values[3] == 1.0
    dog = LetterCosine()
    dog.setup()
    expected = dog.cosines(["A dog runs."], ["A dog is running."])[0]
    assert abs(values[0] - expected) < 1e-6 and 0 < values[0] < 1
