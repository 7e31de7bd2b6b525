"""Ingest on the launcher and in the readers: the counting pre-pass, read tasks (row ranges, row groups), row
numbers that do not depend on the container, and what planning refuses."""

from __future__ import annotations

import gzip
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs.schema import PipelineConfig
from paranmt.core.pair_schema import Reason
from pipeline.inputs.files import InputError, index_lines
from pipeline.inputs.plan import InputSpec, MisalignedInputError, plan_reads
from pipeline.stages.ingest import decode_record
from tests.support.input_helpers import CAP, KEEP, read_all, write_file


def test_pair_chunks_seek_and_cover_every_line_once(tmp_path):
    n = 2345
    cs = write_file(tmp_path / "c.cs", "".join(f"věta {i}\n" for i in range(1, n + 1)).encode())
    en = write_file(tmp_path / "c.en", "".join(f"sentence {i}\r\n" for i in range(1, n + 1)).encode())
    config = PipelineConfig(read_task_lines=500, index_every=100, min_read_tasks=4)
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
    plan = plan_reads([InputSpec.pair(cs, en)], PipelineConfig(read_task_lines=100, index_every=10))
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


@pytest.mark.parametrize("header", [False, True])
def test_tsv_rows_are_line_ranges_that_cover_every_row_once(tmp_path, header):
    n = 2345
    lines = [f"cs {i} {'x' * (i % 97)}\ten {i}".encode() for i in range(1, n + 1)]
    lines[17] = b""  # an empty line is a row too (a dead letter)
    data = (b"cs\ten\n" if header else b"") + b"\n".join(lines) + b"\n"
    path = write_file(tmp_path / "corpus.tsv", data)
    config = PipelineConfig(read_task_lines=500, index_every=100, min_read_tasks=4, tsv_header=header)
    plan = plan_reads([InputSpec.tsv(path)], config)
    assert len(plan.tasks) == 5 and plan.expected_rows == n and not plan.sequential
    records = read_all(plan)
    assert [r["id"] for r in records] == [f"corpus:L{i:012d}" for i in range(1, n + 1)]
    assert [r["row"] for r in records] == list(range(n))
    assert [r["line"] for r in records] == lines


def test_rows_are_numbered_across_inputs_and_files(tmp_path):
    pairs = [write_file(tmp_path / f"a.{s}", b"1\n2\n3\n") for s in ("cs", "en")]
    for k in range(3):
        write_file(tmp_path / f"part-{k}.tsv", "".join(f"c{k}{i}\te{k}{i}\n" for i in range(k + 1)).encode())
    plan = plan_reads([InputSpec.pair(*pairs), InputSpec.tsv(tmp_path / "part-*.tsv")],
                      PipelineConfig(read_task_lines=2, index_every=1))
    records = read_all(plan)
    assert [(r["id"], r["row"]) for r in records] == [
        ("a:L000000000001", 0), ("a:L000000000002", 1), ("a:L000000000003", 2), ("part-0:L000000000001", 3),
        ("part-1:L000000000001", 4), ("part-1:L000000000002", 5), ("part-2:L000000000001", 6),
        ("part-2:L000000000002", 7), ("part-2:L000000000003", 8)]
    assert plan.expected_rows == 9


