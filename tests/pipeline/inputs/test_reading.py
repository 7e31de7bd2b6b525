"""pipeline.inputs.reading: one read task to raw records -- ids and global row numbers, line endings dropped,
over-long lines cut and measured without being held whole, missing and vanished lines named, Parquet values as
bytes -- checked against the lines split by hand."""

from __future__ import annotations

import gzip

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.inputs.files import READ_BLOCK, CorruptInputError
from pipeline.inputs.reading import make_id, read_task
from tests.support.input_helpers import write_file
from tests.support.taste_data import TASTE_DATA
from tests.support.text_files import read_lines


def _lines_task(path, *, first: int = 1, count: int, offset: int = 0, skip: int = 0, base: int = 0,
                compressed: bool = False) -> dict:
    return {"kind": "lines", "fmt": "tsv", "input": 0, "source": "corpus", "path": str(path), "base": base,
            "first": first, "count": count, "offset": offset, "skip": skip, "compressed": compressed}


def _pair_task(paths, lines, *, first: int = 1, count: int, offsets=None) -> dict:
    return {"kind": "pair", "input": 0, "source": "p", "paths": [str(p) for p in paths], "lines": lines, "base": 0,
            "first": first, "count": count, "offsets": offsets or [0] * len(paths), "compressed": [False] * len(paths)}


