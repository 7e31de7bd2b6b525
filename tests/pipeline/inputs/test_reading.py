"""pipeline.inputs.reading: one read task to raw records; an over-long line is measured without its ending."""

from __future__ import annotations

import pytest

from pipeline.inputs.files import READ_BLOCK
from pipeline.inputs.reading import read_task
from tests.support.input_helpers import write_file


def _lines_task(path, *, first: int = 1, count: int, offset: int = 0, skip: int = 0, base: int = 0,
                compressed: bool = False) -> dict:
    return {"kind": "lines", "fmt": "tsv", "input": 0, "source": "corpus", "path": str(path), "base": base,
            "first": first, "count": count, "offset": offset, "skip": skip, "compressed": compressed}


@pytest.mark.parametrize("length", [READ_BLOCK - 1, READ_BLOCK, READ_BLOCK + 1, 2 * READ_BLOCK - 40])
def test_an_over_long_crlf_lines_length_leaves_out_its_ending(tmp_path, length):
    """Wherever the read pieces split ``\\r\\n`` -- the capped first read ending on the ``\\r``, a later piece of
    :data:`READ_BLOCK` bytes ending on it -- the length is the line's, not one more."""
    line = bytes(range(65, 91)) * (length // 26) + b"z" * (length % 26)
    path = write_file(tmp_path / "l.tsv", line + b"\r\n" + b"next\r\n")
    for cap in (length - 1, length - 2, 100):
        records = list(read_task(_lines_task(path, count=2), cap, 5))
        assert [(r["line"], r["overlong"]) for r in records] == [(line[:5], ("line", length)), (b"next", None)], cap


def test_a_line_exactly_at_the_cap_is_whole(tmp_path):
    path = write_file(tmp_path / "l.tsv", b"x" * 50 + b"\n" + b"z" * 51 + b"\r\n")
    records = list(read_task(_lines_task(path, count=2), 50, 4))
    assert [(r["line"], r["overlong"]) for r in records] == [(b"x" * 50, None), (b"zzzz", ("line", 51))]
