"""PMI paraphrase lexicon from sentence pairs (ParaNMT-50M, Appendix A.1): counts on Arrow tables, outputs through
Beam's file systems (local or object stores).

    paranmt lexicon build --input runs/x/pairs --out runs/x/lexicon [--config NAME] [--set lexicon.k=v]
    paranmt lexicon neighbours --lexicon runs/x/lexicon laughed respectful [-k 20] [--min-joint 10]
    paranmt lexicon evaluate --lexicon runs/x/lexicon --wordsim ../shared/data/wordsim/EN-MEN-TR-3k.txt

**Counting units.** A pair is (reference ``en_tokens``, translation ``mt_tokens``); every sentence is reduced to
its set of word *types* (lower-cased, punctuation and stop words left out, in the vocabulary), so a word repeated
in a sentence counts once. With P the pairs used and N = 2P the sentences:

- ``#(u)``: sentences (of either side) containing u; ``#_ref(u)`` / ``#_mt(u)`` per side.
- ``#(u, v)`` (cross): ordered (sentence, its paraphrase) pairs -- each pair counted in both directions -- with u in
  the first and v in the second; symmetric, ``#(u, v) = sum over pairs [u in a][v in b] + [u in b][v in a]``.
- ``#(., .)``: the number of ordered (sentence, paraphrase) pairs, 2P = N. Then
  ``PMI_cross = log(#(u,v) #(.,.) / (#(u) #(v)))`` is exactly log P(u in s, v in s') / (P(u in s) P(v in s')).
- Within-sentence counts ``#_X(u, v)``: sentences of side X (X = ref or mt) containing both u and v (u != v);
  ``PMI_X = log((#_X(u,v) + b) / (#_X(u) #_X(v) / P + b))`` with b = ``within_prior`` (:func:`within_pmi`:
  paraphrases seldom share a sentence, so the plain estimate of the best pairs is -inf, and a pair of rare words
  has no evidence either way: the prior keeps it at 0); ``PMI = (PMI_ref + PMI_mt) / 2``, and
  ``PMI_adj = PMI_cross - PMI``.

**Cost.** Pass 1 counts word types per side (memory: the distinct words). Pass 2 materialises, per pair, the
cartesian products of its two type sets (cross) and of each set with itself (within): time grows with
sum over pairs of |a| |b| + (|a|^2 + |b|^2) / 2, i.e. linearly in the corpus and quadratically in sentence length
(bounded by ``max_tokens``). At most ``chunk_keys`` word pairs are materialised at once; the accumulated tables hold
the distinct word pairs seen, which grow sub-linearly with the corpus and never beyond V(V+1)/2 per table for a
vocabulary of V words (``max_vocab``, ``min_count``, stop words).
"""

from __future__ import annotations

import contextlib
import glob
import json
import math
import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from tqdm import tqdm

from configs.schema import LexiconConfig
from core.correlation import spearman
from core.errors import ParanmtError
from core.pair_schema import EN_TOKENS, KEEP, MT_TOKENS, PARAPHRASE_SCORE, check_schema, read_metadata, with_metadata
from pipeline.disk_space import room_for

__all__ = [
    "ENGLISH_STOPWORDS",
    "LEXICON_SCHEMA",
    "LEXICON_SHARD_FILE",
    "STATS_FILE",
    "KeyCounts",
    "LexiconError",
    "LexiconShard",
    "Marginals",
    "PairCounts",
    "Vocabulary",
    "WordSimResult",
    "build_from_parquet",
    "build_from_tables",
    "compute_lexicon",
    "evaluate_wordsim",
    "lexicon_files",
    "load_wordsim",
    "neighbours",
    "read_rows",
    "select_pairs",
    "top_k_table",
    "within_pmi",
    "write_lexicon_shard",
    "write_lexicon_summary",
    "write_outputs",
]

LEXICON_SHARD_FILE = "lexicon-{index:05d}-of-{count:05d}.parquet"
LEXICON_SHARD_GLOB = "lexicon-?????-of-?????.parquet"
VOCABULARY_FILE = "vocabulary.parquet"
STATS_FILE = "stats.json"
TOP_K_FILE = "top_k.tsv"

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

