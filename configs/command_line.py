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
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

__all__ = ["ArgumentParser", "command_name", "config_flags", "make_out_folder", "os_error_line", "out_file_problem",
           "out_folder_problem",
           "remove_created", "run_main", "set_command_name"]

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


def _flag_naming(path: str, argv: Sequence[str]) -> tuple[str, str] | None:
    """``(flag, value)`` of the argument that names ``path``, a folder above it or a path below it."""
    target = Path(os.path.abspath(path))
    for k, token in enumerate(argv):
        if not token.startswith("-"):
            continue
        flag, sep, value = token.partition("=")
        if not sep:
            if k + 1 >= len(argv):
                continue
            value = argv[k + 1]
        given = Path(os.path.abspath(value))
        if given == target or given in target.parents or target in given.parents:
            return flag, value
    return None


def os_error_line(error: OSError, argv: Sequence[str]) -> str:
    """A failed open/mkdir/rename on a path the user gave, as one line naming the flag, the path and the fix."""
    path = str(error.filename2 if error.filename2 is not None and isinstance(error, IsADirectoryError)
               else error.filename)
    named = _flag_naming(path, argv)
    flag, given = named if named else ("", path)
    who = f"{flag} {given}".strip()
    if isinstance(error, IsADirectoryError):
        return f"{who} is a folder: give a file path"
    if isinstance(error, NotADirectoryError | FileExistsError):
        blocker = next((a for a in (Path(path), *Path(path).parents) if a.is_file()), None)
        if blocker is not None:
            return f"{who} cannot be written: {blocker} is a file, not a folder"
        return f"{who} already exists: choose another path"
    if isinstance(error, PermissionError):
        return f"{who}: permission denied on {path}: choose a path you can write (or read)"
    if isinstance(error, FileNotFoundError):
        return f"{who} does not exist" if given == path else f"{who}: {path} does not exist"
    return f"{who}: {error.strerror or error}"


def run_main(main: Callable[[list[str]], int], argv: Sequence[str] | None = None) -> int:
    """Run a command's ``main(argv)``; a file-system error on a named path (a folder given as a file, a path
    below a file, no permission) is one ``error:`` line and exit status 2 instead of a traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return main(args)
    except OSError as error:
        if error.filename is None:  # not about a path (a socket, a device): a real failure, keep its traceback
            raise
        print(f"error: {os_error_line(error, args)}", file=sys.stderr)
        return 2


def out_file_problem(flag: str, path: str | os.PathLike) -> str | None:
    """Why the output file ``path`` could not be written, checked before any work (None when it can be): a
    folder there, a file where a parent folder must be, or a parent folder the user cannot write."""
    path = Path(path)
    if path.is_dir():
        return f"{flag} {path} is a folder: give a file path"
    parent = next((a for a in path.parents if a.exists()), Path("."))
    if not parent.is_dir():
        return f"{flag} {path} cannot be written: {parent} is a file, not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{flag} {path}: permission denied on {parent}: choose a path you can write"
    return None
