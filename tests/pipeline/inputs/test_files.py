"""pipeline.inputs.files: the counting pre-pass (line counts, seek offsets, the content digest) over plain and
compressed files, compressed streams checked to their end, and the one-line errors of a missing file, a missing
file system, a damaged or mislabelled compressed file."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import lzma
import zlib

import pytest
import zstandard

from pipeline.inputs.files import (
    READ_BLOCK,
    CorruptInputError,
    InputError,
    file_system_problem,
    index_lines,
    input_exists,
    is_compressed,
    open_input,
    strip_compression,
)
from tests.support.input_helpers import write_file
from tests.support.taste_data import TASTE_DATA
from tests.support.text_files import read_lines

LINES = "".join(f"Věta číslo {i} je tady.\n" for i in range(100)).encode()  # 100 lines
COMPRESSORS = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress,
               ".zst": zstandard.ZstdCompressor().compress}


def _line_starts(data: bytes) -> list[int]:
    """The byte offset of every line of ``data`` (lines split on \\n; a last line without one is a line)."""
    starts, position = [], 0
    while position < len(data):
        starts.append(position)
        end = data.find(b"\n", position)
        position = len(data) if end < 0 else end + 1
    return starts


def test_index_lines_counts_and_offsets(tmp_path):
    lines = [f"line {i}".encode() for i in range(1, 26)]
    path = write_file(tmp_path / "a.cs", b"\n".join(lines))  # no final newline: the last line still counts
    index = index_lines(str(path), every=10)
    assert index.lines == 25
    data = path.read_bytes()
    assert [data[o:].split(b"\n", 1)[0] for o in index.offsets] == [b"line 1", b"line 11", b"line 21"]
    assert index_lines(str(write_file(tmp_path / "b.cs", b"x\ny\n")), 1).offsets == (0, 2)
    assert index_lines(str(write_file(tmp_path / "e.cs", b"")), 10).lines == 0


@pytest.mark.parametrize("every", [1, 7, 1000, 100_000])
def test_index_lines_equals_a_line_by_line_count_across_read_blocks(tmp_path, every):
    """Real Czech lines (multi-byte UTF-8), empty lines and CRLF endings, over more than two read blocks, against
    splitting the bytes by hand: the same count, every ``every``-th line's offset, the size and the SHA-256."""
    real = [line.encode() for line in read_lines(TASTE_DATA / "bitext" / "tatoeba.cs")]
    rows, size, k = [], 0, 0
    while size < 2 * READ_BLOCK + 12345:
        row = real[k % len(real)] + (b"\r\n" if k % 5 == 0 else b"\n")
        rows.append(b"\n" if k % 11 == 0 else row)
        size += len(rows[-1])
        k += 1
    data = b"".join(rows) + b"the last line has no newline"
    index = index_lines(str(write_file(tmp_path / "big.cs", data)), every)
    starts = _line_starts(data)
    assert index.lines == len(starts) == len(rows) + 1
    assert list(index.offsets) == starts[::every]
    assert index.size == len(data) and index.digest == hashlib.sha256(data).hexdigest()
    assert not index.compressed and index.every == every


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
def test_every_compression_is_checked_to_its_end(tmp_path, suffix):
    data = COMPRESSORS[suffix](LINES)
    whole, cut = tmp_path / f"whole.cs{suffix}", tmp_path / f"cut.cs{suffix}"
    whole.write_bytes(data)
    cut.write_bytes(data[:-7])
    index = index_lines(str(whole), 10)
    assert index.lines == 100 and index.compressed and index.offsets == ()  # nothing to seek to in a stream
    assert index.size == len(LINES) and index.digest == hashlib.sha256(LINES).hexdigest()  # what it holds
    with pytest.raises(CorruptInputError, match=rf"{cut} is truncated or corrupt"):
        index_lines(str(cut), 10)


