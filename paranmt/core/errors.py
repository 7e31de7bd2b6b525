"""The one base of every error the project raises for bad input or a failed run.

A command line (:mod:`paranmt.cli`) turns any :class:`ParanmtError` into one ``error:`` line and its
:attr:`~ParanmtError.exit_status` in one place (``paranmt.core.command_line.run_main``), instead of each command listing
its own tuple of error classes. The subclasses keep their other base (``ValueError``, ``RuntimeError``), so
``except ValueError`` around a library call still catches them.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["ParanmtError"]


class ParanmtError(Exception):
    """A problem the user can fix (a bad argument, input file, config or model directory): exit status 2."""

    exit_status: ClassVar[int] = 2
