"""Back-translation's translation cache: fixed-size input ranges, content-addressed files."""

from __future__ import annotations

import logging

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.stages.backtranslate import TranslationCache, cache_chunk, read_cache


def test_cache_chunks_are_fixed_size_row_ranges():
    assert [cache_chunk(row, 500) for row in (0, 499, 500, 12345)] == [0, 0, 1, 24]
    cache = TranslationCache("/c", "m/1", (("beam_size", 12),))
    assert cache.path(["a", "b"]) != cache.path(["ab"]) and "/translations/m_1/" in cache.path(["a"])
    assert cache.path(["a"]) != TranslationCache("/c", "m/1", (("beam_size", 4),)).path(["a"])


def test_a_damaged_cache_file_is_one_warning_line(tmp_path, caplog, monkeypatch):
    """A damaged chunk is translated again; its warning is one line even when Arrow's message has several."""
    path = tmp_path / "chunk.parquet"
    path.write_bytes(b"PAR1 not a parquet file")

    def damaged(*args: object, **kwargs: object) -> pa.Table:
        raise pa.ArrowInvalid("bad\nfooter")

    monkeypatch.setattr(pq, "read_table", damaged)
    with caplog.at_level(logging.WARNING, logger="pipeline.stages.backtranslate"):
        assert read_cache(str(path), pa.table({"id": ["x"], "cs": ["a"]})) is None
    [record] = caplog.records
    assert record.getMessage() == f"ignoring unreadable translation cache {path}: bad footer"


def test_a_chunk_with_a_failed_translation_is_not_cached(tmp_path):
    """A failure may be the moment's (out of memory on a loaded machine): a rerun translates the chunk again
    instead of keeping a failure an uninterrupted run would not have had. A chunk of successes is cached."""
    from pipeline.stages.backtranslate import _StoreChunk
    from translate.translator import Status, Translation

    rows = pa.table({"id": ["a", "b"], "cs": ["Ahoj.", "Dobrý den."]})
    ok = [Translation("Ahoj.", Status.OK, "Hello.", score=-0.1),
          Translation("Dobrý den.", Status.OK, "Hi.", score=-0.2)]
    failed = [ok[0], Translation("Dobrý den.", Status.FAILED, error="RuntimeError: out of memory")]
    store = _StoreChunk()
    store.setup()
    for name, translated in (("ok", ok), ("failed", failed)):
        [(out_rows, translations)] = list(store.process(((str(tmp_path / f"{name}.parquet"), rows), translated)))
        assert out_rows.equals(rows)
        assert translations.column("status").to_pylist() == [t.status.value for t in translated]
    assert (tmp_path / "ok.parquet").exists() and not (tmp_path / "failed.parquet").exists()
