"""Back-translation's translation cache: fixed-size input ranges, content-addressed files."""

from __future__ import annotations

from pipeline.backtranslate import TranslationCache, cache_chunk


def test_cache_chunks_are_fixed_size_row_ranges():
    assert [cache_chunk(row, 500) for row in (0, 499, 500, 12345)] == [0, 0, 1, 24]
    cache = TranslationCache("/c", "m/1", (("beam_size", 12),))
    assert cache.path(["a", "b"]) != cache.path(["ab"]) and "/translations/m_1/" in cache.path(["a"])
    assert cache.path(["a"]) != TranslationCache("/c", "m/1", (("beam_size", 4),)).path(["a"])
