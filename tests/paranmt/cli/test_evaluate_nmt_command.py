"""``paranmt evaluate-nmt``: the two sides are --cs/--en as in run, translate and train-nmt (scoring a model:
tests/translate/test_evaluate.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paranmt.cli.paranmt_command import main


def test_the_sides_are_cs_and_en(capsys):
    from paranmt.cli.evaluate_nmt_command import build_parser

    with pytest.raises(SystemExit):
        main(["evaluate-nmt", "--help"])
    usage = capsys.readouterr().out
    assert "--cs FILE" in usage and "--en FILE" in usage and "--src" not in usage and "--ref " not in usage
    parser = build_parser()
    new = parser.parse_args(["--model", "m", "--cs", "a.cs", "--en", "b.en"])
    assert (new.cs, new.en) == (Path("a.cs"), Path("b.en"))
    with pytest.raises(SystemExit):
        parser.parse_args(["--model", "m", "--src", "a.cs", "--ref", "b.en"])
