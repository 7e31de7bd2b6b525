"""``paranmt translate``: the paths it is given are checked before any work (translating: tests/translate)."""

from __future__ import annotations

import pytest

from paranmt.cli.paranmt_command import main
from tests.support.commands import run_paranmt


@pytest.mark.parametrize("case", ["out-folder", "out-under-file", "summary-under-file", "input-folder"])
def test_translate_paths_are_checked_before_any_work(case, user_paths, toy_model, capsys):
    d = user_paths
    args = {"out-folder": ["--input", d / "in.cs", "--out", d / "folder"],
            "out-under-file": ["--input", d / "in.cs", "--out", d / "file" / "x.tsv"],
            "summary-under-file": ["--input", d / "in.cs", "--out", d / "o.tsv", "--summary", d / "file" / "s.json"],
            "input-folder": ["--input", d / "folder", "--out", d / "o.tsv"]}[case]
    expected = {"out-folder": f"--out {d / 'folder'} is a folder: give a file path",
                "out-under-file": f"--out {d / 'file' / 'x.tsv'} cannot be written: {d / 'file'} is a file, not a "
                                  "folder",
                "summary-under-file": f"--summary {d / 'file' / 's.json'} cannot be written: {d / 'file'} is a file, "
                                      "not a folder",
                "input-folder": f"--input {d / 'folder'} is a folder: give a text file, one sentence per line"}[case]
    assert main(["translate", *map(str, args), "--model", str(toy_model), "--quiet"]) == 2
    assert capsys.readouterr().err == f"error: {expected}\n"
    assert not (d / "o.tsv").exists() and (d / "file").read_text() == "user data\n"


def test_no_carriage_return_bar_where_stderr_is_not_a_terminal(user_paths, toy_model):
    (user_paths / "in.cs").write_text("".join(f"Pes vidí kočku číslo {i}.\n" for i in range(40)), encoding="utf-8")
    done = run_paranmt("translate", "--input", str(user_paths / "in.cs"), "--out", str(user_paths / "o.tsv"),
                       "--model", str(toy_model), "--chunk-size", "8")
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr and "40 sentences in " in done.stderr, done.stderr
