"""STS results and their tables (train_embeddings/evaluation/sts/results.py): year means, pooled correlations,
MTEB's scores beside the papers' protocol, JSON and Markdown."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from paranmt.core.correlation import spearman
from tests.support.sts_toy import RHO_POOLED_2012, ToyEncoder
from train_embeddings.evaluation.sts.evaluator import evaluate_all
from train_embeddings.evaluation.sts.results import (
    CAPTION_SETS,
    DatasetResult,
    StsReport,
    YearResult,
    markdown_protocols,
)


def test_mteb_and_papers_protocols_in_one_table(toy_root: Path) -> None:
    report = evaluate_all(ToyEncoder(), root=toy_root, label="toy")
    mteb = report.mteb_scores()
    assert mteb["STS12"] == pytest.approx(RHO_POOLED_2012)  # pooled Spearman of the year
    assert mteb["STSBenchmark"] == pytest.approx(spearman([0.6, -0.8, 1, 0.6], [2, 0.5, 4.5, 3]))
    assert "STS14" not in mteb  # absent years are not scored as zero
    assert mteb["mean"] == pytest.approx(np.mean([mteb["STS12"], mteb["STS13"], mteb["STSBenchmark"]]))
    assert json.loads(json.dumps(report.to_dict()))["mteb"]["STS12"] == pytest.approx(RHO_POOLED_2012)
    table = markdown_protocols({"toy": report, "again": report}, {"toy": 1234.4})
    lines = table.splitlines()
    assert lines[0] == "| × 100 | toy | again |"
    assert f"| MTEB STS12: Spearman | {100 * RHO_POOLED_2012:.1f} | {100 * RHO_POOLED_2012:.1f} |" in lines
    mean_pearson_2012 = 100 * report.year(2012).mean_pearson
    assert f"| papers STS12: mean Pearson of sub-datasets | {mean_pearson_2012:.1f} | {mean_pearson_2012:.1f} |" \
        in lines
    assert "| sentences/s (1 CPU thread) | 1,234 | – |" in lines


def test_year_means_by_hand_and_lookups_that_name_what_there_is() -> None:
    a = DatasetResult("a", 2012, 1, 0.2, 0.1)
    b = DatasetResult("b", 2012, 3, 0.6, 0.5)
    year = YearResult(2012, (a, b), pooled_spearman=0.4, pooled_pearson=0.3)
    assert year.n == 4
    assert year.mean_pearson == pytest.approx(0.4) and year.mean_spearman == pytest.approx(0.3)
    assert year.weighted_mean_pearson == pytest.approx((0.2 * 1 + 0.6 * 3) / 4)
    assert math.isnan(YearResult(2013, (), math.nan, math.nan).weighted_mean_pearson)
    with pytest.raises(KeyError, match=r"STS 2012 has no sub-dataset 'c' \(has \['a', 'b'\]\)"):
        year.dataset("c")
    report = StsReport((year,), {}, (2013,), "r", 0.0)
    assert report.mean_pearson == pytest.approx(0.4)
    assert report.all_datasets_mean_pearson == pytest.approx(0.4)
    with pytest.raises(KeyError, match=r"no STS 2013 in this report \(has \[2012\]\)"):
        report.year(2013)
    assert report.mteb_scores() == {"STS12": 0.4, "mean": 0.4}  # no STS-B test: no STSBenchmark entry


def test_caption_sets_are_the_three_caption_sub_datasets_present() -> None:
    msrvid = DatasetResult("MSRvid", 2012, 1, 0.5, 0.5)
    images14 = DatasetResult("images", 2014, 1, 0.7, 0.7)
    report = StsReport((YearResult(2012, (msrvid, DatasetResult("MSRpar", 2012, 1, 0.1, 0.1)), 0, 0),
                        YearResult(2014, (images14,), 0, 0)), {}, (2015,), "r", 0.0)
    assert report.caption_sets() == {"MSRvid 2012": msrvid, "images 2014": images14}
    assert {tuple(pair) for pair in CAPTION_SETS} >= {(2012, "MSRvid"), (2014, "images"), (2015, "images")}
