"""Threshold rules for training pairs: declarative, vectorised over Arrow tables (ParaNMT-50M §5.4).

Each rule is a small frozen object with a ``name``, a :class:`~core.pair_schema.Reason` and a vectorised
``check(table) -> np.ndarray[bool]`` (True = the row passes). :func:`apply_rules` runs an ordered list of rules
over a table in the :mod:`core.pair_schema` layout, like a datatrove filter chain: every row ends either kept
(``Reason.KEPT``) or with the reason of the *first* rule it fails, and per-reason and per-rule counts come for
free. Rules are built from a :class:`~configs.schema.FilterConfig` (:func:`rules_from_config`) or from
OpusFilter-style declarative steps (:func:`rules_from_steps`, ``[{"score_range": {"criterion": ..., "min": ...}}]``),
and :func:`rules_to_steps` echoes them back for output metadata.

Missing values are never silently kept: a null or NaN score fails its ``score_present`` rule (reason
``missing_score``), and a null token list fails the token rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from configs.schema import FilterConfig
from core.pair_schema import (
    EN_TOKENS,
    KEEP,
    MT_TOKENS,
    NO_KNOWN_WORDS,
    PAIRS_SCHEMA,
    PARAPHRASE_SCORE,
    REASON,
    TRANSLATION_SCORE,
    TRIGRAM_OVERLAP,
    Reason,
    check_schema,
)
from filters.decontaminate import ExcludedSentences, ExcludeSentences, sentence_keys

__all__ = [
    "CRITERIA",
    "TRAINING_FILTER_REASONS",
    "LengthRatio",
    "MaxTokens",
    "NoKnownWords",
    "NotACopy",
    "Rule",
    "RuleResult",
    "ScorePresent",
    "ScoreRange",
    "apply_rules",
    "count_reasons",
    "reason_array",
    "rules_from_config",
    "rules_from_steps",
    "rules_to_steps",
    "score_values",
    "token_lengths",
    "with_decision",
]

CRITERIA: tuple[str, ...] = (PARAPHRASE_SCORE, TRIGRAM_OVERLAP, TRANSLATION_SCORE)

# Reasons this stage may assign itself. Any other non-null reason already in a table's ``reason`` column was set
# upstream (pre-filter, back-translation) and is kept as is: re-filtering a filtered table must not overwrite it.
TRAINING_FILTER_REASONS: frozenset[Reason] = frozenset(
    {Reason.KEPT, Reason.MISSING_SCORE, Reason.SCORE_OUT_OF_RANGE, Reason.TOO_MANY_TOKENS, Reason.NOT_IN_SELECTED_FOLDS,
     Reason.NOT_SAMPLED, Reason.NO_KNOWN_WORDS, Reason.LENGTH_RATIO, Reason.EVAL_OVERLAP, Reason.COPY}
)
UPSTREAM_RULE = "upstream"  # rule name under which rows rejected before this stage are counted
KEPT_RULE = "kept"


@runtime_checkable
class Rule(Protocol):
    """A vectorised row filter: ``check`` says which rows pass; failing rows get ``reason``."""

    name: str
    reason: Reason

    @property
    def columns(self) -> tuple[str, ...]: ...

    def check(self, table: pa.Table) -> np.ndarray: ...


# --------------------------------------------------------------------------------------------------- helpers


def score_values(table: pa.Table, column: str) -> np.ndarray:
    """A score column as a float NumPy array in the column's own precision, nulls as NaN."""
    col = table.column(column)
    dtype = np.float32 if pa.types.is_float32(col.type) or pa.types.is_float16(col.type) else np.float64
    filled = pc.fill_null(col.cast(pa.float32() if dtype is np.float32 else pa.float64()), float("nan"))
    return np.asarray(filled.to_numpy(), dtype=dtype)


def token_lengths(table: pa.Table, column: str) -> np.ndarray:
    """Tokens per row of a list column as int64; a null list is -1 (unknown length)."""
    lengths = pc.fill_null(pc.list_value_length(table.column(column)), -1)
    return np.asarray(lengths.to_numpy(), dtype=np.int64)


def _bool_column(table: pa.Table, column: str, null_as: bool) -> np.ndarray:
    return np.asarray(pc.fill_null(table.column(column), null_as).to_numpy(), dtype=bool)


# ----------------------------------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class ScorePresent:
    """The score is neither null nor NaN: unscored pairs cannot pass a range or be ranked."""

    criterion: str
    kind: ClassVar[str] = "score_present"
    reason: Reason = field(default=Reason.MISSING_SCORE, init=False)

    def __post_init__(self) -> None:
        _check_criterion(self.criterion)

    @property
    def name(self) -> str:
        return f"{self.criterion}_present"

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.criterion,)

    def check(self, table: pa.Table) -> np.ndarray:
        return ~np.isnan(score_values(table, self.criterion))


