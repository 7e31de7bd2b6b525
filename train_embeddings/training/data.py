"""Training pairs, streamed: Parquet shards (the pipeline's ``train/``) or the released ParaNMT TSV files.

    source = PairSource("runs/czeng/train", min_score=0.5, max_tokens=30)     # a file, a directory, a glob, a URL
    source.count()                                                            # pairs after the filters
    for chunk in source.chunks(size=4000, seed=1234, epoch=0):                # PairChunk: left, right, groups
        ...

**Parquet** (``paranmt/core/pair_schema.py``): ``en_tokens`` / ``mt_tokens`` (list<string> Moses tokens) by default, any
two list<string> columns with ``left_column`` / ``right_column``. Files are read with ``pyarrow.dataset`` one
record batch at a time, with only the needed columns and the filters pushed into the scan: the score range on
``paraphrase_score`` (row groups whose statistics fall outside are skipped), at most ``max_tokens`` tokens per
side and at least one (``list_value_length``), and ``keep`` not false when that column exists. Local paths,
globs and URLs all work (``s3://``, ``gs://`` through pyarrow; any other fsspec protocol, e.g. ``memory://``,
through ``pyarrow.fs.FSSpecHandler``).

**TSV** (the released ParaNMT-50M files): ``sentence<TAB>paraphrase[<TAB>score]`` per line (``.gz`` fine),
Moses-tokenised on the fly with :class:`paranmt.core.text.TextProcessor` (English); the row id (the group) is
``file:line``. :func:`tsv_to_parquet` converts once into the Parquet layout so later epochs skip tokenisation;
:func:`parquet_to_tsv` goes the other way (the pipeline's ``train/`` as ``sentence<TAB>paraphrase<TAB>score`` for
users of the original ParaNMT tooling; ``paranmt export --format paranmt-tsv``).

**Shuffling** never loads the corpus: each epoch reads the shards in a seeded random order, ``shard_interleave``
at a time round-robin, through a shuffle buffer: the pool fills to twice ``shuffle_buffer`` pairs, is permuted,
and everything but ``shuffle_buffer`` random pairs is emitted. So a corpus in document order (CzEng) does not
put neighbouring lines — near-paraphrases of each other — into one mega-batch as negatives. The order depends
only on ``(seed, epoch)``, so a resumed run re-reads exactly the same stream and skips what it has done.

**Groups**: each pair carries a group value (``group_column``, default the row ``id``; e.g. an image id for
captions); the miner never takes a negative from the pair's own group.
"""

from __future__ import annotations

import functools
import glob as globlib
import gzip
import io
import logging
import operator
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from configs.schema import TrainConfig
from paranmt.core import pair_schema as S
from paranmt.core.errors import ParanmtError
from paranmt.core.parquet_inputs import ParquetInputError, is_skipped, read_parquet_input
from paranmt.core.run_layout import TRAIN
from paranmt.core.text import TextProcessor

__all__ = ["PairChunk", "PairSource", "TrainDataError", "parquet_to_tsv", "read_tsv_tables", "source_sentences",
           "tsv_to_parquet"]

log = logging.getLogger(__name__)

LEFT, RIGHT, GROUP = "left", "right", "group"
LEFT_TEXT, RIGHT_TEXT = "left_text", "right_text"
_TSV_SUFFIXES = (".tsv", ".txt", ".tsv.gz", ".txt.gz")

#: Rows whose ``keep`` is not false: null in the pairs/ of a --no-score run, which no selection dropped.
_NOT_DROPPED = pc.field(S.KEEP).is_null() | pc.field(S.KEEP)


class TrainDataError(ParanmtError, ValueError):
    """The training data cannot be used as given; the message names the path, the column or the filter."""


@dataclass
class PairChunk:
    """A run of pairs: ``left`` / ``right`` list<string> token arrays and ``groups`` (int64, equal values = same
    group, dense within the chunk)."""

    left: pa.Array
    right: pa.Array
    groups: np.ndarray
    left_text: pa.Array | None = None  # the raw sentences, when the source reads text columns (static models)
    right_text: pa.Array | None = None

    def __len__(self) -> int:
        return len(self.left)


# ------------------------------------------------------------------------------------------------- locating


def _is_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def _is_tsv(name: str) -> bool:
    return name.lower().endswith(_TSV_SUFFIXES)


def _listable(name: str) -> bool:
    base = name.rstrip("/").rsplit("/", 1)[-1]
    return not is_skipped(base)


