"""benchmarks/translate/text_chain_bench.py in seconds: the translator's Moses steps give stock sacremoses'
words, its BPE memo subword-nmt's pieces, and every figure the GPU docs quote is measured."""

from __future__ import annotations

import json

from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data


def test_text_chain_bench_smoke(tmp_path):
    shared_data("bitext-software/libreoffice-help.cs")
    bench = load_benchmark("translate/text_chain_bench")
    assert bench.main(["--limit", "60", "--rounds", "1", "--json", str(tmp_path / "t.json")]) == 0
    result = json.loads((tmp_path / "t.json").read_text())
    assert result["sentences"] == 60 and result["moses_words_differ"] == 0 and result["bpe_pieces_differ"] == 0
    assert set(result["us_per_sentence"]) == {"moses_stock", "moses_translator", "bpe_stock_first", "bpe_stock_cached",
                                              "bpe_translator_first", "bpe_translator_cached", "target"}
    assert set(result["bpe_stock_over_translator"]) == {"first", "cached"}
    assert set(result["cache_mb_after_one_pass"]) == {"bpe_stock", "translator"}
    assert all(mb > 0 for mb in result["cache_mb_after_one_pass"].values())
    assert all(v > 0 for v in result["us_per_sentence"].values())
    assert result["command"].startswith("python -m benchmarks.translate.text_chain_bench --limit 60")
    assert set(result["machine"]) == {"cpu", "machine", "cpu_cores", "python"}
