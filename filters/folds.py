"""Decile folds and the training-pair selection of ParaNMT-50M §5.4 (Table 5).

The paper ranks all pairs by a filtering criterion, splits them into ten equal tenths (fold 1 = the bottom 10%,
fold 10 = the top), trains one model per fold on a random sample from it, and builds its training set by
sampling pairs from the top two folds whose sides have at most 30 tokens. This module does that, vectorised over
Arrow tables in the :mod:`paranmt.core.pair_schema` layout:

- :func:`assign_folds` — exact folds for an array of values: ascending rank, ties broken by a seeded hash of the
  pair id (so equal scores are split between folds reproducibly, not by input order), ``folds`` parts whose
  sizes differ by at most one.
- :func:`select_training_pairs` — the default rank rule (thresholds → folds → 30 tokens → sample), or
  thresholds only, with a reason for every dropped row.
- :func:`write_fold_subsets` / :func:`sample_from_folds` — one Parquet file per fold and N random pairs from
  chosen folds, for the Table 5 experiments.
- :func:`interior_boundaries` — fold boundaries from ``ApproximateQuantiles`` keys, with which
  :class:`pipeline.stages.selection.Select` gives the same ranking at corpus scale in Apache Beam (fold
  sizes are then ε-bounded, not exact).
- ``paranmt folds --input pairs.parquet --out DIR`` — write the folds and print their sizes and
  boundaries.

**Order and ties.** Rows are ordered by the sort key ``(value is present, value, key_hash(pair key, seed))``:
missing values (null or NaN) rank *lowest* (fold 1) in :func:`assign_folds`; :func:`select_training_pairs` never
ranks them, because its ``missing_score`` rule rejects them first. Rows with the same value and the same key keep
their input order.

**The pair key** (:func:`pair_keys`) is the pair's text, ``cs``, ``en`` and ``mt`` joined by U+0000 -- not its
id, which names the file and row it came from: ties and samples then depend only on the pairs, so the same pairs
from another container or another sharding get the same folds and the same sample.

**The key hash** (:func:`key_hash`, scalar spec :func:`key_hash_scalar`): 64-bit FNV-1a over the UTF-8 bytes of the
key, starting from the FNV offset basis XOR ``fmix64(seed mod 2**64)``, then MurmurHash3's ``fmix64`` finaliser so
every seed gives an unrelated order. Pure uint64 arithmetic on bytes: the same on every platform and run.
Vectorised by looping over byte positions (not over rows): rows are sorted by length once, so the rows still
active at position ``j`` are a prefix, and each step is one gather, one XOR and one multiply over that prefix.

**Sampling** takes the ``n`` eligible rows with the smallest key hash under a salted seed (bottom-n hashing): it
depends only on the keys and the seed (not on row order, the NumPy version or the platform; ids order only rows
of identical text, which exist only with dedup off), and a smaller sample is a subset of a larger one with the same
seed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pydantic import BaseModel

from configs.schema import SelectConfig
from filters.rules import MaxTokens, apply_rules, count_reasons, rules_from_config, score_values
from paranmt.core.pair_schema import CS, EN, EN_TOKENS, ID, MT, MT_TOKENS, Reason, check_schema, with_metadata

__all__ = [
    "DEFAULT_EPSILON",
    "FoldBoundary",
    "SelectionResult",
    "assign_folds",
    "fold_boundaries",
    "fold_file_name",
    "hash_sample",
    "key_hash",
    "key_hash_scalar",
    "pair_key",
    "pair_keys",
    "rank_order",
    "sample_from_folds",
    "select_training_pairs",
        "write_fold_subsets",
]

_MASK64 = (1 << 64) - 1
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
_FMIX_C1 = 0xFF51AFD7ED558CCD
_FMIX_C2 = 0xC4CEB9FE1A85EC53
_SAMPLE_SALT = 0x53414D504C45  # "SAMPLE": the sample's hash order is unrelated to the tie-break order
MAX_FOLDS = 127  # folds are stored as int8
DEFAULT_EPSILON = 1e-3


# ------------------------------------------------------------------------------------------------ the key hash


def _fmix64_int(k: int) -> int:
    k &= _MASK64
    k ^= k >> 33
    k = (k * _FMIX_C1) & _MASK64
    k ^= k >> 33
    k = (k * _FMIX_C2) & _MASK64
    return k ^ (k >> 33)


def _fmix64(h: np.ndarray) -> np.ndarray:
    h = h ^ (h >> np.uint64(33))
    h *= np.uint64(_FMIX_C1)  # uint64 array arithmetic wraps modulo 2**64, as the spec wants
    h ^= h >> np.uint64(33)
    h *= np.uint64(_FMIX_C2)
    return h ^ (h >> np.uint64(33))


def _basis(seed: int) -> int:
    return FNV_OFFSET ^ _fmix64_int(seed & _MASK64)


def pair_key(cs: str | None, en: str | None, mt: str | None) -> str:
    """The key of one pair: what ties and samples are decided by (see the module docstring); a missing side is
    empty (caption pairs have no Czech)."""
    return f"{cs or ''}\x00{en or ''}\x00{mt or ''}"


def pair_keys(table: pa.Table) -> pa.Array:
    """:func:`pair_key` of every row of a table (``cs``, ``en``, ``mt``; a missing column counts as empty)."""
    columns = [table.column(name).combine_chunks().cast(pa.large_string()) if name in table.column_names
               else pa.nulls(table.num_rows, pa.large_string()) for name in (CS, EN, MT)]
    return pc.binary_join_element_wise(*columns, pa.scalar("\x00", pa.large_string()), null_handling="replace")


def key_hash_scalar(key: str, seed: int) -> int:
    """The hash of one key, in plain Python: the specification :func:`key_hash` vectorises."""
    h = _basis(seed)
    for byte in key.encode("utf-8"):
        h = ((h ^ byte) * FNV_PRIME) & _MASK64
    return _fmix64_int(h)


def _as_large_strings(keys: pa.Array | pa.ChunkedArray | Sequence[str] | np.ndarray) -> pa.LargeStringArray:
    if isinstance(keys, pa.ChunkedArray):
        keys = keys.combine_chunks() if keys.num_chunks else pa.array([], type=pa.large_string())
    if not isinstance(keys, pa.Array):
        keys = pa.array(list(keys) if not isinstance(keys, np.ndarray) else keys, type=pa.large_string())
    if keys.type != pa.large_string():
        keys = keys.cast(pa.large_string())
    if keys.null_count:
        keys = pc.fill_null(keys, "")  # null slots may span bytes; a pair's cs and en are never null anyway
    return keys


def key_hash(keys: pa.Array | pa.ChunkedArray | Sequence[str] | np.ndarray, seed: int) -> np.ndarray:
    """Seeded 64-bit hash of each key (uint64 array), equal to :func:`key_hash_scalar` element by element."""
    arr = _as_large_strings(keys)
    n = len(arr)
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    buffers = arr.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int64)[arr.offset: arr.offset + n + 1]
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    starts, lengths = offsets[:-1], np.diff(offsets)

    order = np.argsort(-lengths, kind="stable")  # longest first: the rows with a byte at j are a prefix
    starts_sorted = starts[order]
    neg_lengths = -lengths[order]  # ascending
    active = np.searchsorted(neg_lengths, -np.arange(int(lengths.max())), side="left")  # rows with len > j

    h = np.full(n, _basis(seed), dtype=np.uint64)
    prime = np.uint64(FNV_PRIME)
    for j, count in enumerate(active):
        prefix = h[:count]  # a view: updated in place
        prefix ^= data[starts_sorted[:count] + j]
        prefix *= prime
    out = np.empty(n, dtype=np.uint64)
    out[order] = _fmix64(h)
    return out


# ------------------------------------------------------------------------------------------------------ folds


def _value_keys(values: np.ndarray | Sequence[float | None]) -> tuple[np.ndarray, np.ndarray]:
    """(present, filled): whether each value is a number, and the value with missing ones set to 0."""
    array = np.asarray(values)
    if array.dtype == object:
        array = np.array([np.nan if v is None else v for v in array], dtype=np.float64)
    if array.dtype.kind == "f":
        present = ~np.isnan(array)
        return present, np.where(present, array, array.dtype.type(0))
    if array.dtype.kind not in "biu":
        raise TypeError(f"fold values must be numeric, got dtype {array.dtype}")
    return np.ones(len(array), dtype=bool), array


def rank_order(values: np.ndarray | Sequence[float | None], hashes: np.ndarray) -> np.ndarray:
    """Row indices in ascending order of ``(present, value, hash)`` (stable for full ties)."""
    present, filled = _value_keys(values)
    if len(hashes) != len(filled):
        raise ValueError(f"{len(filled)} values but {len(hashes)} hashes")
    return np.lexsort((hashes, filled, present))  # the last key is the primary one


def _folds_of_ranks(n: int, folds: int) -> np.ndarray:
    # Rank r (0-based) goes to fold floor(r * folds / n) + 1: fold j holds ranks [ceil((j-1)n/k), ceil(jn/k)),
    # so sizes are floor(n/k) or ceil(n/k) and the larger folds are spread evenly.
    return (np.arange(n, dtype=np.int64) * folds // max(n, 1) + 1).astype(np.int8)


def check_folds(folds: int) -> None:
    if not 1 <= folds <= MAX_FOLDS:
        raise ValueError(f"folds must be in 1..{MAX_FOLDS} (got {folds})")


def _assign_with_hashes(values: np.ndarray | Sequence[float | None], hashes: np.ndarray, folds: int) -> np.ndarray:
    check_folds(folds)
    order = rank_order(values, hashes)
    fold = np.empty(len(order), dtype=np.int8)
    fold[order] = _folds_of_ranks(len(order), folds)
    return fold


def assign_folds(
    values: np.ndarray | Sequence[float | None],
    keys: pa.Array | pa.ChunkedArray | Sequence[str] | np.ndarray,
    folds: int,
    seed: int,
) -> np.ndarray:
    """Fold (1..``folds``, int8) of every row: ascending rank by value, fold 1 lowest, fold ``folds`` highest.

    Ties are broken by :func:`key_hash` of the key (:func:`pair_keys` for pairs) under ``seed``; missing values
    (None/NaN) rank lowest. Fold sizes differ by at most one (with fewer rows than folds, some folds are empty).
    """
    hashes = key_hash(keys, seed)
    if len(hashes) != len(values):
        raise ValueError(f"{len(values)} values but {len(hashes)} keys")
    return _assign_with_hashes(values, hashes, folds)


@dataclass(frozen=True)
class FoldBoundary:
    """One fold: its size and the lowest and highest value in it (None when empty or all missing)."""

    fold: int
    size: int
    min: float | None
    max: float | None
    missing: int = 0  # rows without a value (ranked lowest, so only ever in fold 1)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def fold_boundaries(values: np.ndarray | Sequence[float | None], fold: np.ndarray, folds: int) -> list[FoldBoundary]:
    """Per-fold sizes and value ranges; rows with fold 0 (not ranked) are ignored."""
    present, filled = _value_keys(values)
    fold = np.asarray(fold)
    out = []
    for j in range(1, folds + 1):
        in_fold = fold == j
        vals = filled[in_fold & present]
        out.append(FoldBoundary(
            fold=j, size=int(in_fold.sum()),
            min=float(vals.min()) if len(vals) else None, max=float(vals.max()) if len(vals) else None,
            missing=int((in_fold & ~present).sum()),
        ))
    return out


# ------------------------------------------------------------------------------------------------- sampling


def sample_hashes_of(keys: pa.Array | pa.ChunkedArray | Sequence[str], seed: int) -> np.ndarray:
    """The salted hashes :func:`hash_sample` orders by (the Beam selection samples with them)."""
    return key_hash(keys, seed ^ _SAMPLE_SALT)


def hash_sample(eligible: np.ndarray, keys: pa.Array | pa.ChunkedArray | Sequence[str], n: int,
                seed: int, ids: pa.Array | pa.ChunkedArray | Sequence[str] | None = None) -> np.ndarray:
    """Mask of ``min(n, eligible.sum())`` eligible rows: those with the smallest salted key hash; rows with equal
    keys (identical pairs, when dedup is off) are ordered by ``ids`` when given, else by position."""
    eligible = np.asarray(eligible, dtype=bool)
    if n < 0:
        raise ValueError(f"sample size must be non-negative (got {n})")
    chosen = np.zeros(len(eligible), dtype=bool)
    candidates = np.flatnonzero(eligible)
    if len(candidates) <= n:
        chosen[candidates] = True
        return chosen
    hashes = sample_hashes_of(_as_large_strings(keys).take(pa.array(candidates)), seed)
    if ids is None:
        order = np.argsort(hashes, kind="stable")
    else:
        ranked = pa.table({"hash": hashes, "id": _as_large_strings(ids).take(pa.array(candidates))})
        order = pc.sort_indices(ranked, [("hash", "ascending"), ("id", "ascending")]).to_numpy()
    chosen[candidates[order[:n]]] = True
    return chosen


def sample_from_folds(
    table: pa.Table,
    fold: np.ndarray,
    select_folds: Sequence[int],
    n: int,
    seed: int,
    max_tokens: int | None = 30,
) -> np.ndarray:
    """Mask of ``n`` random pairs (fewer if fewer qualify) from ``select_folds`` with both sides at most
    ``max_tokens`` tokens: the paper's per-fold training samples (Table 5) and its final 5M sample."""
    eligible = np.isin(np.asarray(fold), list(select_folds))
    if max_tokens is not None:
        eligible &= MaxTokens(max_tokens).check(table)
    return hash_sample(eligible, pair_keys(table), n, seed, table.column(ID))


