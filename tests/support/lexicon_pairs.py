"""Hand-made pair tables for the lexicon's tests (no tests here)."""

from __future__ import annotations

import pyarrow as pa

# Count every word: no score threshold, no stop words, no vocabulary cap.
PLAIN = dict(min_score=None, min_count=1, drop_stopwords=False, max_vocab=None)

# A toy corpus of three pairs (hand counts: tests/pipeline/analysis/lexicon/test_pmi.py).
TOY_EN = [["The", "man", "runs", "."], ["a", "man", "walks"], ["dog", "runs", "runs"]]
TOY_MT = [["a", "guy", "runs"], ["the", "man", "walks", "."], ["the", "dog", "is", "running"]]


def token_pairs(en: list[list[str]], mt: list[list[str]], **columns) -> pa.Table:
    """Pairs with the two token columns the lexicon reads (and any other ``columns``)."""
    return pa.table({"en_tokens": pa.array(en, pa.list_(pa.string())),
                     "mt_tokens": pa.array(mt, pa.list_(pa.string())), **columns})


def rows_by_pair(lexicon: pa.Table) -> dict[tuple[str, str], dict]:
    """The lexicon's rows keyed by (u, v)."""
    return {(r["u"], r["v"]): r for r in lexicon.to_pylist()}
