"""Counting for the PMI lexicon (units: :mod:`pipeline.analysis.lexicon`): which pairs count, pass 1 (sentences per
word and side, then the vocabulary), pass 2 (cross- and within-sentence word-pair counts), and both passes over
in-memory tables or Parquet shards.

**Cost.** Pass 1 counts word types per side (memory: the distinct words). Pass 2 materialises, per pair, the
cartesian products of its two type sets (cross) and of each set with itself (within): time grows with
sum over pairs of |a| |b| + (|a|^2 + |b|^2) / 2, i.e. linearly in the corpus and quadratically in sentence length
(bounded by ``max_tokens``). At most ``chunk_keys`` word pairs are materialised at once; the accumulated tables hold
the distinct word pairs seen, which grow sub-linearly with the corpus and never beyond V(V+1)/2 per table for a
vocabulary of V words (``max_vocab``, ``min_count``, stop words).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from tqdm import tqdm

from configs.schema import LexiconConfig
from paranmt.core.errors import ParanmtError
from paranmt.core.pair_schema import EN_TOKENS, KEEP, MT_TOKENS, PARAPHRASE_SCORE
from paranmt.core.parquet_inputs import read_parquet_input
from paranmt.core.run_layout import PAIRS

__all__ = ["ENGLISH_STOPWORDS", "SKIP_REASONS", "KeyCounts", "LexiconError", "Marginals", "PairCounts", "Vocabulary",
           "build_from_parquet", "build_from_tables", "cartesian_chunks", "required_columns",
           "select_pairs", "sorted_unique"]

# A short English function-word list: they co-occur with everything, fill the joint tables with uninformative
# pairs, and are not paraphrase targets. ``lexicon.drop_stopwords: false`` keeps them. Not spaCy's STOP_WORDS: that
# retrieval list also holds 195 content words (numbers, front/back/top, and verbs such as give, take, make, move,
# show — 15 SimVerb-3500 words in 335 of its pairs), whose paraphrases a lexicon should keep.
_STOPWORD_TEXT = """
a about above after again against all am an and any are as at be because been before being below between both
but by can could did do does doing down during each few for from further had has have having he her here hers
herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on
once only or other our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what when where which
while who whom why will with would you your yours yourself yourselves 's 're 've 'd 'll 'm n't
"""
ENGLISH_STOPWORDS = frozenset(_STOPWORD_TEXT.split())

# Skip reasons, in the order the rules are applied (a row gets the first that applies).
SKIP_EMPTY = "empty_side"
SKIP_MISSING_SCORE = "missing_score"
SKIP_LOW_SCORE = "score_below_min"
SKIP_TOO_LONG = "too_many_tokens"
SKIP_NOT_KEPT = "not_kept"
SKIP_REASONS = (SKIP_EMPTY, SKIP_MISSING_SCORE, SKIP_LOW_SCORE, SKIP_TOO_LONG, SKIP_NOT_KEPT)


class LexiconError(ParanmtError, ValueError):
    """Bad input for the lexicon (missing files or columns, nothing to count); the message says what."""


# ------------------------------------------------------------------------------------------------ selection


def _column(table: pa.Table, name: str) -> pa.ChunkedArray | None:
    return table.column(name) if name in table.column_names else None


def select_pairs(table: pa.Table, config: LexiconConfig) -> tuple[pa.ChunkedArray, pa.ChunkedArray, dict[str, int]]:
    """The pairs of ``table`` the lexicon counts (``en_tokens``, ``mt_tokens``) and per-reason skip counts.

    Every row is either used or skipped for exactly one reason (:data:`SKIP_REASONS`, first applicable wins):
    ``read = used + sum(skipped)``.
    """
    n = table.num_rows
    en, mt = table.column(EN_TOKENS), table.column(MT_TOKENS)
    remaining = np.ones(n, bool)
    skipped: dict[str, int] = {}

    def apply(reason: str, bad: np.ndarray) -> None:
        hit = remaining & bad
        skipped[reason] = int(hit.sum())
        remaining[hit] = False

    en_len = pc.fill_null(pc.list_value_length(en), 0).to_numpy(zero_copy_only=False)
    mt_len = pc.fill_null(pc.list_value_length(mt), 0).to_numpy(zero_copy_only=False)
    apply(SKIP_EMPTY, (en_len == 0) | (mt_len == 0))
    if config.min_score is not None:
        score = _column(table, PARAPHRASE_SCORE)
        if score is None:
            raise LexiconError(f"lexicon.min_score is {config.min_score} but the input has no {PARAPHRASE_SCORE} "
                               "column (set lexicon.min_score=null to count every pair)")
        if not pa.types.is_floating(score.type):
            score = pc.cast(score, pa.float64())
        values = pc.fill_null(score, math.nan).to_numpy(zero_copy_only=False)
        apply(SKIP_MISSING_SCORE, np.isnan(values))
        # Compare in the column's precision: a float32 score of 0.35 must pass min_score 0.35.
        apply(SKIP_LOW_SCORE, values < np.asarray(config.min_score, values.dtype))
    if config.max_tokens is not None:
        apply(SKIP_TOO_LONG, (en_len > config.max_tokens) | (mt_len > config.max_tokens))
    if config.only_kept:
        keep = _column(table, KEEP)
        if keep is None:
            raise LexiconError(f"lexicon.only_kept is true but the input has no {KEEP} column")
        apply(SKIP_NOT_KEPT, ~pc.fill_null(keep, False).to_numpy(zero_copy_only=False))
    mask = pa.array(remaining)
    return en.filter(mask), mt.filter(mask), skipped


def required_columns(config: LexiconConfig) -> tuple[str, ...]:
    """The Parquet columns the lexicon reads under ``config``."""
    columns = [EN_TOKENS, MT_TOKENS]
    if config.min_score is not None:
        columns.append(PARAPHRASE_SCORE)
    if config.only_kept:
        columns.append(KEEP)
    return tuple(columns)


# ------------------------------------------------------------------------------------------ token handling


def _flat_tokens(lists: pa.ChunkedArray | pa.Array, lowercase: bool) -> tuple[pa.Array, np.ndarray]:
    """Flat tokens and the row index of each (list arrays -> values + parent indices, no Python loop)."""
    array = lists.combine_chunks() if isinstance(lists, pa.ChunkedArray) else lists
    if len(array) == 0:
        return pa.array([], pa.string()), np.zeros(0, np.int64)
    values = pc.list_flatten(array)
    rows = pc.list_parent_indices(array).to_numpy(zero_copy_only=False).astype(np.int64)
    if lowercase:
        values = pc.utf8_lower(values)
    return values, rows


def sorted_unique(keys: np.ndarray, counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys and their summed counts (1 per occurrence without ``counts``). Sort-based: NumPy 2's
    hash-based ``np.unique`` is several times slower on int64 keys. Stable sort: merging already sorted runs (the
    accumulated table and a sorted chunk) is then close to linear (timsort)."""
    if keys.size == 0:
        return keys.astype(np.int64), np.zeros(0, np.int64)
    if counts is None:  # a fresh chunk: plain (SIMD) sort, no permutation needed
        ordered = np.sort(keys)
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        summed = np.diff(np.r_[starts, ordered.size]).astype(np.int64)
    else:
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        summed = np.add.reduceat(counts[order].astype(np.int64, copy=False), starts)
    return ordered[starts], summed


