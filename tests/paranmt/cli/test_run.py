"""``paranmt run``: what its command line answers before the job (the job itself: tests/pipeline)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from paranmt.cli.paranmt_command import main
from tests.conftest import REPO_ROOT


def test_a_flag_that_does_not_parse_is_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["run", "--cs", "a", "--en", "b", "--out", "o", "--beam", "abc"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "error: argument --beam: invalid int value: 'abc' (see paranmt run --help)\n"


def test_no_flags_say_what_they_turn_off(capsys):
    """Issue 47: ``--no-dedup  Reject exact duplicates...`` read backwards: each says what giving it does."""
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--no-dedup Keep exact duplicates (sets prefilter.dedup: false; on by default: Reject exact" in text
    assert "--no-translation-cache Keep no cache of translated chunks" in text
    assert "--no-score Write pairs/ unscored, without train/" in text


def test_an_unknown_config_key_is_one_line_with_the_valid_keys(tmp_path, capsys):
    assert main(["run", "--cs", "a", "--en", "b", "--out", str(tmp_path / "o"), "--set", "nonsense.key=1"]) == 2
    assert capsys.readouterr().err == (
        "error: invalid configuration (--set nonsense.key=1): nonsense: unknown key (the top-level keys: seed, "
        "pipeline, prefilter, translate, score, filter, train, lexicon, base)\n")
    assert main(["run", "--cs", "a", "--en", "b", "--out", str(tmp_path / "o"), "--set", "translate.beem_size=4"]) == 2
    assert capsys.readouterr().err.endswith("; did you mean translate.beam_size?\n")


def test_a_command_that_imports_beam_prints_no_beam_import_warning():
    """Beam without its gcp extra logs 'apitools not found ...' on import; a newcomer's first run must not show it."""
    done = subprocess.run([sys.executable, "-c", "import pipeline.run, apache_beam.io.gcp.bigquery"], cwd=REPO_ROOT,
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "apitools" not in done.stderr


def test_the_progress_line_shows_a_started_translation():
    """Until the first chunk is translated the line said nothing about translation."""
    from pipeline.launcher.progress import READ, STARTED_CHUNKS, TRANSLATED, progress_line

    started = progress_line({READ: 700, STARTED_CHUNKS: 2}, 25, 700, None, "model small-cs-en, beam 12")
    assert started == "read 700/700 · translating: 0 of 700 rows (model small-cs-en, beam 12) · pairs written 0 · 25 s"
    assert "translating:" not in progress_line({READ: 700}, 25, 700)  # not started: nothing claimed
    done = progress_line({READ: 700, STARTED_CHUNKS: 2, TRANSLATED: 500}, 30, 700, 20.0, "model m, beam 12")
    assert "translating:" not in done and "translated 500 (20.0/s" in done
