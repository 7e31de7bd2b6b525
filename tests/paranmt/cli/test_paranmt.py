"""``paranmt``: every tool behind one command, each usage line naming it as called, one flag name per concept."""

from __future__ import annotations

import pytest

from paranmt.cli.paranmt_command import SUBCOMMANDS, main
from tests.conftest import REPO_ROOT


def help_args(name: str) -> list[str]:
    """``--help`` of a subcommand (of its first sub-subcommand where it has them)."""
    return [name, "build", "--help"] if name == "lexicon" else [name, "marian", "--help"] if name == "convert" \
        else [name, "--help"]


def test_help_lists_every_subcommand(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert all(f"  {name} " in text for name in SUBCOMMANDS)
    assert main([]) == 2 and main(["bogus"]) == 2
    assert "unknown subcommand 'bogus'" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_each_subcommand_names_itself_and_spells_outputs_out(name, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(help_args(name))
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: paranmt {name}")
    assert "python -m" not in text.split("\n")[0]
    assert "--output" not in text
    if name not in ("evaluate",):  # evaluate writes only --json
        assert "--out" in text


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_one_flag_name_per_concept_across_commands(name, capsys):
    """A word-frequency file is --word-frequencies and the sides are --cs/--en in every command."""
    with pytest.raises(SystemExit):
        main(help_args(name))
    text = capsys.readouterr().out
    assert "--word-counts" not in text and "--src" not in text and "--ref " not in text


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


def test_every_command_module_is_a_subcommand():
    """A tool with a command line in cli/, or in the library because it also runs as ``python -m``, is listed by
    ``paranmt --help``."""

    from tests.test_architecture import LIBRARY_COMMANDS

    modules = {f"paranmt.cli.{p.stem}" for p in (REPO_ROOT / "paranmt" / "cli").glob("*_command.py")}
    commands = {module for module, _ in SUBCOMMANDS.values()}
    assert (modules - {"paranmt.cli.paranmt_command"}) | set(LIBRARY_COMMANDS) == commands

