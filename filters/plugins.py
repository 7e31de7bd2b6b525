"""Filters and scores: the one way to add a rule or a score to the pipeline, built-in or your own.

A **rule** looks at a batch of pairs (an Arrow table) and says, per row, keep or not; the rows it rejects get its
``reason``. A **score** adds columns to the batch. Both are pydantic models whose fields are their parameters, so a
config names one by key (a built-in) or by import path (``mypackage.filters:LanguageId``), with its parameters
validated (a bad one is an error naming the field) and echoed into the output's metadata::

    class LanguageId(Rule):
        '''Keep pairs whose English side looks English (reason wrong_language).'''

        stage = Stage.PREFILTER                # before translation: a rejected pair costs no GPU time
        reason = "wrong_language"
        columns = ("en_tokens",)
        min_share: float = 0.5                 # a parameter: `- mypackage.filters:LanguageId: {min_share: 0.6}`

        def check(self, table: pa.Table) -> np.ndarray:
            ...                                # True = keep, one bool per row, vectorised over the batch

Stages and the columns a batch has there (:data:`STAGE_COLUMNS`):

* ``prefilter`` -- after Moses tokenisation, before dedup and translation (config ``prefilter.rules``): ``id``,
  ``source``, ``cs``, ``en``, ``cs_tokens``, ``en_tokens``.
* ``select`` -- after back-translation and the paraphrase scores, before ranking into folds (config
  ``select.rules``; scores: ``select.scores``): every :data:`paranmt.core.pair_schema.PAIRS_SCHEMA` column, plus the
  columns of the configured scores.

The first rule a row fails names its reason, and rejected rows are counted per reason like the built-in ones (a
rule's reason may be a :class:`~core.pair_schema.Reason` or a code of its own: lower-case letters, digits and
``_``). Rules and scores must be deterministic functions of the rows they are given -- the same pairs give the same
corpus whatever the batching -- and picklable (they travel to the workers); load heavy state in :meth:`Score.setup`
(called once per worker before the first batch), not in ``__init__``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import pyarrow as pa
from pydantic import BaseModel, ConfigDict, ValidationError

from configs.schema import PluginStep
from paranmt.core.errors import ParanmtError
from paranmt.core.import_path import load_class
from paranmt.core.pair_schema import EN_TOKENS, ID, PAIRS_SCHEMA, SOURCE, Reason, Stage  # Stage: exported for plug-ins

__all__ = [
    "BUILTIN_RULES",
    "BUILTIN_SCORES",
    "STAGE_COLUMNS",
    "PluginError",
    "Rule",
    "Score",
    "Stage",
    "build_rules",
    "build_scores",
    "check_unique_names",
    "step_of",
]


class PluginError(ParanmtError, ValueError):
    """A rule or score named in a config cannot be found, is the wrong kind, or has bad parameters."""


CS_TOKENS = "cs_tokens"

STAGE_COLUMNS: dict[Stage, tuple[str, ...]] = {
    Stage.PREFILTER: (ID, SOURCE, "cs", "en", CS_TOKENS, EN_TOKENS),
    Stage.SELECT: tuple(PAIRS_SCHEMA.names),
}

_REASON_CODE = re.compile(r"[a-z][a-z0-9_]*")


class _Plugin(BaseModel):
    """Parameters are the model's fields; class attributes (``ClassVar``) describe the plugin itself."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    #: The name a config uses for a built-in; a user's own plugin is named by its import path instead.
    key: ClassVar[str] = ""
    stage: ClassVar[Stage] = Stage.SELECT
    #: Columns of the batch it reads: checked against :data:`STAGE_COLUMNS` (and earlier scores) before a run.
    columns: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # Any: each plugin's own fields, validated below
        # Positional parameters in field order, as with a dataclass: ScoreRange("paraphrase_score", 0.5).
        super().__init__(**dict(zip(type(self).model_fields, args, strict=False)), **kwargs)

    def params(self) -> dict[str, Any]:
        """The parameters as given or defaulted, JSON-ready: what the output's metadata echoes."""
        return self.model_dump(mode="json")


class Rule(_Plugin):
    """A vectorised row filter: :meth:`check` says which rows of a batch pass; the others get :attr:`reason`.

    Subclasses set ``reason`` (and usually ``stage`` and ``columns``) and implement :meth:`check`. :meth:`detail`
    may explain each rejection in a few words (written to ``rejected/``, default: the rule's name).
    """

    reason: ClassVar[str]

    @property
    def name(self) -> str:
        """The rule's name in per-rule counts: its key, or its class name for a user's rule."""
        return self.key or type(self).__name__

    def check(self, table: pa.Table) -> np.ndarray:
        """One bool per row of ``table``: True keeps the row."""
        raise NotImplementedError

    def detail(self, table: pa.Table) -> list[str]:
        """One short explanation per row of ``table`` (the rows this rule rejected)."""
        return [self.name] * table.num_rows


class Score(_Plugin):
    """A vectorised score: :meth:`score` returns new columns for a batch, one value per row.

    Subclasses declare ``fields`` (the columns they add, with their Arrow types) and implement :meth:`score`. The
    columns are written to ``pairs/`` and ``train/``, and rules, ``select.score_ranges`` and ``select.rank_by``
    can use them.
    """

    stage: ClassVar[Stage] = Stage.SELECT

    @property
    def fields(self) -> tuple[pa.Field, ...]:
        raise NotImplementedError

    def setup(self) -> None:
        """Load what scoring needs (a model); called once per worker before the first batch."""

    def score(self, table: pa.Table) -> dict[str, pa.Array]:
        raise NotImplementedError


