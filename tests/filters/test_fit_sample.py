"""The scorer's fit sample: the first n rows by id with English tokens, whatever the pieces it is gathered in and
their order, checked against the obvious reference (sort everything, take the first n)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from filters.fit_sample import first_rows, fit_candidates, sample_sentences
from paranmt.core.pair_schema import EN_TOKENS, ID
from tests.support.taste_data import taste_data
from tests.support.text_files import read_lines


def reference(ids: list[str], tokens: list[list[str] | None], n: int) -> list[list[str]]:
    return [t for _, t in sorted((i, t) for i, t in zip(ids, tokens, strict=True) if t)][:n]


def test_the_sample_does_not_depend_on_how_the_rows_arrive():
    english = read_lines(taste_data("bitext/tatoeba.en", 600))[:600]
    ids = [f"tatoeba:L{row:012d}" for row in range(1, len(english) + 1)]
    tokens = [line.split() if row % 7 else ([] if row % 2 else None) for row, line in enumerate(english)]
    table = pa.table({ID: ids, EN_TOKENS: pa.array(tokens, pa.list_(pa.string())), "other": range(len(ids))})
    rng = np.random.default_rng(0)
    for n in (1, 100, 513, 10_000):
        expected = reference(ids, tokens, n)
        for _ in range(5):
            shuffled = table.take(pa.array(rng.permutation(table.num_rows)))
            cuts = np.sort(rng.choice(np.arange(1, table.num_rows), size=9, replace=False))
            pieces = [shuffled.slice(a, b - a) for a, b in zip([0, *cuts], [*cuts, table.num_rows], strict=True)]
            partial = [first_rows([fit_candidates(p, n) for p in pieces[k::3]], n) for k in range(3)]
            assert sample_sentences(first_rows(partial, n)) == expected  # a combiner's merge of workers' samples
