"""Stage 1, ingest: plan read tasks over the inputs, read raw bytes, decode them into rows or dead letters.

Inputs (:class:`InputSpec`), on local disk or anything Beam's ``FileSystems`` reads (``gs://``, ``s3://``, ...):

* **pair files** -- line-aligned ``corpus.cs`` + ``corpus.en`` (+ optionally a third line-aligned file of machine
  translations), plain or compressed. Lines are split on ``\\n`` only (a trailing ``\\r`` is dropped), so
  ``\\x0b``, ``\\x85`` or U+2028 inside a sentence never shift the alignment.
* **TSV** -- one pair per line with configurable 0-based column indices (CzEng's export); a glob pattern.
* **JSONL** -- one JSON object per line with named fields; a glob pattern.
* **Parquet** -- named string columns; a glob pattern.

Splitting (all decided before the pipeline starts, by :func:`plan_reads`):

* Pair files get a **counting pre-pass** (:func:`index_lines`): each file is read once, its lines are counted and
  the byte offset of every ``index_every``-th line is recorded. Different line counts are an error naming both
  files and their counts (:class:`MisalignedInputError`) before any work is done, unless ``allow_misaligned`` is
  set: then the unmatched tail becomes dead letters with reason ``misaligned``. Read tasks are line ranges that
  start on recorded offsets, so each task seeks straight to its first line. A **compressed** pair file (``.gz``,
  ...) cannot seek: the pre-pass still counts its lines, but it is read as one sequential task, and the rows are
  reshuffled after reading so the later stages still spread over workers. For very large compressed pair files,
  decompress them first (or convert to TSV) to parallelise the reading itself.
* TSV and JSONL files are cut into **byte ranges**, Hadoop style: a range owns the lines that *start* inside it
  (a task that does not start at 0 skips the partial line it lands in). Compressed files are one task.
* Parquet files are read one row group per task.

Checks on the launcher, before any work (each an :class:`InputError` naming the file and the fix): a compressed
file is decompressed to its end (pair files in the counting pre-pass, TSV/JSONL files in a pass of their own), so
a truncated or corrupt one (:class:`CorruptInputError`) is never read short; read tasks check the stream again.
Inputs without a row, a TSV none of whose first lines has the columns asked for, a file given to ``--parquet``
that is not Parquet and a Parquet text column that is not a string are errors too.

Ids are stable across runs and independent of the splitting: ``<source>:L<line>`` (pair files, 1-based line
number), ``<source>:B<byte offset>`` (TSV/JSONL, offset of the line's first byte), ``<source>:R<row>`` (Parquet,
0-based row), numbers zero-padded to 12 digits so ids sort in input order within a source. ``<source>`` is the
file name without its compression suffix (and without ``.cs`` for pair files).

Decoding (:func:`decode_record`) never raises for bad data: invalid UTF-8, lines over ``max_line_bytes`` (never
decoded, kept truncated), unparseable TSV/JSON lines, null fields and misaligned tails become dead letters with a
:class:`~core.pair_schema.Reason` and an error message.
"""

from __future__ import annotations

import bz2
import io
import json
import lzma
import math
import os
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, BinaryIO, Literal

import apache_beam as beam
import numpy as np
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from configs.schema import PipelineConfig
from core.pair_schema import Reason
from pipeline import progress
from pipeline.records import DeadLetterRecord, DecodedRow
from pipeline.summary import METRICS_NAMESPACE, READ_COUNTER, deadletter_counter

__all__ = [
    "STAGE_INGEST",
    "CorruptInputError",
    "DecodeRecords",
    "Ingest",
    "InputError",
    "InputSpec",
    "LineIndex",
    "MisalignedInputError",
    "ReadPlan",
    "decode_record",
    "index_lines",
    "make_id",
    "plan_reads",
    "read_task",
]

STAGE_INGEST = "ingest"
DEADLETTER_TAG = "deadletter"
_BLOCK = 1 << 20

Kind = Literal["pair", "tsv", "jsonl", "parquet"]


class InputError(ValueError):
    """An input is missing, unreadable or inconsistent; the message names the file(s)."""


class MisalignedInputError(InputError):
    """Pair files have different line counts (and ``allow_misaligned`` is off)."""


