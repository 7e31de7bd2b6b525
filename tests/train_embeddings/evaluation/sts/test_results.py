"""STS results and their tables (train_embeddings/evaluation/sts/results.py): year means, pooled correlations,
MTEB's scores beside the papers' protocol, JSON and Markdown."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from paranmt.core.correlation import spearman
from tests.support.sts_toy import RHO_POOLED_2012, ToyEncoder
from train_embeddings.evaluation.sts.evaluator import evaluate_all
from train_embeddings.evaluation.sts.results import markdown_protocols


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