def test_the_same_pairs_have_the_same_rows_in_every_container(tmp_path):
    cs = [f"Věta {i}." for i in range(1, 1201)]
    en = [f"Sentence {i}." for i in range(1, 1201)]
    containers: dict[str, list[InputSpec]] = {}
    (tmp_path / "pair").mkdir()
    containers["pair files"] = [InputSpec.pair(
        write_file(tmp_path / "pair" / "news.cs", "".join(f"{t}\n" for t in cs).encode()),
        write_file(tmp_path / "pair" / "news.en", "".join(f"{t}\n" for t in en).encode()))]
    tsv = "".join(f"{c}\t{e}\n" for c, e in zip(cs, en, strict=True)).encode()
    containers["tsv"] = [InputSpec.tsv(write_file(tmp_path / "news.tsv", tsv))]
    containers["tsv.gz"] = [InputSpec.tsv(write_file(tmp_path / "news.tsv.gz", gzip.compress(tsv)))]
    jsonl = "".join(json.dumps({"cs": c, "en": e}) + "\n" for c, e in zip(cs, en, strict=True)).encode()
    containers["jsonl"] = [InputSpec.jsonl(write_file(tmp_path / "news.jsonl", jsonl))]
    pq.write_table(pa.table({"cs": cs, "en": en}), tmp_path / "news.parquet", row_group_size=333)
    containers["parquet"] = [InputSpec.parquet(tmp_path / "news.parquet")]
    (tmp_path / "shards").mkdir()
    for k, (start, end) in enumerate([(0, 1), (1, 700), (700, 1200)]):
        write_file(tmp_path / "shards" / f"news-{k}.tsv", b"".join(tsv.splitlines(True)[start:end]))
    containers["3 tsv shards"] = [InputSpec.tsv(tmp_path / "shards" / "news-*.tsv")]
    config = PipelineConfig(read_task_lines=200, index_every=50, limit=1100)
    seen = {}
    for name, specs in containers.items():
        records = read_all(plan_reads(specs, config))
        seen[name] = [(r["row"], decode_record(r, specs[0], CAP, KEEP)[1]) for r in records]
    expected = [(i, c, e) for i, (c, e) in enumerate(zip(cs[:1100], en[:1100], strict=True))]
    for name, rows in seen.items():
        assert [(row, d["cs"], d["en"]) for row, d in rows] == expected, name
        if name != "3 tsv shards":  # ids name the file: the same file in another format keeps them
            assert [d["id"] for _, d in rows] == [f"news:L{i:012d}" for i in range(1, 1101)], name


def test_over_long_lines_are_never_held_whole(tmp_path):
    long = b"y" * 100_000
    path = write_file(tmp_path / "l.tsv", b"a\tb\n" + long + b"\tz\n" + b"c\td")
    plan = plan_reads([InputSpec.tsv(path)], PipelineConfig())
    records = read_all(plan)
    assert [r["line"] for r in records] == [b"a\tb", long[:KEEP], b"c\td"]
    tag, dead = decode_record(records[1], InputSpec.tsv(path), CAP, KEEP)
    assert tag == "deadletter" and dead["reason"] == Reason.LINE_TOO_LONG  # too long, not unparseable
    assert dead["raw_bytes"] == 100_002 and dead["raw_truncated"] and "max_line_bytes" in dead["error"]
    assert dead["error"].startswith("the line is 100002 bytes")  # not "line line is"


def test_tsv_header_and_columns(tmp_path):
    path = write_file(tmp_path / "h.tsv", b"en\tcs\tmt\tscore\nHello.\tAhoj.\tHi.\t-0.5\nBad\n")
    spec = InputSpec.tsv(path, cs=1, en=0, mt=2, translation_score=3)
    plan = plan_reads([spec], PipelineConfig(tsv_header=True))
    decoded = [decode_record(r, spec, CAP, KEEP) for r in read_all(plan)]
    assert decoded[0] == ("row", {"id": "h:L000000000001", "source": "h", "cs": "Ahoj.", "en": "Hello.",
                                  "mt": "Hi.", "translation_score": -0.5})
    assert decoded[1][0] == "deadletter" and "1 field" in decoded[1][1]["error"]


def test_parquet_input_by_row_group(tmp_path):
    table = pa.table({"cs": ["a", None, "c"], "en": ["x", "y", "z"], "mt": ["1", "2", "3"]})
    path = tmp_path / "p.parquet"
    pq.write_table(table, path, row_group_size=2)
    spec = InputSpec.parquet(path, mt="mt")
    plan = plan_reads([spec], PipelineConfig())
    assert len(plan.tasks) == 2 and plan.has_mt
    decoded = [decode_record(r, spec, CAP, KEEP) for r in read_all(plan)]
    assert [d[1]["id"] for d in decoded] == ["p:L000000000001", "p:L000000000002", "p:L000000000003"]
    assert decoded[1][0] == "deadletter" and "null" in decoded[1][1]["error"]
    assert decoded[1][1]["reason"] == Reason.UNPARSEABLE
    with pytest.raises(InputError, match="no column"):
        plan_reads([InputSpec.parquet(path, mt="nope")], PipelineConfig())


