"""What every command line of the project shares: one spelling per concept and the name it is called by.

* ``--out`` names what a command writes (a file or a folder) and ``--input`` what it reads, in every tool. The
  spellings of earlier versions (``--output``, the trainer's ``--data``) still work but are not shown:
  :meth:`ArgumentParser.add_renamed`.
* A command's usage line names it as it was called: ``paranmt run`` through the ``paranmt`` command,
  ``python -m pipeline.run`` otherwise (:func:`command_name`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

__all__ = ["ArgumentParser", "command_name", "set_command_name"]

_called_as: str | None = None


def set_command_name(name: str | None) -> None:
    """The dispatcher (``paranmt SUBCOMMAND``) says how the command was called, for its usage line."""
    global _called_as
    _called_as = name


def command_name(module_command: str) -> str:
    """``paranmt <subcommand>`` when called through the dispatcher, else ``module_command``."""
    return _called_as or module_command


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

    def parse_known_args(self, args: Sequence[str] | None = None,
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        parsed, rest = super().parse_known_args(args, namespace)
        missing = [flag for dest, flag in self._required_renamed if getattr(parsed, dest, None) is None]
        if missing:
            self.error(f"the following arguments are required: {', '.join(missing)}")
        return parsed, rest