# ------------------------------------------------------------------------------------------------ selection


@dataclass
class SelectionResult:
    """Per row: ``keep``, ``reason`` (a :class:`Reason`; KEPT for kept rows) and ``fold`` (0 = not ranked).

    ``counts`` maps reason values to rows and ``rule_counts`` step names (the threshold rules, then
    ``select_folds``, ``too_many_tokens``, ``sample``) to the rows each one dropped; both sum to the row count.
    ``boundaries`` describes the folds (empty in thresholds-only mode).
    """

    keep: np.ndarray
    reason: np.ndarray
    fold: np.ndarray
    counts: dict[str, int]
    rule_counts: dict[str, int]
    boundaries: list[FoldBoundary]

    def __len__(self) -> int:
        return len(self.keep)


def select_training_pairs(table: pa.Table, config: SelectConfig, seed: int) -> SelectionResult:
    """Which pairs become training data, and why every other pair does not.

    With ``config.rank_by`` set (the default rank rule, §5.4), in this order:

    1. the threshold rules of :func:`~filters.rules.rules_from_config` *without* the token limit (scores
       present, no-known-words, score ranges, length ratio). Only pairs that pass are ranked: a pair without a
       score cannot be placed, and a pair the thresholds reject should not take a decile slot from one they keep;
    2. rank the passing pairs by ``rank_by`` into ``config.folds`` folds (:func:`assign_folds`); pairs outside
       ``select_folds`` get ``not_in_selected_folds``;
    3. both sides at most ``max_tokens`` (``too_many_tokens``) — after ranking, as in the paper, so the deciles
       are deciles of the scored corpus and not of its short-sentence subset;
    4. if ``config.sample`` is set, a seeded sample of exactly that many (all, if fewer qualify); the rest get
       ``not_sampled``.

    With ``rank_by`` None, only the threshold rules (token limit included) and the optional sample apply.
    """
    ranking = config.rank_by is not None
    pre = apply_rules(table, rules_from_config(config, max_tokens=not ranking))
    n = table.num_rows
    reason = pre.reason.copy()
    rule_counts = dict(pre.rule_counts)
    rule_counts.pop("kept", None)
    fold = np.zeros(n, dtype=np.int8)
    boundaries: list[FoldBoundary] = []
    eligible = pre.keep.copy()

    if ranking:
        check_schema(table.schema, required=(ID, config.rank_by, EN_TOKENS, MT_TOKENS))
        values = score_values(table, config.rank_by)
        hashes = key_hash(pair_keys(table), seed)
        ranked = np.flatnonzero(pre.keep)
        fold[ranked] = _assign_with_hashes(values[ranked], hashes[ranked], config.folds)
        boundaries = fold_boundaries(values, fold, config.folds)

        outside = eligible & ~np.isin(fold, config.select_folds)
        reason[outside] = Reason.NOT_IN_SELECTED_FOLDS
        rule_counts["select_folds"] = int(outside.sum())
        eligible &= ~outside
        if config.max_tokens is not None:
            too_long = eligible & ~MaxTokens(config.max_tokens).check(table)
            reason[too_long] = Reason.TOO_MANY_TOKENS
            rule_counts[Reason.TOO_MANY_TOKENS.value] = int(too_long.sum())
            eligible &= ~too_long

    if config.sample is not None:
        chosen = hash_sample(eligible, pair_keys(table), config.sample, seed, table.column(ID))
        unsampled = eligible & ~chosen
        reason[unsampled] = Reason.NOT_SAMPLED
        rule_counts["sample"] = int(unsampled.sum())
        eligible = chosen

    rule_counts["kept"] = int(eligible.sum())
    return SelectionResult(keep=eligible, reason=reason, fold=fold, counts=count_reasons(reason),
                           rule_counts=rule_counts,
                           boundaries=boundaries)


