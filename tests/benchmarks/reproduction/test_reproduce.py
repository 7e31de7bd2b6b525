"""``python -m benchmarks.reproduction.reproduce --quick``: the whole reproduction on 20 pairs per bitext source with
the real model (../shared/models/small-cs-en), so the command cannot rot; then a rerun that skips every finished
step."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmarks.reproduction import reproduce
from tests.support.shared_data import shared_data, shared_path


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    model = shared_path("models/small-cs-en")  # skips (or fails under CI=true) with the path in the message
    bitext = shared_data("bitext")
    out = tmp_path_factory.mktemp("repro")
    docs = out / "docs" / "reproduction.md"
    argv = ["--model", str(model), "--bitext", str(bitext), "--out", str(out / "run"), "--quick", "--docs", str(docs)]
    assert reproduce.main(argv) == 0
    return argv, out, docs


def test_quick_reproduction_accounts_for_every_row_and_keeps_eval_sentences_out(quick_run):
    _, out, _ = quick_run
    results = json.loads((out / "run" / "results.json").read_text())
    summary = results["corpus"]["summary"]
    sources = reproduce.bitext_sources(shared_data("bitext"))
    assert summary["read"] == 20 * len(sources)
    assert summary["identity"]["holds"]
    assert summary["read"] == summary["pairs"] + summary["rejected"] + summary["deadletter"]
    clean = summary["decontamination"]
    assert clean["train_overlap"] == 0 and clean["train_pairs_checked"] == summary["train"]
    assert len(clean["files"]) >= 20 and clean["sentences"] > 30_000  # STS 2012-2015, STS-B, SICK
    per_source = {row["source"]: row for row in results["corpus_stats"]["per_source"]}
    assert set(per_source) == {*sources, "all"}
    assert all(0 <= row["copy_rate"] <= 1 for row in per_source.values())
    assert {case["ran_backend"] for case in results["throughput"]["cases"]} == {"ctranslate2", "fairseq"}


def test_quick_reproduction_fills_every_table(quick_run):
    _, out, docs = quick_run
    results = json.loads((out / "run" / "results.json").read_text())
    table5 = results["table5"]
    assert set(table5["table"]) == {"paraphrase_score", "trigram_overlap", "translation_score"}
    assert all(len(per_fold) == 2 for per_fold in table5["table"].values())
    assert all(np.isfinite(cell["avg sts2017"]) for per_fold in table5["table"].values() for cell in per_fold.values())
    assert set(results["table6"]["table"]) == {"1", "2"}
    rows = results["compare"]["rows"]
    assert {"GloVe average", "SIF-GloVe"} <= set(rows)
    assert rows["GloVe average"]["mean_pearson"] == pytest.approx(45.2, abs=0.5)  # this project's evaluate
    assert rows["SIF-GloVe"]["mean_pearson"] == pytest.approx(58.8, abs=0.5)
    text = docs.read_text()
    for heading in ("## 1. The corpus", "Table 5 in miniature", "Table 6 in miniature", "comparison that matters"):
        assert heading in text
    figures = sorted(p.name for p in (docs.parent / "reproduction").glob("*.png"))
    assert {"table5_folds.png", "table6_megabatch.png", "hist_paraphrase_score.png"} <= set(figures)


def test_a_rerun_skips_finished_steps(quick_run, capsys):
    argv, out, _ = quick_run
    before = json.loads((out / "run" / "results.json").read_text())
    capsys.readouterr()
    assert reproduce.main(argv) == 0
    printed = capsys.readouterr().out
    for step in ("corpus", "throughput", "corpus_stats", "table5", "table6", "compare"):
        assert f"[{step}] done earlier" in printed
    assert json.loads((out / "run" / "results.json").read_text()) == before


def test_the_shared_tokenizer_encodes_as_the_model_does(quick_run):
    """The reproduction evaluates trained models through one process-wide tokeniser: it must give the vectors of
    the model's own ``encode``."""
    from train_embeddings.models.model_io import load_model

    _, out, _ = quick_run
    model = load_model(next((out / "run" / "runs" / "table6").glob("*/model")))
    sentences = ["A man is playing the guitar.", "Two dogs run through the snow!", "It's 3:00 \"sharp\"."]
    np.testing.assert_array_equal(model.encode(sentences), model.encode_tokens(reproduce.moses_tokenizer()(sentences)))


def test_a_different_reproduction_in_the_same_folder_is_refused(quick_run):
    argv, _, _ = quick_run
    full_scale = [a for a in argv if a != "--quick"]
    with pytest.raises(SystemExit, match=r"holds a different run \(scale\.\w+ .* -> .*\): pass --overwrite"):
        reproduce.main(full_scale)
