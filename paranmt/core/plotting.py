"""matplotlib for the project's PNG plots: :func:`pyplot` is the one place that imports it."""

from __future__ import annotations

from types import ModuleType


def pyplot() -> ModuleType:
    """``matplotlib.pyplot`` drawing to files only (the Agg backend: no display on servers and CI). Imported on
    the first plot, not at import time: matplotlib takes about half a second to load and most runs draw nothing."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