def _tsv_files(text: str) -> tuple[pafs.FileSystem, list[str]] | None:
    """The released ParaNMT TSV files at ``text`` (a file, a glob, a folder of ``.tsv``/``.txt`` files, local or
    a URL), or None when it holds anything else (Parquet is read by :func:`read_parquet_input`)."""
    if "://" in text:
        import fsspec  # deferred: only URLs need it, and it is not a declared dependency (comes with torch)

        try:
            fs, root = fsspec.core.url_to_fs(text)
        except (ImportError, ValueError):  # the protocol's package missing: the Parquet reader says so
            return None
        if _is_glob(root):
            found = [f for f in sorted(fs.glob(root)) if not fs.isdir(f)]
        elif fs.isdir(root):
            found = sorted(f for f in fs.find(root) if _listable(f))
        else:
            found = [root] if fs.exists(root) else []
        protocols = fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)
        filesystem: pafs.FileSystem = (pafs.LocalFileSystem() if {"file", "local"} & set(protocols)
                                       else pafs.PyFileSystem(pafs.FSSpecHandler(fs)))
    else:
        local = Path(text).expanduser()
        if _is_glob(text):
            found = sorted(p for p in globlib.glob(str(local), recursive=True) if Path(p).is_file())
        elif local.is_dir():
            found = sorted(str(p) for p in local.rglob("*")
                           if p.is_file() and all(_listable(part) for part in p.relative_to(local).parts))
        else:
            found = [str(local)] if local.is_file() else []
        filesystem = pafs.LocalFileSystem()
    return (filesystem, found) if found and all(_is_tsv(f) for f in found) else None


def resolve_files(path: str | Path, data_format: str = "auto") -> tuple[pafs.FileSystem, list[str], str]:
    """(filesystem, sorted file paths, format) of the training data: TSV files (``data_format`` ``tsv``, or
    ``auto`` and every file found is ``.tsv``/``.txt``), else Parquet, resolved by
    :func:`paranmt.core.parquet_inputs.read_parquet_input` (a run folder is read at its ``train/``)."""
    text = str(path)
    tsv = _tsv_files(text) if data_format != "parquet" else None
    if tsv is not None:
        return tsv[0], tsv[1], "tsv"
    if data_format == "tsv":
        raise TrainDataError(f"no TSV files found at {text} (.tsv, .txt, .tsv.gz or .txt.gz)")
    try:
        parquet = read_parquet_input(text, run_part=TRAIN, what="training data")
    except ParquetInputError as error:
        raise TrainDataError(str(error)) from None
    return parquet.filesystem, list(parquet.files), "parquet"


# ------------------------------------------------------------------------------------------------- TSV


def read_tsv_tables(path: str, filesystem: pafs.FileSystem | None = None, rows: int = 16_384,
                    processor: TextProcessor | None = None) -> Iterator[pa.Table]:
    """Tables (``id``, ``en_tokens``, ``mt_tokens``, ``paraphrase_score``) of a ParaNMT TSV file, ``rows`` lines at
    a time. A line needs two or three tab-separated fields; a score that is not a number is an error."""
    processor = processor or TextProcessor(("en",))
    name = Path(path).name
    if filesystem is None:
        raw: Any = open(path, "rb")  # noqa: SIM115 - closed below
    else:
        raw = filesystem.open_input_stream(path)
    handle = gzip.GzipFile(fileobj=raw) if path.endswith(".gz") else raw
    text = io.TextIOWrapper(handle, encoding="utf-8", newline="\n")

    def table(ids: list[str], left: list[list[str]], right: list[list[str]], scores: list[float | None]) -> pa.Table:
        return pa.table({S.ID: pa.array(ids, pa.string()),
                         S.EN_TOKENS: pa.array(left, pa.list_(pa.string())),
                         S.MT_TOKENS: pa.array(right, pa.list_(pa.string())),
                         S.PARAPHRASE_SCORE: pa.array(scores, pa.float32())})

    try:
        ids: list[str] = []
        left: list[list[str]] = []
        right: list[list[str]] = []
        scores: list[float | None] = []
        for lineno, line in enumerate(text, start=1):
            line = line.rstrip("\r\n")
            if not line.strip():
                continue
            fields = line.split("\t")
            if len(fields) not in (2, 3):
                raise TrainDataError(f"{path}:{lineno}: expected sentence<TAB>paraphrase[<TAB>score], got "
                                     f"{len(fields)} fields")
            score: float | None = None
            if len(fields) == 3 and fields[2].strip():
                try:
                    score = float(fields[2])
                except ValueError:
                    raise TrainDataError(f"{path}:{lineno}: score {fields[2][:40]!r} is not a number") from None
            ids.append(f"{name}:{lineno}")
            left.append(processor.tokenize(fields[0], "en"))
            right.append(processor.tokenize(fields[1], "en"))
            scores.append(score)
            if len(ids) >= rows:
                yield table(ids, left, right, scores)
                ids, left, right, scores = [], [], [], []
        if ids:
            yield table(ids, left, right, scores)
    except UnicodeDecodeError as exc:
        raise TrainDataError(f"{path}: not UTF-8 ({exc})") from None
    finally:
        text.close()