@dataclass(frozen=True)
class ScoreRange:
    """``min <= score <= max`` (both inclusive, either optional). Null/NaN fails.

    Thresholds are cast to the column's precision first, so a float32 score written as 0.7 passes ``min: 0.7``.
    """

    criterion: str
    min: float | None = None
    max: float | None = None
    kind: ClassVar[str] = "score_range"
    reason: Reason = field(default=Reason.SCORE_OUT_OF_RANGE, init=False)

    def __post_init__(self) -> None:
        _check_criterion(self.criterion)
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"{self.criterion}: min ({self.min}) is greater than max ({self.max})")

    @property
    def name(self) -> str:
        return f"{self.criterion}_range"

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.criterion,)

    def check(self, table: pa.Table) -> np.ndarray:
        values = score_values(table, self.criterion)
        passes = ~np.isnan(values)  # NaN compares False anyway; explicit so the intent is visible
        if self.min is not None:
            passes &= values >= values.dtype.type(self.min)
        if self.max is not None:
            passes &= values <= values.dtype.type(self.max)
        return passes


@dataclass(frozen=True)
class MaxTokens:
    """Both sides have at most ``max_tokens`` Moses tokens (the paper's 30). A null token list fails."""

    max_tokens: int
    kind: ClassVar[str] = "max_tokens"
    reason: Reason = field(default=Reason.TOO_MANY_TOKENS, init=False)
    name: str = field(default="max_tokens", init=False)

    def __post_init__(self) -> None:
        if self.max_tokens < 1:
            raise ValueError(f"max_tokens must be at least 1 (got {self.max_tokens})")

    @property
    def columns(self) -> tuple[str, ...]:
        return (EN_TOKENS, MT_TOKENS)

    def check(self, table: pa.Table) -> np.ndarray:
        en, mt = token_lengths(table, EN_TOKENS), token_lengths(table, MT_TOKENS)
        return (en >= 0) & (mt >= 0) & (en <= self.max_tokens) & (mt <= self.max_tokens)


@dataclass(frozen=True)
class LengthRatio:
    """Longer side / shorter side (in tokens) is at most ``max_ratio``. An empty or null side fails."""

    max_ratio: float
    kind: ClassVar[str] = "length_ratio"
    reason: Reason = field(default=Reason.LENGTH_RATIO, init=False)
    name: str = field(default="length_ratio", init=False)

    def __post_init__(self) -> None:
        if not self.max_ratio >= 1:
            raise ValueError(f"max_ratio must be at least 1 (got {self.max_ratio})")

    @property
    def columns(self) -> tuple[str, ...]:
        return (EN_TOKENS, MT_TOKENS)

    def check(self, table: pa.Table) -> np.ndarray:
        en, mt = token_lengths(table, EN_TOKENS), token_lengths(table, MT_TOKENS)
        shorter, longer = np.minimum(en, mt), np.maximum(en, mt)
        # Integer cross-multiplication instead of a division: exact at the boundary, and no 0/0.
        return (shorter > 0) & (longer <= self.max_ratio * shorter)


@dataclass(frozen=True)
class NoKnownWords:
    """Rejects pairs whose paraphrase score is a placeholder 0 because a side had no known word.

    A null flag passes: it means "not scored", which :class:`ScorePresent` reports more precisely.
    """

    kind: ClassVar[str] = "no_known_words"
    reason: Reason = field(default=Reason.NO_KNOWN_WORDS, init=False)
    name: str = field(default="no_known_words", init=False)

    @property
    def columns(self) -> tuple[str, ...]:
        return (NO_KNOWN_WORDS,)

    def check(self, table: pa.Table) -> np.ndarray:
        return ~_bool_column(table, NO_KNOWN_WORDS, null_as=False)


@dataclass(frozen=True)
class NotACopy:
    """The back-translation differs from the reference: equal after Moses normalisation and lower-casing (the
    comparison of :func:`filters.decontaminate.sentence_keys`) is a copy, not a paraphrase. A null side passes
    (nothing to compare; the token rules report it)."""

    kind: ClassVar[str] = "not_a_copy"
    reason: Reason = field(default=Reason.COPY, init=False)
    name: str = field(default="not_a_copy", init=False)

    @property
    def columns(self) -> tuple[str, ...]:
        return (EN_TOKENS, MT_TOKENS)

    def check(self, table: pa.Table) -> np.ndarray:
        same = pc.equal(sentence_keys(table.column(EN_TOKENS)), sentence_keys(table.column(MT_TOKENS)))
        return ~np.asarray(pc.fill_null(same, False).to_numpy(zero_copy_only=False), dtype=bool)


