"""``paranmt sif``: word-frequency files are --word-frequencies, as in score, evaluate and sick (building SIF
models: tests/train_embeddings/test_sif.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_word_frequencies_is_the_one_name():
    from paranmt.cli.sif_command import build_parser

    parser = build_parser()
    base = ["--vectors", "kumo", "--out", "o"]
    assert parser.parse_args([*base, "--word-frequencies", "f"]).word_frequencies == Path("f")
    with pytest.raises(SystemExit):
        parser.parse_args([*base, "--word-counts", "f"])
