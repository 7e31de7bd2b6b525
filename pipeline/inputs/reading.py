"""Reading the pipeline's inputs as raw records (bytes, not yet decoded): one read task -- a row range of pair
files or of a TSV/JSONL file, (part of) a Parquet row group -- to records with stable ids and global row numbers
(see :mod:`pipeline.stages.ingest`). Over-long lines are cut at ``max_line_bytes`` and marked, never decoded.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.inputs.files import READ_BLOCK, open_input


def _read_line(handle: BinaryIO, cap: int, keep: int) -> tuple[bytes, int, int] | None:
    """The next line: ``(content, bytes consumed, content length)``, or None at the end of the file.

    The line ending (``\\n``, ``\\r\\n``) is dropped. A line longer than ``cap`` bytes is never held whole: its
    first ``keep`` bytes come back and the rest is skipped; the length says how long it was.
    """
    line = handle.readline(cap + 2)
    if not line:
        return None
    consumed = len(line)
    if line.endswith(b"\n") or len(line) < cap + 2:
        content = line[:-1] if line.endswith(b"\n") else line
        if content.endswith(b"\r"):
            content = content[:-1]
        return (content if len(content) <= cap else content[:keep]), consumed, len(content)
    length = len(line)
    prefix = line[:keep]
    last = line[-1:]  # the ending's \r may close one piece and its \n open the next
    while True:
        more = handle.readline(READ_BLOCK)
        if not more:
            break
        consumed += len(more)
        length += len(more)
        if more.endswith(b"\n"):
            length -= 1
            last = more[-2:-1] if len(more) > 1 else last
            break
        last = more[-1:]
    return prefix, consumed, length - (last == b"\r")


def _raw(task: dict[str, Any], row: int, fmt: str) -> dict[str, Any]:
    """The common fields of the raw record of ``row`` (1-based, within its file): its id and global row number."""
    return {"id": make_id(task["source"], row), "source": task["source"], "row": task["base"] + row - 1,
            "fmt": fmt, "input": task["input"], "overlong": None}


def _read_pair(task: dict[str, Any], cap: int, keep: int) -> Iterator[dict[str, Any]]:
    sides = ("cs", "en", "mt")[: len(task["paths"])]
    handles: list[BinaryIO | None] = []
    try:
        for path, offset, compressed in zip(task["paths"], task["offsets"], task["compressed"], strict=True):
            if offset is None:
                handles.append(None)
                continue
            handle = open_input(path, compressed)
            if offset:
                handle.seek(offset)
            handles.append(handle)
        for line in range(task["first"], task["first"] + task["count"]):
            record = _raw(task, line, "pair")
            missing: list[str] = []
            for side, handle, lines in zip(sides, handles, task["lines"], strict=True):
                got = _read_line(handle, cap, keep) if handle is not None and line <= lines else None
                if got is None:
                    record[side] = None
                    path = task["paths"][sides.index(side)]
                    missing.append(f"{side} file {path} has no line {line} (it has {lines} lines)" if line > lines
                                   else f"{side} file {path} ended before line {line} although {lines} lines "
                                   "were counted (did it change during the run?)")
                    continue
                record[side] = got[0]
                if got[2] > cap and record["overlong"] is None:
                    record["overlong"] = (side, got[2])
            record["missing"] = "; ".join(missing) or None
            yield record
    finally:
        for handle in handles:
            if handle is not None:
                handle.close()


def read_task_lines(task: dict[str, Any], cap: int, keep: int) -> Iterator[dict[str, Any]]:
    """Rows ``first .. first + count - 1`` (1-based, header not counted) of a TSV/JSONL file: the reader seeks to
    ``offset`` (the start of the first row's line, or of the header when ``skip`` is 1) and reads line by line."""
    with open_input(task["path"], task["compressed"]) as opened:
        handle: BinaryIO | None = opened
        if task["offset"]:
            opened.seek(task["offset"])
        for _ in range(task["skip"]):
            _read_line(opened, cap, 0)
        for row in range(task["first"], task["first"] + task["count"]):
            got = _read_line(handle, cap, keep) if handle is not None else None
            record = _raw(task, row, task["fmt"])
            if got is None:  # the counting pre-pass saw this row: the file changed during the run (as pair files)
                handle = None
                record["line"] = None
                record["missing"] = (f"{task['path']} ended before row {row} although its rows were counted (did it "
                                     "change during the run?)")
            else:
                record["line"] = got[0]
                if got[2] > cap:
                    record["overlong"] = ("line", got[2])
            yield record


def _read_parquet(task: dict[str, Any]) -> Iterator[dict[str, Any]]:
    with open_input(task["path"], False) as handle:
        table = pq.ParquetFile(handle).read_row_group(task["row_group"], columns=task["columns"])
    columns: dict[str, list[Any]] = {}
    for name in task["columns"]:
        column = table.column(name)
        if pa.types.is_dictionary(column.type):  # e.g. a pandas categorical
            column = column.cast(column.type.value_type)
        if pa.types.is_string(column.type) or pa.types.is_string_view(column.type):
            column = column.cast(pa.binary())
        elif pa.types.is_large_string(column.type):
            column = column.cast(pa.large_binary())
        columns[name] = column.to_pylist()
    for i in range(task["count"]):
        record = _raw(task, task["first"] + i, "parquet")
        record["values"] = {name: values[i] for name, values in columns.items()}
        yield record


def read_task(task: dict[str, Any], max_line_bytes: int, keep_bytes: int) -> Iterator[dict[str, Any]]:
    """Raw records of one read task (bytes, not yet decoded)."""
    if task["kind"] == "pair":
        yield from _read_pair(task, max_line_bytes, keep_bytes)
    elif task["kind"] == "lines":
        yield from read_task_lines(task, max_line_bytes, keep_bytes)
    elif task["kind"] == "parquet":
        yield from _read_parquet(task)
    else:
        raise ValueError(f"unknown read task kind {task['kind']!r}")


def make_id(source: str, row: int) -> str:
    """``<source>:L<row>``, the row 1-based within its file (its line number in a pair file or a TSV/JSONL file
    without a header), zero-padded so ids sort in input order within a source."""
    return f"{source}:L{row:012d}"
