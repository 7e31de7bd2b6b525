"""Vocabularies and featurisation: Moses token lists → word ids and character-trigram ids, vectorised.

    words = WordVocab.build(word_counts, min_count=1, pretrained=glove)     # <pad>=0, <unk>=1, then words
    trigrams = TrigramVocab.build(trigram_counts)                           # <unk>=0, then trigrams
    featurizer = Featurizer(words, trigrams, lowercase=True)
    batch = featurizer(token_lists)        # SentenceBatch: flat ids + offsets per sentence (no padding)

**Words** are the pair's Moses tokens, lower-cased (``lowercase=True``, the default: GloVe and PARAGRAM
vocabularies are lower-case). Id 0 is ``<pad>`` (only the LSTM pads), id 1 ``<unk>`` (every token the vocabulary
lacks). Training words seen at least ``min_count`` times are *trainable*; with pretrained vectors and
``keep_pretrained_vocab``, pretrained words never seen in training follow them as *frozen* rows
(ids ``n_trainable ..``): Adam would never move them (their gradient is always zero), so keeping them out of
the optimiser is exact and saves a dense update of the whole pretrained table per step.

**Character trigrams** follow Wieting et al. (2016a, CHARAGRAM) and ParaNMT-50M §4: the sentence is the
lower-cased tokens joined by single spaces with a leading space (``" " + sentence``; ``trailing_space=True`` also
appends one, as the released code does), and every window of 3 characters (Unicode code points) is a trigram.
Extraction is vectorised: the batch's sentences are concatenated into one UTF-32 code-point array, each trigram
is packed exactly into a uint64 (three 21-bit code points) and looked up in the sorted keys of the vocabulary with
one ``np.searchsorted``. Unknown trigrams map to ``<unk>`` (id 0).

**SentencePiece pieces** (``sp``; ParaGram-SP of Wieting et al. 2019/2021, "Paraphrastic Representations at
Scale"): a SentencePiece model (unigram by default) trained on the training pairs' sentences — the lower-cased
tokens joined by spaces, the string the trigrams are cut from — segments each sentence into pieces; every
sentence has pieces (no out-of-vocabulary words: unseen words fall apart into known pieces). The whole batch is
segmented by one call into SentencePiece's C++ (``encode`` on a list), flattened with NumPy.

Word lookup dictionary-encodes the batch once (:func:`paranmt.core.token_arrays.encode_tokens`) and maps only its
distinct tokens through a Python dict: a few thousand look-ups per mega-batch instead of one per token.
"""

from __future__ import annotations

import io
import itertools
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import sentencepiece as spm
import torch

from paranmt.core.token_arrays import TokenLists, as_token_lists, encode_tokens
from train_embeddings.static.pieces import StaticVocab
from train_embeddings.static.teacher_targets import TeacherTargets

__all__ = ["PAD", "UNK", "Featurizer", "SentenceBatch", "SentencePieceVocab", "TrigramVocab", "WordVocab",
           "count_trigrams",
           "count_words", "sentence_strings", "trigram_keys"]

PAD = "<pad>"
UNK = "<unk>"
_CP_BITS = 21  # Unicode code points fit 21 bits: three of them fit one uint64 exactly
_CP_MASK = (1 << _CP_BITS) - 1


# ------------------------------------------------------------------------------------------------- batch


