"""``paranmt sick``: its flags spelled as the other commands spell them (training heads:
tests/train_embeddings/test_sick.py)."""

from __future__ import annotations

import pytest

from paranmt.cli.paranmt_command import main


def test_sick_says_quiet_and_word_frequencies_like_the_others(capsys):
    """``--quiet`` as every other command says it, ``--word-frequencies`` as score and evaluate say it."""
    from paranmt.cli.sick_command import build_parser

    with pytest.raises(SystemExit):
        main(["sick", "--help"])
    text = capsys.readouterr().out
    assert "--quiet" in text and "--no-progress" not in text
    assert "--word-frequencies" in text and "--word-counts" not in text
    parser = build_parser()
    base = ["--model", "glove", "--task", "relatedness"]
    assert parser.parse_args([*base, "--quiet"]).quiet is True
    assert parser.parse_args(base).quiet is False
    assert str(parser.parse_args([*base, "--word-frequencies", "f.txt"]).word_frequencies) == "f.txt"
    for old in (["--no-progress"], ["--word-counts", "f.txt"]):
        with pytest.raises(SystemExit):
            parser.parse_args([*base, *old])


def test_the_defaults_shown_are_the_heads_settings():
    """The help shows SickConfig's defaults, read without loading torch (tests/paranmt/cli/test_help.py)."""
    from dataclasses import asdict

    from paranmt.cli.sick_command import SETTINGS, build_parser
    from train_embeddings.evaluation.sick_config import SickConfig

    args = build_parser().parse_args(["--model", "glove", "--task", "relatedness"])
    defaults = asdict(SickConfig())
    assert {name: getattr(args, name) for name in SETTINGS} == {name: defaults[name] for name in SETTINGS}
