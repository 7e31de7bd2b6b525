"""One reader of Parquet inputs: a file, a folder of shards or a glob pattern, local or on an object store.

Every command that reads pairs (``paranmt score``, ``report``, ``lexicon``, ``train``) and the ``--parquet``
inputs of the pipeline and of ``paranmt train-nmt`` resolve what they were given with :func:`read_parquet_input`,
so one path always means the same files:

- a **file** is read as given;
- a **folder** gives every ``*.parquet`` file under it (sub-folders included), a **pattern** (``*``, ``?``, ``[``)
  the ``*.parquet`` files it matches: a stray file beside the shards (``summary.json``, ``README.md``) is skipped;
- names starting with ``_`` or ``.`` are never read, at any depth below the folder or the pattern's fixed part:
  a killed run's ``_staging/``, ``_SUCCESS``, a ``.part`` or ``.crc`` file;
- files are read in the order of their paths (deterministic on every file system);
- every file must have the first one's columns and types (metadata aside), and that schema is checked once
  against the pairs contract (:func:`paranmt.core.pair_schema.check_schema`);
- local paths, ``file://``, and the object stores pyarrow opens itself (``gs://``, ``s3://``) are read with
  pyarrow's file systems; another fsspec protocol (``memory://``) goes through ``pyarrow.fs.FSSpecHandler``;
- a **run folder** (it holds :data:`~paranmt.core.run_definition.DEFINITION_FILE`) is read as the reader means
  it: the caller names the part (``pairs/`` for scores, reports and lexicons, ``train/`` for training), and one
  information line of the log says so, in every command.
"""

from __future__ import annotations

import datetime
import fnmatch
import logging
import os
import posixpath
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from paranmt.core.errors import ParanmtError
from paranmt.core.pair_schema import check_schema
from paranmt.core.run_definition import DEFINITION_FILE
from paranmt.core.run_layout import OUTPUTS

__all__ = ["PARQUET_SUFFIX", "ParquetInput", "ParquetInputError", "is_skipped", "read_parquet_input"]

log = logging.getLogger(__name__)
# Its one line (which part of a run folder is read) is information a user of any command needs, so it is shown
# at INFO even by the commands whose console log starts at WARNING (paranmt.core.command_line.log_to_console).
log.setLevel(logging.INFO)

PARQUET_SUFFIX = ".parquet"
SKIPPED_PREFIXES = ("_", ".")  # staging folders, markers, hidden and partial files
_GLOB_CHARACTERS = "*?["
GCS_RETRY = datetime.timedelta(seconds=60)


class ParquetInputError(ParanmtError, ValueError):
    """A Parquet input that cannot be read as given; the message names the path and the fix."""


def is_skipped(name: str) -> bool:
    """Whether a file or folder name is never read as a shard (``_staging``, ``_SUCCESS``, ``.x.partial``)."""
    return name.startswith(SKIPPED_PREFIXES)


@dataclass(frozen=True)
class ParquetInput:
    """The files an input resolved to (paths on ``filesystem``, in order), their common schema (the first file's,
    with its metadata), each one's footer (row groups and their row counts) and size in bytes."""

    given: str
    filesystem: pafs.FileSystem
    files: tuple[str, ...]
    schema: pa.Schema
    footers: tuple[pq.FileMetaData, ...]
    file_bytes: tuple[int, ...]
    prefix: str = ""  # what turns a path on ``filesystem`` back into the URL a user can read (``gs://``)
    run_folder: str | None = None  # the run folder (on ``filesystem``) whose part these files are, if any

    @property
    def file_rows(self) -> tuple[int, ...]:
        return tuple(footer.num_rows for footer in self.footers)

    @property
    def num_rows(self) -> int:
        return sum(self.file_rows)

    def name(self, file: str) -> str:
        """``file`` as the user would write it (with its URL scheme)."""
        return self.prefix + file

    def dataset(self) -> ds.Dataset:
        """The files as one ``pyarrow.dataset`` (for pushed-down filters and projections)."""
        return ds.dataset(list(self.files), schema=self.schema, format="parquet", filesystem=self.filesystem)

    def batches(self, columns: Sequence[str] | None = None, batch_rows: int = 65536) -> Iterator[pa.RecordBatch]:
        """Every row, file after file in order, ``batch_rows`` at most a batch (``columns``: only those)."""
        for file in self.files:
            with self.filesystem.open_input_file(file) as handle:
                yield from pq.ParquetFile(handle).iter_batches(batch_size=batch_rows,
                                                               columns=list(columns) if columns is not None else None)