LEXICON_SCHEMA = pa.schema([
    pa.field("u", pa.string(), nullable=False),
    pa.field("v", pa.string(), nullable=False),
    pa.field("joint", pa.int64(), nullable=False),  # #(u, v), cross-sentence
    pa.field("within_ref", pa.int64(), nullable=False),  # #_ref(u, v)
    pa.field("within_mt", pa.int64(), nullable=False),  # #_mt(u, v)
    pa.field("count_u", pa.int64(), nullable=False),  # #(u): sentences with u, both sides
    pa.field("count_v", pa.int64(), nullable=False),
    pa.field("pmi_cross", pa.float64(), nullable=False),
    pa.field("pmi_within", pa.float64(), nullable=False),  # (PMI_ref + PMI_mt) / 2
    pa.field("pmi_adj", pa.float64(), nullable=False),
])


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


# -------------------------------------------------------------------------------------------------- PMI


def within_pmi(joint: np.ndarray, count_u: np.ndarray, count_v: np.ndarray, sentences: int,
               config: LexiconConfig) -> np.ndarray:
    """Within-sentence PMI of word pairs on one side (``sentences`` = P sentences; ``joint`` = sentences with both
    words, ``count_*`` = sentences with each), by ``config.within_estimate``:

    - ``prior``: ``log((joint + b) / (E + b))``, E = count_u count_v / P the co-occurrences expected if u and v were
      independent, b = ``within_prior``: the log of the posterior mean of the ratio r when joint ~ Poisson(r E) and
      r ~ Gamma(b, b) (mean 1, PMI 0). A pair expected to meet far less than b times gets ~``log(1 + joint / b)``
      (0 if it never shared a sentence: no evidence either way); one expected far more often gets the plain
      ``log(joint / E)``; never infinite.
    - ``additive``: ``log((joint + a) P / ((count_u + a)(count_v + a)))``, a = ``smoothing``. When E << a it is
      ~``log(a / E)``, large and positive: a pair of rare words that never shared a sentence looks strongly
      associated, and its adjusted PMI collapses to ~``log(#(u,v) / 2)`` (docs/lexicon.md, "Diagnosis").
    """
    joint = joint.astype(np.float64, copy=False)
    count_u = count_u.astype(np.float64, copy=False)
    count_v = count_v.astype(np.float64, copy=False)
    if config.within_estimate == "prior":
        b = config.within_prior
        return np.log((joint + b) / (count_u * count_v / sentences + b))
    a = config.smoothing
    return np.log((joint + a) * sentences / ((count_u + a) * (count_v + a)))


def compute_lexicon(counts: PairCounts, vocab: Vocabulary, config: LexiconConfig,
                    words: np.ndarray | None = None) -> pa.Table:
    """The lexicon table (:data:`LEXICON_SCHEMA`): both orders of every word pair u != v with
    ``joint >= parquet_min_joint``, sorted by u, then ``rank_by`` descending, then v; with ``words`` (a mask over
    vocabulary ids) only the rows whose u is one of them (a shard's)."""
    counts.compact()
    V, P = counts.size, vocab.pairs
    keys, joint = counts.cross.keys, counts.cross.counts
    u, v = keys // V, keys % V
    off = (u != v) & (joint >= config.parquet_min_joint)
    keys, joint, u, v = keys[off], joint[off], u[off], v[off]
    if keys.size == 0 or P == 0:
        return LEXICON_SCHEMA.empty_table()
    total = vocab.total.astype(np.float64)
    n_pairs_ordered = 2.0 * P  # #(., .) = N = 2P
    pmi_cross = np.log(joint * n_pairs_ordered / (total[u] * total[v]))
    within = {side: c.get(keys) for side, c in counts.within.items()}
    marg = {"ref": vocab.ref, "mt": vocab.mt}
    pmi_side = [within_pmi(within[s], marg[s][u], marg[s][v], P, config) for s in ("ref", "mt")]
    pmi_within = 0.5 * (pmi_side[0] + pmi_side[1])
    pmi_adj = pmi_cross - pmi_within
    rows = None if words is None else np.concatenate([np.flatnonzero(words[u]), u.size + np.flatnonzero(words[v])])

    def both(x: np.ndarray, y: np.ndarray) -> np.ndarray:  # (u, v) rows then (v, u) rows
        joined = np.concatenate([x, y])
        return joined if rows is None else joined[rows]

    uu, vv = both(u, v), both(v, u)
    columns = {
        "u": vocab.words.take(pa.array(uu)), "v": vocab.words.take(pa.array(vv)),
        "joint": both(joint, joint), "within_ref": both(within["ref"], within["ref"]),
        "within_mt": both(within["mt"], within["mt"]),
        "count_u": vocab.total[uu], "count_v": vocab.total[vv],
        "pmi_cross": both(pmi_cross, pmi_cross), "pmi_within": both(pmi_within, pmi_within),
        "pmi_adj": both(pmi_adj, pmi_adj),
    }
    table = pa.Table.from_arrays([pa.array(columns[f.name], f.type) if not isinstance(columns[f.name], pa.Array)
                                  else columns[f.name] for f in LEXICON_SCHEMA], schema=LEXICON_SCHEMA)
    return table.sort_by([("u", "ascending"), (config.rank_by, "descending"), ("v", "ascending")])


