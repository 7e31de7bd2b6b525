"""The stand-alone translator behind ``paranmt translate`` (whose help, paranmt/cli/translate_command.py, says
what it reads and writes): raw source lines read in chunks, each decoded by the pipeline's translator, the
TSV written in input order, undecodable lines reported by status."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from paranmt.core.chunking import in_lists
from translate.translator import Translation

COLUMNS = ["line", "rank", "status", "score", "hypothesis", "source_tokens", "target_tokens", "hit_length_cap",
           "error"]
INVALID_UTF8 = "invalid_utf8"


def open_text_file(path: Path, mode: str) -> IO:
    """``path`` opened in ``mode``, through gzip when it ends in ``.gz``."""
    return gzip.open(path, mode) if path.suffix == ".gz" else path.open(mode)


def _clean(text: str) -> str:
    return text.replace("\t", " ").replace("\n", " ").replace("\r", " ")


def _decoded_line(number: int, raw: bytes) -> tuple[int, str | None, str | None]:
    try:
        return number, raw.rstrip(b"\r\n").decode("utf-8"), None
    except UnicodeDecodeError as error:
        return number, None, f"invalid UTF-8: {error.reason} at byte {error.start}"


def read_chunks(path: Path, chunk_size: int) -> Iterator[list[tuple[int, str | None, str | None]]]:
    """(line number, text or None, decode error or None) in chunks; bytes are decoded per line."""
    with open_text_file(path, "rb") as handle:
        yield from in_lists((_decoded_line(number, raw) for number, raw in enumerate(handle, start=1)), chunk_size)


def format_rows(line: int, translation: Translation) -> list[str]:
    base = [translation.status.value]
    hyps = translation.nbest or ()
    if not hyps:
        return ["\t".join([str(line), "1", *base, "", "", str(translation.source_tokens), "0", "false",
                           _clean(translation.error or "")])]
    return ["\t".join([str(line), str(rank), *base, f"{h.score:.6f}", _clean(h.text), str(translation.source_tokens),
                       str(len(h.tokens)), str(rank == 1 and translation.hit_length_cap).lower(), ""])
            for rank, h in enumerate(hyps, start=1)]


def count_lines(path: Path) -> int | None:
    if path.suffix == ".gz":
        return None
    with path.open("rb") as handle:
        return sum(block.count(b"\n") for block in iter(lambda: handle.read(1 << 20), b""))

