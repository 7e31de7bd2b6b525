"""Opening the pipeline's input files, plain or compressed, on any Beam file system, and counting their lines.

A compressed file is decompressed with a stream that raises :class:`CorruptInputError` on a truncated or corrupt
file instead of ending early, so no run reads a damaged input short. :func:`index_lines` is the counting pre-pass
over a pair, TSV or JSONL file (line count and seek offsets).
"""

from __future__ import annotations

import bz2
import hashlib
import io
import lzma
import os
import zlib
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import zstandard
from apache_beam.io.filesystem import BeamIOError, CompressionTypes
from apache_beam.io.filesystems import FileSystems

from paranmt.core.errors import ParanmtError

READ_BLOCK = 1 << 20


class InputError(ParanmtError, ValueError):
    """An input is missing, unreadable or inconsistent; the message names the file(s)."""


@dataclass(frozen=True)
class LineIndex:
    """The counting pre-pass over one file: its line count and the byte offset of every ``every``-th line."""

    path: str
    lines: int
    every: int
    offsets: tuple[int, ...]  # offsets[k] = byte offset of line k * every + 1 (1-based lines); empty if compressed
    compressed: bool
    size: int  # bytes read (decompressed size for compressed files)
    digest: str  # SHA-256 of those bytes, hex: what the file holds, whatever its path (plan.recorded_inputs)


def compression_of(path: str) -> str:
    return CompressionTypes.detect_compression_type(path)


def is_compressed(path: str) -> bool:
    return compression_of(path) != CompressionTypes.UNCOMPRESSED


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
        return zstandard.ZstdDecompressor(max_window_size=1 << 31).decompressobj()
    raise InputError(f"unsupported compression {kind!r}")


def _data_errors(kind: str) -> tuple[type[BaseException], ...]:
    """What a decompressor raises for bad data."""
    errors: tuple[type[BaseException], ...] = (zlib.error, OSError, EOFError, lzma.LZMAError, ValueError)
    if kind == CompressionTypes.ZSTD:
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

    def readinto(self, buffer: bytearray | memoryview) -> int:
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


def open_input(path: str, compressed: bool | None = None) -> BinaryIO:
    if compressed is None:
        compressed = is_compressed(path)
    if not compressed:
        return FileSystems.open(path, mime_type="application/octet-stream",
                                compression_type=CompressionTypes.UNCOMPRESSED)
    return io.BufferedReader(_Decompressed(path, compression_of(path)), buffer_size=READ_BLOCK)


def strip_compression(name: str) -> str:
    """``name`` without the suffix that makes Beam read it compressed (:func:`compression_of`), the one rule: a
    suffix Beam reads as plain text (``.gzip``, ``.snappy``) stays."""
    return name if not is_compressed(name) else name.rsplit(".", 1)[0]


def file_system_problem(path: str) -> str | None:
    """Why no Beam file system serves ``path`` here (a gs:// path without the gcp extra, say); None when one does."""
    try:
        FileSystems.get_filesystem(path)
    except (ValueError, BeamIOError):
        scheme = FileSystems.get_scheme(path)
        install = "pip install -e '.[gcp]'" if scheme == "gs" else f"install the package Beam's {scheme}:// needs"
        return f"no file system for {scheme}:// is installed here ({install})"
    return None


def input_exists(path: str) -> bool:
    """Whether ``path`` exists; :class:`InputError` when its file system is missing or cannot answer."""
    problem = file_system_problem(path)
    if problem is not None:
        raise InputError(f"input file {path}: {problem}")
    try:
        return FileSystems.exists(path)
    except Exception as error:  # credentials, a client option, the network: say which, not "does not exist"
        raise InputError(f"input file {path} cannot be checked: {error}") from None


def index_lines(path: str, every: int) -> LineIndex:
    """Count the lines of ``path`` (lines split on ``\\n``; a last line without one counts) and record the byte
    offset of lines ``1, every + 1, 2 * every + 1, ...``. Compressed files are counted but get no offsets."""
    if not input_exists(path):
        raise InputError(f"input file {path} does not exist")
    compressed = is_compressed(path)
    offsets: list[int] = [0]
    newlines = 0
    size = 0
    last = b""
    content = hashlib.sha256()  # in the same pass: an input is read once on the launcher
    with open_input(path, compressed) as handle:
        while True:
            block = handle.read(READ_BLOCK)
            if not block:
                break
            content.update(block)
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
    return LineIndex(path, lines, every, kept, compressed, size, content.hexdigest())
