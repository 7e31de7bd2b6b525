"""benchmarks/scores/paraphrase_scores.py on the first 50 real STS-B test pairs: all three scores ranked against the
gold, timed at both thread settings, and the table printed (a smoke run; the full run's figures are in
docs/filters.md)."""

from __future__ import annotations

import json

import pytest

from paranmt.core.hf_imports import import_sentence_transformers
from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data

try:
    import_sentence_transformers()
except ImportError as error:  # the st extra is optional; CI installs .[all]
    pytest.skip(f"{error}", allow_module_level=True)


@pytest.mark.timeout(300)
def test_paraphrase_scores_smoke(tmp_path, capsys) -> None:
    sts_dir = shared_data("sts")
    out, md = tmp_path / "report.json", tmp_path / "table.md"
    assert load_benchmark("scores/paraphrase_scores").main(
        ["--sts-dir", str(sts_dir), "--splits", "test", "--pairs", "50", "--repeats", "1", "--threads", "1", "2",
         "--min-seconds", "0.05", "--json", str(out), "--markdown", str(md)]) == 0
    report = json.loads(out.read_text())
    assert report["pairs"] == {"test": 50} and report["thread_settings"] == [1, 2]
    rho = report["spearman"]["test"]
    assert set(rho) == {"trigram_overlap", "paraphrase_score", "st_cosine"}
    assert all(-100 <= value <= 100 for value in rho.values())
    # On these 50 pairs MiniLM ranks 93 and trigram overlap 10 (most pairs share no trigram): a wide, fixed margin.
    assert rho["st_cosine"] > rho["trigram_overlap"] + 30
    assert {(row["score"], row["threads"]) for row in report["timing"].values()} == {
        (name, threads) for name in ("trigram_overlap", "paraphrase_score", "score_pairs", "st_cosine")
        for threads in (1, 2)}
    assert all(row["calls"] >= 1 and row["pairs_per_s"] > 0 for row in report["timing"].values())
    assert report["fit_sentences"] == 100 and report["scorer_id"].startswith("paragram-")
    printed = capsys.readouterr().out
    assert "| st_cosine (`sentence_transformer`: all-MiniLM-L6-v2) | " in printed
    assert md.read_text() in printed


def test_paraphrase_scores_missing_data_is_exit_2(tmp_path, capsys) -> None:
    assert load_benchmark("scores/paraphrase_scores").main(["--sts-dir", str(tmp_path), "--pairs", "50"]) == 2
    assert "STSB/sts-test.csv not found: give --sts-dir" in capsys.readouterr().err
