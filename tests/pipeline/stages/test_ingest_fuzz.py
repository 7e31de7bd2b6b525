"""Fuzzing the pipeline's inputs (hypothesis): real sentences in every input format — pair files, TSV, JSONL,
Parquet; plain and gzip — with random corruption (invalid UTF-8, control characters, empty and over-long lines,
duplicates, misalignment, wrong JSON types, truncation of plain and gzip files, integer Parquet columns).

Every run must end with exit status 0, or 2 and exactly one ``error:`` line (never a traceback: an exception
escaping ``main`` fails the test); a completed run must account for every record —
``read = pairs + rejected + deadletter``, recounted from the written files — where ``read`` equals the number of
records a plain reader finds in the input, computed here independently of the pipeline. The default suite runs a
seconds-long profile (derandomised, a handful of examples); ``-m slow`` runs 60.
"""

from __future__ import annotations

import bz2
import gzip
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.inputs.plan import InputSpec
from pipeline.run import main
from tests.support.sample_run import SUITE_KERNEL
from tests.support.taste_data import taste_data
from tests.support.text_files import read_lines

MAX_LINE_BYTES = 300
FORMATS = ("pairs", "tsv", "jsonl", "parquet")
CORRUPTIONS = ("none", "invalid_utf8", "control", "empty", "huge", "duplicate", "wrong_type")


@dataclass
class Case:
    """One generated input: files to write and the command-line flags that read them."""

    files: dict[str, bytes] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    records: int = 0  # what a plain reader finds
    must_fail: str | None = None  # the kind of one-line error expected instead of a run
    scored: bool = False  # scoring and selection on; pair files without --mt are translated by the default model