# ------------------------------------------------------------------------------------------- fold subsets


def fold_file_name(fold: int, folds: int) -> str:
    """``fold-01-of-10.parquet``: zero-padded so the names sort in fold order."""
    width = max(2, len(str(folds)))
    return f"fold-{fold:0{width}d}-of-{folds:0{width}d}.parquet"


def _jsonable(config_echo: Mapping[str, Any] | BaseModel | None) -> Mapping[str, Any] | None:
    if isinstance(config_echo, BaseModel):
        return config_echo.model_dump(mode="json")
    return config_echo


def write_fold_subsets(
    table: pa.Table,
    fold: np.ndarray,
    out_dir: str | Path,
    config_echo: Mapping[str, Any] | BaseModel | None,
    *,
    criterion: str | None = None,
    folds: int | None = None,
) -> list[Path]:
    """Write each fold 1..``folds`` to ``out_dir/fold-JJ-of-KK.parquet`` (rows in input order; empty folds too).

    Every file's schema metadata (:func:`paranmt.core.pair_schema.with_metadata`) holds ``config`` (the echo), ``fold``,
    ``folds``, ``criterion`` and ``boundaries`` (every fold's size and value range, when ``criterion`` names a
    column), so a trainer can train one model per fold and a report can tell which decile it read. Rows with
    fold 0 (not ranked) are not written. ``folds`` defaults to the highest fold present.
    """
    fold = np.asarray(fold)
    if len(fold) != table.num_rows:
        raise ValueError(f"{len(fold)} fold numbers for {table.num_rows} rows")
    folds = int(folds if folds is not None else (fold.max() if len(fold) else 0))
    check_folds(folds)
    if len(fold) and (fold.min() < 0 or fold.max() > folds):
        raise ValueError(f"fold numbers must be in 0..{folds}")
    if criterion is not None and criterion in table.column_names:
        bounds = [b.as_dict() for b in fold_boundaries(score_values(table, criterion), fold, folds)]
    else:
        bounds = [{"fold": j, "size": int((fold == j).sum())} for j in range(1, folds + 1)]
    echo = _jsonable(config_echo)

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for j in range(1, folds + 1):
        subset = table.filter(pa.array(fold == j))
        schema = with_metadata(subset.schema, config=echo, fold=j, folds=folds, criterion=criterion,
                               boundaries=bounds)
        path = out / fold_file_name(j, folds)
        tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
        pq.write_table(subset.replace_schema_metadata(schema.metadata), tmp)
        os.replace(tmp, path)  # readers never see a half-written fold
        paths.append(path)
    return paths


