"""The launcher's plan for ingest: which read tasks cover the inputs, checked before any work.

:func:`plan_reads` turns :class:`InputSpec` s into a :class:`ReadPlan`: row ranges of pair files and TSV/JSONL files
(after the counting pre-pass), row groups of Parquet files (the files
:func:`~paranmt.core.parquet_inputs.read_parquet_input` takes, as for every command), each with the global row
number of its first row;
``--limit`` is cut here, exactly; misaligned pair files, empty
inputs, a TSV without the columns asked for and Parquet columns of the wrong type are :class:`InputError` s that
name the file and the fix (see :mod:`pipeline.stages.ingest` for the whole contract).
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import pyarrow as pa
import pyarrow.parquet as pq
from apache_beam.io.filesystems import FileSystems

from configs.schema import PipelineConfig
from paranmt.core import pair_schema as S
from paranmt.core.parquet_inputs import read_parquet_input
from paranmt.core.run_layout import PAIRS
from pipeline.inputs.files import (
    InputError,
    LineIndex,
    file_system_problem,
    index_lines,
    strip_compression,
)
from pipeline.inputs.reading import read_task_lines

Kind = Literal["pair", "tsv", "jsonl", "parquet"]


class MisalignedInputError(InputError):
    """Pair files have different line counts (and ``allow_misaligned`` is off)."""


@dataclass(frozen=True)
class InputSpec:
    """One input: pair files ``(cs, en[, mt])``, a TSV/JSONL glob pattern or a Parquet path (a file, a folder of
    shards or a pattern) with its columns.

    Columns are 0-based indices for TSV and names for JSONL/Parquet. ``mt_column`` (and optionally
    ``translation_score_column``) marks inputs that already carry a machine translation: back-translation is skipped.
    """

    kind: Kind
    paths: tuple[str, ...]
    cs_column: int | str | None = None
    en_column: int | str | None = None
    mt_column: int | str | None = None
    translation_score_column: int | str | None = None
    source: str | None = None  # a name for the ids instead of the file name (pair files only)

    def __post_init__(self) -> None:
        if self.kind == "pair":
            if len(self.paths) not in (2, 3):
                raise InputError(f"pair input needs a cs and an en file (and optionally an mt file), got {self.paths}")
            return
        if len(self.paths) != 1:
            raise InputError(f"{self.kind} input takes one path or pattern, got {self.paths}")
        if self.kind == "tsv":
            for name in ("cs_column", "en_column", "mt_column", "translation_score_column"):
                value = getattr(self, name)
                if value is not None and (not isinstance(value, int) or value < 0):
                    raise InputError(f"TSV {name} must be a 0-based column index, got {value!r}")
        else:
            for name in ("cs_column", "en_column", "mt_column", "translation_score_column"):
                value = getattr(self, name)
                if value is not None and not (isinstance(value, str) and value):
                    raise InputError(f"{self.kind} {name} must be a field name, got {value!r}")

    @classmethod
    def pair(cls, cs: str | os.PathLike, en: str | os.PathLike, mt: str | os.PathLike | None = None,
             source: str | None = None) -> InputSpec:
        paths = (str(cs), str(en)) + ((str(mt),) if mt is not None else ())
        return cls("pair", paths, source=source)

    @classmethod
    def tsv(cls, pattern: str | os.PathLike, cs: int = 0, en: int = 1, mt: int | None = None,
            translation_score: int | None = None) -> InputSpec:
        return cls("tsv", (str(pattern),), cs, en, mt, translation_score)

    @classmethod
    def jsonl(cls, pattern: str | os.PathLike, cs: str = "cs", en: str = "en", mt: str | None = None,
              translation_score: str | None = None) -> InputSpec:
        return cls("jsonl", (str(pattern),), cs, en, mt, translation_score)

    @classmethod
    def parquet(cls, pattern: str | os.PathLike, cs: str = "cs", en: str = "en", mt: str | None = None,
                translation_score: str | None = None) -> InputSpec:
        return cls("parquet", (str(pattern),), cs, en, mt, translation_score)

    @classmethod
    def from_flags(cls, kind: Kind, pattern: str, cs: str | None = None, en: str | None = None,
                   mt: str | None = None, translation_score: str | None = None) -> InputSpec:
        """A TSV/JSONL/Parquet input from the command line's column flags (strings): TSV columns are 0-based
        indices, the others field names; a cs or en column not given is the format's default."""
        index = kind == "tsv"

        def column(value: str | None, default: int | str | None) -> int | str | None:
            if value is None:
                return default
            if index:
                if not value.isdigit():
                    raise InputError(f"TSV columns are 0-based indices; got {value!r}")
                return int(value)
            return value

        return cls(kind, (pattern,), column(cs, 0 if index else "cs"), column(en, 1 if index else "en"),
                   column(mt, None), column(translation_score, None))

    @property
    def has_mt(self) -> bool:
        return len(self.paths) == 3 if self.kind == "pair" else self.mt_column is not None