def _filesystem(text: str, what: str) -> tuple[pafs.FileSystem, str, str]:
    """(file system, path on it, URL prefix) of a local path or a URL."""
    if "://" not in text:
        return pafs.LocalFileSystem(), os.path.abspath(os.path.expanduser(text)), ""
    scheme = text.split("://", 1)[0]
    if scheme == "file":
        return pafs.LocalFileSystem(), text.split("://", 1)[1], ""
    if scheme in ("gs", "gcs", "s3"):
        try:
            if scheme == "s3":
                filesystem, path = pafs.FileSystem.from_uri(text)
            else:  # a minute of retries, not pyarrow's quarter of an hour, before an unreachable store is an error
                filesystem, path = pafs.GcsFileSystem(retry_time_limit=GCS_RETRY), text.split("://", 1)[1]
        except (pa.ArrowException, OSError) as error:
            raise ParquetInputError(f"{what} {text}: cannot open its object store ({str(error).splitlines()[0]}): "
                                    "check the URL and the credentials") from None
        return filesystem, path, f"{scheme}://"
    try:
        import fsspec  # deferred: only other URL protocols need it, and it is not a declared dependency
    except ImportError:
        raise ParquetInputError(f"{what} {text}: the {scheme}:// protocol needs fsspec (pip install fsspec)") from None
    try:
        spec_fs, path = fsspec.core.url_to_fs(text)
    except (ImportError, ValueError) as error:  # the protocol's package missing, or an unknown protocol
        raise ParquetInputError(f"{what} {text}: {error}") from None
    return pafs.PyFileSystem(pafs.FSSpecHandler(spec_fs)), path, f"{scheme}://"


def _relative_parts(path: str, root: str) -> list[str]:
    return [part for part in posixpath.relpath(path, root).split("/") if part not in ("", ".")]


def _listed(filesystem: pafs.FileSystem, root: str) -> list[str]:
    """Every file under the folder ``root``, skipped names (at any depth) left out."""
    infos = filesystem.get_file_info(pafs.FileSelector(root, recursive=True))
    return [info.path for info in infos if info.type == pafs.FileType.File
            and not any(is_skipped(part) for part in _relative_parts(info.path, root))]


def _matched(filesystem: pafs.FileSystem, pattern: str) -> list[str]:
    """The files a glob pattern matches, skipped names below its fixed part left out."""
    parts = pattern.split("/")
    fixed = next(i for i, part in enumerate(parts) if any(c in part for c in _GLOB_CHARACTERS))
    root = "/".join(parts[:fixed]) or "/"
    info = filesystem.get_file_info(root)
    if info.type != pafs.FileType.Directory:
        return []
    candidates = [info.path for info in filesystem.get_file_info(pafs.FileSelector(root, recursive=True))
                  if info.type == pafs.FileType.File]
    depth = len(parts)
    return [path for path in candidates
            if len(path.split("/")) == depth and _glob_match(path, pattern)
            and not any(is_skipped(part) for part in _relative_parts(path, root))]


def _glob_match(path: str, pattern: str) -> bool:
    return all(fnmatch.fnmatchcase(a, b) for a, b in zip(path.split("/"), pattern.split("/"), strict=True))


def _is_run_folder(filesystem: pafs.FileSystem, folder: str) -> bool:
    return filesystem.get_file_info(posixpath.join(folder, DEFINITION_FILE)).type == pafs.FileType.File