@dataclass
class SentenceBatch:
    """Featurised sentences: ragged id sequences stored flat with offsets (sentence ``i`` owns
    ``ids[offsets[i]:offsets[i + 1]]``). Either part may be None when the model does not need it.

    ``word_ids`` / ``word_offsets``: int64 word ids; ``trigram_ids`` / ``trigram_offsets``: int64 trigram ids;
    ``sp_ids`` / ``sp_offsets``: int64 SentencePiece ids. Offsets have ``n + 1`` entries and start at 0.
    """

    n: int
    word_ids: torch.Tensor | None = None
    word_offsets: torch.Tensor | None = None
    trigram_ids: torch.Tensor | None = None
    trigram_offsets: torch.Tensor | None = None
    sp_ids: torch.Tensor | None = None
    sp_offsets: torch.Tensor | None = None
    static_ids: torch.Tensor | None = None
    static_offsets: torch.Tensor | None = None
    teacher: torch.Tensor | None = None  # n x teacher dim: the teacher loss's targets, zero rows where unknown

    def __len__(self) -> int:
        return self.n

    def to(self, device: torch.device | str) -> SentenceBatch:
        def move(t: torch.Tensor | None) -> torch.Tensor | None:
            return None if t is None else t.to(device, non_blocking=True)

        return SentenceBatch(self.n, move(self.word_ids), move(self.word_offsets), move(self.trigram_ids),
                             move(self.trigram_offsets), move(self.sp_ids), move(self.sp_offsets),
                             move(self.static_ids), move(self.static_offsets), move(self.teacher))

    def select(self, index: torch.Tensor) -> SentenceBatch:
        """The sentences ``index`` (any order, repeats allowed), gathered without a Python loop."""
        index = index.to(torch.long)
        words = _gather_ragged(self.word_ids, self.word_offsets, index) if self.word_ids is not None else (None, None)
        trigrams = (_gather_ragged(self.trigram_ids, self.trigram_offsets, index)
                    if self.trigram_ids is not None else (None, None))
        pieces = _gather_ragged(self.sp_ids, self.sp_offsets, index) if self.sp_ids is not None else (None, None)
        static = (_gather_ragged(self.static_ids, self.static_offsets, index)
                  if self.static_ids is not None else (None, None))
        teacher = self.teacher[index] if self.teacher is not None else None
        return SentenceBatch(int(index.numel()), *words, *trigrams, *pieces, *static, teacher)

    def word_lengths(self) -> torch.Tensor:
        assert self.word_offsets is not None
        return self.word_offsets[1:] - self.word_offsets[:-1]

    def padded_words(self, pad: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
        """(``n x T`` word ids right-padded with ``pad``, lengths) — for the recurrent models."""
        assert self.word_ids is not None and self.word_offsets is not None
        lengths = self.word_lengths()
        width = int(lengths.max()) if self.n else 0
        padded = torch.full((self.n, max(width, 1)), pad, dtype=torch.long, device=self.word_ids.device)
        if self.word_ids.numel():
            row = torch.repeat_interleave(torch.arange(self.n, device=lengths.device), lengths)
            col = torch.arange(self.word_ids.numel(), device=lengths.device) - self.word_offsets[:-1][row]
            padded[row, col] = self.word_ids
        return padded, lengths


def _gather_ragged(ids: torch.Tensor, offsets: torch.Tensor, index: torch.Tensor
                   ) -> tuple[torch.Tensor, torch.Tensor]:
    starts = offsets[:-1][index]
    lengths = offsets[1:][index] - starts
    new_offsets = torch.zeros(index.numel() + 1, dtype=torch.long, device=ids.device)
    torch.cumsum(lengths, 0, out=new_offsets[1:])
    total = int(new_offsets[-1])
    if total == 0:
        return ids.new_zeros(0), new_offsets
    row = torch.repeat_interleave(torch.arange(index.numel(), device=ids.device), lengths, output_size=total)
    position = torch.arange(total, device=ids.device) - new_offsets[:-1][row] + starts[row]
    return ids[position], new_offsets


# ------------------------------------------------------------------------------------------------- words


class WordVocab:
    """``<pad>``, ``<unk>``, trainable words, then frozen pretrained words (see the module docstring)."""

    def __init__(self, words: Sequence[str], n_trainable: int | None = None, lowercase: bool = True) -> None:
        words = list(words)
        if words[:2] != [PAD, UNK]:
            raise ValueError(f"a word vocabulary starts with {PAD!r}, {UNK!r}; got {words[:2]}")
        self.words = words
        self.index = {w: i for i, w in enumerate(words)}
        if len(self.index) != len(words):
            raise ValueError("the word vocabulary has duplicates")
        self.n_trainable = len(words) if n_trainable is None else int(n_trainable)
        if not 2 <= self.n_trainable <= len(words):
            raise ValueError(f"n_trainable {self.n_trainable} outside 2..{len(words)}")
        self.lowercase = lowercase

    def __len__(self) -> int:
        return len(self.words)

    @property
    def n_frozen(self) -> int:
        return len(self.words) - self.n_trainable

    @classmethod
    def build(cls, counts: Mapping[str, int], *, min_count: int = 1, max_size: int | None = None,
              pretrained: Iterable[str] | None = None, lowercase: bool = True) -> WordVocab:
        """Trainable words: ``counts`` entries seen ``min_count``+ times, most frequent first (ties by word),
        at most ``max_size``; then, if given, the ``pretrained`` words not among them (frozen)."""
        kept = sorted((w for w, c in counts.items() if c >= min_count and w not in (PAD, UNK)),
                      key=lambda w: (-counts[w], w))
        if max_size is not None:
            kept = kept[:max_size]
        trainable = [PAD, UNK, *kept]
        if pretrained is None:
            return cls(trainable, lowercase=lowercase)
        seen = set(trainable)
        frozen = [w for w in dict.fromkeys(pretrained) if w not in seen]
        return cls(trainable + frozen, n_trainable=len(trainable), lowercase=lowercase)

    def lookup_distinct(self, tokens: pa.Array) -> np.ndarray:
        """Ids (int64) of **distinct** token strings; ``<unk>`` (1) where unknown."""
        get = self.index.get
        return np.fromiter((get(t, 1) for t in tokens.to_pylist()), dtype=np.int64, count=len(tokens))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"words": self.words, "n_trainable": self.n_trainable,
                                    "lowercase": self.lowercase}, ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> WordVocab:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(data["words"], data["n_trainable"], data.get("lowercase", True))


