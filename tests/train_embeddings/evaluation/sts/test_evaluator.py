"""The STS evaluation driver (train_embeddings/evaluation/sts/evaluator.py): batched encoding, cosines, Pearson and
Spearman per sub-dataset, pooled per year and on STS-B, the STS2017 dev score; checked against correlations worked
out by hand on a hand-made folder (tests/support/sts_toy.py) and against SciPy on the real files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from paranmt.core.correlation import pearson, spearman
from paranmt.core.word_vectors import load_kumo
from tests.support.sts_toy import R_FIRST, RHO_POOLED_2012, ToyEncoder
from train_embeddings.evaluation.sts.baselines import glove_average_encoder
from train_embeddings.evaluation.sts.datasets import StsBenchmarks, load_sts_year
from train_embeddings.evaluation.sts.evaluator import (
    cosine_similarity,
    dev_score,
    encode_sentences,
    evaluate_all,
    evaluate_dataset,
    pair_similarities,
)
from train_embeddings.evaluation.sts.results import markdown_comparison


def test_cosine_similarity() -> None:
    a = np.array([[1.0, 0.0], [0.0, 0.0], [3.0, 4.0]])
    b = np.array([[2.0, 0.0], [1.0, 1.0], [-3.0, -4.0]])
    np.testing.assert_allclose(cosine_similarity(a, b), [1.0, 0.0, -1.0])
    with pytest.raises(ValueError):
        cosine_similarity(a, b[:2])


def test_each_sentence_encoded_once_per_dataset(toy_root: Path) -> None:
    dataset = load_sts_year(toy_root / "STS12")["first"]
    encoder = ToyEncoder()
    sims = pair_similarities(encoder, dataset, batch_size=3)
    np.testing.assert_allclose(sims, [1, 0, 0.6, -0.8], atol=1e-6)
    encoded = [s for call in encoder.calls for s in call]
    assert sorted(encoded) == sorted(set(dataset.sentences1 + dataset.sentences2))  # 5 distinct, each once
    assert [len(call) for call in encoder.calls] == [3, 2]


def test_bad_encoder_output(toy_root: Path) -> None:
    dataset = load_sts_year(toy_root / "STS13")["only"]
    with pytest.raises(ValueError, match="shape"):
        pair_similarities(lambda s: np.zeros((len(s) + 1, 3)), dataset)
    with pytest.raises(ValueError, match="non-finite"):
        pair_similarities(lambda s: np.full((len(s), 3), np.nan), dataset)


def test_evaluate_all_by_hand(toy_root: Path) -> None:
    encoder = ToyEncoder()
    report = evaluate_all(encoder, root=toy_root, batch_size=2, label="toy")
    assert [y.year for y in report.years] == [2012, 2013]
    assert report.missing_years == (2014, 2015, 2016)
    y12 = report.year(2012)
    first, second = y12.dataset("first"), y12.dataset("second")
    assert first.n == 4 and first.pearson == pytest.approx(R_FIRST) and first.spearman == pytest.approx(1.0)
    # second: cosines (0.6, 1, 0) against (2, 5, 0)
    assert second.n == 3 and second.unscored == 1
    assert second.pearson == pytest.approx(pearson([0.6, 1, 0], [2, 5, 0]))
    assert second.spearman == pytest.approx(1.0)
    assert y12.mean_pearson == pytest.approx((R_FIRST + second.pearson) / 2)
    assert y12.missing_input == ("nogold",)
    # pooled: cosines (1, 0, .6, -.8, .6, 1, 0) against (4, 1, 3, 0, 2, 5, 0)
    pooled_sims, pooled_gold = [1, 0, 0.6, -0.8, 0.6, 1, 0], [4, 1, 3, 0, 2, 5, 0]
    assert y12.pooled_spearman == pytest.approx(spearman(pooled_sims, pooled_gold))
    assert y12.pooled_spearman == pytest.approx(RHO_POOLED_2012)
    y13 = report.year(2013).dataset("only")
    assert y13.n == 2 and y13.pearson == pytest.approx(1.0)
    # STS-B: test cosines (0.6, -0.8, 1, 0.6) vs (2, 0.5, 4.5, 3); without track5: (0.6, 1) vs (2, 4.5)
    assert report.stsb["stsb_test"].pearson == pytest.approx(pearson([0.6, -0.8, 1, 0.6], [2, 0.5, 4.5, 3]))
    assert report.stsb["stsb_test_no_sts2017"].n == 2
    assert report.stsb["stsb_test_no_sts2017"].pearson == pytest.approx(1.0)
    assert report.stsb["sts2017"].n == 4
    # batching: every call at most batch_size sentences, each sentence once per dataset
    assert max(len(call) for call in encoder.calls) <= 2
    # to_dict is JSON-clean; markdown has the paper-style rows
    payload = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert payload["years"]["2012"]["datasets"]["first"]["n"] == 4
    assert payload["missing_years"] == [2014, 2015, 2016]
    text = report.markdown()
    assert f"| 2012 | first | 4 | {100 * R_FIRST:.1f} | 100.0 |" in text
    assert "skipped, no input: nogold" in text and "STS-B test without STS2017 | 2 | 100.0" in text
    table = markdown_comparison({"toy": report, "again": report})
    assert "| 2012 first | 97.9 | 97.9 |" in table


def test_dev_score_reads_only_sts2017(toy_root: Path) -> None:
    encoder = ToyEncoder()
    expected = pearson([0, 0.6, -0.8, 0.6], [1.0, 4.0, 0.5, 3.0])
    assert dev_score(encoder, root=toy_root) == pytest.approx(expected)
    encoded = {s for call in encoder.calls for s in call}
    assert "a cat is sitting ." not in encoded  # only in non-track5 rows


def test_real_correlations_match_scipy(real_benchmarks: StsBenchmarks) -> None:
    from scipy import stats as scipy_stats

    encoder = glove_average_encoder(load_kumo())
    dataset = real_benchmarks.years[0]["MSRvid"]
    sims = pair_similarities(encoder, dataset)
    result = evaluate_dataset(encoder, dataset)
    assert result.pearson == pytest.approx(scipy_stats.pearsonr(sims, dataset.scores)[0], abs=1e-9)
    assert result.spearman == pytest.approx(scipy_stats.spearmanr(sims, dataset.scores)[0], abs=1e-9)
    year = real_benchmarks.years[2]
    pooled = np.concatenate([pair_similarities(encoder, d) for d in year.values()])
    gold = np.concatenate([d.scores for d in year.values()])
    only_2014 = StsBenchmarks((year,), (), {}, real_benchmarks.root)
    expected = scipy_stats.spearmanr(pooled, gold)[0]
    assert evaluate_all(encoder, data=only_2014).year(2014).pooled_spearman == pytest.approx(expected, abs=1e-9)


def test_encoding_in_batches_checks_what_the_encoder_returns() -> None:
    import torch

    sentences = [f"s{i}" for i in range(5)]
    rows = encode_sentences(lambda s: torch.tensor([[float(x[1:]), 1.0] for x in s]), sentences, batch_size=2)
    np.testing.assert_array_equal(rows, [[0, 1], [1, 1], [2, 1], [3, 1], [4, 1]])  # tensors become arrays, in order
    assert encode_sentences(lambda s: np.ones((len(s), 3)), []).shape == (0, 0)
    with pytest.raises(ValueError, match="batch_size must be positive"):
        encode_sentences(lambda s: np.ones((len(s), 3)), sentences, batch_size=0)
    with pytest.raises(ValueError, match=r"different dimensions: \[2, 3\]"):
        encode_sentences(lambda s: np.ones((len(s), 3 if len(s) == 2 else 2)), sentences, batch_size=2)
    with pytest.raises(ValueError, match="expected numbers"):
        encode_sentences(lambda s: np.array([["a"]] * len(s)), sentences)


def test_constant_similarities_give_nan_correlations_written_as_null(toy_root: Path) -> None:
    dataset = load_sts_year(toy_root / "STS12")["first"]
    result = evaluate_dataset(lambda s: np.ones((len(s), 2)), dataset)  # every cosine 1: undefined correlations
    assert result.n == 4 and np.isnan(result.pearson) and np.isnan(result.spearman)
    assert json.loads(json.dumps(result.to_dict(), allow_nan=False))["pearson"] is None