def test_an_over_long_parquet_value_is_line_too_long(tmp_path):
    """A 100,000-character value is dead-lettered as too long, not as ``unparseable``."""
    path = tmp_path / "long.parquet"
    pq.write_table(pa.table({"cs": ["a", "č" * 50_000], "en": ["x", "y"]}), path)
    spec = InputSpec.parquet(path)
    decoded = [decode_record(r, spec, CAP, KEEP) for r in read_all(plan_reads([spec], PipelineConfig()))]
    assert decoded[0][0] == "row"
    tag, dead = decoded[1]
    assert tag == "deadletter" and dead["reason"] == "line_too_long" and "max_line_bytes" in dead["error"]
    assert dead["raw_bytes"] == 100_000 and dead["raw_truncated"]


def test_inputs_are_recorded_by_name_size_and_content_not_by_path(tmp_path, monkeypatch):
    """The counting pass digests what it reads (no second read); a file typed relative or absolute, plain or
    gzip-compressed, gives the same record; a Parquet file is named by its footer's digest (read by the planner
    anyway), the same for a copy elsewhere and different for other rows."""
    import hashlib
    import shutil

    from pipeline.inputs.plan import recorded_inputs

    data = "".join(f"věta {i}\n" for i in range(1, 300)).encode()
    (tmp_path / "a").mkdir()
    cs = write_file(tmp_path / "a" / "p.cs", data)
    write_file(tmp_path / "a" / "p.en", data.replace("věta".encode(), b"sentence"))
    index = index_lines(str(cs), 10)
    assert index.digest == hashlib.sha256(data).hexdigest() and index.size == len(data)
    (tmp_path / "gz").mkdir()
    (tmp_path / "gz" / "p.cs.gz").write_bytes(gzip.compress(data))
    assert index_lines(str(tmp_path / "gz" / "p.cs.gz"), 10).digest == index.digest  # the content, decompressed

    config = PipelineConfig()
    monkeypatch.chdir(tmp_path)
    recorded = [recorded_inputs([spec], plan_reads([spec], config))
                for spec in (InputSpec.pair("a/p.cs", "a/p.en"), InputSpec.pair("./a/p.cs", "./a/p.en"),
                             InputSpec.pair(tmp_path / "a" / "p.cs", tmp_path / "a" / "p.en"))]
    assert recorded[0] == recorded[1] == recorded[2]
    assert recorded[0] == [{"kind": "pair", "files": [
        {"name": "p.cs", "bytes": len(data), "sha256": index.digest},
        {"name": "p.en", "bytes": (tmp_path / "a" / "p.en").stat().st_size,
         "sha256": index_lines(str(tmp_path / "a" / "p.en"), 10).digest}]}]

    pq.write_table(pa.table({"cs": ["a", "b"], "en": ["c", "d"]}), tmp_path / "a" / "t.parquet")
    (tmp_path / "b").mkdir()
    shutil.copy(tmp_path / "a" / "t.parquet", tmp_path / "b" / "t.parquet")
    pq.write_table(pa.table({"cs": ["a", "x"], "en": ["c", "d"]}), tmp_path / "c.parquet")

    def parquet(pattern: str) -> dict:
        spec = InputSpec.parquet(pattern)
        [record] = recorded_inputs([spec], plan_reads([spec], config))
        return record["files"][0]

    first = parquet("a/t.parquet")
    assert first == parquet(str(tmp_path / "b" / "*.parquet")) and first["name"] == "t.parquet"
    assert first["footer_sha256"] != parquet("c.parquet")["footer_sha256"]
