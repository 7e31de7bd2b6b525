"""``paranmt evaluate``: its flags and the argument checks before any model loads (STS evaluation itself:
tests/train_embeddings/test_sts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paranmt.cli.paranmt_command import main


def test_word_frequencies_is_the_one_name():
    from paranmt.cli.evaluate_command import build_parser

    parser = build_parser()
    assert parser.parse_args(["--glove", "--word-frequencies", "f"]).word_frequencies == Path("f")
    with pytest.raises(SystemExit):
        parser.parse_args(["--glove", "--word-counts", "f"])


def test_nothing_to_evaluate_is_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == ("error: nothing to evaluate: give --model DIR, --glove, --sif and/or --minilm "
                                       "(see paranmt evaluate --help)\n")
