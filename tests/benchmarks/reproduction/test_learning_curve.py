"""benchmarks/reproduction/learning_curve.py: the log-linear fit recovers a known line, the grid is the documented one,
and the docs section is rebuilt from the committed results of the device run (117 real training runs)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from tests.support.repo import REPO_ROOT, load_benchmark

RESULTS = REPO_ROOT / "benchmarks" / "results" / "learning_curve.json"


def test_fit_recovers_a_line_and_widens_away_from_the_data() -> None:
    lc = load_benchmark("reproduction/learning_curve")
    sizes = [2000, 5000, 11000, 30000, 53517]
    values = [50 + 4 * math.log10(n) + (0.3 if i % 2 else -0.3) for i, n in enumerate(sizes)]
    fit = lc.fit_log_linear(sizes, values, (1_000_000, 5_000_000))
    assert abs(fit["b"] - 4) < 0.5 and fit["n"] == 5
    near, far = fit["predictions"]["1000000"], fit["predictions"]["5000000"]
    assert near["low"] < near["value"] < near["high"]
    assert far["high"] - far["low"] > near["high"] - near["low"]


def test_grid_and_seed_aggregation() -> None:
    lc = load_benchmark("reproduction/learning_curve")
    sets = json.loads(RESULTS.read_text())["sets"]
    jobs = lc.job_list(sets)
    assert len(jobs) == 61 and len({j["name"] for j in jobs}) == 61
    assert all(j["gpu"] == (j["n"] >= 30000 or "lstm" in j["model"] or "," in j["model"]) for j in jobs)
    seeded = lc.seed_jobs(sets, 2)
    assert all(j["name"].endswith("-s2") and j["seed"] == 2 for j in seeded)
    rows = {r["name"]: r for r in lc.aggregate(json.loads(RESULTS.read_text())["results"])}
    row = rows["lc-all-53517-trigram"]
    assert row["seeds"] == [1, 2] and row["sd"]["mean"] > 0


def test_docs_section_from_the_committed_results(tmp_path: Path) -> None:
    lc = load_benchmark("reproduction/learning_curve")
    docs = tmp_path / "reproduction.md"
    docs.write_text("# page\n", encoding="utf-8")
    assert lc.main(["--results", str(RESULTS), "--docs", str(docs)]) == 0
    text = docs.read_text(encoding="utf-8")
    assert text.startswith("# page\n") and "<!-- section:learning-curve -->" in text
    for heading in ("### Learning curve", "### The trend", "### Table 4 in miniature", "### WORD: unseen words"):
        assert heading in text
    assert (tmp_path / "reproduction" / "learning_curve.png").stat().st_size > 0
    assert lc.main(["--results", str(tmp_path / "missing.json")]) == 2
