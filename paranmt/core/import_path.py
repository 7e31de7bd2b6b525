"""Classes named by import path (``mypackage.module:ClassName``): a user's rule, score or translation backend.

The one lookup behind every plug-in the config can name, so each says the same things when a name is wrong.
"""

from __future__ import annotations

import importlib

from paranmt.core.errors import ParanmtError

__all__ = ["OWN_PACKAGES", "load_class"]

#: paranmt's top-level packages: a user's module of the same name is hidden by them.
OWN_PACKAGES = frozenset({"benchmarks", "configs", "filters", "paranmt", "pipeline", "translate", "train_embeddings"})


def load_class(path: str, where: str, error: type[ParanmtError], example: str) -> type:
    """The class at ``path`` (``module:Class``), or ``error`` with one line that starts with ``where`` (the config
    key) and says what to fix; ``example`` is an import path of the right kind for the message."""
    module_name, colon, attr = path.partition(":")
    if not colon or not module_name or not attr:
        raise error(f"{where}: {path!r} is not an import path like {example}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise error(f"{where}: cannot import {module_name} for {path!r} ({exc}); is its package installed or on "
                    "PYTHONPATH?") from None
    found = getattr(module, attr, None)
    if isinstance(found, type):
        return found
    top = module_name.partition(".")[0]
    if top in OWN_PACKAGES:  # paranmt's package hides a user's module of that name
        raise error(f"{where}: {module_name} is paranmt's own module and has no class {attr}; if {attr} is in a "
                    f"module of yours named {top}, rename it (e.g. my_{top}.py) and write my_{top}:{attr}")
    raise error(f"{where}: {module_name} has no class {attr}")
