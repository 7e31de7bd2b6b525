"""benchmarks/reproduction/frontier.py end to end on a tiny SP model trained on real paraphrase pairs (seconds-long
smoke: 100 timed sentences, one round of one pass, no MiniLM, timed in a fresh pinned process:
benchmarks.reproduction.encoder_timing; ../shared's STS sets, else a small STS folder made of the bundled pairs),
and the named doc sections other commands' pages keep."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.doc_sections import kept_sections, replace_section
from tests.support.repo import load_benchmark
from tests.support.shared_data import SHARED_DATA
from tests.support.sts_layout import write_sts_dir
from tests.support.taste_data import TASTE_PAIRS, taste_pairs
from tests.support.training_pairs import tatoeba_pairs_parquet, tiny
from train_embeddings.training.trainer import train


def test_sections_are_replaced_in_place_and_kept(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nbody\n", encoding="utf-8")
    replace_section(page, "frontier", "first")
    replace_section(page, "curve", "curve text")
    replace_section(page, "frontier", "second\nversion")
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Title\n\nbody\n") and "first" not in text
    assert text.index("second\nversion") < text.index("curve text")  # replaced where it was
    kept = kept_sections(page)
    assert kept.count("<!-- section:") == 2 and "body" not in kept
    assert kept_sections(tmp_path / "absent.md") == ""
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, bool]:
    """The STS folder and the SIF word counts: ../shared's (True), else made of the bundled pairs (False)."""
    sts, counts = SHARED_DATA / "sts", SHARED_DATA / "wordfreq" / "enwiki_vocab_min200.txt"
    real = sts.is_dir() and counts.is_file()
    if not real:
        sts, counts = write_sts_dir(tmp_path / "sts"), tmp_path / "counts.txt"
        _, en, mt = taste_pairs(TASTE_PAIRS)
        words = Counter(word for line in en + mt for word in line.lower().split())
        counts.write_text("".join(f"{word} {n}\n" for word, n in words.items()), encoding="utf-8")
    monkeypatch.setenv("PARANMT_STS_DIR", str(sts))
    return counts, real


def test_frontier_smoke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counts, real = _data(tmp_path, monkeypatch)
    data = tatoeba_pairs_parquet(tmp_path / "tatoeba-pairs", n=300)
    run = train(tiny("sp", data, max_steps=6), tmp_path / "sp", evaluate_fn=None, progress=False)
    docs, out = tmp_path / "docs" / "reproduction.md", tmp_path / "frontier.json"
    assert load_benchmark("reproduction/frontier").main(["--quick", "--model", f"SP={run.model_dir}",
                                                         "--docs", str(docs), "--json", str(out),
                                                         "--word-frequencies", str(counts)]) == 0
    written = json.loads(out.read_text())
    rows = {row["encoder"]: row for row in written["rows"]}
    assert set(rows) == {"GloVe avg", "SIF-GloVe", "SP", "SP (no Moses)"}
    assert all(row["sentences_per_cpu_second"] > 0 and row["wall_sentences_per_second"] > 0
               and -100 <= row["mean"] <= 100 for row in rows.values())
    # timed in a fresh process with every pool pinned, as observed there: the tokenizers' pool started no thread
    meta = written["meta"]
    pins = meta["pinning"]
    assert pins["torch_intra_op"] == 1 and pins["torch_inter_op"] == 1 and pins["native"]
    assert all(line.endswith(": 1") for line in pins["native"])
    assert pins["tokenizer_threads_started_by_a_batch"] == 0
    assert pins["environment"]["TOKENIZERS_PARALLELISM"] == "false" and pins["environment"]["RAYON_NUM_THREADS"] == "1"
    assert meta["cpu"] and meta["command"].startswith("python -m benchmarks.reproduction.frontier --model SP=")
    if real:  # the published ordering (58.9 vs 45.2), a property of the real STS sets
        assert rows["SIF-GloVe"]["mean"] > rows["GloVe avg"]["mean"]
    text = docs.read_text(encoding="utf-8")
    assert "<!-- section:frontier -->" in text and "| SP (no Moses) |" in text and "one pinned thread" in text
    assert meta["cpu"] in text
    assert (docs.parent / "reproduction" / "frontier.png").stat().st_size > 0
    assert load_benchmark("reproduction/frontier").main(["--model", f"X={tmp_path / 'missing'}"]) == 2