@dataclass
class ReadPlan:
    tasks: list[dict[str, Any]]
    sources: list[dict[str, Any]]
    expected_rows: int  # rows the tasks read (already capped by --limit): the inputs' rows are counted up front
    sequential: bool  # some task reads a whole compressed file: reshuffle after reading
    has_mt: bool
    notes: list[str] = field(default_factory=list)
    #: Per input (in the order given), each file it reads: name, size and content digest (:func:`file_record`).
    files: list[list[dict[str, Any]]] = field(default_factory=list)

    def take(self, rows: int, limit: int | None) -> int:
        """How many of the next ``rows`` input rows the plan reads under ``limit``; counts them as planned."""
        taken = rows if limit is None else max(0, min(rows, limit - self.expected_rows))
        self.expected_rows += taken
        return taken


_FORMAT_SUFFIXES: dict[str, tuple[str, ...]] = {"pair": (".cs",), "tsv": (".tsv", ".txt"), "jsonl": (".jsonl", ".json"),
                                               "parquet": (".parquet", ".pq")}


def file_record(path: str, size: int, digest: str, *, footer: bool = False) -> dict[str, Any]:
    """One input file as the outputs' metadata and the run's definition name it: its file name, its size and a
    digest of its content (SHA-256 of the bytes the planner's counting pass read; of a Parquet file, of its
    footer -- schema, row groups with their sizes and statistics --, which the planner reads anyway, so a
    multi-GB Parquet input is not downloaded to the launcher for it). Not the path as typed: the same files give
    the same record whether typed relative, with ``./`` or absolute, on any machine."""
    return {"name": path.rstrip("/").rsplit("/", 1)[-1], "bytes": size,
            ("footer_sha256" if footer else "sha256"): digest}


def recorded_inputs(specs: Sequence[InputSpec], plan: ReadPlan) -> list[dict[str, Any]]:
    """What a run records of its inputs, in the Parquet metadata of every output and in its definition
    (``definition.json``): each input's kind and columns, and the files it read (:func:`file_record`)."""
    return [{**{k: v for k, v in asdict(spec).items() if k != "paths" and v is not None}, "files": files}
            for spec, files in zip(specs, plan.files, strict=True)]


def source_name(path: str, kind: Kind) -> str:
    """The file name without its compression and format suffixes: ``news.cs``, ``news.tsv.gz``, ``news.jsonl`` and
    ``news.parquet`` are all ``news``, so the same pairs get the same ids whatever container holds them."""
    name = strip_compression(path.rstrip("/").rsplit("/", 1)[-1])
    for suffix in _FORMAT_SUFFIXES[kind]:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name or "input"


def _count_desc(index: LineIndex) -> str:
    return f"{index.path} has {index.lines} lines"


