"""The command lines: ``paranmt`` and one module per subcommand, above every layer of the library.

Each ``<subcommand>_command.py`` holds that tool's argument parser and ``main(argv)``; the library modules hold no
argparse code and import nothing from here. :mod:`cli.command_line` is what every command shares: the parser class
and the one mapping of a :class:`~core.errors.ParanmtError` (or an ``OSError`` on a path the user named) to a
one-line ``error:`` and exit status 2.
"""

# Before any command imports Apache Beam: the pipeline package's root-logger filter drops Beam's import-time
# "apitools not found" warning (run_command imports Beam itself, ahead of the pipeline modules).
import pipeline  # noqa: F401