def _run_part(filesystem: pafs.FileSystem, root: str, given: str, part: str | None) -> str:
    """``root``, or the part of a run folder the caller reads (one log line says which)."""
    if not _is_run_folder(filesystem, root):
        return root
    if part is None:
        parts = ", ".join(posixpath.join(given.rstrip("/"), name) for name in OUTPUTS)
        raise ParquetInputError(f"{given} is a run folder: give one of its Parquet folders ({parts})")
    log.info("%s is a run folder: reading its %s/", given, part)
    return posixpath.join(root, part)


def read_parquet_input(path: str | os.PathLike[str], *, required: tuple[str, ...] = (), run_part: str | None = None,
                       what: str = "--input") -> ParquetInput:
    """Resolve ``path`` (a file, a folder of shards, a pattern; a run folder read at its ``run_part``) by the rules
    of the module docstring, and check the schema once (``required`` columns present with the contract's types).
    Every problem is one :class:`ParquetInputError` line that names ``what``, the path and the fix."""
    given = str(path)
    filesystem, root, prefix = _filesystem(given, what)
    try:
        return _resolve(given, filesystem, root, prefix, required, run_part, what)
    except OSError as error:  # an unreachable object store, a folder it may not list
        raise ParquetInputError(f"{what} {given}: {str(error).splitlines()[0]}: check the path, the network and "
                                "the credentials") from None


def _resolve(given: str, filesystem: pafs.FileSystem, root: str, prefix: str, required: tuple[str, ...],
             run_part: str | None, what: str) -> ParquetInput:
    run_folder: str | None = None
    if any(c in root for c in _GLOB_CHARACTERS):
        files = [f for f in _matched(filesystem, root) if f.endswith(PARQUET_SUFFIX)]
        if not files:
            raise ParquetInputError(f"{what} {given} matches no Parquet file (*{PARQUET_SUFFIX}; names starting "
                                    "with _ or . are never read)")
    else:
        info = filesystem.get_file_info(root)
        if info.type == pafs.FileType.NotFound:
            raise ParquetInputError(f"{what} {given} does not exist")
        if info.type == pafs.FileType.Directory:
            folder = _run_part(filesystem, root, given, run_part)
            parent = posixpath.dirname(root.rstrip("/"))
            if folder != root:
                run_folder = root
            elif posixpath.basename(root.rstrip("/")) in OUTPUTS and _is_run_folder(filesystem, parent):
                run_folder = parent
            files = [f for f in _listed(filesystem, folder) if f.endswith(PARQUET_SUFFIX)]
            if not files:
                shown = given if folder == root else prefix + folder
                raise ParquetInputError(f"{what} {shown} holds no Parquet file (*{PARQUET_SUFFIX}): give a Parquet "
                                        "file, a folder of shards such as runs/x/pairs, or a pattern")
        else:
            files = [root]  # a file named on its own is read whatever its name
    files.sort()
    schema: pa.Schema | None = None
    footers: list[pq.FileMetaData] = []
    sizes: list[int] = []
    for file in files:
        try:
            with filesystem.open_input_file(file) as handle:
                metadata = pq.read_metadata(handle)
                sizes.append(handle.size())
        except (pa.ArrowException, OSError) as error:
            raise ParquetInputError(f"{what} {prefix + file} is not a readable Parquet file "
                                    f"({str(error).splitlines()[0]}): replace it, or remove it from the input")\
                from None
        file_schema = metadata.schema.to_arrow_schema()
        if schema is None:
            schema = file_schema
        elif not file_schema.remove_metadata().equals(schema.remove_metadata()):
            raise ParquetInputError(f"{what} {given}: {prefix + file} has other columns than {prefix + files[0]}: "
                                    "give the shards of one table")
        footers.append(metadata)
    assert schema is not None
    check_schema(schema, required=required, source=prefix + files[0])
    return ParquetInput(given, filesystem, tuple(files), schema, tuple(footers), tuple(sizes), prefix, run_folder)
