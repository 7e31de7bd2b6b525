"""``paranmt``: every tool behind one command, each usage line naming it as called, one flag name per concept."""

from __future__ import annotations

import pytest

from cli.paranmt_command import SUBCOMMANDS, main


def test_help_lists_every_subcommand(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert all(f"  {name} " in text for name in SUBCOMMANDS)
    assert main([]) == 2 and main(["bogus"]) == 2
    assert "unknown subcommand 'bogus'" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_each_subcommand_names_itself_and_spells_outputs_out(name, capsys):
    args = [name, "build", "--help"] if name == "lexicon" else [name, "marian", "--help"] if name == "convert" \
        else [name, "--help"]
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: paranmt {name}")
    assert "python -m" not in text.split("\n")[0]
    assert "--output" not in text and "--data " not in text  # old spellings work but are not shown
    if name not in ("evaluate",):  # evaluate writes only --json
        assert "--out" in text


def test_old_spellings_still_work(tmp_path):
    from core.command_line import ArgumentParser

    parser = ArgumentParser(prog="x")
    parser.add_renamed("--out", "--output", required=True)
    assert parser.parse_args(["--output", "a"]).out == parser.parse_args(["--out", "a"]).out == "a"
    with pytest.raises(SystemExit):
        parser.parse_args([])


# ------------------------------------------------------------------------ issue 22: the smaller items, the audit


def test_version(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"paranmt {version('paranmt')}\n"


@pytest.mark.parametrize("name", ["translate", "train", "evaluate-nmt", "convert", "export-vectors", "train-nmt",
                                  "score"])
def test_help_is_plain_text_spelling_the_command_as_called(name, capsys):
    """Examples in the help (module docstrings) used to say ``python -m ...``, and ``train --help`` showed reST."""
    with pytest.raises(SystemExit):
        main([name, "--help"])
    text = capsys.readouterr().out
    assert "python -m" not in text and "``" not in text and ":class:`" not in text and ":func:`" not in text
    assert f"paranmt {name}" in text
    # the help is for the user: a developer's map of the modules behind the command stays in the code
    assert "This module holds" not in text and "_command.py" not in text and "composes one module" not in text


def test_a_flag_that_does_not_parse_is_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["run", "--cs", "a", "--en", "b", "--out", "o", "--beam", "abc"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "error: argument --beam: invalid int value: 'abc' (see paranmt run --help)\n"


def test_train_flag_errors_are_one_line_and_a_failed_train_leaves_no_out(tmp_path, capsys):
    out = tmp_path / "runs" / "emb"
    assert main(["train", "--input", str(tmp_path / "none.parquet"), "--model", "word", "--out", str(out),
                 "--epochs", "-1"]) == 2
    assert capsys.readouterr().err == \
        "error: invalid --epochs -1: Input should be greater than or equal to 1 (train.epochs)\n"
    assert main(["train", "--input", str(tmp_path / "none.parquet"), "--model", "word", "--out", str(out),
                 "--no-eval"]) == 2  # without the STS files, the dev evaluation's check would speak first
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: training data {tmp_path / 'none.parquet'} does not exist")
    assert not (tmp_path / "runs").exists()  # it used to leave an empty --out behind


@pytest.fixture
def user_paths(tmp_path):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("user data\n")
    (tmp_path / "in.cs").write_text("Pes vidí kočku.\n", encoding="utf-8")
    return tmp_path


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


@pytest.mark.parametrize("out", ["folder", "file/s.parquet"])
def test_score_checks_its_out_before_any_work(out, user_paths, capsys):
    d = user_paths
    assert main(["score", "--input", str(d / "in.cs"), "--out", str(d / out)]) == 2
    line = capsys.readouterr().err
    assert line == (f"error: --out {d / 'folder'} is a folder: give a file path\n" if out == "folder" else
                    f"error: --out {d / out} cannot be written: {d / 'file'} is a file, not a folder\n")


def test_export_never_replaces_a_file_with_a_model_folder(user_paths, capsys):
    """``export --out FILE`` used to delete the file and write the model folder in its place."""
    d = user_paths
    assert main(["export", "--format", "sentence-transformers", "--model", str(d / "folder"), "--out",
                 str(d / "file")]) == 2
    assert capsys.readouterr().err == (f"error: --out {d / 'file'} is a file: a sentence-transformers model is a "
                                       "folder, choose a new path\n")
    assert (d / "file").read_text() == "user data\n"


@pytest.mark.parametrize("target", ["folder", "file/x.txt"])
def test_any_file_system_error_on_a_named_path_is_one_line(target, user_paths, capsys):
    """The dispatcher's last line of defence (core.command_line.run_main) for opens the audit did not move
    before the work: the error names the flag and the path."""
    from core.command_line import run_main

    d = user_paths

    def tool(argv: list[str]) -> int:
        with open(argv[1], "w") as handle:  # what a command's main does with --out
            handle.write("x")
        return 0

    assert run_main(tool, ["--out", str(d / target)]) == 2
    assert capsys.readouterr().err == (f"error: --out {d / 'folder'} is a folder: give a file path\n"
                                       if target == "folder" else
                                       f"error: --out {d / target} cannot be written: {d / 'file'} is a file, "
                                       "not a folder\n")


def test_the_progress_line_shows_a_started_translation():
    """Until the first chunk is translated the line said nothing about translation."""
    from pipeline.progress import READ, STARTED_CHUNKS, TRANSLATED, progress_line

    started = progress_line({READ: 700, STARTED_CHUNKS: 2}, 25, 700, None, "model small-cs-en, beam 12")
    assert started == "read 700/700 · translating: 0 of 700 rows (model small-cs-en, beam 12) · pairs written 0 · 25 s"
    assert "translating:" not in progress_line({READ: 700}, 25, 700)  # not started: nothing claimed
    done = progress_line({READ: 700, STARTED_CHUNKS: 2, TRANSLATED: 500}, 30, 700, 20.0, "model m, beam 12")
    assert "translating:" not in done and "translated 500 (20.0/s" in done


def test_report_on_an_empty_folder_is_an_error(user_paths, capsys):
    """It used to exit 0 and write a report of nothing."""
    d = user_paths
    with pytest.raises(SystemExit) as exit_:
        main(["report", "--input", str(d / "folder"), "--out", str(d / "report")])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == (f"error: --input {d / 'folder'} holds no pairs (no Parquet rows): give a "
                                       "run's pairs/ or train/ (see paranmt report --help)\n")
    assert not (d / "report").exists()


# ---------------------------------------------------------------------- issue 23 item 4: cli/ and one error base


def test_a_project_error_is_one_line_and_its_exit_status_in_one_place(capsys):
    """Every command's main runs through core.command_line.run_main: a ParanmtError subclass (which keeps its
    ValueError base for library callers) is one ``error:`` line; a failed row accounting exits 1; a plain bug
    keeps its traceback."""
    import argparse

    from configs import ConfigError
    from core.command_line import ArgumentParser, command
    from core.errors import ParanmtError
    from pipeline.job import AccountingError

    def raising(error: Exception):
        @command(lambda: ArgumentParser(prog="tool"))
        def tool(args: argparse.Namespace) -> int:
            raise error

        return tool

    assert issubclass(ConfigError, ValueError) and issubclass(ConfigError, ParanmtError)
    assert raising(ConfigError("--beam 0: must be positive"))([]) == 2
    assert capsys.readouterr().err == "error: --beam 0: must be positive\n"
    assert raising(AccountingError("read 3 != 2 + 0 + 0", {}))([]) == 1
    assert capsys.readouterr().err == "error: read 3 != 2 + 0 + 0\n"
    assert raising(KeyboardInterrupt())([]) == 130  # a Ctrl-C in any command, e.g. while the config loads
    assert capsys.readouterr().err == "interrupted\n"
    with pytest.raises(ZeroDivisionError):
        raising(ZeroDivisionError("a bug"))([])


def test_every_command_module_is_a_subcommand():
    """A tool with a command line in cli/, or in the library because it also runs as ``python -m``, is listed by
    ``paranmt --help``."""
    from pathlib import Path

    from tests.test_architecture import LIBRARY_COMMANDS

    modules = {f"cli.{p.stem}" for p in (Path(__file__).resolve().parents[2] / "cli").glob("*_command.py")}
    assert (modules - {"cli.paranmt_command"}) | set(LIBRARY_COMMANDS) == {module for module, _ in SUBCOMMANDS.values()}


def test_a_subcommand_in_a_fresh_process_prints_one_error_line(tmp_path):
    """``paranmt folds`` (here as ``python -m cli.paranmt_command``) in its own process: one line, exit 2."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "cli.paranmt_command", "folds",
                           "--input", str(tmp_path / "missing.parquet"), "--out", str(tmp_path / "x")], cwd=root,
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root)}, check=False)
    assert done.returncode == 2
    assert done.stderr == f"error: --input {tmp_path / 'missing.parquet'} does not exist\n"
    assert done.stdout == ""


def test_a_command_that_imports_beam_prints_no_beam_import_warning():
    """Beam without its gcp extra logs 'apitools not found ...' on import; a newcomer's first run must not show it."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", "import pipeline.run, apache_beam.io.gcp.bigquery"], cwd=root,
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "apitools" not in done.stderr


def test_sick_says_quiet_like_the_others(capsys):
    """Issue 34: ``sick`` said ``--no-progress`` where every other command says ``--quiet`` (the old flag still works,
    hidden)."""
    from cli.sick_command import build_parser

    with pytest.raises(SystemExit):
        main(["sick", "--help"])
    text = capsys.readouterr().out
    assert "--quiet" in text and "--no-progress" not in text
    parser = build_parser()
    assert parser.parse_args(["--model", "glove", "--task", "relatedness", "--no-progress"]).quiet is True
    assert parser.parse_args(["--model", "glove", "--task", "relatedness", "--quiet"]).quiet is True
    assert parser.parse_args(["--model", "glove", "--task", "relatedness"]).quiet is False


def test_export_help_loads_no_library(tmp_path):
    """Issue 34: ``export --help`` took seconds importing torch and pyarrow that the help does not need."""
    import os
    import subprocess
    import sys

    from cli import export_command
    from train_embeddings.export import model_export

    assert export_command.FORMATS == model_export.FORMATS
    probe = ("import sys; from cli.paranmt_command import main\n"
             "try:\n    main(['export', '--help'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
             "print(sorted(m for m in ('torch', 'pyarrow', 'train_embeddings.training.data', "
             "'train_embeddings.export.model_export') "
             "if m in sys.modules))")
    from tests.conftest import REPO_ROOT

    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO_ROOT,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.stdout.splitlines()[-1] == "[]"
    assert "usage: paranmt export" in done.stdout


def test_a_command_logs_its_own_info_and_only_warnings_of_the_libraries(capsys):
    """Issue 41: WORD training printed matplotlib's "generated new fontManager", static training skeletoken's and
    model2vec's INFO lines."""
    import logging

    from core.command_line import log_to_console

    log_to_console(logging.INFO)
    logging.getLogger("train_embeddings.trainer").info("ours")
    logging.getLogger("matplotlib.font_manager").info("generated new fontManager")
    logging.getLogger("skeletoken.base").info("Changing padding token to existing token '[PAD]'.")
    logging.getLogger("skeletoken.base").warning("a library's warning")
    assert capsys.readouterr().err.splitlines() == ["INFO train_embeddings.trainer: ours",
                                                    "WARNING skeletoken.base: a library's warning"]