def _unique_rows(rows: np.ndarray, ids: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(row, id) with duplicates removed, sorted by row then id: the word types of each sentence."""
    keys = np.sort(rows * width + ids)
    keys = keys[np.r_[True, keys[1:] != keys[:-1]]] if keys.size else keys
    return keys // width, keys % width


# --------------------------------------------------------------------------------------------- marginals


@dataclass
class Marginals:
    """Pass 1: sentences per word and side, plus the row accounting. Mergeable (a Beam accumulator)."""

    words: pa.Array = field(default_factory=lambda: pa.array([], pa.string()))
    ref: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    mt: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    read: int = 0
    used: int = 0
    skipped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SKIP_REASONS, 0))

    def add_table(self, table: pa.Table, config: LexiconConfig) -> None:
        """Count the pairs of one record batch / table that pass :func:`select_pairs`."""
        en, mt, skipped = select_pairs(table, config)
        self.read += table.num_rows
        self.used += len(en)
        for reason, n in skipped.items():
            self.skipped[reason] = self.skipped.get(reason, 0) + n
        parts = [self._side_counts(en, config), self._side_counts(mt, config)]
        words = pa.concat_arrays([parts[0][0], parts[1][0]])
        ref = np.concatenate([parts[0][1], np.zeros(len(parts[1][0]), np.int64)])
        mt_counts = np.concatenate([np.zeros(len(parts[0][0]), np.int64), parts[1][1]])
        self._merge_arrays(words, ref, mt_counts)

    @staticmethod
    def _side_counts(lists: pa.ChunkedArray, config: LexiconConfig) -> tuple[pa.Array, np.ndarray]:
        values, rows = _flat_tokens(lists, config.lowercase)
        if len(values) == 0:
            return pa.array([], pa.string()), np.zeros(0, np.int64)
        encoded = pc.dictionary_encode(values)
        ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        _, types = _unique_rows(rows, ids, len(encoded.dictionary))
        return encoded.dictionary, np.bincount(types, minlength=len(encoded.dictionary)).astype(np.int64)

    def _merge_arrays(self, words: pa.Array, ref: np.ndarray, mt: np.ndarray) -> None:
        table = pa.table({"w": pa.concat_arrays([self.words, words.cast(pa.string())]),
                          "r": np.concatenate([self.ref, ref]), "m": np.concatenate([self.mt, mt])})
        grouped = table.group_by("w").aggregate([("r", "sum"), ("m", "sum")]).sort_by("w")
        self.words = grouped.column("w").combine_chunks()
        self.ref = grouped.column("r_sum").to_numpy().astype(np.int64)
        self.mt = grouped.column("m_sum").to_numpy().astype(np.int64)

    def merge(self, other: Marginals) -> Marginals:
        self.read += other.read
        self.used += other.used
        for reason, n in other.skipped.items():
            self.skipped[reason] = self.skipped.get(reason, 0) + n
        if len(other.words):
            self._merge_arrays(other.words, other.ref, other.mt)
        return self

    def stats(self) -> dict[str, Any]:
        return {"read": self.read, "used": self.used, "skipped": dict(self.skipped)}


@dataclass
class Vocabulary:
    """The counted words, most frequent first (ties by word), with their per-side sentence counts."""

    words: pa.Array
    ref: np.ndarray
    mt: np.ndarray
    pairs: int  # P: pairs used
    excluded: dict[str, int] = field(default_factory=dict)  # words left out, by rule
    _shards: dict[int, np.ndarray] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.words)

    @property
    def total(self) -> np.ndarray:
        return self.ref + self.mt

    @classmethod
    def from_marginals(cls, marginals: Marginals, config: LexiconConfig) -> Vocabulary:
        words = marginals.words
        total = marginals.ref + marginals.mt
        keep = np.ones(len(words), bool)
        excluded: dict[str, int] = {}
        if config.drop_punctuation and len(words):
            # A word needs a letter or a digit; Moses escapes are off, so "&" etc. are plain punctuation.
            alnum = pc.match_substring_regex(words, r"[\p{L}\p{N}]").to_numpy(zero_copy_only=False)
            excluded["punctuation"] = int((keep & ~alnum).sum())
            keep &= alnum
        stop = set(config.stopwords) | (ENGLISH_STOPWORDS if config.drop_stopwords else set())
        if stop and len(words):
            if config.lowercase:
                stop = {w.lower() for w in stop}
            is_stop = pc.is_in(words, value_set=pa.array(sorted(stop), pa.string())).to_numpy(zero_copy_only=False)
            excluded["stopword"] = int((keep & is_stop).sum())
            keep &= ~is_stop
        rare = total < config.min_count
        excluded["min_count"] = int((keep & rare).sum())
        keep &= ~rare
        index = np.flatnonzero(keep)
        names = np.asarray(words.take(pa.array(index, pa.int64())).to_pylist(), dtype=str)
        order = index[np.lexsort((names, -total[index]))] if len(index) else index
        if config.max_vocab is not None and len(order) > config.max_vocab:
            excluded["max_vocab"] = int(len(order) - config.max_vocab)
            order = order[:config.max_vocab]
        take = pa.array(order, pa.int64())
        return cls(words.take(take), marginals.ref[order], marginals.mt[order], marginals.used, excluded)

    def shards(self, num_shards: int) -> np.ndarray:
        """The lexicon shard of every vocabulary id: runs of words in byte order, cut where the running sum of the
        words' weights passes each 1/``num_shards``; read in order, the shards are one table sorted by u. The
        weight, sentence count^0.75, follows a word's number of distinct partners on the real bitext, so the
        shards hold about equal numbers of word pairs (docs/lexicon.md measured the balance against weighting by
        count). Computed once per shard count (every bundle and shard of a worker asks)."""
        if num_shards not in self._shards:
            shards = np.zeros(len(self), np.int64)
            if num_shards > 1 and len(self):
                order = pc.sort_indices(self.words).to_numpy()
                weight = self.total[order].astype(np.float64) ** 0.75
                before = np.cumsum(weight) - weight
                shards[order] = np.minimum((before * num_shards / weight.sum()).astype(np.int64), num_shards - 1)
            self._shards[num_shards] = shards
        return self._shards[num_shards]

    def lookup(self, values: pa.Array) -> np.ndarray:
        """Vocabulary ids of ``values`` (-1 where absent)."""
        return pc.fill_null(pc.index_in(values, value_set=self.words), -1).to_numpy(
            zero_copy_only=False).astype(np.int64)

    def encode(self, lists: pa.ChunkedArray, lowercase: bool) -> tuple[np.ndarray, np.ndarray]:
        """Per-sentence word types of a list column: (row, id) sorted by row then id."""
        values, rows = _flat_tokens(lists, lowercase)
        if len(values) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        ids = self.lookup(values)
        known = ids >= 0
        return _unique_rows(rows[known], ids[known], max(len(self), 1))


# ---------------------------------------------------------------------------------------------- pair counts


class KeyCounts:
    """Counts of int64 keys: a sorted unique array plus pending chunks, compacted (:func:`sorted_unique`) when the
    pending keys exceed ``budget`` (memory: the distinct keys plus at most ``budget`` pending)."""

    def __init__(self, budget: int = 2_000_000):
        self.budget = budget
        self.keys = np.zeros(0, np.int64)
        self.counts = np.zeros(0, np.int64)
        self._pending: list[tuple[np.ndarray, np.ndarray]] = []
        self._pending_size = 0

    def add(self, keys: np.ndarray, counts: np.ndarray | None = None) -> None:
        if keys.size == 0:
            return
        if counts is None:
            keys, counts = sorted_unique(keys)
        self._pending.append((keys.astype(np.int64, copy=False), counts.astype(np.int64, copy=False)))
        self._pending_size += keys.size
        if self._pending_size > self.budget:
            self.compact()

    def compact(self) -> KeyCounts:
        if self._pending:
            keys = np.concatenate([self.keys, *(k for k, _ in self._pending)])
            counts = np.concatenate([self.counts, *(c for _, c in self._pending)])
            self._pending, self._pending_size = [], 0
            self.keys, self.counts = sorted_unique(keys, counts)
        return self

    def merge(self, other: KeyCounts) -> KeyCounts:
        other.compact()
        self.add(other.keys, other.counts)
        return self

    def get(self, keys: np.ndarray) -> np.ndarray:
        """Counts of ``keys`` (0 where absent)."""
        self.compact()
        if self.keys.size == 0:
            return np.zeros(keys.size, np.int64)
        at = np.minimum(np.searchsorted(self.keys, keys), self.keys.size - 1)
        return np.where(self.keys[at] == keys, self.counts[at], 0)

    def __getstate__(self) -> dict[str, Any]:
        self.compact()
        return {"budget": self.budget, "keys": self.keys, "counts": self.counts}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.budget, self.keys, self.counts = state["budget"], state["keys"], state["counts"]
        self._pending, self._pending_size = [], 0


def _segments(rows: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Start offset and length of each row's run in a row-sorted array (rows 0..n-1; empty rows have length 0)."""
    lengths = np.bincount(rows, minlength=n).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    return starts, lengths


def cartesian_chunks(a_ids: np.ndarray, a_rows: np.ndarray, b_ids: np.ndarray, b_start: np.ndarray,
                     b_len: np.ndarray, budget: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """For each element x of a (row r), every y of row r of b, as (x, y) arrays of at most ~``budget`` entries
    (one element of a and its whole row of b is never split). Vectorised with repeat/cumsum."""
    weights = b_len[a_rows]
    if weights.sum() == 0:
        return
    ends = np.cumsum(weights)
    start = 0
    while start < a_ids.size:
        base = ends[start - 1] if start else 0
        stop = max(int(np.searchsorted(ends, base + budget, side="right")), start + 1)
        w = weights[start:stop]
        total = int(w.sum())
        if total:
            x = np.repeat(a_ids[start:stop], w)
            block = np.repeat(np.cumsum(w) - w, w)
            y = b_ids[np.repeat(b_start[a_rows[start:stop]], w) + (np.arange(total) - block)]
            yield x, y
        start = stop


class PairCounts:
    """Pass 2: cross-sentence joint counts (canonical u <= v) and within-sentence counts per side (u < v), keyed
    ``u * V + v`` for a vocabulary of V words. Mergeable (a Beam accumulator)."""

    def __init__(self, vocab_size: int, budget: int = 2_000_000):
        self.size = max(vocab_size, 1)
        self.budget = budget
        self.cross = KeyCounts(budget)
        self.within = {"ref": KeyCounts(budget), "mt": KeyCounts(budget)}
        self.pairs = 0

    def add_encoded(self, a_rows: np.ndarray, a_ids: np.ndarray, b_rows: np.ndarray, b_ids: np.ndarray,
                    n: int) -> None:
        """Add ``n`` pairs given as row-sorted (row, id) types of each side."""
        self.pairs += n
        a_start, a_len = _segments(a_rows, n)
        b_start, b_len = _segments(b_rows, n)
        V = self.size
        for x, y in cartesian_chunks(a_ids, a_rows, b_ids, b_start, b_len, self.budget):
            low, high = np.minimum(x, y), np.maximum(x, y)
            keys, counts = sorted_unique(low * V + high)
            # (u, u) from a x b stands for both directions of the pair: #(u, u) = 2 [u in a][u in b].
            counts = np.where(keys // V == keys % V, 2 * counts, counts)
            self.cross.add(keys, counts)
        for side, ids, rows, start, length in (("ref", a_ids, a_rows, a_start, a_len),
                                               ("mt", b_ids, b_rows, b_start, b_len)):
            for x, y in cartesian_chunks(ids, rows, ids, start, length, self.budget):
                upper = x < y
                self.within[side].add(x[upper] * V + y[upper])

    def add_pairs(self, en: pa.ChunkedArray, mt: pa.ChunkedArray, vocab: Vocabulary, lowercase: bool) -> None:
        a_rows, a_ids = vocab.encode(en, lowercase)
        b_rows, b_ids = vocab.encode(mt, lowercase)
        self.add_encoded(a_rows, a_ids, b_rows, b_ids, len(en))

    def add_table(self, table: pa.Table, vocab: Vocabulary, config: LexiconConfig) -> None:
        en, mt, _ = select_pairs(table, config)
        self.add_pairs(en, mt, vocab, config.lowercase)

    def merge(self, other: PairCounts) -> PairCounts:
        self.pairs += other.pairs
        self.cross.merge(other.cross)
        for side in self.within:
            self.within[side].merge(other.within[side])
        return self

    def compact(self) -> PairCounts:
        self.cross.compact()
        for counts in self.within.values():
            counts.compact()
        return self

    def split(self, shard_of: np.ndarray, num_shards: int) -> Iterator[tuple[int, PairCounts]]:
        """The counts each lexicon shard needs (:meth:`Vocabulary.shards`): a word pair goes to the shards of both its
        words, which write its two rows (u, v) and (v, u). Empty shards are left out."""
        self.compact()
        parts = [PairCounts(self.size, self.budget) for _ in range(num_shards)]
        for part in parts:
            part.pairs = self.pairs
        tables = {"cross": self.cross, **self.within}
        for name, table in tables.items():
            first, second = shard_of[table.keys // self.size], shard_of[table.keys % self.size]
            other = np.flatnonzero(first != second)
            index = np.concatenate([np.arange(table.keys.size), other])
            shard = np.concatenate([first, second[other]])
            order = np.lexsort((index, shard))  # by shard, keys still sorted inside each
            bounds = np.searchsorted(shard[order], np.arange(num_shards + 1))
            for number, part in enumerate(parts):
                take = index[order[bounds[number]:bounds[number + 1]]]
                target = part.cross if name == "cross" else part.within[name]
                target.keys, target.counts = table.keys[take], table.counts[take]
        for number, part in enumerate(parts):
            if part.cross.keys.size or any(c.keys.size for c in part.within.values()):
                yield number, part


# ----------------------------------------------------------------------------------------- building


def build_from_tables(tables: Iterable[pa.Table] | Sequence[pa.Table], config: LexiconConfig,
                      progress: bool = False) -> tuple[PairCounts, Vocabulary, Marginals]:
    """Both passes over in-memory tables (a re-iterable sequence: each is read twice)."""
    tables = list(tables)
    marginals = Marginals()
    for table in tables:
        marginals.add_table(table, config)
    vocab = Vocabulary.from_marginals(marginals, config)
    counts = PairCounts(len(vocab), config.chunk_keys)
    for table in _progress(tables, progress, marginals.read, "pair counts"):
        counts.add_table(table, vocab, config)
    return counts.compact(), vocab, marginals


def _progress(tables: Iterable[pa.Table], enabled: bool, total: int, desc: str) -> Iterator[pa.Table]:
    if not enabled:
        yield from tables
        return

    with tqdm(total=total, unit="pair", desc=desc, file=sys.stderr, dynamic_ncols=True, disable=None) as bar:
        for table in tables:
            yield table
            bar.update(table.num_rows)


def build_from_parquet(inputs: Sequence[str | os.PathLike], config: LexiconConfig,
                       progress: bool = True) -> tuple[PairCounts, Vocabulary, Marginals]:
    """Both passes, streaming record batches of ``batch_pairs`` rows from Parquet inputs, each a file, a folder of
    shards, a pattern or a run folder's ``pairs/`` (:func:`paranmt.core.parquet_inputs.read_parquet_input`; memory:
    one batch plus the count tables)."""
    if not inputs:
        raise LexiconError("no input given")
    columns = required_columns(config)
    sources = [read_parquet_input(item, required=columns, run_part=PAIRS) for item in inputs]

    def batches() -> Iterator[pa.Table]:
        for source in sources:
            for batch in source.batches(columns, config.batch_pairs):
                yield pa.Table.from_batches([batch])

    total = sum(source.num_rows for source in sources)
    marginals = Marginals()
    for table in _progress(batches(), progress, total, "word counts"):
        marginals.add_table(table, config)
    vocab = Vocabulary.from_marginals(marginals, config)
    counts = PairCounts(len(vocab), config.chunk_keys)
    for table in _progress(batches(), progress, total, "pair counts"):
        counts.add_table(table, vocab, config)
    return counts.compact(), vocab, marginals
