"""Stage 1 on the launcher and in the readers: the counting pre-pass, read tasks (line ranges, byte ranges,
row groups) and what planning refuses."""

from __future__ import annotations

import gzip

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs.schema import PipelineConfig
from core.pair_schema import Reason
from pipeline.ingest import decode_record
from pipeline.input_files import InputError, index_lines
from pipeline.input_plan import InputSpec, MisalignedInputError, plan_reads
from pipeline.input_reading import read_task
from tests.pipeline.input_helpers import CAP, KEEP, read_all, write_file

pytestmark = pytest.mark.timeout(120)


def test_index_lines_counts_and_offsets(tmp_path):
    lines = [f"line {i}".encode() for i in range(1, 26)]
    path = write_file(tmp_path / "a.cs", b"\n".join(lines))  # no final newline: the last line still counts
    index = index_lines(str(path), every=10)
    assert index.lines == 25
    data = path.read_bytes()
    assert [data[o:].split(b"\n", 1)[0] for o in index.offsets] == [b"line 1", b"line 11", b"line 21"]
    assert index_lines(str(write_file(tmp_path / "b.cs", b"x\ny\n")), 1).offsets == (0, 2)
    assert index_lines(str(write_file(tmp_path / "e.cs", b"")), 10).lines == 0


def test_pair_chunks_seek_and_cover_every_line_once(tmp_path):
    n = 2345
    cs = write_file(tmp_path / "c.cs", "".join(f"věta {i}\n" for i in range(1, n + 1)).encode())
    en = write_file(tmp_path / "c.en", "".join(f"sentence {i}\r\n" for i in range(1, n + 1)).encode())
    config = PipelineConfig(chunk_lines=500, index_every=100, min_splits=4)
    plan = plan_reads([InputSpec.pair(cs, en)], config)
    assert len(plan.tasks) == 5 and plan.expected_rows == n and not plan.sequential
    records = read_all(plan)
    assert [r["id"] for r in records] == [f"c:L{i:012d}" for i in range(1, n + 1)]
    assert records[1233]["cs"] == "věta 1234".encode() and records[1233]["en"] == b"sentence 1234"


def test_misaligned_pair_files_error_names_both_files_and_counts(tmp_path):
    cs = write_file(tmp_path / "x.cs", b"a\nb\nc\n")
    en = write_file(tmp_path / "x.en", b"a\nb\n")
    with pytest.raises(MisalignedInputError) as error:
        plan_reads([InputSpec.pair(cs, en)], PipelineConfig())
    message = str(error.value)
    assert f"{cs} has 3 lines" in message and f"{en} has 2 lines" in message and "allow_misaligned" in message
    plan = plan_reads([InputSpec.pair(cs, en)], PipelineConfig(allow_misaligned=True))
    records = read_all(plan)
    assert len(records) == 3 and plan.expected_rows == 3
    tag, dead = decode_record(records[2], InputSpec.pair(cs, en), CAP, KEEP)
    assert tag == "deadletter" and dead["reason"] == Reason.MISALIGNED and "has no line 3" in dead["error"]
    assert dead["raw"] == b"c"


def test_gzip_pair_files_are_one_sequential_task(tmp_path):
    cs = tmp_path / "z.cs.gz"
    en = tmp_path / "z.en.gz"
    cs.write_bytes(gzip.compress(b"".join(f"a {i}\n".encode() for i in range(3000))))
    en.write_bytes(gzip.compress(b"".join(f"b {i}\n".encode() for i in range(3000))))
    plan = plan_reads([InputSpec.pair(cs, en)], PipelineConfig(chunk_lines=100, index_every=10))
    assert len(plan.tasks) == 1 and plan.sequential and plan.expected_rows == 3000
    records = read_all(plan)
    assert len(records) == 3000 and records[-1]["id"] == "z:L000000003000" and records[-1]["en"] == b"b 2999"
    with pytest.raises(MisalignedInputError):
        en.write_bytes(gzip.compress(b"b\n"))
        plan_reads([InputSpec.pair(cs, en)], PipelineConfig())


def test_limit_takes_the_first_rows_across_inputs(tmp_path):
    a = [write_file(tmp_path / f"a.{s}", b"1\n2\n3\n") for s in ("cs", "en")]
    b = [write_file(tmp_path / f"b.{s}", b"4\n5\n6\n") for s in ("cs", "en")]
    plan = plan_reads([InputSpec.pair(*a), InputSpec.pair(*b)], PipelineConfig(limit=4))
    assert [r["id"] for r in read_all(plan)] == ["a:L000000000001", "a:L000000000002", "a:L000000000003",
                                                   "b:L000000000001"]
    assert plan.expected_rows == 4