@dataclass(frozen=True)
class InputSpec:
    """One input: pair files ``(cs, en[, mt])`` or a TSV/JSONL/Parquet glob pattern with its columns.

    Columns are 0-based indices for TSV and names for JSONL/Parquet. ``mt_column`` (and optionally
    ``mt_score_column``) marks inputs that already carry a machine translation: back-translation is skipped.
    """

    kind: Kind
    paths: tuple[str, ...]
    cs_column: int | str | None = None
    en_column: int | str | None = None
    mt_column: int | str | None = None
    mt_score_column: int | str | None = None
    source: str | None = None  # a name for the ids instead of the file name (pair files only)

    def __post_init__(self) -> None:
        if self.kind == "pair":
            if len(self.paths) not in (2, 3):
                raise InputError(f"pair input needs a cs and an en file (and optionally an mt file), got {self.paths}")
            return
        if len(self.paths) != 1:
            raise InputError(f"{self.kind} input takes one path or pattern, got {self.paths}")
        if self.kind == "tsv":
            for name in ("cs_column", "en_column", "mt_column", "mt_score_column"):
                value = getattr(self, name)
                if value is not None and (not isinstance(value, int) or value < 0):
                    raise InputError(f"TSV {name} must be a 0-based column index, got {value!r}")
        else:
            for name in ("cs_column", "en_column", "mt_column", "mt_score_column"):
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
            mt_score: int | None = None) -> InputSpec:
        return cls("tsv", (str(pattern),), cs, en, mt, mt_score)

    @classmethod
    def jsonl(cls, pattern: str | os.PathLike, cs: str = "cs", en: str = "en", mt: str | None = None,
              mt_score: str | None = None) -> InputSpec:
        return cls("jsonl", (str(pattern),), cs, en, mt, mt_score)

    @classmethod
    def parquet(cls, pattern: str | os.PathLike, cs: str = "cs", en: str = "en", mt: str | None = None,
                mt_score: str | None = None) -> InputSpec:
        return cls("parquet", (str(pattern),), cs, en, mt, mt_score)

    @property
    def has_mt(self) -> bool:
        return len(self.paths) == 3 if self.kind == "pair" else self.mt_column is not None

    def to_dict(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class LineIndex:
    """The counting pre-pass over one file: its line count and the byte offset of every ``every``-th line."""

    path: str
    lines: int
    every: int
    offsets: tuple[int, ...]  # offsets[k] = byte offset of line k * every + 1 (1-based lines); empty if compressed
    compressed: bool
    size: int  # bytes read (decompressed size for compressed files)


@dataclass
class ReadPlan:
    tasks: list[dict[str, Any]]
    sources: list[dict[str, Any]]
    expected_rows: int | None  # known in advance when every input is pair files
    sequential: bool  # some task reads a whole compressed file: reshuffle after reading
    has_mt: bool
    notes: list[str] = field(default_factory=list)


def make_id(source: str, kind: str, position: int) -> str:
    return f"{source}:{kind}{position:012d}"


def _compression(path: str) -> str:
    return CompressionTypes.detect_compression_type(path)


def _is_compressed(path: str) -> bool:
    return _compression(path) != CompressionTypes.UNCOMPRESSED


class CorruptInputError(InputError):
    """A compressed input is truncated or corrupt (or not compressed at all): reading it would lose rows."""


# Tools that test a compressed file in place, for the fix in the error message.
_CHECK_TOOLS = {CompressionTypes.GZIP: "gzip -t", CompressionTypes.BZIP2: "bzip2 -t", CompressionTypes.LZMA: "xz -t",
                CompressionTypes.ZSTD: "zstd -t"}
_MAGIC = {CompressionTypes.GZIP: b"\x1f\x8b", CompressionTypes.BZIP2: b"BZh"}
_RAW_BLOCK = 1 << 16


def _decompressor(kind: str) -> Any:
    """A fresh streaming decompressor for one member / frame / stream of ``kind``."""
    if kind == CompressionTypes.GZIP:
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if kind == CompressionTypes.DEFLATE:
        return zlib.decompressobj()  # zlib-wrapped, as Beam writes and reads .deflate
    if kind == CompressionTypes.BZIP2:
        return bz2.BZ2Decompressor()
    if kind == CompressionTypes.LZMA:
        return lzma.LZMADecompressor()
    if kind == CompressionTypes.ZSTD:
        import zstandard

        return zstandard.ZstdDecompressor(max_window_size=1 << 31).decompressobj()
    raise InputError(f"unsupported compression {kind!r}")


def _data_errors(kind: str) -> tuple[type[BaseException], ...]:
    """What a decompressor raises for bad data."""
    errors: tuple[type[BaseException], ...] = (zlib.error, OSError, EOFError, lzma.LZMAError, ValueError)
    if kind == CompressionTypes.ZSTD:
        import zstandard

        errors += (zstandard.ZstdError,)
    return errors


class _Decompressed(io.RawIOBase):
    """A compressed file as a raw stream of its decompressed bytes, so ``io.BufferedReader`` adds ``readline``.

    Beam's ``CompressedFile`` treats the end of the compressed bytes as the end of the data even when the stream
    stops mid-way, so a truncated file reads as a shorter one and rows vanish without a word. Here the end of the
    file must be the end of a complete stream (concatenated members are fine, as are zero bytes padding a gzip
    file): anything else, or a decoder error (bad header, CRC mismatch), raises :class:`CorruptInputError` naming
    the file.
    """

    def __init__(self, path: str, kind: str):
        self._path, self._kind = path, kind
        self._raw = FileSystems.open(path, mime_type="application/octet-stream",
                                     compression_type=CompressionTypes.UNCOMPRESSED)
        self._decoder: Any = None  # None between streams
        self._streams = 0
        self._unused = b""  # compressed bytes after the end of the last stream, not yet decoded
        self._pending = bytearray()  # decompressed bytes not yet handed out
        self._consumed = 0  # compressed bytes read so far
        self._done = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending and not self._done:
            self._fill()
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        del self._pending[:n]
        return n

    def _problem(self, what: str) -> CorruptInputError:
        tool = _CHECK_TOOLS.get(self._kind)
        check = f"`{tool} {self._path}` checks it" if tool else "decompress it by hand to check it"
        return CorruptInputError(f"{self._path} is truncated or corrupt ({what}): re-download or re-export it "
                                 f"({check})")

    def _fill(self) -> None:
        if self._unused:
            data, self._unused = self._unused, b""
        else:
            data = self._raw.read(_RAW_BLOCK)
            self._consumed += len(data)
        if not data:
            if self._decoder is not None:
                raise self._problem(f"its {self._kind} stream ends at byte {self._consumed} before its end marker; "
                                    "the file was cut short")
            self._done = True
            return
        if self._decoder is None:
            if self._streams and self._kind == CompressionTypes.GZIP:
                data = data.lstrip(b"\0")  # zero padding after a member (gzip(1) accepts it too)
                if not data:
                    return
            magic = _MAGIC.get(self._kind)
            if not self._streams and magic and not data.startswith(magic[: len(data)]):
                raise CorruptInputError(
                    f"{self._path} is not {self._kind}-compressed (it does not start with the {self._kind} magic "
                    f"bytes {magic.hex(' ')}): if it is plain text, rename it without its "
                    f"{os.path.splitext(self._path)[1]} suffix; otherwise re-download it")
            self._decoder = _decompressor(self._kind)
            self._streams += 1
        try:
            self._pending += self._decoder.decompress(data)
        except _data_errors(self._kind) as error:
            checksum = " (checksum mismatch)" if "incorrect data check" in str(error) else ""
            raise self._problem(f"{self._kind} data error within its first {self._consumed} bytes: {error}"
                                f"{checksum}") from None
        if self._decoder.eof:
            self._unused = self._decoder.unused_data
            self._decoder = None

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


def _open(path: str, compressed: bool | None = None) -> BinaryIO:
    if compressed is None:
        compressed = _is_compressed(path)
    if not compressed:
        return FileSystems.open(path, mime_type="application/octet-stream",
                                compression_type=CompressionTypes.UNCOMPRESSED)
    return io.BufferedReader(_Decompressed(path, _compression(path)), buffer_size=_BLOCK)


def _strip_compression(name: str) -> str:
    for suffix in (".gz", ".gzip", ".bz2", ".zst", ".zstd", ".xz", ".lzma", ".deflate", ".snappy"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def source_name(path: str, kind: Kind) -> str:
    name = _strip_compression(path.rstrip("/").rsplit("/", 1)[-1])
    if kind == "pair" and name.endswith(".cs"):
        name = name[:-3]
    return name or "input"


def _exists(path: str) -> bool:
    try:
        return FileSystems.exists(path)
    except Exception:  # a file system that cannot be reached is reported by the open that follows
        return False


def index_lines(path: str, every: int) -> LineIndex:
    """Count the lines of ``path`` (lines split on ``\\n``; a last line without one counts) and record the byte
    offset of lines ``1, every + 1, 2 * every + 1, ...``. Compressed files are counted but get no offsets."""
    if not _exists(path):
        raise InputError(f"input file {path} does not exist")
    compressed = _is_compressed(path)
    offsets: list[int] = [0]
    newlines = 0
    size = 0
    last = b""
    with _open(path, compressed) as handle:
        while True:
            block = handle.read(_BLOCK)
            if not block:
                break
            positions = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == 10)
            if not compressed and len(positions):
                # The line after newline number n (1-based, counted over the file) is line n + 1.
                numbers = newlines + 1 + np.arange(len(positions))
                starts = positions[numbers % every == 0] + 1 + size
                offsets.extend(int(s) for s in starts)
            newlines += len(positions)
            size += len(block)
            last = block[-1:]
    lines = newlines + (1 if size and last != b"\n" else 0)
    # Drop an offset that points at the end of the file (no line starts there).
    kept = tuple(o for i, o in enumerate(offsets) if i * every < lines) if not compressed else ()
    return LineIndex(path, lines, every, kept, compressed, size)


def _count_desc(index: LineIndex) -> str:
    return f"{index.path} has {index.lines} lines"


def _plan_pair(spec: InputSpec, input_index: int, config: PipelineConfig, remaining: int | None,
               plan: ReadPlan) -> int:
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
    rows = total if remaining is None else min(total, remaining)
    base = {"kind": "pair", "input": input_index, "source": name, "paths": list(spec.paths), "lines": counts}
    if any(i.compressed for i in indexes):
        if rows:
            plan.tasks.append({**base, "first": 1, "count": rows, "offsets": [0] * len(indexes),
                               "compressed": [i.compressed for i in indexes]})
            plan.sequential = True
        plan.notes.append(f"{name}: compressed pair file(s) are read as one sequential task")
    else:
        # Chunk size: at most chunk_lines, small enough for min_splits tasks, a multiple of the index step.
        target = min(config.chunk_lines, max(1, math.ceil(rows / config.min_splits)))
        chunk = max(every, (target // every) * every)
        for first in range(1, rows + 1, chunk):
            k = (first - 1) // every
            offsets = [i.offsets[k] if k < len(i.offsets) else None for i in indexes]
            plan.tasks.append({**base, "first": first, "count": min(chunk, rows - first + 1), "offsets": offsets,
                               "compressed": [False] * len(indexes)})
    plan.sources.append({"source": name, "kind": "pair", "paths": list(spec.paths), "lines": counts,
                         "rows": rows})
    return rows


def _match(pattern: str) -> list[tuple[str, int]]:
    try:
        results = FileSystems.match([pattern])[0].metadata_list
    except Exception as error:  # BeamIOError for a pattern that matches nothing
        raise InputError(f"input pattern {pattern} matches no file ({error})") from None
    files = sorted((m.path, m.size_in_bytes) for m in results)
    if not files:
        raise InputError(f"input pattern {pattern} matches no file")
    return files


_SAMPLE_LINES = 1000  # lines of each TSV/JSONL file read on the launcher to check its shape
_ROLES = ("cs", "en", "mt", "mt_score")


def _columns_desc(spec: InputSpec) -> str:
    return ", ".join(f"{role}={getattr(spec, role + '_column')}" for role in _ROLES
                     if getattr(spec, role + "_column") is not None)


def _check_lines_file(spec: InputSpec, path: str, compressed: bool, config: PipelineConfig) -> bool:
    """Launcher-side checks of one TSV/JSONL file before any work; False if it has no row.

    A compressed file is decompressed once to the end, so a truncated or corrupt one fails here (as pair files
    do in their counting pre-pass) instead of being read short by a worker. A TSV file none of whose first lines
    has the columns asked for is the wrong file or the wrong columns: one error, not a dead letter per line.
    """
    if compressed:
        with _open(path, True) as handle:
            while handle.read(_BLOCK):
                pass
    header = config.tsv_header and spec.kind == "tsv"
    task = {"kind": "lines", "fmt": spec.kind, "input": 0, "source": "", "path": path, "header": header,
            "cap": _SAMPLE_LINES, "start": 0, "end": None, "compressed": compressed}
    records = list(_read_lines(task, config.max_line_bytes, 0))
    sample = [r["line"] for r in records if r["overlong"] is None]  # an over-long line is a dead letter anyway
    if spec.kind == "tsv" and sample:
        need = max(int(getattr(spec, role + "_column")) for role in _ROLES
                   if getattr(spec, role + "_column") is not None) + 1
        most = max(line.count(b"\t") + 1 for line in sample)
        if most < need:
            raise InputError(
                f"{path}: none of its first {len(sample)} lines has {need} tab-separated fields (the most is "
                f"{most}), but columns {_columns_desc(spec)} (0-based) are read: is it tab-separated? Name its "
                "columns with --cs-column/--en-column/--mt-column, or give line-aligned files with --cs/--en")
    return bool(records)


def _empty_error(spec: InputSpec, empty: Sequence[str]) -> InputError:
    what = f"{empty[0]} is empty" if len(empty) == 1 else \
        f"all {len(empty)} files matched by {spec.paths[0]} are empty ({', '.join(empty[:3])}, ...)"
    return InputError(f"{what}: no {spec.kind} row to read; check the path, or the export that wrote it")


def _plan_lines(spec: InputSpec, input_index: int, config: PipelineConfig, limit: int | None,
                plan: ReadPlan) -> None:
    files = _match(spec.paths[0])
    total_bytes = sum(size for _, size in files)
    split = min(config.split_bytes, max(1 << 16, math.ceil(total_bytes / config.min_splits)))
    empty: list[str] = []
    for path, size in files:
        name = source_name(path, spec.kind)
        compressed = _is_compressed(path)
        if not _check_lines_file(spec, path, compressed, config):
            empty.append(path)
        base = {"kind": "lines", "fmt": spec.kind, "input": input_index, "source": name, "path": path,
                "header": config.tsv_header and spec.kind == "tsv", "cap": limit}
        if compressed:
            plan.tasks.append({**base, "start": 0, "end": None, "compressed": True})
            plan.sequential = True
            plan.notes.append(f"{name}: compressed, read as one sequential task")
        else:
            for start in range(0, max(size, 1), split):
                plan.tasks.append({**base, "start": start, "end": min(size, start + split), "compressed": False})
        plan.sources.append({"source": name, "kind": spec.kind, "paths": [path], "bytes": size})
    if len(empty) == len(files):
        raise _empty_error(spec, empty)
    plan.notes.extend(f"{path} is empty" for path in empty)


def _is_text_type(type_: Any) -> bool:
    import pyarrow as pa

    if pa.types.is_dictionary(type_):
        return _is_text_type(type_.value_type)
    return (pa.types.is_string(type_) or pa.types.is_large_string(type_) or pa.types.is_string_view(type_)
            or pa.types.is_binary(type_) or pa.types.is_large_binary(type_) or pa.types.is_null(type_))


def _is_score_type(type_: Any) -> bool:
    import pyarrow as pa

    return (pa.types.is_integer(type_) or pa.types.is_floating(type_) or pa.types.is_decimal(type_)
            or _is_text_type(type_))


def _parquet_schema(path: str) -> Any:
    """The Parquet metadata of ``path``; a file that is not Parquet (or is cut short) is an :class:`InputError`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        with _open(path, False) as handle:
            return pq.ParquetFile(handle).metadata
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{path} is not a readable Parquet file ({str(error).splitlines()[0]}): give Parquet "
                         "files to --parquet (text to --tsv or --jsonl), or re-download it if it was cut short") \
            from None


def _check_parquet_types(spec: InputSpec, path: str, schema: Any) -> None:
    """Column types are a property of the whole file: a wrong one is one error naming the column, not a dead
    letter per row (JSONL, where each line has its own types, dead-letters instead)."""
    strings = [f.name for f in schema if _is_text_type(f.type)]
    for role in _ROLES:
        name = getattr(spec, role + "_column")
        if name is None:
            continue
        type_ = schema.field(name).type
        if role == "mt_score":
            if not _is_score_type(type_):
                raise InputError(f"{path}: column {name!r} (mt score) is {type_}, not a number: name the score "
                                 "column with --mt-score-column, or leave it out")
        elif not _is_text_type(type_):
            raise InputError(f"{path}: column {name!r} ({role}) is {type_}, not a string: name the {role} text "
                             f"column with --{role}-column (its string columns: {', '.join(strings) or 'none'})")


def _plan_parquet(spec: InputSpec, input_index: int, limit: int | None, plan: ReadPlan) -> None:
    columns = [c for c in (spec.cs_column, spec.en_column, spec.mt_column, spec.mt_score_column) if c is not None]
    files = _match(spec.paths[0])
    empty: list[str] = []
    for path, _ in files:
        name = source_name(path, "parquet")
        meta = _parquet_schema(path)
        schema = meta.schema.to_arrow_schema()
        names = schema.names
        missing = [c for c in columns if c not in names]
        if missing:
            raise InputError(f"{path} has no column(s) {missing}; it has {names}")
        _check_parquet_types(spec, path, schema)
        if not meta.num_rows:
            empty.append(path)
        first = 0
        for group in range(meta.num_row_groups):
            rows = meta.row_group(group).num_rows
            plan.tasks.append({"kind": "parquet", "input": input_index, "source": name, "path": path,
                               "row_group": group, "first_row": first, "columns": columns, "cap": limit})
            first += rows
        plan.sources.append({"source": name, "kind": "parquet", "paths": [path], "rows": meta.num_rows})
    if len(empty) == len(files):
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
    remaining = config.limit
    for i, spec in enumerate(specs):
        if spec.kind == "pair":
            rows = _plan_pair(spec, i, config, remaining, plan)
            if remaining is not None:
                remaining -= rows
        else:
            plan.expected_rows = None
            if spec.kind == "parquet":
                _plan_parquet(spec, i, config.limit, plan)
            else:
                _plan_lines(spec, i, config, config.limit, plan)
    names = [s["source"] for s in plan.sources]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise InputError(f"two inputs have the same source name {duplicated}: ids would collide; rename a file")
    if plan.expected_rows is not None:  # every input is pair files: rows are known (already capped by --limit)
        plan.expected_rows = sum(s["rows"] for s in plan.sources)
    return plan


# ---------------------------------------------------------------------------------------------------- reading


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
    while True:
        more = handle.readline(_BLOCK)
        if not more:
            break
        consumed += len(more)
        if more.endswith(b"\n"):
            length += len(more) - 1 - (1 if more.endswith(b"\r\n") else 0)
            break
        length += len(more)
    return prefix, consumed, length


def _raw(task: dict[str, Any], kind: str, position: int, fmt: str) -> dict[str, Any]:
    return {"id": make_id(task["source"], kind, position), "source": task["source"],
            "order": (task["input"], position), "fmt": fmt, "input": task["input"], "overlong": None}


def _read_pair(task: dict[str, Any], cap: int, keep: int) -> Iterator[dict[str, Any]]:
    sides = ("cs", "en", "mt")[: len(task["paths"])]
    handles: list[BinaryIO | None] = []
    try:
        for path, offset, compressed in zip(task["paths"], task["offsets"], task["compressed"], strict=True):
            if offset is None:
                handles.append(None)
                continue
            handle = _open(path, compressed)
            if offset:
                handle.seek(offset)
            handles.append(handle)
        for line in range(task["first"], task["first"] + task["count"]):
            record = _raw(task, "L", line, "pair")
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


def _read_lines(task: dict[str, Any], cap: int, keep: int) -> Iterator[dict[str, Any]]:
    start, end, row_cap = task["start"], task["end"], task["cap"]
    emitted = 0
    with _open(task["path"], task["compressed"]) as handle:
        position = start
        if start > 0:
            # Hadoop style: the line that straddles `start` belongs to the previous range. Reading from start - 1
            # consumes the rest of it (or just the newline that ends it, when a line starts exactly at `start`).
            handle.seek(start - 1)
            skipped = _read_line(handle, cap, 0)
            position = start - 1 + (skipped[1] if skipped else 0)
        while end is None or position < end:
            if row_cap is not None and emitted >= row_cap:
                break
            got = _read_line(handle, cap, keep)
            if got is None:
                break
            line_start = position
            position += got[1]
            if line_start == 0 and task["header"]:
                continue
            record = _raw(task, "B", line_start, task["fmt"])
            record["line"] = got[0]
            if got[2] > cap:
                record["overlong"] = ("line", got[2])
            emitted += 1
            yield record


def _read_parquet(task: dict[str, Any]) -> Iterator[dict[str, Any]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    with _open(task["path"], False) as handle:
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
    n = table.num_rows if task["cap"] is None else min(table.num_rows, task["cap"])
    for i in range(n):
        record = _raw(task, "R", task["first_row"] + i, "parquet")
        record["values"] = {name: values[i] for name, values in columns.items()}
        yield record


def read_task(task: dict[str, Any], max_line_bytes: int, keep_bytes: int) -> Iterator[dict[str, Any]]:
    """Raw records of one read task (bytes, not yet decoded)."""
    if task["kind"] == "pair":
        yield from _read_pair(task, max_line_bytes, keep_bytes)
    elif task["kind"] == "lines":
        yield from _read_lines(task, max_line_bytes, keep_bytes)
    elif task["kind"] == "parquet":
        yield from _read_parquet(task)
    else:
        raise ValueError(f"unknown read task kind {task['kind']!r}")


# --------------------------------------------------------------------------------------------------- decoding


class _Dead(Exception):
    def __init__(self, reason: Reason, error: str, raw: bytes | None):
        super().__init__(error)
        self.reason, self.error, self.raw = reason, error, raw


def dead_letter(raw: dict[str, Any], reason: Reason, error: str, data: bytes | None, keep: int,
                length: int | None = None) -> DeadLetterRecord:
    data = data if data is not None else b""
    size = len(data) if length is None else length
    return {"id": raw["id"], "source": raw["source"], "stage": STAGE_INGEST, "reason": reason.value,
            "error": error, "raw": data[:keep], "raw_bytes": size, "raw_truncated": size > min(len(data), keep)}


def _text(data: bytes | None, what: str) -> str:
    if data is None:
        raise _Dead(Reason.UNPARSEABLE, f"{what} is missing (null)", None)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _Dead(Reason.INVALID_UTF8, f"invalid UTF-8 in {what} at byte {error.start}: {error.reason}",
                    data) from None
    return text[1:] if text.startswith("\ufeff") else text


def _score(value: Any, what: str) -> float | None:
    if value is None or value == b"" or value == "":
        return None
    if isinstance(value, bool):
        raise _Dead(Reason.UNPARSEABLE, f"{what} is not a number: {value!r}", None)
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(value.decode("ascii") if isinstance(value, bytes) else value)
    except (ValueError, UnicodeDecodeError):
        raise _Dead(Reason.UNPARSEABLE, f"{what} is not a number: {value!r}", None) from None


def _json_text(obj: dict[str, Any], key: str, line: bytes) -> str:
    if key not in obj or obj[key] is None:
        raise _Dead(Reason.UNPARSEABLE, f"JSON object has no {key!r} string", line)
    value = obj[key]
    if not isinstance(value, str):
        raise _Dead(Reason.UNPARSEABLE, f"JSON field {key!r} is a {type(value).__name__}, not a string", line)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise _Dead(Reason.INVALID_UTF8, f"JSON field {key!r} has a lone surrogate at {error.start}", line) from None
    return value[1:] if value.startswith("\ufeff") else value


def _decode_fields(raw: dict[str, Any], spec: InputSpec) -> tuple[str, str, str | None, float | None]:
    fmt = raw["fmt"]
    if fmt == "pair":
        cs, en = _text(raw["cs"], "cs line"), _text(raw["en"], "en line")
        mt = _text(raw["mt"], "mt line") if "mt" in raw else None
        return cs, en, mt, None
    if fmt == "tsv":
        line: bytes = raw["line"]
        fields = line.split(b"\t")
        wanted = {"cs": spec.cs_column, "en": spec.en_column, "mt": spec.mt_column, "mt_score": spec.mt_score_column}
        need = max(int(v) for v in wanted.values() if v is not None)
        if need >= len(fields):
            raise _Dead(Reason.UNPARSEABLE, f"TSV line has {len(fields)} field(s); columns up to {need} "
                        "(0-based) are needed", line)
        cs = _text(fields[int(spec.cs_column)], f"TSV column {spec.cs_column} (cs)")
        en = _text(fields[int(spec.en_column)], f"TSV column {spec.en_column} (en)")
        mt = _text(fields[int(spec.mt_column)], f"TSV column {spec.mt_column} (mt)") \
            if spec.mt_column is not None else None
        score = _score(fields[int(spec.mt_score_column)], f"TSV column {spec.mt_score_column} (mt score)") \
            if spec.mt_score_column is not None else None
        return cs, en, mt, score
    if fmt == "jsonl":
        line = raw["line"]
        text = _text(line, "JSON line")
        if not text.strip():
            raise _Dead(Reason.UNPARSEABLE, "empty JSONL line", line)
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as error:
            raise _Dead(Reason.UNPARSEABLE, f"not valid JSON: {error}", line) from None
        if not isinstance(obj, dict):
            raise _Dead(Reason.UNPARSEABLE, f"JSON line is a {type(obj).__name__}, not an object", line)
        cs, en = _json_text(obj, str(spec.cs_column), line), _json_text(obj, str(spec.en_column), line)
        mt = _json_text(obj, str(spec.mt_column), line) if spec.mt_column is not None else None
        score = _score(obj.get(str(spec.mt_score_column)), f"JSON field {spec.mt_score_column!r}") \
            if spec.mt_score_column is not None else None
        return cs, en, mt, score
    if fmt == "parquet":
        values = raw["values"]
        cs = _text(values[spec.cs_column], f"column {spec.cs_column} (cs)")
        en = _text(values[spec.en_column], f"column {spec.en_column} (en)")
        mt = _text(values[spec.mt_column], f"column {spec.mt_column} (mt)") if spec.mt_column is not None else None
        score = _score(values[spec.mt_score_column], f"column {spec.mt_score_column}") \
            if spec.mt_score_column is not None else None
        return cs, en, mt, score
    raise ValueError(f"unknown record format {fmt!r}")


def _first_bytes(raw: dict[str, Any]) -> bytes | None:
    for key in ("line", "cs", "en", "mt"):
        if raw.get(key) is not None:
            return raw[key]
    return None


def decode_record(raw: dict[str, Any], spec: InputSpec, max_line_bytes: int,
                  keep_bytes: int) -> tuple[str, DecodedRow | DeadLetterRecord]:
    """``("row", {id, source, cs, en, mt, mt_score})`` or ``("deadletter", record)``; never raises for bad data."""
    if raw.get("missing"):
        data = next((raw[s] for s in ("cs", "en", "mt") if raw.get(s) is not None), None)
        return DEADLETTER_TAG, dead_letter(raw, Reason.MISALIGNED, raw["missing"], data, keep_bytes)
    if raw["overlong"] is not None:
        what, length = raw["overlong"]
        data = raw["line"] if what == "line" else raw[what]
        return DEADLETTER_TAG, dead_letter(
            raw, Reason.UNPARSEABLE, f"{what} line is {length} bytes, over pipeline.max_line_bytes="
            f"{max_line_bytes}: not decoded", data, keep_bytes, length)
    if raw["fmt"] == "parquet":
        for name, value in raw["values"].items():
            if isinstance(value, bytes) and len(value) > max_line_bytes:
                return DEADLETTER_TAG, dead_letter(
                    raw, Reason.UNPARSEABLE, f"column {name} is {len(value)} bytes, over "
                    f"pipeline.max_line_bytes={max_line_bytes}: not decoded", value, keep_bytes)
    try:
        cs, en, mt, score = _decode_fields(raw, spec)
    except _Dead as dead:
        data = dead.raw if dead.raw is not None else _first_bytes(raw)
        return DEADLETTER_TAG, dead_letter(raw, dead.reason, dead.error, data, keep_bytes)
    return "row", {"id": raw["id"], "source": raw["source"], "cs": cs, "en": en, "mt": mt, "mt_score": score}


# ------------------------------------------------------------------------------------------------------ Beam


def _order_key(raw: dict[str, Any]) -> tuple[int, int]:
    return tuple(raw["order"])


class _ReadTask(beam.DoFn):
    def __init__(self, max_line_bytes: int, keep_bytes: int):
        self._cap, self._keep = max_line_bytes, keep_bytes

    def process(self, task: dict[str, Any]) -> Iterator[dict[str, Any]]:
        yield from read_task(task, self._cap, self._keep)


class DecodeRecords(beam.DoFn):
    """Raw records -> rows (main output) and dead letters (tagged ``deadletter``); counts ``read``."""

    def __init__(self, specs: Sequence[InputSpec], max_line_bytes: int, keep_bytes: int):
        self._specs = list(specs)
        self._cap, self._keep = max_line_bytes, keep_bytes

    def setup(self) -> None:
        self._read = Metrics.counter(METRICS_NAMESPACE, READ_COUNTER)
        self._dead = {reason: Metrics.counter(METRICS_NAMESPACE, deadletter_counter(reason)) for reason in Reason}

    def process(self, raw: dict[str, Any]):
        self._read.inc()
        progress.count(progress.READ)
        tag, record = decode_record(raw, self._specs[raw["input"]], self._cap, self._keep)
        if tag == DEADLETTER_TAG:
            self._dead[Reason(record["reason"])].inc()
            yield beam.pvalue.TaggedOutput(DEADLETTER_TAG, record)
        else:
            yield record


def _flatten_list(items: list[Any]) -> list[Any]:
    return items


class Ingest(beam.PTransform):
    """Plans the reads at construction (errors before any work), then reads and decodes.

    ``pcoll_begin | Ingest(specs, config)`` returns ``{"rows": ..., "deadletter": ...}``; ``.plan`` is the
    :class:`ReadPlan` (tasks, sources, expected row count when known).
    """

    def __init__(self, specs: Sequence[InputSpec], config: PipelineConfig, label: str | None = None):
        super().__init__(label)
        self.specs = list(specs)
        self.config = config
        self.plan = plan_reads(self.specs, config)

    def expand(self, pbegin: beam.pvalue.PBegin) -> dict[str, beam.PCollection]:
        cfg = self.config
        raw = (
            pbegin
            | "ReadTasks" >> beam.Create(self.plan.tasks)  # reshuffled: tasks spread over workers
            | "Read" >> beam.ParDo(_ReadTask(cfg.max_line_bytes, cfg.deadletter_raw_bytes))
        )
        if cfg.limit is not None:
            raw = (
                raw
                | "FirstN" >> beam.combiners.Top.Of(cfg.limit, key=_order_key, reverse=True)
                | "Unlist" >> beam.FlatMap(_flatten_list)
                | "SpreadLimited" >> beam.Reshuffle()
            )
        elif self.plan.sequential:
            raw = raw | "SpreadSequential" >> beam.Reshuffle()
        decoded = raw | "Decode" >> beam.ParDo(
            DecodeRecords(self.specs, cfg.max_line_bytes, cfg.deadletter_raw_bytes)
        ).with_outputs(DEADLETTER_TAG, main="rows")
        return {"rows": decoded.rows, "deadletter": decoded[DEADLETTER_TAG]}