def _line_tasks(rows: int, every: int, config: PipelineConfig) -> Iterator[tuple[int, int, int]]:
    """``(first row, rows, index step)`` of the read tasks over ``rows`` seekable rows: at most ``read_task_lines``
    rows, small enough for ``min_read_tasks`` tasks, starting on the index's recorded offsets."""
    target = min(config.read_task_lines, max(1, math.ceil(rows / config.min_read_tasks)))
    size = max(every, (target // every) * every)
    for first in range(1, rows + 1, size):
        yield first, min(size, rows - first + 1), (first - 1) // every


def _plan_pair(spec: InputSpec, input_index: int, config: PipelineConfig, plan: ReadPlan) -> None:
    name = spec.source or source_name(spec.paths[0], "pair")
    every = config.index_every
    indexes = [index_lines(p, every) for p in spec.paths]
    counts = [i.lines for i in indexes]
    if len(set(counts)) > 1 and not config.allow_misaligned:
        described = " but ".join(_count_desc(i) for i in indexes)
        raise MisalignedInputError(
            f"misaligned pair files: {described}; every line of one must translate the same line of the other. "
            "Fix the files, or set pipeline.allow_misaligned=true (--allow-misaligned) to dead-letter the "
            "unmatched tail (reason misaligned)."
        )
    total = max(counts)
    if not total:
        raise InputError(f"{' and '.join(spec.paths)} are empty (0 lines): no pair to read; check the paths, or "
                         "the export that wrote them")
    if len(set(counts)) > 1:
        plan.notes.append(f"misaligned pair files ({'; '.join(_count_desc(i) for i in indexes)}): "
                          f"lines {min(counts) + 1}-{total} are dead letters (misaligned)")
    base_row = plan.expected_rows
    rows = plan.take(total, config.limit)
    base = {"kind": "pair", "input": input_index, "source": name, "paths": list(spec.paths), "lines": counts,
            "base": base_row}
    if any(i.compressed for i in indexes):
        if rows:
            plan.tasks.append({**base, "first": 1, "count": rows, "offsets": [0] * len(indexes),
                               "compressed": [i.compressed for i in indexes]})
            plan.sequential = True
        plan.notes.append(f"{name}: compressed pair file(s) are read as one sequential task")
    else:
        for first, count, k in _line_tasks(rows, every, config):
            offsets = [i.offsets[k] if k < len(i.offsets) else None for i in indexes]
            plan.tasks.append({**base, "first": first, "count": count, "offsets": offsets,
                               "compressed": [False] * len(indexes)})
    plan.sources.append({"source": name, "kind": "pair", "paths": list(spec.paths), "lines": counts,
                         "rows": rows})
    plan.files.append([file_record(i.path, i.size, i.digest) for i in indexes])


def _match(pattern: str) -> list[tuple[str, int]]:
    problem = file_system_problem(pattern)
    if problem is not None:
        raise InputError(f"input pattern {pattern}: {problem}")
    try:
        results = FileSystems.match([pattern])[0].metadata_list
    except Exception as error:  # BeamIOError for a pattern that matches nothing
        raise InputError(f"input pattern {pattern} matches no file ({error})") from None
    files = sorted((m.path, m.size_in_bytes) for m in results)
    if not files:
        raise InputError(f"input pattern {pattern} matches no file")
    return files


_SAMPLE_LINES = 1000  # lines of each TSV/JSONL file read on the launcher to check its shape


_ROLES = (S.CS, S.EN, S.MT, S.TRANSLATION_SCORE)  # InputSpec's <role>_column fields, each a column of pairs/


def _columns_desc(spec: InputSpec) -> str:
    return ", ".join(f"{role}={getattr(spec, role + '_column')}" for role in _ROLES
                     if getattr(spec, role + "_column") is not None)


def _check_lines_file(spec: InputSpec, path: str, compressed: bool, rows: int, config: PipelineConfig) -> None:
    """A TSV file none of whose first lines has the columns asked for is the wrong file or the wrong columns: one
    error before any work, not a dead letter per line."""
    if spec.kind != "tsv":
        return
    header = int(config.tsv_header)
    task = {"kind": "lines", "fmt": spec.kind, "input": 0, "source": "", "path": path, "base": 0, "first": 1,
            "count": min(rows, _SAMPLE_LINES), "offset": 0, "skip": header, "compressed": compressed}
    # An over-long line is a dead letter anyway.
    sample = [r["line"] for r in read_task_lines(task, config.max_line_bytes, 0) if r["overlong"] is None]
    if sample:
        need = max(int(getattr(spec, role + "_column")) for role in _ROLES
                   if getattr(spec, role + "_column") is not None) + 1
        most = max(line.count(b"\t") + 1 for line in sample)
        if most < need:
            raise InputError(
                f"{path}: none of its first {len(sample)} lines has {need} tab-separated fields (the most is "
                f"{most}), but columns {_columns_desc(spec)} (0-based) are read: is it tab-separated? Name its "
                "columns with --cs-column/--en-column/--mt-column, or give line-aligned files with --cs/--en")


def _empty_error(spec: InputSpec, empty: Sequence[str]) -> InputError:
    what = f"{empty[0]} is empty" if len(empty) == 1 else \
        f"all {len(empty)} files matched by {spec.paths[0]} are empty ({', '.join(empty[:3])}, ...)"
    return InputError(f"{what}: no {spec.kind} row to read; check the path, or the export that wrote it")


def _plan_lines(spec: InputSpec, input_index: int, config: PipelineConfig, plan: ReadPlan) -> None:
    """TSV/JSONL files get the pair files' counting pre-pass (a compressed file is decompressed to its end, so a
    truncated one fails here): their rows are numbered like a pair file's lines."""
    every = config.index_every
    header = int(config.tsv_header and spec.kind == "tsv")
    files = _match(spec.paths[0])
    empty: list[str] = []
    plan.files.append([])
    for path, _ in files:
        name = source_name(path, spec.kind)
        index = index_lines(path, every)
        plan.files[-1].append(file_record(path, index.size, index.digest))
        total = max(0, index.lines - header)
        if not total:
            empty.append(path)
        _check_lines_file(spec, path, index.compressed, total, config)
        base = {"kind": "lines", "fmt": spec.kind, "input": input_index, "source": name, "path": path,
                "base": plan.expected_rows, "compressed": index.compressed}
        rows = plan.take(total, config.limit)
        if index.compressed:
            if rows:
                plan.tasks.append({**base, "first": 1, "count": rows, "offset": 0, "skip": header})
                plan.sequential = True
            plan.notes.append(f"{name}: compressed, read as one sequential task")
        else:
            # Tasks start on recorded line offsets; row r is line r + header (the first task skips the header).
            for first_line, lines, k in _line_tasks(rows + header if rows else 0, every, config):
                skip = header if first_line == 1 else 0
                if lines > skip:
                    plan.tasks.append({**base, "first": first_line - header + skip, "count": lines - skip,
                                       "offset": index.offsets[k], "skip": skip})
        plan.sources.append({"source": name, "kind": spec.kind, "paths": [path], "bytes": index.size,
                             "rows": rows})
    if len(empty) == len(files):
        raise _empty_error(spec, empty)
    plan.notes.extend(f"{path} is empty" for path in empty)


def _is_text_type(type_: pa.DataType) -> bool:
    if pa.types.is_dictionary(type_):
        return _is_text_type(type_.value_type)
    return (pa.types.is_string(type_) or pa.types.is_large_string(type_) or pa.types.is_string_view(type_)
            or pa.types.is_binary(type_) or pa.types.is_large_binary(type_) or pa.types.is_null(type_))


def _is_score_type(type_: pa.DataType) -> bool:
    return (pa.types.is_integer(type_) or pa.types.is_floating(type_) or pa.types.is_decimal(type_)
            or _is_text_type(type_))


def _check_parquet_types(spec: InputSpec, path: str, schema: pa.Schema) -> None:
    """Column types are a property of the whole file: a wrong one is one error naming the column, not a dead
    letter per row (JSONL, where each line has its own types, dead-letters instead)."""
    strings = [f.name for f in schema if _is_text_type(f.type)]
    for role in _ROLES:
        name = getattr(spec, role + "_column")
        if name is None:
            continue
        type_ = schema.field(name).type
        if role == S.TRANSLATION_SCORE:
            if not _is_score_type(type_):
                raise InputError(f"{path}: column {name!r} (translation score) is {type_}, not a number: name the "
                                 "score column with --translation-score-column, or leave it out")
        elif not _is_text_type(type_):
            raise InputError(f"{path}: column {name!r} ({role}) is {type_}, not a string: name the {role} text "
                             f"column with --{role}-column (its string columns: {', '.join(strings) or 'none'})")


def _footer_digest(footer: pq.FileMetaData) -> str:
    """SHA-256 of a Parquet file's footer as pyarrow writes it back (:func:`file_record`)."""
    written = pa.BufferOutputStream()
    footer.write_metadata_file(written)
    return hashlib.sha256(written.getvalue().to_pybytes()).hexdigest()


def _plan_parquet(spec: InputSpec, input_index: int, limit: int | None, plan: ReadPlan) -> None:
    """One read task per row group (the part of it under ``limit``). The files are the ones every command reads for the
    same path (:func:`~paranmt.core.parquet_inputs.read_parquet_input`: a file, a folder of shards, a pattern, a
    run folder's ``pairs/``); their row groups and digests come from the footers it read."""
    given = spec.paths[0]
    problem = file_system_problem(given)  # the workers read the planned files through Beam's file systems
    if problem is not None:
        raise InputError(f"--parquet {given}: {problem}")
    found = read_parquet_input(given, run_part=PAIRS, what="--parquet")
    columns = [getattr(spec, f"{role}_column") for role in _ROLES if getattr(spec, f"{role}_column") is not None]
    missing = [c for c in columns if c not in found.schema.names]
    if missing:
        raise InputError(f"--parquet {given} has no column(s) {missing}; it has {found.schema.names}")
    _check_parquet_types(spec, given, found.schema)
    empty: list[str] = []
    plan.files.append([])
    for file, footer, size in zip(found.files, found.footers, found.file_bytes, strict=True):
        path = found.name(file)  # what the workers open, with its URL scheme
        name = source_name(path, "parquet")
        plan.files[-1].append(file_record(path, size, _footer_digest(footer), footer=True))
        if not footer.num_rows:
            empty.append(path)
        base = plan.expected_rows
        first = 1
        for group in range(footer.num_row_groups):
            rows = plan.take(footer.row_group(group).num_rows, limit)
            if rows:
                plan.tasks.append({"kind": "parquet", "input": input_index, "source": name, "path": path,
                                   "base": base, "row_group": group, "first": first, "count": rows,
                                   "columns": columns})
            first += rows
        plan.sources.append({"source": name, "kind": "parquet", "paths": [path], "rows": first - 1})
    if len(empty) == len(found.files):
        raise _empty_error(spec, empty)
    plan.notes.extend(f"{path} is empty" for path in empty)


def plan_reads(specs: Sequence[InputSpec], config: PipelineConfig) -> ReadPlan:
    """Check the inputs and cut them into read tasks (small JSON-able dicts). Raises :class:`InputError` (and
    :class:`MisalignedInputError`) before any work is done."""
    if not specs:
        raise InputError("no input: give --cs/--en pair files, --tsv, --jsonl or --parquet")
    with_mt = {spec.has_mt for spec in specs}
    if len(with_mt) > 1:
        raise InputError("either every input carries a machine-translation column (--mt / --mt-column) or none")
    plan = ReadPlan(tasks=[], sources=[], expected_rows=0, sequential=False, has_mt=with_mt.pop())
    for i, spec in enumerate(specs):
        if spec.kind == "pair":
            _plan_pair(spec, i, config, plan)
        elif spec.kind == "parquet":
            _plan_parquet(spec, i, config.limit, plan)
        else:
            _plan_lines(spec, i, config, plan)
    names = [s["source"] for s in plan.sources]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise InputError(f"two inputs have the same source name {duplicated}: ids would collide; rename a file")
    return plan