def top_k_table(lexicon: pa.Table, k: int, min_joint: int, rank_by: str = "pmi_adj") -> pa.Table:
    """The best ``k`` paraphrases v of every word u among pairs with ``joint >= min_joint`` (columns u, rank, v,
    joint, pmi_adj, pmi_cross), ranked by ``rank_by``."""
    table = lexicon.filter(pc.greater_equal(lexicon.column("joint"), min_joint))
    table = table.sort_by([("u", "ascending"), (rank_by, "descending"), ("v", "ascending")])
    words = table.column("u").combine_chunks()
    if len(words) == 0:  # the same schema as a non-empty list (a shard's empty list is concatenated with others')
        return table.select(["u", "v", "joint", "pmi_adj", "pmi_cross"]).add_column(1, "rank",
                                                                                    pa.array([], pa.int64()))
    new = np.r_[True, pc.not_equal(words[1:], words[:-1]).to_numpy(zero_copy_only=False)]
    starts = np.flatnonzero(new)
    group = np.cumsum(new) - 1
    rank = np.arange(len(words)) - starts[group] + 1
    keep = rank <= k
    out = table.filter(pa.array(keep)).select(["u", "v", "joint", "pmi_adj", "pmi_cross"])
    return out.add_column(1, "rank", pa.array(rank[keep], pa.int64()))


# ----------------------------------------------------------------------------------------------- outputs


def shard_file(index: int, num_shards: int) -> str:
    """The file name of shard ``index`` of ``num_shards``."""
    return LEXICON_SHARD_FILE.format(index=index, count=num_shards)


@dataclass
class LexiconShard:
    """What writing one shard leaves for the summary: its counts (stats) and its part of the top-k list."""

    index: int
    stats: dict[str, Any]
    top: pa.Table


@contextlib.contextmanager
def _create(out_dir: str | os.PathLike, name: str) -> Iterator[BinaryIO]:
    """``out_dir/name`` open for writing; a full disk is one line naming it."""
    with contextlib.suppress(Exception):  # exists, or an object store where folders are implicit
        FileSystems.mkdirs(str(out_dir))
    path = FileSystems.join(str(out_dir), name)
    with room_for(path, f"the lexicon's {name}", lambda: None), \
            FileSystems.create(path, mime_type="application/octet-stream",
                               compression_type=CompressionTypes.UNCOMPRESSED) as handle:
        yield handle