def count_words(tokens: TokenLists, lowercase: bool = True, counter: Counter | None = None) -> Counter:
    """Add the (lower-cased) token counts of ``tokens`` to ``counter`` (vectorised per batch)."""
    counter = Counter() if counter is None else counter
    flat = pc.list_flatten(as_token_lists(tokens))
    if lowercase:
        flat = pc.utf8_lower(flat)
    counts = pc.value_counts(flat)
    if len(counts):
        counter.update(dict(zip(counts.field("values").to_pylist(), counts.field("counts").to_pylist(),
                                strict=True)))
    return counter


# ------------------------------------------------------------------------------------------------- trigrams


def sentence_strings(tokens: TokenLists, lowercase: bool = True, trailing_space: bool = False) -> pa.Array:
    """``" " + " ".join(tokens)`` (``+ " "`` with ``trailing_space``) per sentence, lower-cased; null → ``" "``."""
    arrays = as_token_lists(tokens)
    joined = pc.fill_null(pc.binary_join(arrays, " "), "")
    parts = ["", joined, ""] if trailing_space else ["", joined]
    text = pc.binary_join_element_wise(*parts, " ")
    if lowercase:
        text = pc.utf8_lower(text)
    return text.combine_chunks() if isinstance(text, pa.ChunkedArray) else text


