"""What ``paranmt run`` prints once its job ends (:func:`pipeline.launcher.launch.run_and_report`): the row rate,
every output folder with its shards, the summary and the card; ``--quiet`` keeps those lines and drops the table
and the timings; a failed row accounting is exit status 1 with the table on stderr."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest

from pipeline.inputs.plan import InputSpec
from pipeline.job import AccountingError
from pipeline.launcher import launch
from pipeline.outputs.summary import format_table
from tests.support.sample_run import sample_config
from tests.support.taste_data import taste_pairs

PAIRS = 60


@pytest.fixture(scope="module")
def reported(tmp_path_factory) -> tuple[Path, dict[str, Any], str]:
    """A real run of 60 bundled Tatoeba pairs with their translations (no model): its folder, its summary and
    what run_and_report printed."""
    folder = tmp_path_factory.mktemp("launch")
    paths = [folder / f"pairs.{side}" for side in ("cs", "en", "mt")]
    for path, lines in zip(paths, taste_pairs(PAIRS), strict=True):
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    out = folder / "run"
    summaries: list[dict[str, Any]] = []
    real_run_job = launch.run_job

    def keep_summary(*args: Any, **kwargs: Any) -> dict[str, Any]:
        summaries.append(real_run_job(*args, **kwargs))
        return summaries[-1]

    printed = io.StringIO()  # a module fixture has no capsys
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(printed):
        patch.setattr(launch, "run_job", keep_summary)
        status = launch.run_and_report(sample_config(), [InputSpec.pair(*paths)], str(out), [])
    assert status == 0
    return out, summaries[0], printed.getvalue()


def test_the_report_names_the_rate_every_output_the_summary_and_the_card(reported) -> None:
    out, summary, printed = reported
    table, _, after = printed.partition(format_table(summary))
    assert after and not table  # the table first
    lines = after.splitlines()
    [rate] = [line for line in lines if " rows in " in line]
    assert rate.startswith(f"{PAIRS} rows in ") and rate.endswith(" on FnApiRunner")
    for name in ("pairs", "train", "rejected", "deadletter"):
        shards = summary["shards"].get(name) or []
        shown = [line for line in lines if line.startswith(f"{name}/")]
        assert shown == ([f"{name + '/':<12} {out / name}/ ({len(shards)} shard{'s' if len(shards) != 1 else ''})"]
                         if shards else [])
    assert f"summary     {out / 'summary.json'}" in lines
    assert any(line.startswith(f"card        {out / 'README.md'}") for line in lines)


def test_quiet_keeps_the_outputs_and_drops_the_table_and_timings(reported, monkeypatch, capsys) -> None:
    out, summary, loud = reported
    monkeypatch.setattr(launch, "run_job", lambda *args, **kwargs: summary)
    assert launch.run_and_report(sample_config(), [], str(out), [], quiet=True) == 0
    quiet = capsys.readouterr().out
    assert format_table(summary) not in quiet and "time by stage" not in quiet
    kept = [line for line in loud.partition(format_table(summary))[2].splitlines()
            if line.startswith(("pairs/", "train/", "summary", "card"))]
    assert kept and all(line in quiet.splitlines() for line in kept)


def test_a_failed_row_accounting_is_status_1_with_the_table(reported, monkeypatch, capsys) -> None:
    out, summary, _ = reported

    def fails(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise AccountingError("read 60 != pairs 59 + rejected 0 + deadletter 0", summary)

    monkeypatch.setattr(launch, "run_job", fails)
    assert launch.run_and_report(sample_config(), [], str(out), []) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert format_table(summary) in captured.err
    assert captured.err.rstrip().splitlines()[-1] == ("error: row accounting failed: read 60 != pairs 59 + "
                                                      "rejected 0 + deadletter 0")
