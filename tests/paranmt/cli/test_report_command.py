"""``paranmt report``: the input is checked before a report is written (the report itself:
tests/pipeline/analysis)."""

from __future__ import annotations

from paranmt.cli.paranmt_command import main


def test_report_on_an_empty_folder_is_an_error(user_paths, capsys):
    """It used to exit 0 and write a report of nothing."""
    d = user_paths
    assert main(["report", "--input", str(d / "folder"), "--out", str(d / "report")]) == 2
    assert capsys.readouterr().err == (f"error: --input {d / 'folder'} holds no Parquet file (*.parquet): give a "
                                       "Parquet file, a folder of shards such as runs/x/pairs, or a pattern\n")
    assert not (d / "report").exists()