def test_concatenated_and_zero_padded_gzip_reads_whole(tmp_path):
    """Multi-member gzip files (cat a.gz b.gz) and zero padding are valid: every line is read."""
    path = tmp_path / "multi.cs.gz"
    path.write_bytes(gzip.compress(LINES[:1000]) + gzip.compress(LINES[1000:]) + b"\0" * 64)
    assert index_lines(str(path), 10).lines == 100


def test_a_deflate_file_reads_as_beam_writes_it(tmp_path):
    path = write_file(tmp_path / "a.tsv.deflate", zlib.compress(LINES))
    with open_input(str(path)) as handle:
        assert handle.read() == LINES


def test_a_cut_stream_names_the_byte_and_the_tool_that_checks_it(tmp_path):
    data = gzip.compress(LINES)
    path = write_file(tmp_path / "corpus.tsv.gz", data[: len(data) // 2])
    with pytest.raises(CorruptInputError) as error, open_input(str(path)) as handle:
        handle.read()
    message = str(error.value)
    assert f"ends at byte {len(data) // 2} before its end marker" in message
    assert f"`gzip -t {path}` checks it" in message and "re-download or re-export it" in message


def test_a_flipped_byte_is_a_data_error_naming_the_file(tmp_path):
    data = bytearray(gzip.compress(LINES))
    data[len(data) // 2] ^= 0xFF
    path = write_file(tmp_path / "corpus.tsv.gz", bytes(data))
    with pytest.raises(CorruptInputError, match=rf"^{path} is truncated or corrupt \(gzip data error within"):
        index_lines(str(path), 10)


@pytest.mark.parametrize(("suffix", "kind", "magic"), [(".gz", "gzip", "1f 8b"), (".bz2", "bzip2", "42 5a 68")])
def test_plain_text_named_as_compressed_says_to_rename_it(tmp_path, suffix, kind, magic):
    path = write_file(tmp_path / f"corpus.tsv{suffix}", LINES)
    with pytest.raises(CorruptInputError) as error:
        index_lines(str(path), 10)
    assert str(error.value) == (f"{path} is not {kind}-compressed (it does not start with the {kind} magic bytes "
                                f"{magic}): if it is plain text, rename it without its {suffix} suffix; otherwise "
                                "re-download it")


def test_an_uncompressed_file_seeks_to_an_offset(tmp_path):
    path = write_file(tmp_path / "a.cs", LINES)
    index = index_lines(str(path), 10)
    with open_input(str(path)) as handle:
        handle.seek(index.offsets[3])
        assert handle.readline() == "Věta číslo 30 je tady.\n".encode()


def test_a_missing_file_and_a_missing_file_system_are_input_errors(tmp_path):
    with pytest.raises(InputError, match=rf"^input file {tmp_path / 'nope.cs'} does not exist$"):
        index_lines(str(tmp_path / "nope.cs"), 10)
    assert file_system_problem(str(tmp_path / "nope.cs")) is None and input_exists(str(tmp_path / "nope.cs")) is False
    problem = "no file system for nosuch:// is installed here (install the package Beam's nosuch:// needs)"
    assert file_system_problem("nosuch://bucket/a.cs") == problem
    with pytest.raises(InputError) as error:
        input_exists("nosuch://bucket/a.cs")
    assert str(error.value) == f"input file nosuch://bucket/a.cs: {problem}"


def test_compression_is_told_by_the_suffix_and_stripped_from_names():
    assert [is_compressed(f"a.tsv{s}") for s in (".gz", ".bz2", ".zst", ".xz", ".deflate", "")] == [True] * 5 + [False]
    assert [strip_compression(n) for n in ("news.tsv.gz", "news.cs.zst", "news.tsv.xz", "news.cs", "gz.tsv")] == [
        "news.tsv", "news.cs", "news.tsv", "news.cs", "gz.tsv"]
    # what Beam reads as plain text keeps its suffix: the name says what is read
    assert [(is_compressed(n), strip_compression(n)) for n in ("a.tsv.gzip", "a.tsv.snappy")] == [
        (False, "a.tsv.gzip"), (False, "a.tsv.snappy")]