# ------------------------------------------------------------------------------------------- Beam, at scale


def interior_boundaries(quantiles: Sequence[Any], folds: int) -> list[Any]:
    """The ``folds - 1`` keys that *end* folds 1..``folds - 1``, from ``ApproximateQuantiles`` output.

    Beam's combiner returns ``folds + 1`` keys (min, the inner quantiles, max). When all keys fit in one buffer
    (small inputs), its inner quantile ``q`` is the key at rank ``floor((q n - 1) / folds)``, which is exactly the
    last key of fold ``q`` under :func:`assign_folds` (``fold = floor(rank * folds / n) + 1``); so the local runs of
    the pipeline give the same folds as the Beam-free path, and at scale each boundary is within ``εn`` ranks.
    Given fewer keys (all of them, sorted), the exact boundaries are taken (a sentinel below every key ends a fold
    that is empty).
    """
    quantiles = list(quantiles)
    if len(quantiles) >= folds + 1:
        return quantiles[1:folds]
    n, below_all = len(quantiles), (-1, 0.0, 0)
    return [quantiles[-(-j * n // folds) - 1] if -(-j * n // folds) >= 1 else below_all for j in range(1, folds)]


#: The private column :class:`pipeline.stages.selection.Select` carries each row's key hash in between
#: its ranking steps.
KEY_HASH_COLUMN = "_key_hash"