def test_missing_input_and_mixed_mt_are_errors(tmp_path):
    en = write_file(tmp_path / "m.en", b"x\n")
    with pytest.raises(InputError, match="does not exist"):
        plan_reads([InputSpec.pair(tmp_path / "nope.cs", en)], PipelineConfig())
    with pytest.raises(InputError, match="matches no file"):
        plan_reads([InputSpec.tsv(tmp_path / "*.tsv")], PipelineConfig())
    tsv = write_file(tmp_path / "t.tsv", b"a\tb\tc\n")
    with pytest.raises(InputError, match="machine-translation column"):
        plan_reads([InputSpec.pair(en, en), InputSpec.tsv(tsv, mt=2)], PipelineConfig())


@pytest.mark.parametrize("split", [1, 7, 100, 1000, 1 << 20])
def test_byte_ranges_own_the_lines_that_start_in_them(tmp_path, split):
    lines = [f"cs {i} {'x' * (i % 97)}\ten {i}".encode() for i in range(300)]
    lines[17] = b""  # an empty line is a line too
    data = b"\n".join(lines) + b"\n"
    path = write_file(tmp_path / "corpus.tsv", data)
    base = plan_reads([InputSpec.tsv(path)], PipelineConfig()).tasks[0]
    tasks = [dict(base, start=s, end=min(s + split, len(data))) for s in range(0, len(data), split)]
    records = [r for task in tasks for r in read_task(task, CAP, KEEP)]
    starts = [0] + [i + 1 for i, b in enumerate(data[:-1]) if b == 10]
    assert [r["id"] for r in records] == [f"corpus.tsv:B{s:012d}" for s in starts]
    assert [r["line"] for r in records] == lines


def test_large_tsv_is_split_into_byte_ranges(tmp_path):
    data = b"".join(f"cs {i}\ten {i}\n".encode() for i in range(30_000))
    path = write_file(tmp_path / "big.tsv", data)
    plan = plan_reads([InputSpec.tsv(path)], PipelineConfig(split_bytes=100_000))
    # At most split_bytes per task, and at least min_splits tasks but none under 64 KiB.
    assert len(plan.tasks) == -(-len(data) // (1 << 16)) == 8
    assert len(read_all(plan)) == 30_000


def test_over_long_lines_are_never_held_whole(tmp_path):
    long = b"y" * 100_000
    path = write_file(tmp_path / "l.tsv", b"a\tb\n" + long + b"\tz\n" + b"c\td")
    plan = plan_reads([InputSpec.tsv(path)], PipelineConfig())
    records = read_all(plan)
    assert [r["line"] for r in records] == [b"a\tb", long[:KEEP], b"c\td"]
    tag, dead = decode_record(records[1], InputSpec.tsv(path), CAP, KEEP)
    assert tag == "deadletter" and dead["reason"] == Reason.UNPARSEABLE
    assert dead["raw_bytes"] == 100_002 and dead["raw_truncated"] and "max_line_bytes" in dead["error"]


def test_tsv_header_and_columns(tmp_path):
    path = write_file(tmp_path / "h.tsv", b"en\tcs\tmt\tscore\nHello.\tAhoj.\tHi.\t-0.5\nBad\n")
    spec = InputSpec.tsv(path, cs=1, en=0, mt=2, mt_score=3)
    plan = plan_reads([spec], PipelineConfig(tsv_header=True))
    decoded = [decode_record(r, spec, CAP, KEEP) for r in read_all(plan)]
    assert decoded[0] == ("row", {"id": "h.tsv:B000000000015", "source": "h.tsv", "cs": "Ahoj.", "en": "Hello.",
                                  "mt": "Hi.", "mt_score": -0.5})
    assert decoded[1][0] == "deadletter" and "1 field" in decoded[1][1]["error"]


def test_parquet_input_by_row_group(tmp_path):
    table = pa.table({"cs": ["a", None, "c"], "en": ["x", "y", "z"], "mt": ["1", "2", "3"]})
    path = tmp_path / "p.parquet"
    pq.write_table(table, path, row_group_size=2)
    spec = InputSpec.parquet(path, mt="mt")
    plan = plan_reads([spec], PipelineConfig())
    assert len(plan.tasks) == 2 and plan.has_mt
    decoded = [decode_record(r, spec, CAP, KEEP) for r in read_all(plan)]
    assert [d[1]["id"] for d in decoded] == ["p.parquet:R000000000000", "p.parquet:R000000000001",
                                             "p.parquet:R000000000002"]
    assert decoded[1][0] == "deadletter" and "null" in decoded[1][1]["error"]
    with pytest.raises(InputError, match="no column"):
        plan_reads([InputSpec.parquet(path, mt="nope")], PipelineConfig())
