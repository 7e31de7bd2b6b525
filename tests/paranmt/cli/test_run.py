"""``paranmt run``: what its command line answers before the job (the job itself: tests/pipeline)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from paranmt.cli.paranmt_command import main
from tests.support.repo import REPO_ROOT


def test_a_flag_that_does_not_parse_is_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["run", "--cs", "a", "--en", "b", "--out", "o", "--beam", "abc"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "error: argument --beam: invalid int value: 'abc' (see paranmt run --help)\n"


def test_no_flags_say_what_they_turn_off(capsys):
    """Each --no-* flag says what giving it does (not ``--no-dedup  Reject exact duplicates...``)."""
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
        "pipeline, prefilter, translate, score, select, train, lexicon, card, base)\n")
    assert main(["run", "--cs", "a", "--en", "b", "--out", str(tmp_path / "o"), "--set", "translate.beem_size=4"]) == 2
    assert capsys.readouterr().err.endswith("; did you mean translate.beam_size?\n")


def test_a_run_prints_no_beam_import_warning(tmp_path):
    """Beam without its gcp extra logs 'apitools not found ...' when it is imported; a user's run must not show it.
    A run of its own process, as a user starts it, so that Beam is imported by the command."""
    sample = REPO_ROOT / "configs" / "sample"
    done = subprocess.run([sys.executable, "-m", "paranmt", "run", "--cs", str(sample / "sample.cs"), "--en",
                           str(sample / "sample.en"), "--mt", str(sample / "sample.en"), "--limit", "20", "--no-score",
                           "--runner", "BundleBasedDirectRunner", "--quiet", "--out", str(tmp_path / "out")],
                          cwd=REPO_ROOT, capture_output=True, text=True, check=False, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "_SUCCESS").exists()
    assert "apitools" not in done.stderr


def test_the_progress_line_shows_a_started_translation():
    """Until the first chunk is translated the line said nothing about translation."""
    from pipeline.launcher.progress import READ, STARTED_CHUNKS, TRANSLATED, progress_line

    started = progress_line({READ: 700, STARTED_CHUNKS: 2}, 25, 700, None, "model small-cs-en, beam 12")
    assert started == "read 700/700 · translating: 0 of 700 rows (model small-cs-en, beam 12) · pairs written 0 · 25 s"
    assert "translating:" not in progress_line({READ: 700}, 25, 700)  # not started: nothing claimed
    done = progress_line({READ: 700, STARTED_CHUNKS: 2, TRANSLATED: 500}, 30, 700, 20.0, "model m, beam 12")
    assert "translating:" not in done and "translated 500 (20.0/s" in done


def test_backend_takes_a_name_or_an_import_path_checked_as_set_checks_it(tmp_path, capsys):
    """``--backend`` offers what its help says (a built-in name or a backend's import path: the broken-backend run
    in tests/pipeline/test_run_backend_failure.py gives one); a value the schema refuses is refused by the check
    ``--set`` goes through, in one line naming the flag that gave it."""
    from configs import command_config
    from paranmt.core.command_line import config_values
    from pipeline.run import CONFIG_FLAGS, build_parser

    for value in ("fairseq", "mypackage.backends:MyBackend"):
        args = build_parser().parse_args(["--cs", "a", "--en", "b", "--out", "o", "--backend", value])
        config = command_config(None, [], CONFIG_FLAGS, config_values(args, CONFIG_FLAGS))
        assert config.translate.backend == value
    out = str(tmp_path / "o")
    assert main(["run", "--cs", "a", "--en", "b", "--out", out, "--backend", "marian"]) == 2
    by_flag = capsys.readouterr().err
    assert main(["run", "--cs", "a", "--en", "b", "--out", out, "--set", "translate.backend=marian"]) == 2
    by_set = capsys.readouterr().err
    check = "'marian' is none of auto, ctranslate2, fairseq and no import path like mypackage.backends:MyBackend"
    assert by_flag.startswith("error: invalid --backend marian: ") and "(--set translate.backend=marian)" in by_set
    assert check in by_flag and check in by_set and by_flag.count("\n") == by_set.count("\n") == 1
