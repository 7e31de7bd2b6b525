"""The built-in selection rules for training pairs: vectorised over Arrow tables (ParaNMT-50M §5.4).

Each rule is a :class:`filters.plugins.Rule` (stage ``select``): its parameters are its fields, and
``check(table) -> np.ndarray[bool]`` says which rows pass. :func:`apply_rules` runs an ordered list of rules over a
table in the :mod:`paranmt.core.pair_schema` layout, like a datatrove filter chain: every row ends either kept
(``Reason.KEPT``) or with the reason of the *first* rule it fails, and per-reason and per-rule counts come for
free. :func:`rules_from_config` builds the chain a :class:`~configs.schema.SelectConfig` asks for, a user's own
rules (``select.rules``) included; :func:`prefilter_rules` builds the pre-filter's (``prefilter.rules``).

Missing values are never silently kept: a null or NaN score fails its ``missing_score`` rule, and a null token list
fails the token rules. A built-in rule's key is the reason code it gives (``score_range``, which gives
``score_out_of_range``, and ``exclude_sentences``, ``eval_overlap``, keep the names of their config keys).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import Field, model_validator

from configs.schema import ParaNMTConfig, SelectConfig, check_ordered
from filters.decontaminate import ExcludedSentences, ExcludeSentences, sentence_keys
from filters.plugins import STAGE_COLUMNS, PluginError, Rule, Score, Stage, build_rules, check_unique_names
from filters.prefilter_rules import SourceTooLong
from paranmt.core.pair_schema import (
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
    "prefilter_rules",
    "reason_array",
    "rules_from_config",
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


class ScorePresent(Rule):
    """The score is neither null nor NaN: unscored pairs cannot pass a range or be ranked (``missing_score``)."""

    key: ClassVar[str] = Reason.MISSING_SCORE.value
    reason: ClassVar[str] = Reason.MISSING_SCORE
    criterion: str

    @property
    def name(self) -> str:
        return f"missing_{self.criterion}"

    @property
    def columns(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.criterion,)

    def check(self, table: pa.Table) -> np.ndarray:
        return ~np.isnan(score_values(table, self.criterion))


class ScoreRange(Rule):
    """``min <= score <= max`` (both inclusive, either optional) on any score column, a plug-in score's included.
    Null/NaN fails (``score_out_of_range``).

    Thresholds are cast to the column's precision first, so a float32 score written as 0.7 passes ``min: 0.7``.
    """

    key: ClassVar[str] = "score_range"
    reason: ClassVar[str] = Reason.SCORE_OUT_OF_RANGE
    criterion: str
    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _ordered(self) -> ScoreRange:
        check_ordered(self.min, self.max, where=f"{self.criterion}: ")
        return self

    @property
    def name(self) -> str:
        return f"{self.criterion}_range"

    @property
    def columns(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.criterion,)

    def check(self, table: pa.Table) -> np.ndarray:
        values = score_values(table, self.criterion)
        passes = ~np.isnan(values)  # NaN compares False anyway; explicit so the intent is visible
        if self.min is not None:
            passes &= values >= values.dtype.type(self.min)
        if self.max is not None:
            passes &= values <= values.dtype.type(self.max)
        return passes


class MaxTokens(Rule):
    """Both sides have at most ``max_tokens`` Moses tokens (the paper's 30). A null token list fails
    (``too_many_tokens``)."""

    key: ClassVar[str] = Reason.TOO_MANY_TOKENS.value
    reason: ClassVar[str] = Reason.TOO_MANY_TOKENS
    columns: ClassVar[tuple[str, ...]] = (EN_TOKENS, MT_TOKENS)
    max_tokens: int = Field(ge=1)

    def check(self, table: pa.Table) -> np.ndarray:
        en, mt = token_lengths(table, EN_TOKENS), token_lengths(table, MT_TOKENS)
        return (en >= 0) & (mt >= 0) & (en <= self.max_tokens) & (mt <= self.max_tokens)


class LengthRatio(Rule):
    """English side / back-translation, longer over shorter (in tokens), is at most ``max_ratio``. An empty or null
    side fails (``length_ratio``)."""

    key: ClassVar[str] = "length_ratio"
    reason: ClassVar[str] = Reason.LENGTH_RATIO
    columns: ClassVar[tuple[str, ...]] = (EN_TOKENS, MT_TOKENS)
    max_ratio: float = Field(ge=1)

    def check(self, table: pa.Table) -> np.ndarray:
        en, mt = token_lengths(table, EN_TOKENS), token_lengths(table, MT_TOKENS)
        shorter, longer = np.minimum(en, mt), np.maximum(en, mt)
        return (shorter > 0) & (longer <= self.max_ratio * shorter)


class NoKnownWords(Rule):
    """Rejects pairs whose paraphrase score is a placeholder 0 because a side had no known word (``no_known_words``).

    A null flag passes: it means "not scored", which :class:`ScorePresent` reports more precisely.
    """

    key: ClassVar[str] = "no_known_words"
    reason: ClassVar[str] = Reason.NO_KNOWN_WORDS
    columns: ClassVar[tuple[str, ...]] = (NO_KNOWN_WORDS,)

    def check(self, table: pa.Table) -> np.ndarray:
        return ~_bool_column(table, NO_KNOWN_WORDS, null_as=False)


class NotACopy(Rule):
    """The back-translation differs from the reference: equal after Moses normalisation and lower-casing (the
    comparison of :func:`filters.decontaminate.sentence_keys`) is a copy, not a paraphrase (``copy``). A null side
    passes (nothing to compare; the token rules report it)."""

    key: ClassVar[str] = Reason.COPY.value
    reason: ClassVar[str] = Reason.COPY
    columns: ClassVar[tuple[str, ...]] = (EN_TOKENS, MT_TOKENS)

    def check(self, table: pa.Table) -> np.ndarray:
        same = pc.equal(sentence_keys(table.column(EN_TOKENS)), sentence_keys(table.column(MT_TOKENS)))
        return ~np.asarray(pc.fill_null(same, False).to_numpy(zero_copy_only=False), dtype=bool)


# ------------------------------------------------------------------------------------------ building rule lists


def rules_from_config(config: SelectConfig, *, max_tokens: bool = True,
                      excluded: ExcludedSentences | None = None) -> list[Rule]:
    """The threshold rules a :class:`SelectConfig` asks for, in the order they are checked.

    Order (the first failing rule names the reason, so the most specific comes first):

    0. ``exclude_sentences`` when ``exclude_sentences`` is set — first, so every pair that shares a sentence with
       an evaluation set is counted as ``eval_overlap`` whatever else it fails, and none takes a fold slot.
       ``excluded`` passes sentences loaded once (the pipeline loads them on the launcher); otherwise they are
       read here from the config's files (cached per process); then ``copy`` when ``drop_copies`` is set,
       so copies take no fold slot either;
    1. ``missing_score`` for every criterion with a range and for ``rank_by`` — an unscored pair is reported as
       missing rather than as out of range, and cannot take a fold slot;
    2. ``no_known_words`` when a paraphrase-score range or ranking is on (its score is a placeholder 0);
    3. ``score_range`` per criterion, in the config's (YAML) order;
    4. ``length_ratio`` if ``max_length_ratio`` is set;
    5. ``rules``: the config's own list (built-ins by key, a user's rules by import path), in order;
    6. ``too_many_tokens`` if ``max_tokens`` is set and ``max_tokens=True``.
       :func:`filters.folds.select_training_pairs` passes False and applies it after fold selection, as the paper
       does (deciles over all pairs, then the 30-token cut).
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
    rules.extend(build_rules(config.rules, Stage.SELECT, "select.rules"))
    check_unique_names(rules, "select.rules (with the rules score_ranges, max_length_ratio and rank_by imply)")
    if max_tokens and config.max_tokens is not None:
        rules.append(MaxTokens(config.max_tokens))
    return rules