def trigram_keys(strings: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(uint64 keys of every character trigram, offsets per sentence) for a string array."""
    strings = strings.cast(pa.string())
    n = len(strings)
    lengths = pc.fill_null(pc.utf8_length(strings), 0).to_numpy().astype(np.int64)
    counts = np.maximum(lengths - 2, 0)
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(counts, out=offsets[1:])
    total = int(offsets[-1])
    if total == 0:
        return np.zeros(0, np.uint64), offsets
    text = "".join(pc.fill_null(strings, "").to_pylist())
    points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    starts = np.zeros(n, np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    sentence = np.repeat(np.arange(n), counts)
    position = np.arange(total, dtype=np.int64) - offsets[:-1][sentence] + starts[sentence]
    keys = (points[position] << np.uint64(2 * _CP_BITS)) | (points[position + 1] << np.uint64(_CP_BITS)) \
        | points[position + 2]
    return keys, offsets


def _key_to_string(key: int) -> str:
    return chr((key >> (2 * _CP_BITS)) & _CP_MASK) + chr((key >> _CP_BITS) & _CP_MASK) + chr(key & _CP_MASK)


def _string_to_key(trigram: str) -> int:
    a, b, c = (ord(ch) for ch in trigram)
    return (a << (2 * _CP_BITS)) | (b << _CP_BITS) | c


def count_trigrams(strings: pa.Array, counts: tuple[np.ndarray, np.ndarray] | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Merge the trigram counts of ``strings`` into ``counts`` = (sorted uint64 keys, int64 counts)."""
    keys, _ = trigram_keys(strings)
    new_keys, new_counts = np.unique(keys, return_counts=True)
    if counts is None or not len(counts[0]):
        return new_keys, new_counts.astype(np.int64)
    all_keys = np.concatenate([counts[0], new_keys])
    all_counts = np.concatenate([counts[1], new_counts.astype(np.int64)])
    merged, inverse = np.unique(all_keys, return_inverse=True)
    return merged, np.bincount(inverse, weights=all_counts, minlength=len(merged)).astype(np.int64)


class TrigramVocab:
    """``<unk>`` (id 0) then trigram strings; lookups through sorted uint64 keys."""

    def __init__(self, trigrams: Sequence[str], trailing_space: bool = False) -> None:
        trigrams = list(trigrams)
        if not trigrams or trigrams[0] != UNK:
            raise ValueError(f"a trigram vocabulary starts with {UNK!r}")
        bad = [t for t in trigrams[1:] if len(t) != 3]
        if bad:
            raise ValueError(f"not trigrams: {bad[:5]}")
        self.trigrams = trigrams
        self.trailing_space = trailing_space
        keys = np.array([_string_to_key(t) for t in trigrams[1:]], dtype=np.uint64)
        order = np.argsort(keys, kind="stable")
        self._keys = keys[order]
        self._ids = (order + 1).astype(np.int64)
        if len(np.unique(self._keys)) != len(self._keys):
            raise ValueError("the trigram vocabulary has duplicates")

    def __len__(self) -> int:
        return len(self.trigrams)

    @classmethod
    def build(cls, counts: tuple[np.ndarray, np.ndarray], *, min_count: int = 1, max_size: int | None = None,
              trailing_space: bool = False) -> TrigramVocab:
        keys, freq = counts
        keep = freq >= min_count
        keys, freq = keys[keep], freq[keep]
        order = np.lexsort((keys, -freq))  # most frequent first, ties by key
        if max_size is not None:
            order = order[:max_size]
        return cls([UNK, *(_key_to_string(int(k)) for k in keys[order])], trailing_space=trailing_space)

    def lookup_keys(self, keys: np.ndarray) -> np.ndarray:
        if not len(self._keys):
            return np.zeros(len(keys), np.int64)
        position = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1)
        found = self._keys[position] == keys
        return np.where(found, self._ids[position], 0)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"trigrams": self.trigrams, "trailing_space": self.trailing_space},
                                   ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> TrigramVocab:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(data["trigrams"], data.get("trailing_space", False))


# ------------------------------------------------------------------------------------------------- pieces


class SentencePieceVocab:
    """A trained SentencePiece model (its serialised proto is the whole vocabulary); ids are SentencePiece's own
    (``<unk>`` 0, ``<s>`` 1, ``</s>`` 2, then pieces; the control symbols never occur in an encoding)."""

    FILE = "sp.model"

    def __init__(self, model_proto: bytes) -> None:
        self.model_proto = bytes(model_proto)
        self._sp = spm.SentencePieceProcessor(model_proto=self.model_proto)

    def __len__(self) -> int:
        return int(self._sp.get_piece_size())

    @classmethod
    def train(cls, sentences: Iterable[str], *, vocab_size: int, model_type: str = "unigram",
              character_coverage: float = 0.9999, seed: int = 1) -> SentencePieceVocab:
        """Train on ``sentences`` (one string each). ``vocab_size`` is an upper bound: a small corpus that cannot
        fill it gets the largest vocabulary it supports (``hard_vocab_limit=False``)."""
        buffer = io.BytesIO()
        spm.set_random_generator_seed(seed)
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(sentences), model_writer=buffer, vocab_size=vocab_size, model_type=model_type,
            character_coverage=character_coverage, hard_vocab_limit=False, num_threads=1,
            input_sentence_size=2_000_000, shuffle_input_sentence=True, minloglevel=2,
            # the input is already lower-cased Moses tokens: keep it as it is (no NFKC, no whitespace rewrite)
            normalization_rule_name="identity", bos_id=1, eos_id=2, unk_id=0, pad_id=-1)
        return cls(buffer.getvalue())

    def encode_strings(self, strings: pa.Array) -> tuple[np.ndarray, np.ndarray]:
        """(int64 piece ids, ``n + 1`` offsets) of a string array (one C++ call for the batch)."""
        texts = pc.fill_null(strings.cast(pa.string()), "").to_pylist()
        # a batch runs on SentencePiece's own pool, all cores by default: as many threads as torch may use instead
        pieces = self._sp.encode(texts, out_type=int, num_threads=torch.get_num_threads())
        lengths = np.fromiter((len(p) for p in pieces), dtype=np.int64, count=len(pieces))
        offsets = np.zeros(len(pieces) + 1, np.int64)
        np.cumsum(lengths, out=offsets[1:])
        flat = np.fromiter(itertools.chain.from_iterable(pieces), dtype=np.int64, count=int(offsets[-1]))
        return flat, offsets

    def save(self, path: Path) -> None:
        path.write_bytes(self.model_proto)

    @classmethod
    def load(cls, path: Path) -> SentencePieceVocab:
        return cls(path.read_bytes())


