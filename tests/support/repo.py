"""The repository's root, and its benchmark scripts as the modules ``python -m`` runs."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

REPO_ROOT = Path(__file__).resolve().parents[2]


def load_benchmark(name: str) -> ModuleType:
    """The benchmark script ``benchmarks/<name>.py`` (``name`` is ``group/script``), imported as the module
    ``python -m benchmarks.group.script`` runs, so tests can call its ``main``."""
    return importlib.import_module("benchmarks." + name.replace("/", "."))