def prefilter_rules(config: ParaNMTConfig) -> list[Rule]:
    """The rules of ``prefilter.rules``, resolved and validated on the launcher (a bad name or parameter fails
    before any work); ``source_too_long`` without a limit gets ``prefilter.max_source_tokens`` or, failing that,
    ``translate.max_source_tokens``."""
    limit = config.prefilter.max_source_tokens or config.translate.max_source_tokens
    rules = build_rules(config.prefilter.rules, Stage.PREFILTER, "prefilter.rules")
    return [SourceTooLong(max_tokens=limit) if isinstance(r, SourceTooLong) and r.max_tokens is None else r
            for r in rules]


def check_select_columns(config: SelectConfig, scores: Sequence[Score],
                         excluded: ExcludedSentences | None = None) -> None:
    """Every column the selection reads exists: those of the rules (built-in and the config's own), of
    ``score_ranges`` and of ``rank_by``, among the pairs' columns and those the configured scores add. Raises
    :class:`filters.plugins.PluginError` naming the config key, before any work."""
    available = set(STAGE_COLUMNS[Stage.SELECT]) | {f.name for score in scores for f in score.fields}
    numeric = set(CRITERIA) | {f.name for score in scores for f in score.fields
                               if pa.types.is_floating(f.type) or pa.types.is_integer(f.type)}
    for name, key in [*((c, "select.score_ranges") for c in config.score_ranges), (config.rank_by, "select.rank_by")]:
        if name is not None and name not in numeric:
            raise PluginError(f"{key}: {name!r} is not a score column; choose from {', '.join(sorted(numeric))} "
                              "(a score in select.scores adds its own)")
    for rule in rules_from_config(config, excluded=excluded):
        missing = [c for c in rule.columns if c not in available]
        if missing:
            raise PluginError(f"select.rules: {rule.name} reads {missing}, which no stage or score makes; the pairs "
                              f"have {', '.join(sorted(available))}")


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