def tsv_to_parquet(tsv: str | Path, out_dir: str | Path, rows_per_shard: int = 500_000,
                   filesystem: pafs.FileSystem | None = None) -> list[Path]:
    """Tokenise a ParaNMT TSV once into Parquet shards ``<tsv name>-NNNNN.parquet`` in the ``paranmt.core.pair_schema``
    layout (``keep`` true; ``id`` = ``file:line``, the default group)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    writer: pq.ParquetWriter | None = None
    in_shard = 0
    schema = S.with_metadata(S.PAIRS_SCHEMA, source=str(tsv))
    stem = Path(str(tsv)).name.removesuffix(".gz").rsplit(".", 1)[0]
    for table in read_tsv_tables(str(tsv), filesystem):
        n = table.num_rows
        columns = {S.ID: table[S.ID], S.SOURCE: pa.array([str(Path(tsv).name)] * n, pa.string()),
                   S.EN_TOKENS: table[S.EN_TOKENS], S.MT_TOKENS: table[S.MT_TOKENS],
                   S.PARAPHRASE_SCORE: table[S.PARAPHRASE_SCORE], S.KEEP: pa.array([True] * n)}
        arrays = []
        for f in S.PAIRS_SCHEMA:
            column = columns.get(f.name)
            if column is None:
                arrays.append(pa.nulls(n, f.type))
            else:
                column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
                arrays.append(column.cast(f.type))
        batch = pa.Table.from_arrays(arrays, schema=schema)
        if writer is None or in_shard >= rows_per_shard:
            if writer is not None:
                writer.close()
            written.append(out / f"{stem}-{len(written):05d}.parquet")
            writer = pq.ParquetWriter(written[-1], schema, compression="zstd")
            in_shard = 0
        writer.write_table(batch)
        in_shard += n
    if writer is not None:
        writer.close()
    if not written:
        raise TrainDataError(f"{tsv}: no pairs")
    return written


_TSV_UNSAFE = str.maketrans({"\t": " ", "\n": " ", "\r": " "})


def parquet_to_tsv(data: str | Path, out: str | Path, *, tokenized: bool = False) -> int:
    """Write the pairs of Parquet shards (a ``train/`` directory, a file, a glob) as the released ParaNMT files'
    ``sentence<TAB>paraphrase<TAB>score`` lines (UTF-8, ``.gz`` compressed when ``out`` ends so); returns the
    number of pairs. Sentences are ``en`` / ``mt`` as the pipeline read and translated them, or with
    ``tokenized`` the Moses tokens ``en_tokens`` / ``mt_tokens`` joined by spaces; the score is
    ``paraphrase_score`` (``%.6g``; empty where null). Rows whose ``keep`` is false are skipped; a tab or line
    break inside a sentence becomes a space. Shards are read in name order, rows in file order."""
    filesystem, files, data_format = resolve_files(data, "parquet")
    if data_format != "parquet":
        raise TrainDataError(f"{data}: expected Parquet shards (the pipeline's train/), found TSV files")
    left, right = (S.EN_TOKENS, S.MT_TOKENS) if tokenized else (S.EN, S.MT)
    dataset = ds.dataset(files, format="parquet", filesystem=filesystem)
    missing = [c for c in (left, right, S.PARAPHRASE_SCORE) if c not in dataset.schema.names]
    if missing:
        raise TrainDataError(f"{data}: no column {', '.join(missing)} (paranmt.core.pair_schema's layout has them)")
    keep = _NOT_DROPPED if S.KEEP in dataset.schema.names else None
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    raw: Any = gzip.open(tmp, "wt", encoding="utf-8", newline="\n") if out.name.endswith(".gz") else \
        open(tmp, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 - closed below
    written = 0
    try:
        for batch in dataset.to_batches(columns=[left, right, S.PARAPHRASE_SCORE], filter=keep):
            a, b, score = (batch.column(i).to_pylist() for i in range(3))
            if tokenized:
                a = [" ".join(tokens or ()) for tokens in a]
                b = [" ".join(tokens or ()) for tokens in b]
            raw.write("".join(f"{(x or '').translate(_TSV_UNSAFE)}\t{(y or '').translate(_TSV_UNSAFE)}\t"
                              f"{'' if s is None else format(s, '.6g')}\n"
                              for x, y, s in zip(a, b, score, strict=True)))
            written += batch.num_rows
    finally:
        raw.close()
    tmp.replace(out)
    return written


# ------------------------------------------------------------------------------------------------- source


def _is_token_list(dtype: pa.DataType) -> bool:
    return (pa.types.is_list(dtype) or pa.types.is_large_list(dtype)) and (
        pa.types.is_string(dtype.value_type) or pa.types.is_large_string(dtype.value_type))


class PairSource:
    """Filtered, shuffled, streamed training pairs (see the module docstring)."""

    def __init__(self, path: str | Path, *, data_format: str = "auto", left_column: str = S.EN_TOKENS,
                 right_column: str = S.MT_TOKENS, group_column: str | None = S.ID,
                 score_column: str = S.PARAPHRASE_SCORE, min_score: float | None = None,
                 max_score: float | None = None, max_tokens: int | None = None, only_kept: bool = True,
                 read_batch_rows: int = 16_384, text_columns: tuple[str, str] | None = None) -> None:
        self.path = str(path)
        self.filesystem, self.files, self.format = resolve_files(path, data_format)
        if self.format == "tsv":
            left_column, right_column = S.EN_TOKENS, S.MT_TOKENS
            score_column = S.PARAPHRASE_SCORE
            group_column = S.ID if group_column is not None else None
            text_columns = None  # TSV rows are tokenised on reading: their raw text is the tokens joined
        self.text_columns = text_columns
        self.left_column, self.right_column = left_column, right_column
        self.group_column = group_column
        self.score_column = score_column
        self.min_score, self.max_score, self.max_tokens = min_score, max_score, max_tokens
        self.only_kept = only_kept
        self.read_batch_rows = read_batch_rows
        self._has_keep = False
        if self.format == "parquet":
            self._check_parquet()
        self.filter = self._expression(self.only_kept and self._has_keep)

    @classmethod
    def from_config(cls, config: TrainConfig, path: str | Path | None = None) -> PairSource:
        """From a :class:`configs.schema.TrainConfig` (``path`` overrides ``config.data``)."""
        path = path if path is not None else config.data
        if path is None:
            raise TrainDataError("no training data: give --data or train.data")
        return cls(path, data_format=config.data_format, left_column=config.left_column,
                   right_column=config.right_column, group_column=config.group_column,
                   score_column=config.score_column, min_score=config.min_score, max_score=config.max_score,
                   max_tokens=config.max_tokens, only_kept=config.only_kept, read_batch_rows=config.read_batch_rows,
                   text_columns=((config.left_text_column, config.right_text_column)
                                 if "static" in config.parse_model(config.model)[0] else None))

    def __repr__(self) -> str:
        return f"PairSource({self.path!r}, {len(self.files)} {self.format} file(s))"

    # -- schema and filters

    def _check_parquet(self) -> None:
        needs_score = self.min_score is not None or self.max_score is not None
        for file in self.files[:1]:  # the reader made sure every file has the first one's schema
            try:
                schema = pq.read_schema(file, filesystem=self.filesystem)
            except (pa.ArrowInvalid, OSError) as exc:
                raise TrainDataError(f"{file}: not a Parquet file ({exc})") from None
            version = S.read_metadata(schema).get("schema_version")
            if version is not None and version != S.SCHEMA_VERSION:
                raise TrainDataError(f"{file}: schema_version {version}, this code reads {S.SCHEMA_VERSION}")
            required = [self.left_column, self.right_column]
            if self.group_column:
                required.append(self.group_column)
            if needs_score:
                required.append(self.score_column)
            if self.text_columns and any(c not in schema.names for c in self.text_columns):
                self.text_columns = None  # no raw text: a static model reads the tokens joined by spaces
            missing = [c for c in required if c not in schema.names]
            if missing:
                raise TrainDataError(f"{file}: missing column(s) {missing} (found {schema.names})")
            for column in (self.left_column, self.right_column):
                if not _is_token_list(schema.field(column).type):
                    raise TrainDataError(f"{file}: column {column} has type {schema.field(column).type}, expected "
                                         "list<string> (Moses tokens)")
            if needs_score and not pa.types.is_floating(schema.field(self.score_column).type) \
                    and not pa.types.is_integer(schema.field(self.score_column).type):
                raise TrainDataError(f"{file}: column {self.score_column} has type "
                                     f"{schema.field(self.score_column).type}, expected a number")
            if self.group_column and _is_token_list(schema.field(self.group_column).type):
                raise TrainDataError(f"{file}: group column {self.group_column} is a list")
            self._has_keep = self._has_keep or (S.KEEP in schema.names)

    def _conditions(self, keep: bool) -> list[tuple[ds.Expression, str]]:
        """Each filter as an Arrow expression and in words, as the config names it; ``keep``: also ``keep`` not
        false."""
        left, right = (pc.list_value_length(pc.field(c)) for c in (self.left_column, self.right_column))
        conditions = [((left >= 1) & (right >= 1), f"{self.left_column} and {self.right_column} not empty")]
        if self.max_tokens is not None:
            conditions.append(((left <= self.max_tokens) & (right <= self.max_tokens),
                               f"at most {self.max_tokens} tokens a side (max_tokens)"))
        if self.min_score is not None:
            conditions.append((pc.field(self.score_column) >= self.min_score,
                               f"{self.score_column} >= {self.min_score} (min_score)"))
        if self.max_score is not None:
            conditions.append((pc.field(self.score_column) <= self.max_score,
                               f"{self.score_column} <= {self.max_score} (max_score)"))
        if keep:
            conditions.append((_NOT_DROPPED, "keep not false (only_kept)"))
        return conditions

    def _expression(self, keep: bool) -> ds.Expression:
        return functools.reduce(operator.and_, (expression for expression, _ in self._conditions(keep)))

    def describe_filter(self) -> str:
        """The filters in words (for a message about what they left)."""
        return "; ".join(text for _, text in self._conditions(self.only_kept and self._has_keep))

    # -- reading

    def _columns(self) -> list[str]:
        columns = [self.left_column, self.right_column]
        if self.group_column:
            columns.append(self.group_column)
        if self.text_columns:
            columns += list(self.text_columns)
        return columns

    def _project(self, table: pa.Table | pa.RecordBatch) -> pa.Table:
        if isinstance(table, pa.RecordBatch):
            table = pa.Table.from_batches([table])
        tokens = pa.list_(pa.string())
        columns = {LEFT: table[self.left_column].cast(tokens), RIGHT: table[self.right_column].cast(tokens)}
        if self.group_column:
            columns[GROUP] = table[self.group_column]
        if self.text_columns:
            columns[LEFT_TEXT] = table[self.text_columns[0]].cast(pa.string())
            columns[RIGHT_TEXT] = table[self.text_columns[1]].cast(pa.string())
        return pa.table(columns)

    def file_tables(self, index: int) -> Iterator[pa.Table]:
        """Filtered, projected tables (``left``, ``right``[, ``group``]) of file ``index``, batch by batch."""
        file = self.files[index]
        if self.format == "tsv":
            for table in read_tsv_tables(file, self.filesystem if "://" in self.path else None,
                                         self.read_batch_rows):
                if (self.min_score is not None or self.max_score is not None) and \
                        table[S.PARAPHRASE_SCORE].null_count == table.num_rows:
                    raise TrainDataError(f"{file}: a score range is set but the TSV has no score column")
                filtered = table.filter(self.filter)
                if filtered.num_rows:
                    yield self._project(filtered)
            return
        fragment = next(iter(ds.dataset(file, format="parquet", filesystem=self.filesystem).get_fragments()))
        columns = self._columns()
        expression = self._expression(self.only_kept and S.KEEP in fragment.physical_schema.names)
        for batch in fragment.to_batches(columns=columns, filter=expression, batch_size=self.read_batch_rows,
                                         use_threads=True):
            if batch.num_rows:
                yield self._project(batch)

    def scan(self) -> Iterator[pa.Table]:
        """Every filtered pair once, in file order (vocabulary building, counting)."""
        for index in range(len(self.files)):
            yield from self.file_tables(index)

    def count(self) -> int:
        """Pairs left after the filters (reads the needed columns once)."""
        total = 0
        for table in self.scan():
            total += table.num_rows
        return total

    def stream(self, seed: int, epoch: int, shuffle_buffer: int = 200_000, interleave: int = 4
               ) -> Iterator[pa.Table]:
        """The epoch's pairs in a seeded shuffled order (see the module docstring)."""
        rng = np.random.default_rng([seed, epoch, 0x5EED])
        order = list(rng.permutation(len(self.files)))
        active: list[Iterator[pa.Table]] = []
        pool: list[pa.Table] = []
        pooled = 0

        def interleaved() -> Iterator[pa.Table]:
            while order or active:
                while order and len(active) < interleave:
                    active.append(self.file_tables(int(order.pop(0))))
                for iterator in list(active):
                    table = next(iterator, None)
                    if table is None:
                        active.remove(iterator)
                    else:
                        yield table

        for table in interleaved():
            if shuffle_buffer <= 0:
                yield table
                continue
            pool.append(table)
            pooled += table.num_rows
            if pooled >= 2 * shuffle_buffer:
                merged = pa.concat_tables(pool).combine_chunks()
                permutation = rng.permutation(merged.num_rows)
                emit = merged.num_rows - shuffle_buffer
                yield merged.take(permutation[:emit])
                pool, pooled = [merged.take(permutation[emit:])], shuffle_buffer
        if pool:
            merged = pa.concat_tables(pool).combine_chunks()
            yield merged.take(rng.permutation(merged.num_rows))

    def chunks(self, size: int, seed: int, epoch: int, *, skip: int = 0, shuffle_buffer: int = 200_000,
               interleave: int = 4) -> Iterator[PairChunk]:
        """Consecutive runs of ``size`` pairs (the last may be shorter) of the epoch's stream, after ``skip``."""
        pending: list[pa.Table] = []
        held = 0
        to_skip = skip
        for table in self.stream(seed, epoch, shuffle_buffer, interleave):
            if to_skip:
                dropped = min(to_skip, table.num_rows)
                table = table.slice(dropped)
                to_skip -= dropped
                if not table.num_rows:
                    continue
            pending.append(table)
            held += table.num_rows
            while held >= size:
                merged = pa.concat_tables(pending)
                yield self._chunk(merged.slice(0, size))
                rest = merged.slice(size)
                pending, held = ([rest] if rest.num_rows else []), rest.num_rows
        if held:
            yield self._chunk(pa.concat_tables(pending))

    def _chunk(self, table: pa.Table) -> PairChunk:
        table = table.combine_chunks()
        n = table.num_rows
        if GROUP in table.column_names:
            encoded = pc.dictionary_encode(table[GROUP]).combine_chunks()
            groups = encoded.indices.to_numpy(zero_copy_only=False).astype(np.float64)
            nulls = np.flatnonzero(np.isnan(groups)) if encoded.null_count else np.zeros(0, np.int64)
            groups = np.nan_to_num(groups, nan=-1).astype(np.int64)
            groups[nulls] = len(encoded.dictionary) + np.arange(len(nulls))  # a null group is the pair's own
        else:
            groups = np.arange(n, dtype=np.int64)
        texts = ((table[LEFT_TEXT].combine_chunks(), table[RIGHT_TEXT].combine_chunks())
                 if LEFT_TEXT in table.column_names else (None, None))
        return PairChunk(table[LEFT].combine_chunks(), table[RIGHT].combine_chunks(), groups, *texts)


def source_sentences(source: PairSource, sides: str = "left") -> Iterator[str]:
    """The ``left`` (the English references), ``right`` or ``both`` sides of every filtered pair of ``source`` as
    the static component reads them (raw text when the source has it, else the tokens joined by spaces)."""
    columns = {"left": ((LEFT_TEXT, LEFT),), "right": ((RIGHT_TEXT, RIGHT),),
               "both": ((LEFT_TEXT, LEFT), (RIGHT_TEXT, RIGHT))}[sides]
    for table in source.scan():
        for text, tokens in columns:
            column = table[text] if text in table.column_names else pc.binary_join(table[tokens], " ")
            yield from pa.chunked_array(column).to_pylist() if isinstance(column, pa.Array) else column.to_pylist()
