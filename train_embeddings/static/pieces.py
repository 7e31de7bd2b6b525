"""The teacher tokenizer's pieces as a vocabulary: :class:`StaticVocab` (a raw sentence → the piece ids a static
component averages, exactly as model2vec cuts it) and :class:`PieceMemo`, its per-word memo."""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["PieceMemo", "StaticVocab", "word_local"]


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
