"""matplotlib behind one function: the file-only backend, and a figure that really writes a PNG."""

from __future__ import annotations

from paranmt.core.plotting import pyplot


def test_pyplot_draws_to_files_with_the_agg_backend(tmp_path):
    plt = pyplot()
    assert plt.__name__ == "matplotlib.pyplot"
    assert plt.get_backend().lower() == "agg"  # no display needed on servers and CI
    assert pyplot() is plt  # the one module, however often asked
    figure, axes = plt.subplots(figsize=(2, 1))
    axes.plot([0, 1], [1, 0])
    figure.savefig(tmp_path / "plot.png")
    plt.close(figure)
    assert (tmp_path / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
