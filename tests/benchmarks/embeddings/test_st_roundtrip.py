"""benchmarks/embeddings/st_roundtrip.py: tiny models trained in seconds round-trip through sentence-transformers on
real sentences (the bundled pairs, in STS-B's layout) with differences below 1e-5, and the table reports it."""

from __future__ import annotations

import json

import pytest

from paranmt.core.hf_imports import import_sentence_transformers
from tests.support.repo import load_benchmark
from tests.support.sts_layout import write_sts_dir
from tests.support.training_pairs import tatoeba_pairs_parquet, tiny
from train_embeddings.training.trainer import train

try:
    import_sentence_transformers()
except ImportError as error:  # the st extra is optional; CI installs .[all]
    pytest.skip(f"{error}", allow_module_level=True)
def test_round_trip_table(tmp_path, capsys) -> None:
    sts_dir = write_sts_dir(tmp_path / "sts")  # STS-B's layout, the bundled real sentences
    data = tatoeba_pairs_parquet(tmp_path / "tatoeba-pairs", n=300)
    models = [train(tiny(name, data), tmp_path / name, evaluate_fn=None, progress=False).model_dir
              for name in ("word", "blstm")]
    out = tmp_path / "rows.json"
    args = ["--sts-dir", str(sts_dir), "--sentences", "400", "--json", str(out)]
    assert load_benchmark("embeddings/st_roundtrip").main([a for m in models for a in ("--model", str(m))] + args) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [r["model"] for r in rows] == ["word", "blstm"]
    assert rows[0]["modules"] == ["WordEmbeddings", "Pooling"] and rows[1]["modules"] == ["ParanmtEncoder"]
    assert all(r["max_abs_diff"] <= 1e-5 and r["sentences"] == 400 and r["st_sentences_per_s"] > 0 for r in rows)
    assert "| word (16-d) | WordEmbeddings + Pooling | yes" in capsys.readouterr().out
