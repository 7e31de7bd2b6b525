"""What every command line of the project shares: one spelling per concept and the name it is called by.

* ``--out`` names what a command writes (a file or a folder) and ``--input`` what it reads, in every tool. The
  spellings of earlier versions (``--output``, the trainer's ``--data``) still work but are not shown:
  :meth:`ArgumentParser.add_renamed`.
* A command's usage line names it as it was called: ``paranmt run`` through the ``paranmt`` command,
  ``python -m pipeline.run`` otherwise (:func:`command_name`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

__all__ = ["ArgumentParser", "command_name", "config_flags", "make_out_folder", "out_folder_problem",
           "remove_created", "set_command_name"]

_called_as: str | None = None


def set_command_name(name: str | None) -> None:
    """The dispatcher (``paranmt SUBCOMMAND``) says how the command was called, for its usage line."""
    global _called_as
    _called_as = name


def command_name(module_command: str) -> str:
    """``paranmt <subcommand>`` when called through the dispatcher, else ``module_command``."""
    name = _called_as or module_command
    _module_commands[name] = module_command
    return name


_module_commands: dict[str, str] = {}  # a parser's prog -> the ``python -m`` command its help text may spell

# Sphinx/reST markup of the docstrings used as help text -> plain text: :class:`~a.b.C` -> C, :func:`f` -> f,
# ``code`` -> code, **bold** -> bold.
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`(~?)([^`<]+?)(?:\s*<[^>]+>)?`")
_LITERAL = re.compile(r"``([^`]+)``")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def plain_text(text: str) -> str:
    """Help text without reST markup (roles, literals, bold)."""
    text = _ROLE.sub(lambda m: m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2), text)
    return _BOLD.sub(r"\1", _LITERAL.sub(r"\1", text))


def config_flags(parser: argparse.ArgumentParser, keys: Sequence[str],
                 renamed: dict[str, str] | None = None) -> dict[str, str]:
    """Dotted config keys -> the flag that sets them, for ``load_config(flags=...)``: the flag whose destination is
    the key's last part (``train.batch_size`` -> ``--batch-size``), or ``renamed[key]``."""
    by_dest: dict[str, str] = {}
    for action in parser._actions:  # the first flag of a destination: a renamed flag's old spelling comes after
        if action.option_strings:
            by_dest.setdefault(action.dest, action.option_strings[0])
    found = {key: by_dest[key.rsplit(".", 1)[-1]] for key in keys if key.rsplit(".", 1)[-1] in by_dest}
    return {**found, **(renamed or {})}


class ArgumentParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with renamed flags: :meth:`add_renamed` adds a flag and, hidden from the help,
    its old spelling filling the same destination (``required`` then means: one of the two)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._required_renamed: list[tuple[str, str]] = []

    def add_renamed(self, flag: str, old: str, *, required: bool = False, **kwargs: Any) -> argparse.Action:
        action = self.add_argument(flag, **kwargs)
        hidden = {k: v for k, v in kwargs.items() if k not in ("help", "metavar", "dest")}
        self.add_argument(old, dest=action.dest, help=argparse.SUPPRESS, **hidden)
        if required:
            self._required_renamed.append((action.dest, flag))
        return action

    def format_help(self) -> str:
        """Plain text, and the command spelt as it was called (``paranmt translate``, not ``python -m
        translate``) in examples taken from a module docstring."""
        text = plain_text(super().format_help())
        module = _module_commands.get(self.prog)
        if module and module != self.prog:
            text = re.sub(rf"{re.escape(module)}(?![\w.])", self.prog, text)
        return text

    def error(self, message: str) -> NoReturn:
        """A bad argument is one line (the usage is what ``--help`` is for), exit status 2."""
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")

    def parse_known_args(self, args: Sequence[str] | None = None,
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        parsed, rest = super().parse_known_args(args, namespace)
        missing = [flag for dest, flag in self._required_renamed if getattr(parsed, dest, None) is None]
        if missing:
            self.error(f"the following arguments are required: {', '.join(missing)}")
        return parsed, rest


def out_folder_problem(output: str | os.PathLike, error: OSError) -> str:
    """A failed mkdir/open of an output folder as one line naming it and what to do."""
    path = Path(output)
    if isinstance(error, FileExistsError) or (path.exists() and not path.is_dir()):
        return f"--out {output} is a file, not a folder: choose a new folder (or an earlier run's)"
    if isinstance(error, NotADirectoryError):
        parent = next((a for a in path.parents if a.exists()), path)
        return f"--out {output} cannot be created: {parent} is a file, not a folder"
    if isinstance(error, PermissionError):
        return f"--out {output}: permission denied on {error.filename or output}: choose a folder you can write"
    return f"--out {output} cannot be written: {error.strerror or error}"


def make_out_folder(output: str | os.PathLike) -> list[Path]:
    """Create the output folder (and its missing parents); returns what was created, deepest first, for
    :func:`remove_created`. A path that cannot be a folder raises ``OSError`` (see :func:`out_folder_problem`)."""
    folder = Path(output)
    created = [a for a in (folder, *folder.parents) if not a.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    return created


def remove_created(created: Sequence[Path], *, tree: bool = False) -> None:
    """Undo :func:`make_out_folder` after a failure before any work: the folders it created, emptied first
    when ``tree`` (the innermost one's content is then the failed run's own), else only if empty."""
    for k, directory in enumerate(created):
        if tree and k == 0:
            shutil.rmtree(directory, ignore_errors=True)
            continue
        with contextlib.suppress(OSError):
            directory.rmdir()