def write_lexicon_shard(out_dir: str | os.PathLike, index: int, num_shards: int, counts: PairCounts | None,
                        vocab: Vocabulary, config: LexiconConfig,
                        metadata: Mapping[str, Any] | None = None) -> LexiconShard:
    """PMI of the word pairs of one shard (``counts`` from :meth:`PairCounts.split`; None: nothing counted), written
    as ``lexicon-SSSSS-of-NNNNN.parquet``; the stats count each word pair once, in the shard of its first word."""
    counts = counts if counts is not None else PairCounts(len(vocab), config.chunk_keys)
    shard_of = vocab.shards(num_shards)
    mine = shard_of == index
    lexicon = compute_lexicon(counts, vocab, config, mine if num_shards > 1 else None)
    V = counts.size

    def owned(table: KeyCounts) -> int:
        return int(np.count_nonzero(mine[table.keys // V])) if table.keys.size else 0

    stats = {"distinct_cross_pairs": owned(counts.cross),
             "distinct_within_pairs": {s: owned(c) for s, c in counts.within.items()},
             "lexicon_rows": lexicon.num_rows}
    meta = {"lexicon_config": config.model_dump(mode="json"), "lexicon_shard": {"index": index, "of": num_shards},
            **(metadata or {})}
    with _create(out_dir, shard_file(index, num_shards)) as handle:
        pq.write_table(lexicon.replace_schema_metadata(with_metadata(LEXICON_SCHEMA, **meta).metadata), handle,
                       compression="zstd", row_group_size=1_000_000)
    return LexiconShard(index, stats, top_k_table(lexicon, config.top_k, config.min_joint, config.rank_by))


def write_lexicon_summary(out_dir: str | os.PathLike, shards: Iterable[LexiconShard], vocab: Vocabulary,
                          marginals: Marginals, config: LexiconConfig,
                          metadata: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``vocabulary.parquet`` (with each word's shard), ``top_k.tsv`` and ``stats.json`` from the written shards;
    returns the stats."""
    shards = sorted(shards, key=lambda shard: shard.index)
    stats = {**marginals.stats(), "sentences": 2 * vocab.pairs, "vocabulary": len(vocab),
             "vocabulary_excluded": vocab.excluded, "distinct_words": len(marginals.words),
             "distinct_cross_pairs": sum(s.stats["distinct_cross_pairs"] for s in shards),
             "distinct_within_pairs": {side: sum(s.stats["distinct_within_pairs"][side] for s in shards)
                                       for side in ("ref", "mt")},
             "lexicon_rows": sum(s.stats["lexicon_rows"] for s in shards), "lexicon_shards": len(shards)}
    meta = {"lexicon_config": config.model_dump(mode="json"), "lexicon_stats": stats, **(metadata or {})}
    vocabulary = pa.table({"word": vocab.words, "count_ref": vocab.ref, "count_mt": vocab.mt,
                           "shard": pa.array(vocab.shards(len(shards)), pa.int32())})
    with _create(out_dir, VOCABULARY_FILE) as handle:
        pq.write_table(vocabulary.replace_schema_metadata(with_metadata(vocabulary.schema, **meta).metadata),
                       handle, compression="zstd")
    top = pa.concat_tables([s.top for s in shards])
    lines = ["word\trank\tparaphrase\tjoint\tpmi_adj\tpmi_cross"]
    lines += [f"{u}\t{r}\t{v}\t{j}\t{a:.4f}\t{c:.4f}" for u, r, v, j, a, c in zip(
        *(top.column(n).to_pylist() for n in ("u", "rank", "v", "joint", "pmi_adj", "pmi_cross")), strict=True)]
    with _create(out_dir, TOP_K_FILE) as handle:
        handle.write(("\n".join(lines) + "\n").encode("utf-8"))
    with _create(out_dir, STATS_FILE) as handle:
        handle.write((json.dumps({"stats": stats, "lexicon_config": config.model_dump(mode="json"),
                                  **dict(metadata or {})}, indent=2, sort_keys=True, default=str) + "\n").encode())
    return stats


def write_outputs(out_dir: str | os.PathLike, counts: PairCounts, vocab: Vocabulary, marginals: Marginals,
                  config: LexiconConfig, metadata: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Write the lexicon from counts held in memory (the stand-alone build): ``lexicon.num_shards`` (default 1)
    shards of the table, ``vocabulary.parquet``, ``top_k.tsv`` and ``stats.json`` into ``out_dir`` (local or any
    Beam file system), replacing the shards of an earlier build there; returns the stats."""
    num_shards = config.num_shards or 1
    stale = FileSystems.match([FileSystems.join(str(out_dir), LEXICON_SHARD_GLOB)])[0].metadata_list
    if stale:
        FileSystems.delete([m.path for m in stale])
    parts = dict(counts.split(vocab.shards(num_shards), num_shards))
    shards = [write_lexicon_shard(out_dir, index, num_shards, parts.get(index), vocab, config, metadata)
              for index in range(num_shards)]
    return write_lexicon_summary(out_dir, shards, vocab, marginals, config, metadata)


# -------------------------------------------------------------------------------------------- building


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

    with tqdm(total=total, unit="pair", desc=desc, file=sys.stderr, dynamic_ncols=True) as bar:
        for table in tables:
            yield table
            bar.update(table.num_rows)


def expand_inputs(inputs: Sequence[str | os.PathLike]) -> list[str]:
    """Parquet files from files, directories (``*.parquet`` inside) and globs; an error if none is found."""
    files: list[str] = []
    for item in inputs:
        if "://" in str(item):
            raise LexiconError(f"input {item}: lexicon build reads local files; copy the shards here, or build the "
                               "lexicon inside the run (paranmt run --lexicon), which reads any Beam file system")
        path = Path(item)
        if path.is_dir():
            found = sorted(str(p) for p in path.glob("*.parquet"))
        elif any(c in str(item) for c in "*?["):
            found = sorted(glob.glob(str(item)))
        elif path.is_file():
            found = [str(path)]
        else:
            raise LexiconError(f"input {item} does not exist")
        if not found:
            raise LexiconError(f"input {item} holds no Parquet file")
        files += found
    if not files:
        raise LexiconError("no input given")
    return files


def build_from_parquet(inputs: Sequence[str | os.PathLike], config: LexiconConfig,
                       progress: bool = True) -> tuple[PairCounts, Vocabulary, Marginals]:
    """Both passes, streaming record batches of ``batch_pairs`` rows from Parquet shards (memory: one batch plus
    the count tables)."""
    files = expand_inputs(inputs)
    dataset = ds.dataset(files, format="parquet")
    columns = required_columns(config)
    try:
        check_schema(dataset.schema, required=columns)
    except ValueError as error:
        raise LexiconError(f"{files[0]}{' ...' if len(files) > 1 else ''}: {error}") from None

    def batches() -> Iterator[pa.Table]:
        for batch in dataset.to_batches(columns=list(columns), batch_size=config.batch_pairs):
            yield pa.Table.from_batches([batch])

    total = dataset.count_rows()
    marginals = Marginals()
    for table in _progress(batches(), progress, total, "word counts"):
        marginals.add_table(table, config)
    vocab = Vocabulary.from_marginals(marginals, config)
    counts = PairCounts(len(vocab), config.chunk_keys)
    for table in _progress(batches(), progress, total, "pair counts"):
        counts.add_table(table, vocab, config)
    return counts.compact(), vocab, marginals


# -------------------------------------------------------------------------------------------- querying


def lexicon_files(path: str | os.PathLike) -> list[Path]:
    """The table files of a lexicon directory in shard order (or the one file given); an error naming what is
    missing or left over."""
    path = Path(path)
    if path.is_file():
        return [path]
    files = sorted(path.glob(LEXICON_SHARD_GLOB))
    if not files:
        raise LexiconError(f"{path} holds no lexicon table ({LEXICON_SHARD_GLOB}; build it with paranmt "
                           "lexicon build, or give the table file of an older build)")
    num_shards = int(files[0].stem.rsplit("-", 1)[1])
    expected = [path / shard_file(index, num_shards) for index in range(num_shards)]
    if files != expected:
        raise LexiconError(f"{path}: the lexicon shards are not one complete set of {num_shards} (found "
                           f"{len(files)}: {', '.join(f.name for f in files[:3])}...); rebuild it into an empty folder")
    return files


def _files_of_words(lexicon: str | os.PathLike, words: Sequence[str]) -> list[Path]:
    """The shards that hold the rows of ``words`` (from the shard column of ``vocabulary.parquet``)."""
    files = lexicon_files(lexicon)
    if len(files) == 1:
        return files
    vocabulary = pq.read_table(Path(lexicon) / VOCABULARY_FILE, columns=["shard"],
                               filters=[("word", "in", sorted(set(words)))])
    return [files[index] for index in sorted(set(vocabulary.column("shard").to_pylist()))]


def read_rows(lexicon: str | os.PathLike, words: Sequence[str], columns: Sequence[str] | None = None,
              min_joint: int = 1) -> pa.Table:
    """The rows of a written lexicon whose u is one of ``words`` and ``joint >= min_joint``, reading only the
    shards that hold them (with a pushed-down filter)."""
    files = _files_of_words(lexicon, words)
    if not files:
        return LEXICON_SCHEMA.empty_table().select(list(columns or LEXICON_SCHEMA.names))
    wanted = (pc.field("u").isin(sorted(set(words)))) & (pc.field("joint") >= min_joint)
    return ds.dataset([str(f) for f in files], format="parquet").to_table(columns=columns, filter=wanted)


def neighbours(lexicon: str | os.PathLike, word: str, k: int = 20, min_joint: int = 10,
               rank_by: str = "pmi_adj", lowercase: bool = True) -> pa.Table:
    """The ``k`` best paraphrases of ``word`` (joint count >= ``min_joint``), read from its shard."""
    word = word.lower() if lowercase else word
    table = read_rows(lexicon, [word], min_joint=min_joint)
    return table.sort_by([(rank_by, "descending"), ("v", "ascending")]).slice(0, k)


# ------------------------------------------------------------------------------------------- evaluation


def load_wordsim(path: str | os.PathLike, lowercase: bool = True) -> tuple[list[str], list[str], np.ndarray]:
    """A ``word1 word2 score`` file (tabs or spaces; CRLF line ends are fine)."""
    path = Path(path)
    if not path.is_file():
        raise LexiconError(f"word-similarity file {path} not found")
    first, second, scores = [], [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) < 3:
            raise LexiconError(f"{path}:{number}: expected 'word1 word2 score', got {line!r}")
        try:
            score = float(parts[2])
        except ValueError:
            if number == 1:
                continue  # a header line
            raise LexiconError(f"{path}:{number}: score {parts[2]!r} is not a number") from None
        a, b = (parts[0].lower(), parts[1].lower()) if lowercase else (parts[0], parts[1])
        first.append(a)
        second.append(b)
        scores.append(score)
    if not scores:
        raise LexiconError(f"{path}: no word pairs")
    return first, second, np.asarray(scores, np.float64)


@dataclass(frozen=True)
class WordSimResult:
    """Spearman's rho of one score against one word-similarity set."""

    name: str
    score: str
    pairs: int
    covered: int
    rho_all: float  # unseen pairs scored 0 (the paper's protocol)
    rho_covered: float  # only pairs the lexicon has

    @property
    def coverage(self) -> float:
        return self.covered / self.pairs if self.pairs else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"set": self.name, "score": self.score, "pairs": self.pairs, "covered": self.covered,
                "coverage": round(self.coverage, 4), "rho_all": self.rho_all, "rho_covered": self.rho_covered}


def lookup_pairs(lexicon: pa.Table | str | os.PathLike, first: Sequence[str], second: Sequence[str],
                 columns: Sequence[str] = ("pmi_cross", "pmi_adj"), min_joint: int = 1) -> dict[str, np.ndarray]:
    """Scores of word pairs in a lexicon (NaN where unseen), plus their ``joint`` counts; vectorised join."""
    if not isinstance(lexicon, pa.Table):
        lexicon = read_rows(lexicon, first, ["u", "v", "joint", *columns])
    lexicon = lexicon.filter(pc.greater_equal(lexicon.column("joint"), min_joint))
    query = pa.table({"u": pa.array(list(first), pa.string()), "v": pa.array(list(second), pa.string()),
                      "_row": pa.array(np.arange(len(first)), pa.int64())})
    joined = query.join(lexicon.select(["u", "v", "joint", *columns]), keys=["u", "v"], join_type="left outer")
    rows = joined.column("_row").to_numpy()
    out: dict[str, np.ndarray] = {}
    for name in ("joint", *columns):
        values = np.full(len(first), np.nan)
        values[rows] = pc.cast(joined.column(name), pa.float64()).to_numpy(zero_copy_only=False)
        out[name] = values
    return out


def evaluate_wordsim(lexicon: pa.Table | str | os.PathLike, path: str | os.PathLike, name: str | None = None,
                     scores: Sequence[str] = ("pmi_cross", "pmi_adj"), min_joint: int = 1) -> list[WordSimResult]:
    """Spearman's rho of each lexicon score against a word-similarity set: with unseen pairs scored 0, and on
    the covered pairs only (a pair is looked up as (word1, word2); the table holds both orders)."""

    first, second, gold = load_wordsim(path)
    found = lookup_pairs(lexicon, first, second, scores, min_joint)
    covered = ~np.isnan(found[scores[0]])
    name = name or Path(path).stem
    results = []
    for score in scores:
        values = found[score]
        rho_all = spearman(np.where(covered, values, 0.0), gold)
        rho_cov = spearman(values[covered], gold[covered]) if covered.sum() >= 3 else math.nan
        results.append(WordSimResult(name, score, len(gold), int(covered.sum()), rho_all, rho_cov))
    return results


def format_results(results: Sequence[WordSimResult]) -> str:
    lines = [f"{'set':<22}{'score':<11}{'pairs':>6}{'covered':>9}{'cov%':>7}{'rho(0)':>9}{'rho(cov)':>10}"]
    for r in results:
        lines.append(f"{r.name:<22}{r.score:<11}{r.pairs:>6}{r.covered:>9}{100 * r.coverage:>6.1f}%"
                     f"{100 * r.rho_all:>9.1f}{100 * r.rho_covered:>10.1f}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------------------- metadata


def lexicon_metadata(path: str | os.PathLike) -> dict[str, Any]:
    """The ``paranmt.*`` schema metadata of a written lexicon directory (config and stats, from
    ``vocabulary.parquet``)."""
    return read_metadata(pq.read_schema(Path(path) / VOCABULARY_FILE))

