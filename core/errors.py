"""The one base class of paranmt's errors: the command line turns any of them into a one-line message and exit 2."""

from __future__ import annotations

__all__ = ["ParanmtError"]


class ParanmtError(Exception):
    """A problem the user can fix (a bad input, config value or model); its message says what and how."""
