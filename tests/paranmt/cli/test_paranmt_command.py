"""``paranmt``: every tool behind one command, each usage line naming it as called, one flag name per concept."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import re

import pytest

from paranmt.cli.paranmt_command import SUBCOMMANDS, main
from tests.support.repo import REPO_ROOT


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



def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """A command's parser, or each of its sub-subcommands' (``lexicon build``, ``convert fairseq``, ...)."""
    subs = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    return [p for action in subs for p in action.choices.values()] or [parser]


def _refused_without(parser: argparse.ArgumentParser, flags: tuple[str, ...]) -> list[str]:
    """The flags the command says it cannot run without: argparse's "required" line for no arguments, and each
    required config flag (ConfigFlag.required, answered once the config is loaded)."""
    stderr = io.StringIO()
    with contextlib.suppress(SystemExit), contextlib.redirect_stderr(stderr):
        parser.parse_args([])
    line = stderr.getvalue()
    named = line.split("required: ", 1)[1].split(" (see ")[0].split(", ") if "required: " in line else []
    return named + list(flags)


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_flag_a_command_needs_is_shown_as_required_in_its_usage(name):
    module = importlib.import_module(SUBCOMMANDS[name][0])
    required_config = tuple(item.flag for item in getattr(module, "CONFIG_FLAGS", ()) if item.required)
    for parser in _parsers(module.build_parser()):
        usage = " ".join(parser.format_usage().split())
        optional = re.findall(r"\[([^\[\]]*)\]", usage)
        shown = re.sub(r"\[[^\[\]]*\]", " ", usage).split()
        for flag in _refused_without(parser, required_config):
            assert flag in shown, f"{parser.prog}: {flag} is required but not shown so in: {usage}"
            # a flag's group starts with it; a positional's "[words ...]" only says that it repeats
            assert flag.startswith("-") is False or not any(group.split()[0] == flag for group in optional), \
                f"{parser.prog}: {flag} shown as optional"
