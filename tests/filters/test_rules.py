"""Threshold rules (filters.rules): each rule on hand-made tables, the first-failing-reason order, counts."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from configs.schema import SelectConfig
from filters.plugins import PluginError, Stage, build_rules, step_of
from filters.rules import (
    LengthRatio,
    MaxTokens,
    NoKnownWords,
    ScorePresent,
    ScoreRange,
    apply_rules,
    check_select_columns,
    reason_array,
    rules_from_config,
    with_decision,
)
from paranmt.core.pair_schema import PAIRS_SCHEMA, Reason, SchemaMismatch, check_schema
from tests.support.pair_tables import table_from_columns


def _tokens(n: int | None, side: str = "en") -> list[str] | None:
    """``n`` tokens; the two sides differ (a pair whose sides are equal is a copy, which the default rules drop)."""
    return None if n is None else [f"{side}{i}" for i in range(n)]


def _table(**columns) -> pa.Table:
    """A pairs table from a few columns; token columns may be given as lengths."""
    n = len(next(iter(columns.values())))
    columns.setdefault("id", [f"t-{i}" for i in range(n)])
    columns.setdefault("source", ["test"] * n)
    for side in ("en_tokens", "mt_tokens"):
        lengths = columns.pop(side, [3] * n)
        columns[side] = [_tokens(x, side[:2]) for x in lengths]
    return table_from_columns(columns)


def test_score_range_is_inclusive_in_the_columns_precision():
    # float32 0.7 is 0.699999988..., below the float64 0.7: the rule compares in float32, so it passes.
    table = _table(paraphrase_score=[0.5, 0.7, 0.9, 0.49999, 0.90001, -1.0, 2.0])
    passes = ScoreRange("paraphrase_score", 0.5, 0.9).check(table)
    assert passes.tolist() == [True, True, True, False, False, False, False]
    assert ScoreRange("paraphrase_score", min=0.7).check(table).tolist() == [
        False, True, True, False, True, False, True]
    assert ScoreRange("paraphrase_score", max=0.7).check(table).tolist() == [
        True, True, False, True, False, True, False]
    assert ScoreRange("paraphrase_score").check(table).all()


def test_score_rules_fail_null_and_nan():
    table = _table(trigram_overlap=[0.2, None, float("nan"), 0.0])
    assert ScoreRange("trigram_overlap", -1, 1).check(table).tolist() == [True, False, False, True]
    assert ScoreRange("trigram_overlap").check(table).tolist() == [True, False, False, True]
    assert ScorePresent("trigram_overlap").check(table).tolist() == [True, False, False, True]


def test_score_rule_validation():
    with pytest.raises(PluginError, match=r"select\.rules: bleu_range reads \['bleu'\]"):
        check_select_columns(SelectConfig(rules=[{"score_range": {"criterion": "bleu", "min": 0}}]), [])
    with pytest.raises(PluginError, match=r"select\.score_ranges: 'bleu' is not a score column"):
        check_select_columns(SelectConfig(score_ranges={"bleu": {"min": 0}}), [])
    with pytest.raises(ValueError, match="greater than max"):
        ScoreRange("paraphrase_score", 0.9, 0.1)


def test_max_tokens_boundary_either_side_and_null():
    table = _table(en_tokens=[30, 31, 1, 30, None, 0], mt_tokens=[30, 1, 31, None, 2, 0])
    assert MaxTokens(30).check(table).tolist() == [True, False, False, False, False, True]
    with pytest.raises(ValueError):
        MaxTokens(0)


def test_length_ratio_boundary_and_empty_sides():
    table = _table(en_tokens=[10, 5, 21, 10, 0, 0, None, 7], mt_tokens=[5, 10, 10, 10, 3, 0, 4, 7])
    assert LengthRatio(2.0).check(table).tolist() == [True, True, False, True, False, False, False, True]
    assert LengthRatio(2.1).check(table)[2]
    with pytest.raises(ValueError):
        LengthRatio(0.5)


def test_no_known_words_rejects_flagged_pairs_only():
    table = _table(no_known_words=[False, True, None])
    assert NoKnownWords().check(table).tolist() == [True, False, True]


def test_first_failing_rule_names_the_reason():
    # row 0 fails both rules, row 1 only the token rule, row 2 only the score rule, row 3 none.
    table = _table(paraphrase_score=[0.1, 0.9, 0.1, 0.9], en_tokens=[40, 40, 3, 3])
    score, tokens = ScoreRange("paraphrase_score", min=0.5), MaxTokens(30)
    first = apply_rules(table, [score, tokens])
    assert first.reason.tolist() == [Reason.SCORE_OUT_OF_RANGE, Reason.TOO_MANY_TOKENS,
                                     Reason.SCORE_OUT_OF_RANGE, Reason.KEPT]
    assert first.rule.tolist() == ["paraphrase_score_range", "too_many_tokens", "paraphrase_score_range", "kept"]
    assert first.keep.tolist() == [False, False, False, True]
    assert first.counts == {"kept": 1, "score_out_of_range": 2, "too_many_tokens": 1}
    assert first.rule_counts == {"kept": 1, "paraphrase_score_range": 2, "too_many_tokens": 1}

    swapped = apply_rules(table, [tokens, score])
    assert swapped.reason[0] == Reason.TOO_MANY_TOKENS
    assert swapped.counts == {"kept": 1, "score_out_of_range": 1, "too_many_tokens": 2}


def test_null_scores_fail_with_a_clear_rule_name():
    config = SelectConfig(score_ranges={"paraphrase_score": {"min": 0.5}}, max_tokens=None)
    table = _table(paraphrase_score=[None, 0.2, 0.8], no_known_words=[False, False, False])
    result = apply_rules(table, rules_from_config(config))
    assert result.rule.tolist() == ["missing_paraphrase_score", "paraphrase_score_range", "kept"]
    assert result.reason.tolist() == [Reason.MISSING_SCORE, Reason.SCORE_OUT_OF_RANGE, Reason.KEPT]


def test_counts_sum_to_rows_on_random_tables():
    rng = np.random.default_rng(0)
    n = 2000
    scores = rng.uniform(-0.2, 1.0, n).astype(np.float32).tolist()
    for i in rng.choice(n, 50, replace=False):
        scores[i] = None
    table = _table(
        paraphrase_score=scores,
        trigram_overlap=rng.uniform(0, 1, n).astype(np.float32),
        no_known_words=rng.random(n) < 0.05,
        en_tokens=rng.integers(0, 45, n).tolist(),
        mt_tokens=rng.integers(0, 45, n).tolist(),
    )
    config = SelectConfig(score_ranges={"paraphrase_score": {"min": 0.3, "max": 0.95},
                                        "trigram_overlap": {"max": 0.8}}, max_length_ratio=2.5)
    rules = rules_from_config(config)
    result = apply_rules(table, rules)
    assert sum(result.counts.values()) == n == sum(result.rule_counts.values())
    assert result.keep.sum() == result.counts["kept"] == (result.reason == Reason.KEPT).sum()
    # keep is the conjunction of all rules, and each rejected row fails the rule it is blamed on
    all_pass = np.logical_and.reduce([rule.check(table) for rule in rules])
    np.testing.assert_array_equal(result.keep, all_pass)
    by_name = {rule.name: rule for rule in rules}
    for i in np.flatnonzero(~result.keep)[:200]:
        name = result.rule[i]
        assert not by_name[name].check(table)[i]
        assert result.reason[i] == by_name[name].reason
        earlier = rules[: [r.name for r in rules].index(name)]
        assert all(rule.check(table)[i] for rule in earlier)


def test_rules_from_config_order_and_switches():
    names = [rule.name for rule in rules_from_config(SelectConfig())]
    assert names == ["copy", "missing_paraphrase_score", "no_known_words", "too_many_tokens"]
    assert "copy" not in [rule.name for rule in rules_from_config(SelectConfig(drop_copies=False))]
    config = SelectConfig(score_ranges={"translation_score": {"min": -1.5}, "paraphrase_score": {"max": 0.99}},
                          max_length_ratio=3, rank_by="trigram_overlap")
    assert [rule.name for rule in rules_from_config(config, max_tokens=False)] == [
        "copy", "missing_translation_score", "missing_paraphrase_score", "missing_trigram_overlap",
        "no_known_words",
        "translation_score_range", "paraphrase_score_range", "length_ratio"]
    thresholds_only = SelectConfig(rank_by=None, score_ranges={"trigram_overlap": {"min": 0.1}}, max_tokens=None)
    assert [rule.name for rule in rules_from_config(thresholds_only)] == [
        "copy", "missing_trigram_overlap", "trigram_overlap_range"]


def test_declarative_steps_round_trip():
    config = SelectConfig(score_ranges={"paraphrase_score": {"min": 0.5, "max": 0.95}}, max_length_ratio=2.0)
    rules = rules_from_config(config)
    steps = [step_of(rule) for rule in rules]
    assert steps[:2] == [{"copy": {}}, {"missing_score": {"criterion": "paraphrase_score"}}]
    assert {"too_many_tokens": {"max_tokens": 30}} in steps
    assert build_rules(steps, Stage.SELECT, "select.rules") == rules
    yaml_like = [{"score_range": {"criterion": "trigram_overlap", "max": 0.5}}, "no_known_words"]
    assert build_rules(yaml_like, Stage.SELECT, "x") == [ScoreRange("trigram_overlap", max=0.5), NoKnownWords()]
    with pytest.raises(PluginError, match=r"x\[0\]: 'bleu' is neither a built-in"):
        build_rules([{"bleu": {}}], Stage.SELECT, "x")
    with pytest.raises(PluginError, match=r"x\[0\] \(too_many_tokens\): max_tokens: Field required; limit: Extra "):
        build_rules([{"too_many_tokens": {"limit": 3}}], Stage.SELECT, "x")
    with pytest.raises(PluginError, match=r"x\[0\]: garbage is a prefilter rule; list it under prefilter\.rules"):
        build_rules(["garbage"], Stage.SELECT, "x")
    user = SelectConfig(rules=[{"score_range": {"criterion": "translation_score", "min": -0.5}}])
    assert [r.name for r in rules_from_config(user)][-2:] == ["translation_score_range", "too_many_tokens"]


def test_a_rule_is_named_by_its_reason_code_alone():
    with pytest.raises(PluginError, match=r"select\.rules\[0\]: 'not_a_copy' is neither a built-in \(copy, "):
        build_rules(SelectConfig(rules=["not_a_copy"]).rules, Stage.SELECT, "select.rules")


def test_upstream_reasons_are_kept():
    table = _table(paraphrase_score=[0.9, 0.9, 0.1, None],
                   reason=["translation_failed", "not_sampled", None, "empty_side"])
    result = apply_rules(table, [ScoreRange("paraphrase_score", min=0.5)])
    assert result.reason.tolist() == [Reason.TRANSLATION_FAILED, Reason.KEPT, Reason.SCORE_OUT_OF_RANGE,
                                      Reason.EMPTY_SIDE]
    assert result.rule.tolist() == ["upstream", "kept", "paraphrase_score_range", "upstream"]
    assert result.counts == {"empty_side": 1, "kept": 1, "score_out_of_range": 1, "translation_failed": 1}
    ignored = apply_rules(table, [ScoreRange("paraphrase_score", min=0.5)], respect_upstream=False)
    assert ignored.keep.tolist() == [True, True, False, False]


def test_missing_columns_are_a_schema_error():
    table = pa.table({"id": ["a"], "en_tokens": [["x"]], "mt_tokens": [["y"]]})
    with pytest.raises(SchemaMismatch, match="paraphrase_score"):
        apply_rules(table, [ScorePresent("paraphrase_score")])
    with pytest.raises(ValueError, match="unique"):
        apply_rules(table, [MaxTokens(3), MaxTokens(4)])


def test_with_decision_writes_schema_columns():
    table = _table(paraphrase_score=[0.9, 0.1])
    result = apply_rules(table, [ScoreRange("paraphrase_score", min=0.5)])
    decided = with_decision(table, result.keep, result.reason)
    assert decided.schema == PAIRS_SCHEMA
    assert decided.column("keep").to_pylist() == [True, False]
    assert decided.column("reason").to_pylist() == ["kept", "score_out_of_range"]
    bare = with_decision(table.drop_columns(["keep", "reason"]), result.keep, result.reason)
    check_schema(bare.schema, required=("id", "keep", "reason"))
    assert reason_array([]).type == PAIRS_SCHEMA.field("reason").type


def test_a_rule_twice_or_a_column_a_stage_lacks_is_a_config_error():
    twice = SelectConfig(score_ranges={"paraphrase_score": {"min": 0.1}},
                         rules=[{"score_range": {"criterion": "paraphrase_score", "min": 0.2}}])
    with pytest.raises(PluginError, match="paraphrase_score_range appears twice"):
        rules_from_config(twice)
    with pytest.raises(PluginError, match=r"prefilter\.rules: garbage appears twice"):
        build_rules(["garbage", "garbage"], Stage.PREFILTER, "prefilter.rules")
