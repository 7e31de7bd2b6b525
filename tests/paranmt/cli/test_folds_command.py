"""``paranmt folds``: one error line in a fresh process, and its config flags the schema's (ranking itself:
tests/filters/test_folds.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.repo import REPO_ROOT


def test_a_subcommand_in_a_fresh_process_prints_one_error_line(tmp_path):
    """``paranmt folds`` (here as ``python -m cli.paranmt_command``) in its own process: one line, exit 2."""
    done = subprocess.run([sys.executable, "-m", "paranmt", "folds",
                           "--input", str(tmp_path / "missing.parquet"), "--out", str(tmp_path / "x")], cwd=REPO_ROOT,
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, check=False)
    assert done.returncode == 2
    assert done.stderr == f"error: --input {tmp_path / 'missing.parquet'} does not exist\n"
    assert done.stdout == ""


def test_the_flags_set_the_config_and_show_its_defaults(capsys):
    """folds takes its defaults from the schema (no restated "(10)", "1234") and its --config/--set from the one
    shared definition."""
    import pytest

    from paranmt.cli.folds_command import CONFIG_FLAGS, build_parser
    from paranmt.core.command_line import config_values

    parser = build_parser()
    text = " ".join(parser.format_help().split())
    assert "(select.folds; default 10)" in text and "(seed; default 1234)" in text
    args = parser.parse_args(["--input", "i", "--out", "o", "--folds", "5", "--set", "seed=3"])
    assert args.overrides == ["seed=3"]
    assert config_values(args, CONFIG_FLAGS) == {"select.rank_by": None, "select.folds": 5, "seed": None}
    with pytest.raises(SystemExit):
        parser.parse_args(["--input", "i", "--out", "o", "--criterion", "length"])
    assert "invalid choice: 'length'" in capsys.readouterr().err