def count_lines(data: bytes) -> int:
    """Records of a line-based file: lines split on \\n, a last line without \\n included."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _field(text: str, corruption: str) -> bytes:
    if corruption == "invalid_utf8":
        return text.encode("utf-8")[:5] + b"\xff\xfe" + text.encode("utf-8")[5:]
    if corruption == "control":
        return (text[:3] + "\x07" + text[3:]).encode("utf-8")
    if corruption == "empty":
        return b""
    if corruption == "huge":
        return ("x" * (MAX_LINE_BYTES + 50)).encode("utf-8")
    return text.encode("utf-8")


@st.composite
def cases(draw) -> Case:
    cs_all = read_lines(taste_data("bitext/tatoeba.cs", 400))[:400]
    en_all = read_lines(taste_data("bitext/tatoeba.en", 400))[:400]
    fmt = draw(st.sampled_from(FORMATS))
    gz = fmt != "parquet" and draw(st.booleans())
    n = draw(st.integers(1, 25))
    picks = draw(st.lists(st.integers(0, 399), min_size=n, max_size=n))
    corruption = draw(st.lists(st.sampled_from(CORRUPTIONS), min_size=n, max_size=n))
    rows: list[tuple[bytes, bytes, bytes]] = []
    for i, (k, bad) in enumerate(zip(picks, corruption, strict=True)):
        if bad == "duplicate" and rows:
            rows.append(rows[-1])
            continue
        side = i % 3  # which field the corruption hits
        fields = [_field(t, bad if side == j else "none") for j, t in enumerate((cs_all[k], en_all[k], en_all[k - 1]))]
        rows.append((fields[0], fields[1], fields[2]))
    case = Case()
    suffix = ".gz" if gz else ""
    if fmt == "pairs":
        sides = [b"".join(r[j] + b"\n" for r in rows) for j in range(3)]
        misaligned = draw(st.booleans()) and n > 1
        if misaligned:
            sides[1] = b"".join(r[1] + b"\n" for r in rows[:-1])
        names = [f"in.cs{suffix}", f"in.en{suffix}", f"in.mt{suffix}"]
        translate = draw(st.integers(0, 3)) == 0  # sometimes the default model back-translates the Czech side
        if translate:
            names, sides = names[:2], sides[:2]
        case.files = dict(zip(names, sides, strict=True))
        case.flags = ["--cs", names[0], "--en", names[1], *(["--mt", names[2]] if not translate else [])]
        case.records = max(count_lines(s) for s in sides)
        if misaligned:
            if draw(st.booleans()):
                case.flags.append("--allow-misaligned")
            else:
                case.must_fail = "misaligned"
    elif fmt == "tsv":
        lines = [b"\t".join(r) for r in rows]
        if "wrong_type" in corruption:  # a line with too few columns
            lines[corruption.index("wrong_type")] = rows[0][0]
        data = b"".join(line + b"\n" for line in lines)
        if draw(st.booleans()):
            data = data[: draw(st.integers(1, max(1, len(data) - 1)))]  # cut short, maybe mid-character
        case.files = {f"in.tsv{suffix}": data}
        case.flags = ["--tsv", f"in.tsv{suffix}", "--mt-column", "2"]
        case.records = count_lines(data)
    elif fmt == "jsonl":
        lines = []
        for i, r in enumerate(rows):
            record = {k: v.decode("utf-8", "replace") for k, v in zip(("cs", "en", "mt"), r, strict=True)}
            if corruption[i] == "wrong_type":
                record["en"] = 42
            line = json.dumps(record, ensure_ascii=False).encode("utf-8")
            if corruption[i] == "invalid_utf8":
                line = line[:-2] + b"\xff" + line[-2:]
            lines.append(line)
        data = b"".join(line + b"\n" for line in lines)
        case.files = {f"in.jsonl{suffix}": data}
        case.flags = ["--jsonl", f"in.jsonl{suffix}", "--mt-column", "mt"]
        case.records = count_lines(data)
    else:
        columns = {k: [r[j].decode("utf-8", "replace") or None for r in rows] for j, k in enumerate(("cs", "en", "mt"))}
        int_column = "wrong_type" in corruption and draw(st.booleans())
        if int_column:
            columns["cs"] = list(range(len(rows)))
            case.must_fail = "int column"
        sink = pa.BufferOutputStream()
        pq.write_table(pa.table(columns), sink)
        case.files = {"in.parquet": sink.getvalue().to_pybytes()}
        case.flags = ["--parquet", "in.parquet", "--mt-column", "mt"]
        case.records = len(rows)
    if gz:
        name = next(iter(case.files))
        for key in list(case.files):
            case.files[key] = gzip.compress(case.files[key], mtime=0)
        if draw(st.integers(0, 5)) == 0:  # a truncated download
            case.files[name] = case.files[name][: len(case.files[name]) // 2]
            case.must_fail = case.must_fail or "truncated gzip"
    if case.records == 0:
        case.must_fail = case.must_fail or "empty input"
    case.scored = ("--mt" not in case.flags and fmt == "pairs") or draw(st.integers(0, 2)) == 0
    return case


def run_case(case: Case, capsys) -> None:
    with tempfile.TemporaryDirectory() as work:
        root = Path(work)
        for name, data in case.files.items():
            (root / name).write_bytes(data)
        flags = [str(root / f) if f in case.files else f for f in case.flags]
        out = root / "out"
        capsys.readouterr()
        # translate.cpu_kernel: one per process, the suite's default (the sample's own runs in a process of its own)
        mode = (["--config", "sample", "--set", "translate.beam_size=2", "--set", SUITE_KERNEL]
                if case.scored else ["--no-score"])
        code = main([*flags, *mode, "--out", str(out), "--quiet", "--runner", "FnApiRunner",
                     "--set", f"pipeline.max_line_bytes={MAX_LINE_BYTES}", "--set", "pipeline.num_shards=2"])
        err = capsys.readouterr().err.strip().splitlines()
        if case.must_fail:
            assert code == 2, (case.must_fail, err)
        assert code in (0, 2), err
        if code == 2:
            assert len(err) == 1 and err[0].startswith("error: "), err
            return
        summary = json.loads((out / "summary.json").read_text())
        counted = {name: sum(pq.read_metadata(p).num_rows for p in (out / name).glob("*.parquet"))
                   for name in ("pairs", "rejected", "deadletter")}
        assert summary["read"] == case.records, (summary["read"], case.records)
        assert summary["read"] == counted["pairs"] + counted["rejected"] + counted["deadletter"]
        assert summary["identity"]["holds"], summary["identity"]


FAST = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@FAST
@given(case=cases())
def test_fuzzed_inputs_end_in_a_run_or_one_line(case, capsys):
    run_case(case, capsys)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=cases())
def test_fuzzed_inputs_long_profile(case, capsys):
    run_case(case, capsys)


# ------------------------------------------------------------------ the same pairs, the same rows in any container

CONTAINER_FORMATS = ("pairs", "tsv", "jsonl", "parquet")
COMPRESSIONS = {"": lambda data: data, ".gz": lambda data: gzip.compress(data, mtime=0), ".bz2": bz2.compress}


@st.composite
def containers(draw, cs: list[str], en: list[str]) -> tuple[str, str, int, dict[str, bytes], bool]:
    """The same pairs in a drawn container: format, compression, shards (cut anywhere, empty shards included) and,
    for TSV, a header line. Returns the format, the compression suffix, the number of parts, the files to write and
    whether TSV headers are on."""
    fmt = draw(st.sampled_from(CONTAINER_FORMATS))
    suffix = "" if fmt == "parquet" else draw(st.sampled_from(sorted(COMPRESSIONS)))
    cuts = sorted(draw(st.lists(st.integers(0, len(cs)), max_size=3)))
    bounds = [0, *cuts, len(cs)]
    header = fmt == "tsv" and draw(st.booleans())
    files: dict[str, bytes] = {}
    for k in range(len(bounds) - 1):
        part_cs, part_en = cs[bounds[k]:bounds[k + 1]], en[bounds[k]:bounds[k + 1]]
        name = f"part-{k}"
        if fmt == "pairs":
            files[f"{name}.cs{suffix}"] = COMPRESSIONS[suffix]("".join(f"{c}\n" for c in part_cs).encode())
            files[f"{name}.en{suffix}"] = COMPRESSIONS[suffix]("".join(f"{e}\n" for e in part_en).encode())
        elif fmt == "parquet":
            sink = pa.BufferOutputStream()
            pq.write_table(pa.table({"cs": pa.array(part_cs, pa.string()), "en": pa.array(part_en, pa.string())}),
                           sink, row_group_size=draw(st.integers(1, 20)))
            files[f"{name}.parquet"] = sink.getvalue().to_pybytes()
        else:
            lines = [f"{c}\t{e}" if fmt == "tsv" else json.dumps({"cs": c, "en": e}) for c, e in
                     zip(part_cs, part_en, strict=True)]
            text = ("cs\ten\n" if header else "") + "".join(f"{line}\n" for line in lines)
            files[f"{name}.{fmt}{suffix}"] = COMPRESSIONS[suffix](text.encode())
    return fmt, suffix, len(bounds) - 1, files, header


def _container_specs(root: Path, fmt: str, suffix: str, parts: int) -> list[InputSpec]:
    if fmt == "pairs":  # pair files are one input each, in order
        return [InputSpec.pair(root / f"part-{k}.cs{suffix}", root / f"part-{k}.en{suffix}") for k in range(parts)
                if (root / f"part-{k}.cs{suffix}").stat().st_size]
    pattern = str(root / f"part-*.{fmt}{suffix}")
    return [{"tsv": InputSpec.tsv, "jsonl": InputSpec.jsonl, "parquet": InputSpec.parquet}[fmt](pattern)]
@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_same_pairs_get_the_same_rows_in_any_container(data):
    """Two containers of the same real pairs, under drawn split settings and --limit: the same row numbers with
    the same text, in order -- what translation chunks, dedup and the scorer fit are decided by."""
    from configs.schema import PipelineConfig
    from pipeline.inputs.files import InputError
    from pipeline.inputs.plan import plan_reads
    from pipeline.inputs.reading import read_task
    from pipeline.stages.ingest import decode_record

    cs_all = read_lines(taste_data("bitext/tatoeba.cs", 2000))[:2000]  # the same 2,000 real pairs on every clone
    en_all = read_lines(taste_data("bitext/tatoeba.en", 2000))[:2000]
    start = data.draw(st.integers(0, len(cs_all) - 60))
    n = data.draw(st.integers(1, 60))
    cs, en = cs_all[start:start + n], en_all[start:start + n]
    config = PipelineConfig(read_task_lines=data.draw(st.integers(1, 30)),
                            index_every=data.draw(st.integers(1, 10)), min_read_tasks=data.draw(st.integers(1, 8)),
                            limit=data.draw(st.none() | st.integers(1, 70)))
    seen = []
    for _ in range(2):
        fmt, suffix, parts, files, header = data.draw(containers(cs, en))
        with tempfile.TemporaryDirectory() as work:
            root = Path(work)
            for name, content in files.items():
                (root / name).write_bytes(content)
            specs = _container_specs(root, fmt, suffix, parts)
            try:
                plan = plan_reads(specs, config.model_copy(update={"tsv_header": header}))
            except InputError as error:  # only an input of nothing but empty files may be refused
                assert "empty" in str(error), error
                seen.append(None)
                continue
            rows = []
            for task in plan.tasks:
                for raw in read_task(task, 10_000, 64):
                    tag, record = decode_record(raw, specs[raw["input"]], 10_000, 64)
                    assert tag == "row", record
                    rows.append((raw["row"], record["cs"], record["en"]))
            assert plan.expected_rows == len(rows)
            seen.append(sorted(rows))
    expected = list(zip(range(n), cs, en, strict=True))[: config.limit]
    assert all(s is None or s == expected for s in seen), (seen, expected)