RULE_KINDS: dict[str, type] = {
    cls.kind: cls for cls in (ScorePresent, ScoreRange, MaxTokens, LengthRatio, NoKnownWords, NotACopy)
}


def _check_criterion(criterion: str) -> None:
    if criterion not in CRITERIA:
        raise ValueError(f"unknown criterion {criterion!r}; expected one of {', '.join(CRITERIA)}")


# ------------------------------------------------------------------------------------------ building rule lists


def rules_from_config(config: FilterConfig, *, max_tokens: bool = True,
                      excluded: ExcludedSentences | None = None) -> list[Rule]:
    """The threshold rules a :class:`FilterConfig` asks for, in the order they are checked.

    Order (the first failing rule names the reason, so the most specific comes first):

    0. ``exclude_sentences`` when ``exclude_sentences`` is set — first, so every pair that shares a sentence with
       an evaluation set is counted as ``eval_overlap`` whatever else it fails, and none takes a fold slot.
       ``excluded`` passes sentences loaded once (the pipeline loads them on the launcher); otherwise they are
       read here from the config's files (cached per process); then ``not_a_copy`` when ``drop_copies`` is set,
       so copies take no fold slot either;
    1. ``score_present`` for every criterion with a range and for ``rank_by`` — an unscored pair is reported as
       missing rather than as out of range, and cannot take a fold slot;
    2. ``no_known_words`` when a paraphrase-score range or ranking is on (its score is a placeholder 0);
    3. ``score_range`` per criterion, in the config's (YAML) order;
    4. ``length_ratio`` if ``max_length_ratio`` is set;
    5. ``max_tokens`` if set and ``max_tokens=True``. :func:`filters.folds.select_training_pairs` passes False
       and applies it after fold selection, as the paper does (deciles over all pairs, then the 30-token cut).
    """
    criteria = list(config.score_ranges)
    if config.rank_by is not None and config.rank_by not in criteria:
        criteria.append(config.rank_by)
    rules: list[Rule] = []
    if config.exclude_sentences:
        rules.append(ExcludeSentences(excluded or ExcludedSentences.load(config.exclude_sentences)))
    if config.drop_copies:
        rules.append(NotACopy())
    rules.extend(ScorePresent(c) for c in criteria)
    if PARAPHRASE_SCORE in criteria:
        rules.append(NoKnownWords())
    rules.extend(ScoreRange(c, r.min, r.max) for c, r in config.score_ranges.items()
                 if r.min is not None or r.max is not None)
    if config.max_length_ratio is not None:
        rules.append(LengthRatio(config.max_length_ratio))
    if max_tokens and config.max_tokens is not None:
        rules.append(MaxTokens(config.max_tokens))
    return rules


def rules_from_steps(steps: Iterable[Mapping[str, Mapping[str, Any] | None]]) -> list[Rule]:
    """Rules from OpusFilter-style steps: ``[{"score_range": {"criterion": "paraphrase_score", "min": 0.5}},
    {"max_tokens": {"max_tokens": 30}}, {"no_known_words": {}}]`` (one kind per step, checked in order)."""
    rules: list[Rule] = []
    for i, step in enumerate(steps):
        if len(step) != 1:
            raise ValueError(f"step {i}: expected one rule kind per step, got {sorted(step)}")
        ((kind, params),) = step.items()
        cls = RULE_KINDS.get(kind)
        if cls is None:
            raise ValueError(f"step {i}: unknown rule {kind!r}; known rules: {', '.join(sorted(RULE_KINDS))}")
        try:
            rules.append(cls(**dict(params or {})))
        except TypeError as exc:
            raise ValueError(f"step {i} ({kind}): {exc}") from None
    return rules


def rules_to_steps(rules: Sequence[Rule]) -> list[dict[str, dict[str, Any]]]:
    """The inverse of :func:`rules_from_steps`, for echoing the rules into output metadata."""
    steps = []
    for rule in rules:
        if hasattr(rule, "step_params"):  # a rule that holds data (evaluation sentences) says what to echo
            steps.append({type(rule).kind: rule.step_params()})  # type: ignore[attr-defined]
            continue
        params = {k: v for k, v in asdict(rule).items() if k not in ("reason", "name")}  # type: ignore[call-overload]
        steps.append({type(rule).kind: params})  # type: ignore[attr-defined]
    return steps


# ---------------------------------------------------------------------------------------------- applying rules


@dataclass
class RuleResult:
    """The outcome of :func:`apply_rules`, one entry per row.

    ``reason`` holds :class:`Reason` members (object array; ``Reason`` is a ``str``), ``rule`` the name of the
    first failing rule (``"kept"`` for kept rows, ``"upstream"`` for rows rejected before this stage).
    ``counts`` maps reason values and ``rule_counts`` rule names to row counts; each sums to the row count.
    """

    keep: np.ndarray
    reason: np.ndarray
    rule: np.ndarray
    counts: dict[str, int]
    rule_counts: dict[str, int]

    def __len__(self) -> int:
        return len(self.keep)


