"""benchmarks/pipeline/scale_bench.py on two small slices of the real bitext without NMT (a smoke run in the default
suite; the full run, NMT included, is the script itself): the figures, the fitted per-pair costs, the generated tables
in a copy of docs/scaling.md, the plot, and a resumed run that measures nothing again."""

from __future__ import annotations

import json

from benchmarks.doc_sections import read_section
from tests.support.repo import REPO_ROOT, load_benchmark
from tests.support.shared_data import shared_data


def test_scale_bench_smoke(tmp_path, capsys):
    shared_data("bitext/tatoeba.cs")
    bench = load_benchmark("pipeline/scale_bench")
    doc = tmp_path / "scaling.md"
    doc.write_text((REPO_ROOT / "docs" / "scaling.md").read_text(encoding="utf-8"), encoding="utf-8")
    results, plot = tmp_path / "scale.json", tmp_path / "scaling.png"
    args = ["--sizes", "300,600", "--modes", "mt", "--json", str(results), "--work", str(tmp_path / "work"),
            "--doc", str(doc), "--plot", str(plot), "--quantile-keys", "250000"]
    assert bench.main(args) == 0
    runs = json.loads(results.read_text())["runs"]
    assert [(r["mode"], r["size"]) for r in runs] == [("mt", 300), ("mt", 600)]
    for r in runs:
        assert r["read"] == r["size"] == r["pairs"] + r["rejected"] + r["deadletter"]
        # Beam samples stage times (a stage a tiny run passes through between samples reads 0 and is left out), so
        # which stages appear is up to the sampler and the machine's load: only their form is deterministic.
        assert all(s >= 0 for s in r["stage_s"].values()) and all(s >= 0 for s in r["step_s"].values())
        assert set(r["stage_s"]) == {step.split("/")[0] for step in r["step_s"]}  # the same samples, two depths
        assert 0 < r["held"]["fit_sample_rows"]["max"] <= r["size"] and r["held"]["dedup_bucket_rows"]["max"] > 0
        assert r["quantiles"]["keys"] > 0 and r["quantiles"]["bytes"] > 0 and r["peak_rss_bytes"] > 0
    fitted = bench.fits(runs, "mt")
    assert fitted["wall"]["us_per_pair"] != 0  # stage entries exist only where the sampler saw time
    text = doc.read_text(encoding="utf-8")
    assert "| 600 |" in text and "### CzEng 1.6 projection" in text and "T4 (n1-standard-4)" in text
    assert "| quantile accumulator |" in text and "| lexicon shard merge (optional) |" in text
    assert plot.stat().st_size > 10_000
    capsys.readouterr()
    assert bench.main(args) == 0  # resumed: both sizes are in the results already
    assert "mt 300 pairs ..." not in capsys.readouterr().out and len(json.loads(results.read_text())["runs"]) == 2


def test_the_generated_block_of_scaling_md_is_the_render_of_the_committed_results():
    """docs/scaling.md's tables are what the script renders from benchmarks/results/ and its anchors (rerun with
    ``--report-only --doc docs/scaling.md`` after a change to either, or to the script)."""
    bench = load_benchmark("pipeline/scale_bench")
    results = json.loads(bench.RESULTS.read_text(encoding="utf-8"))["runs"]
    block = bench.render_tables(results, bench.projection_anchors(bench.ANCHORS, bench.RESULTS))
    assert block.rstrip() == read_section(REPO_ROOT / "docs" / "scaling.md", "scale_bench")