# A built-in is a short key for a class's import path, loaded when a config names it (sentence-transformers only
# then): the same lookup as a user's own import path. A score of a higher layer (a trained paranmt model's cosine)
# is named by the layer that runs the scores, which passes its table to build_scores (pipeline.graph.RUN_SCORES).
BUILTIN_RULES: dict[str, str] = {
    "garbage": "filters.prefilter_rules:Garbage",
    "empty_side": "filters.prefilter_rules:EmptySide",
    "untranslated": "filters.prefilter_rules:Untranslated",
    "source_too_long": "filters.prefilter_rules:SourceTooLong",
    "source_target_ratio": "filters.prefilter_rules:SourceTargetRatio",
    "copy": "filters.rules:NotACopy",
    "missing_score": "filters.rules:ScorePresent",
    "no_known_words": "filters.rules:NoKnownWords",
    "score_range": "filters.rules:ScoreRange",
    "length_ratio": "filters.rules:LengthRatio",
    "too_many_tokens": "filters.rules:MaxTokens",
}
BUILTIN_SCORES: dict[str, str] = {
    "sentence_transformer": "filters.st_score:SentenceTransformerCosine",
}


def _load_class(name: str, builtins: Mapping[str, str], where: str) -> type:
    if name in builtins:
        return load_class(builtins[name], where, PluginError, "mypackage.filters:LanguageId")
    if ":" not in name:
        raise PluginError(f"{where}: {name!r} is neither a built-in ({', '.join(sorted(builtins))}) nor an import "
                          "path like mypackage.filters:LanguageId")
    return load_class(name, where, PluginError, "mypackage.filters:LanguageId")


def _build(step: PluginStep, kind: type[_Plugin], builtins: Mapping[str, str], where: str) -> _Plugin:
    name, params = (step, {}) if isinstance(step, str) else next(iter(step.items()))
    cls = _load_class(name, builtins, where)
    if not issubclass(cls, kind):
        raise PluginError(f"{where}: {name} is not a filters.plugins.{kind.__name__} subclass")
    try:
        return cls(**dict(params or {}))
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'parameters'}: {e['msg'].removeprefix('Value error, ')}"
                             f"{_given(e)}" for e in exc.errors())
        raise PluginError(f"{where} ({name}): {problems}") from None


def _given(error: Mapping[str, Any]) -> str:
    """`` (got 'lots')``: the value a parameter was given, echoed as the config errors do; nothing for a missing
    parameter (pydantic's input is then all the parameters)."""
    value = error.get("input")
    return "" if isinstance(value, Mapping) or not error.get("loc") else f" (got {value!r})"


def build_rules(steps: Sequence[PluginStep], stage: Stage, where: str) -> list[Rule]:
    """The rules of config steps (``["garbage", {"score_range": {"column": "st_cosine", "min": 0.5}}, ...]``), in
    order; ``where`` names the config key in errors (``select.rules``)."""
    rules: list[Rule] = []
    for i, step in enumerate(steps):
        rule = _build(step, Rule, BUILTIN_RULES, f"{where}[{i}]")
        assert isinstance(rule, Rule)
        if rule.stage != stage:
            raise PluginError(f"{where}[{i}]: {rule.name} is a {rule.stage} rule; list it under "
                              f"{'prefilter.rules' if rule.stage == Stage.PREFILTER else 'select.rules'}")
        reason = getattr(type(rule), "reason", None)
        if not isinstance(reason, str) or not _REASON_CODE.fullmatch(str(reason)):
            raise PluginError(f"{where}[{i}]: {rule.name}.reason must be a Reason or a lower-case code like "
                              f"'wrong_language' (got {reason!r})")
        if reason == Reason.KEPT:
            raise PluginError(f"{where}[{i}]: {rule.name}.reason cannot be 'kept'")
        missing = [c for c in rule.columns if c not in STAGE_COLUMNS[stage]] if stage == Stage.PREFILTER else []
        if missing:  # select-stage columns depend on the scores: filters.rules.check_select_columns
            raise PluginError(f"{where}[{i}]: {rule.name} reads {missing}; a pre-filter batch has "
                              f"{', '.join(STAGE_COLUMNS[stage])}")
        rules.append(rule)
    check_unique_names(rules, where)
    return rules


def check_unique_names(rules: Sequence[Rule], where: str) -> None:
    """Per-rule counts are keyed by name: the same rule twice (a duplicate step) is a config error."""
    names = [rule.name for rule in rules]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise PluginError(f"{where}: {', '.join(twice)} appears twice; list each rule once")


def build_scores(steps: Sequence[PluginStep], builtins: Mapping[str, str] = BUILTIN_SCORES,
                 where: str = "select.scores") -> list[Score]:
    """The scores of config steps, in order; their columns must be new and distinct. ``builtins``: the keys a step
    may name instead of an import path (the pipeline adds the scores of the layers above this one)."""
    scores: list[Score] = []
    taken = set(PAIRS_SCHEMA.names)
    for i, step in enumerate(steps):
        score = _build(step, Score, builtins, f"{where}[{i}]")
        assert isinstance(score, Score)
        for field in score.fields:
            if field.name in taken:
                raise PluginError(f"{where}[{i}]: column {field.name!r} already exists; give the score another "
                                  "column name")
            taken.add(field.name)
        scores.append(score)
    return scores


def step_of(plugin: _Plugin) -> dict[str, dict[str, Any]]:
    """A rule or score as a config step (built-in key, or a user's import path -> parameters): what the metadata
    echoes."""
    cls = type(plugin)
    builtin = plugin.key and cls.__module__.startswith("filters.") and "key" in vars(cls)
    return {plugin.key if builtin else f"{cls.__module__}:{cls.__qualname__}": plugin.params()}
