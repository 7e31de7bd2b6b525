"""benchmarks.reproduction.static_report: the static section's table (seeds grouped, curves kept out) and both
learning curves."""

from __future__ import annotations

from tests.support.repo import load_benchmark


def _row(name: str, mean: float, data: str = "all", **extra) -> dict:
    return {"name": name, "model": "static", "data": data, "lr": 3e-4, **extra,
            "eval": {"mean": mean, "stsb_test": mean + 5, "sts2017": mean + 15}}


def test_static_section_groups_seeds_and_draws_both_curves():
    report = load_benchmark("reproduction/static_report")
    rows = {"static-all-lr0.0003": _row("static-all-lr0.0003", 69.0),
            "static-all-lr0.0003-teacher8": _row("static-all-lr0.0003-teacher8", 70.0, static_teacher_loss=8.0),
            "static-all-lr0.0003-teacher8-s2": _row("static-all-lr0.0003-teacher8-s2", 71.0, static_teacher_loss=8.0,
                                                    seed=2)}
    for n, mean in ((2000, 66.0), (11000, 67.0)):
        rows[f"curve-{n}"] = _row(f"curve-{n}", mean, f"all-{n}")
        rows[f"bestcurve-{n}"] = _row(f"bestcurve-{n}", mean + 1, f"all-{n}", static_teacher_loss=8.0)
    data = {"rows": rows, "sets": {"all": 53518},
            "choices": {"curve_row": "static-all-lr0.0003", "best_curve_row": "static-all-lr0.0003-teacher8"}}
    text = report.markdown(data)
    table = [line for line in text.splitlines() if line.startswith("| static-all")]
    assert len(table) == 2  # the seeds are one row, the curves are not rows
    assert "| 2 | 70.5 ± 0.7 |" in table[1]
    assert "Learning curve of static-all-lr0.0003's configuration (STATIC, lr 0.0003, no teacher loss)" in text
    assert "Learning curve of static-all-lr0.0003-teacher8's configuration (STATIC, lr 0.0003, teacher loss 8)" in text
    assert "| 11,000 | 68.0 |" in text and "| 53,518 | 70.0 |" in text  # the best curve ends at its full row
    # three points: a fit (66 → 67 → 69 over 2,000 → 53,518 pairs rises)
    fit = [line for line in text.splitlines() if line.startswith("Least-squares fit")]
    assert len(fit) == 2 and all("+ -" not in line for line in fit)


def test_speed_rows_say_how_and_where_they_were_timed():
    report = load_benchmark("reproduction/static_report")
    pinning = {"torch_intra_op": 1, "torch_inter_op": 1, "native": ["openblas (libopenblas): 1"],
               "tokenizer_threads_started_by_a_batch": 0, "other_threads_cpu_seconds_while_timing": 0.0}
    row = {"row": "distilled", "sentences_per_cpu_second": 40_000.0, "rounds": [39_000.0, 40_000.0, 41_000.0],
           "spread": 0.05, "x_minilm": 250.0, "wall_sentences_per_second": 30_000.0, "wall_x_minilm": 240.0,
           "disk_bytes": 30_700_000}
    speed = {"source": "benchmarks/results/frontier.json", "cpu": "Some CPU (2 logical CPUs)",
             "protocol": "the protocol", "pinning": pinning, "encoders": {"distilled": row}}
    lines = report.speed_table({"speed": speed})
    assert "one pinned thread" in lines[0] and "Some CPU (2 logical CPUs)" in lines[0] and "frontier.json" in lines[0]
    assert "started 0 threads" in lines[0]
    assert lines[-1] == "| distilled | distilled | 40,000 | 250× | 5% | 30,000 (240×) | 30.7 MB |"