def test_read_task_checks_the_stream_too(tmp_path):
    """A file cut after planning (or read by a worker on another machine) fails its read task; it is never
    read short."""
    tsv = "".join(f"Věta číslo {i} je tady.\tSentence number {i} is here.\n" for i in range(100)).encode()
    data = gzip.compress(tsv)
    path = write_file(tmp_path / "corpus.tsv.gz", data[: len(data) // 2])
    with pytest.raises(CorruptInputError, match="truncated or corrupt"):
        list(read_task(_lines_task(path, count=100, compressed=True), 1 << 20, 100))


def test_lines_are_read_as_split_by_hand_and_over_long_ones_are_cut(tmp_path):
    """Real TSV rows of the bundled Tatoeba excerpt, CRLF on some, with a cap that a quarter of them pass: each
    record is the line without its ending, or its first ``keep`` bytes marked with the line's full length."""
    cs, en = (read_lines(TASTE_DATA / "bitext" / f"tatoeba.{side}")[:400] for side in ("cs", "en"))
    lines = [f"{c}\t{e}".encode() for c, e in zip(cs, en, strict=True)]
    endings = [b"\r\n" if i % 3 == 0 else b"\n" for i in range(len(lines))]
    path = write_file(tmp_path / "corpus.tsv", b"".join(line + end for line, end in zip(lines, endings, strict=True)))
    cap = sorted(map(len, lines))[300]
    keep = 9
    records = list(read_task(_lines_task(path, count=len(lines), base=1000), cap, keep))
    assert [r["id"] for r in records] == [f"corpus:L{i:012d}" for i in range(1, 401)]
    assert [r["row"] for r in records] == list(range(1000, 1400))
    assert [r["line"] for r in records] == [line if len(line) <= cap else line[:keep] for line in lines]
    assert [r["overlong"] for r in records] == [("line", len(line)) if len(line) > cap else None for line in lines]
    assert 50 < sum(r["overlong"] is not None for r in records) < 100


def test_a_line_many_blocks_long_is_measured_not_held(tmp_path):
    """A 3 MiB line (a CRLF one) between two short ones: its prefix, its exact length, and the next line intact."""
    huge = b"y" * (3 * READ_BLOCK + 17)
    path = write_file(tmp_path / "l.tsv", b"a\tb\n" + huge + b"\r\nc\td")
    records = list(read_task(_lines_task(path, count=3), 1000, 64))
    assert [(r["line"], r["overlong"]) for r in records] == [
        (b"a\tb", None), (huge[:64], ("line", len(huge))), (b"c\td", None)]


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


def test_a_task_seeks_skips_its_header_and_numbers_rows_from_its_first(tmp_path):
    data = b"cs\ten\n" + b"".join(f"c{i}\te{i}\n".encode() for i in range(1, 11))
    path = write_file(tmp_path / "h.tsv", data)
    header = list(read_task(_lines_task(path, count=3, skip=1), 100, 10))
    assert [(r["id"], r["line"]) for r in header] == [(make_id("corpus", i), f"c{i}\te{i}".encode()) for i in (1, 2, 3)]
    offset = data.index(b"c7\t")
    seeked = list(read_task(_lines_task(path, first=7, count=4, offset=offset, base=20), 100, 10))
    assert [(r["id"], r["row"], r["line"]) for r in seeked] == [
        (make_id("corpus", i), 20 + i - 1, f"c{i}\te{i}".encode()) for i in (7, 8, 9, 10)]


def test_a_file_that_lost_rows_after_counting_names_them(tmp_path):
    path = write_file(tmp_path / "t.tsv", b"a\tb\nc\td\n")
    records = list(read_task(_lines_task(path, count=4), 100, 10))
    assert [r["line"] for r in records] == [b"a\tb", b"c\td", None, None]
    assert records[2]["missing"] == (f"{path} ended before row 3 although its rows were counted (did it change "
                                     "during the run?)")


def test_pair_files_read_side_by_side_and_a_short_side_is_named(tmp_path):
    cs = write_file(tmp_path / "p.cs", "Ahoj.\nDobrý den.\nNashle.\n".encode())
    en = write_file(tmp_path / "p.en", b"Hello.\r\nGood day.\n")
    records = list(read_task(_pair_task([cs, en], [3, 2], count=3), 100, 10))
    assert [(r["id"], r["cs"], r["en"], r["fmt"]) for r in records] == [
        ("p:L000000000001", b"Ahoj.", b"Hello.", "pair"),
        ("p:L000000000002", "Dobrý den.".encode(), b"Good day.", "pair"),
        ("p:L000000000003", b"Nashle.", None, "pair")]
    assert [r["missing"] for r in records] == [None, None, f"en file {en} has no line 3 (it has 2 lines)"]
    shrunk = list(read_task(_pair_task([cs, en], [3, 3], count=3), 100, 10))
    assert shrunk[2]["missing"] == (f"en file {en} ended before line 3 although 3 lines were counted (did it "
                                    "change during the run?)")


def test_a_pair_task_past_a_short_sides_end_does_not_open_it(tmp_path):
    """A task that starts after the last line of one side (its offset None): that side is missing on every row."""
    cs = write_file(tmp_path / "p.cs", b"a\nb\nc\nd\n")
    en = write_file(tmp_path / "p.en", b"w\nx\n")
    records = list(read_task(_pair_task([cs, en], [4, 2], first=3, count=2, offsets=[4, None]), 100, 10))
    assert [(r["cs"], r["en"]) for r in records] == [(b"c", None), (b"d", None)]
    assert records[1]["missing"] == f"en file {en} has no line 4 (it has 2 lines)"


def test_the_first_over_long_side_marks_a_pair(tmp_path):
    cs = write_file(tmp_path / "p.cs", b"short\n" + b"c" * 30 + b"\n")
    en = write_file(tmp_path / "p.en", b"e" * 40 + b"\n" + b"e" * 50 + b"\n")
    records = list(read_task(_pair_task([cs, en], [2, 2], count=2), 20, 3))
    assert [(r["cs"], r["en"], r["overlong"]) for r in records] == [
        (b"short", b"eee", ("en", 40)), (b"ccc", b"eee", ("cs", 30))]


def test_parquet_values_come_as_bytes_whatever_the_string_type(tmp_path):
    """A row group's rows from ``first``: plain, large and dictionary strings as bytes, nulls kept."""
    table = pa.table({"cs": pa.array(["a", "č", None, "d"], pa.large_string()),
                      "en": pa.array(["w", "x", "y", "z"]).dictionary_encode(),
                      "mt": pa.array(["1", "2", "3", "4"])})
    path = tmp_path / "p.parquet"
    pq.write_table(table, path, row_group_size=2)
    task = {"kind": "parquet", "input": 0, "source": "p", "path": str(path), "base": 10, "row_group": 1, "first": 3,
            "count": 2, "columns": ["cs", "en", "mt"]}
    records = list(read_task(task, 100, 10))
    assert [(r["id"], r["row"], r["values"]) for r in records] == [
        ("p:L000000000003", 12, {"cs": None, "en": b"y", "mt": b"3"}),
        ("p:L000000000004", 13, {"cs": b"d", "en": b"z", "mt": b"4"})]


def test_ids_sort_in_input_order_and_an_unknown_task_is_refused():
    ids = [make_id("news", row) for row in (1, 9, 10, 99, 100, 123_456_789)]
    assert ids == sorted(ids) and ids[0] == "news:L000000000001"
    with pytest.raises(ValueError, match="unknown read task kind 'csv'"):
        list(read_task({"kind": "csv"}, 100, 10))
