"""The command lines: ``paranmt`` and one module per subcommand, above every layer of the library.

Each ``<subcommand>_command.py`` holds that tool's argument parser and ``main(argv)``; the library modules import
nothing from here. Two commands live in their packages instead, because they also run as ``python -m`` (the form
the design names) and the library may not import upward: ``paranmt run`` is :mod:`pipeline.run` and ``paranmt
train`` is :mod:`train_embeddings.train_command`. :mod:`paranmt.core.command_line` is what every command shares: the
parser class, the ``@command`` each ``main`` goes through (parsing, the console log) and the one mapping of a
:class:`~core.errors.ParanmtError` (or an ``OSError`` on a path the user named) to a one-line ``error:`` and exit
status 2.
"""