def _upstream_reasons(table: pa.Table, own_reasons: Sequence[str]) -> np.ndarray | None:
    """Reasons set before this stage (object array, None where the row was not rejected upstream), or None."""
    if REASON not in table.column_names:
        return None
    col = table.column(REASON)
    if pa.types.is_dictionary(col.type):
        col = col.cast(pa.string())
    own = pa.array(sorted({str(r) for r in TRAINING_FILTER_REASONS} | set(own_reasons)), type=pa.string())
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
    upstream = _upstream_reasons(table, [str(rule.reason) for rule in rules]) if respect_upstream else None
    upstream_code = len(rules) + 1
    if upstream is not None:
        code[upstream != None] = upstream_code  # noqa: E711 (elementwise comparison on an object array)
    for i, rule in enumerate(rules, start=1):
        passes = np.asarray(rule.check(table), dtype=bool)
        if passes.shape != (n,):
            raise ValueError(f"rule {rule.name} returned shape {passes.shape} for {n} rows")
        code[(code == 0) & ~passes] = i

    rule_names = np.array([KEPT_RULE, *names, UPSTREAM_RULE], dtype=object)
    code_reasons = np.array([Reason.KEPT, *(_as_reason(rule.reason) for rule in rules), None], dtype=object)
    reason = code_reasons[code]
    if upstream is not None:
        reason[code == upstream_code] = upstream[code == upstream_code]
    keep = code == 0

    rule_counts = {str(rule_names[c]): int(k) for c, k in zip(*np.unique(code, return_counts=True), strict=True)}
    return RuleResult(keep=keep, reason=reason, rule=rule_names[code], counts=count_reasons(reason),
                      rule_counts=rule_counts)


def _as_reason(code: str) -> Reason | str:
    """A built-in reason as its :class:`Reason`, a plug-in rule's own code as is."""
    return Reason(code) if code in Reason._value2member_map_ else code


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