def _upstream_reasons(table: pa.Table) -> np.ndarray | None:
    """Reasons set before this stage (object array, None where the row was not rejected upstream), or None."""
    if REASON not in table.column_names:
        return None
    col = table.column(REASON)
    if pa.types.is_dictionary(col.type):
        col = col.cast(pa.string())
    own = pa.array(sorted(r.value for r in TRAINING_FILTER_REASONS), type=pa.string())
    mask = np.asarray(pc.and_(pc.is_valid(col), pc.invert(pc.is_in(col, value_set=own))).to_numpy(), dtype=bool)
    if not mask.any():
        return None
    upstream = np.full(table.num_rows, None, dtype=object)
    upstream[mask] = [Reason(v) if v in Reason._value2member_map_ else v for v in col.filter(mask).to_pylist()]
    return upstream


def apply_rules(table: pa.Table, rules: Sequence[Rule], *, respect_upstream: bool = True) -> RuleResult:
    """Run ``rules`` in order; each row is kept or gets the reason of the first rule it fails.

    With ``respect_upstream`` (default), rows whose ``reason`` column already holds a reason this stage does not
    assign (e.g. ``translation_failed``) keep it and are not kept, whatever the rules say.
    """
    names = [rule.name for rule in rules]
    if len(set(names)) != len(names):
        raise ValueError(f"rule names must be unique, got {names}")
    required = tuple(dict.fromkeys(c for rule in rules for c in rule.columns))
    check_schema(table.schema, required=required)

    n = table.num_rows
    # code 0 = kept, i+1 = rule i, len(rules)+1 = upstream; the first failure wins because only rows still
    # at 0 are written.
    code = np.zeros(n, dtype=np.int32)
    upstream = _upstream_reasons(table) if respect_upstream else None
    upstream_code = len(rules) + 1
    if upstream is not None:
        code[upstream != None] = upstream_code  # noqa: E711 (elementwise comparison on an object array)
    for i, rule in enumerate(rules, start=1):
        passes = np.asarray(rule.check(table), dtype=bool)
        if passes.shape != (n,):
            raise ValueError(f"rule {rule.name} returned shape {passes.shape} for {n} rows")
        code[(code == 0) & ~passes] = i

    rule_names = np.array([KEPT_RULE, *names, UPSTREAM_RULE], dtype=object)
    code_reasons = np.array([Reason.KEPT, *(rule.reason for rule in rules), None], dtype=object)
    reason = code_reasons[code]
    if upstream is not None:
        reason[code == upstream_code] = upstream[code == upstream_code]
    keep = code == 0

    rule_counts = {str(rule_names[c]): int(k) for c, k in zip(*np.unique(code, return_counts=True), strict=True)}
    return RuleResult(keep=keep, reason=reason, rule=rule_names[code], counts=count_reasons(reason),
                      rule_counts=rule_counts)


def count_reasons(reason: np.ndarray | Sequence[str]) -> dict[str, int]:
    """Rows per reason value (plain strings, sorted). Counted by Arrow in C: no per-row Python objects."""
    counts = pc.value_counts(pa.array(np.asarray(reason, dtype=object), type=pa.string())).to_pylist()
    return {item["values"]: int(item["counts"]) for item in sorted(counts, key=lambda item: item["values"])}


def reason_array(reason: np.ndarray | Sequence[str]) -> pa.DictionaryArray:
    """Reasons as the ``reason`` column type of :data:`PAIRS_SCHEMA` (dictionary<int8, string>)."""
    values = pa.array(np.asarray(reason, dtype=object), type=pa.string())
    return values.dictionary_encode().cast(PAIRS_SCHEMA.field(REASON).type)


def with_decision(table: pa.Table, keep: np.ndarray, reason: np.ndarray | Sequence[str]) -> pa.Table:
    """``table`` with its ``keep`` and ``reason`` columns set (replaced, or appended in schema order)."""
    if len(keep) != table.num_rows or len(reason) != table.num_rows:
        raise ValueError(f"keep/reason have {len(keep)}/{len(reason)} entries for {table.num_rows} rows")
    columns = {KEEP: pa.array(np.asarray(keep, dtype=bool), type=pa.bool_()), REASON: reason_array(reason)}
    for name, array in columns.items():
        index = table.schema.get_field_index(name)
        field_ = PAIRS_SCHEMA.field(name)
        table = table.set_column(index, field_, array) if index >= 0 else table.append_column(field_, array)
    return table
