"""How a command logs to the console: the project's own records from the level the command chose, every other
library's from WARNING, so a user sees what paranmt does and not the INFO chatter of the libraries it calls
(skeletoken's "Changing padding token", model2vec's PCA report, matplotlib's "generated new fontManager")."""

from __future__ import annotations

import logging

__all__ = ["PROJECT_PACKAGES", "log_to_console"]

#: The top-level packages of this repository: their loggers are the project's own.
PROJECT_PACKAGES = frozenset({"benchmarks", "cli", "configs", "core", "filters", "pipeline", "train_embeddings",
                              "translate"})


def _ours_or_a_warning(record: logging.LogRecord) -> bool:
    return record.levelno >= logging.WARNING or record.name.partition(".")[0] in PROJECT_PACKAGES


def log_to_console(level: int, fmt: str) -> None:
    """stderr gets the project's records from ``level`` up and every other logger's from WARNING up, formatted
    with ``fmt``. A filter on the console handler, not logger levels: the next command's ``basicConfig(force=True)``
    replaces it, so nothing carries over to another command run in the same process (a test session)."""
    logging.basicConfig(level=level, format=fmt, force=True)
    for handler in logging.getLogger().handlers:
        handler.addFilter(_ours_or_a_warning)