# ------------------------------------------------------------------------------------------------- featurizer


class Featurizer:
    """Token lists → :class:`SentenceBatch` (CPU tensors) with the word, trigram and/or piece ids a model needs."""

    def __init__(self, words: WordVocab | None, trigrams: TrigramVocab | None, lowercase: bool = True,
                 pieces: SentencePieceVocab | None = None, static: StaticVocab | None = None,
                 targets: TeacherTargets | None = None) -> None:
        if words is None and trigrams is None and pieces is None and static is None:
            raise ValueError("a featurizer needs a word, trigram, SentencePiece or static vocabulary")
        self.words = words
        self.trigrams = trigrams
        self.pieces = pieces
        self.static = static  # the teacher's tokenizer over raw text
        self.targets = targets  # the teacher loss's vectors
        self.lowercase = lowercase

    @property
    def needs_tokens(self) -> bool:
        """Whether any component reads Moses tokens (a static-only model reads raw text alone)."""
        return self.words is not None or self.trigrams is not None or self.pieces is not None

    def __call__(self, tokens: TokenLists | None, texts: pa.Array | pa.ChunkedArray | None = None) -> SentenceBatch:
        """Features of ``tokens`` (Moses token lists) and/or ``texts`` (the same sentences raw, for the static
        component; without them it reads the tokens joined by spaces)."""
        if self.static is not None:
            if texts is None:
                texts = pc.binary_join(as_token_lists(tokens), " ")
            texts = texts.combine_chunks() if isinstance(texts, pa.ChunkedArray) else texts
        if not self.needs_tokens:
            assert texts is not None
            return self._static_features(SentenceBatch(len(texts)), texts)
        arrays = as_token_lists(tokens)
        n = len(arrays)
        batch = SentenceBatch(n)
        if self.words is not None:
            encoded = encode_tokens(arrays)
            if self.lowercase:
                encoded = encoded.lowercased()
            rows = self.words.lookup_distinct(encoded.dictionary)
            ids = rows[encoded.ids] if len(encoded.ids) else np.zeros(0, np.int64)
            batch.word_ids = torch.from_numpy(np.ascontiguousarray(ids, dtype=np.int64))
            batch.word_offsets = torch.from_numpy(encoded.offsets.astype(np.int64))
        if self.trigrams is not None:
            strings = sentence_strings(arrays, self.lowercase, self.trigrams.trailing_space)
            keys, offsets = trigram_keys(strings)
            batch.trigram_ids = torch.from_numpy(self.trigrams.lookup_keys(keys))
            batch.trigram_offsets = torch.from_numpy(offsets)
        if self.pieces is not None:
            ids, offsets = self.pieces.encode_strings(sentence_strings(arrays, self.lowercase))
            batch.sp_ids = torch.from_numpy(ids)
            batch.sp_offsets = torch.from_numpy(offsets)
        if self.static is not None:
            assert texts is not None
            batch = self._static_features(batch, texts)
        return batch

    def _static_features(self, batch: SentenceBatch, texts: pa.Array) -> SentenceBatch:
        ids, offsets = self.static.encode_strings(texts)
        batch.static_ids = torch.from_numpy(ids)
        batch.static_offsets = torch.from_numpy(offsets)
        if self.targets is not None:
            batch.teacher = torch.from_numpy(self.targets.lookup(texts))
        return batch
