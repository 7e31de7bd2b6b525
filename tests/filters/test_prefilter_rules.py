"""filters.prefilter_rules: each built-in pre-filter rule over a batch of Moses-tokenised pairs, checked against the
row-at-a-time reference's checks (tests/support/prefilter_reference.py) on real pairs and on hand-made bad ones;
the details each names, and a length limit the launcher has not filled."""

from __future__ import annotations

import pyarrow as pa
import pytest

from filters.plugins import CS_TOKENS
from filters.prefilter_rules import EmptySide, Garbage, SourceTargetRatio, SourceTooLong, Untranslated, token_counts
from paranmt.core.pair_schema import CS, EN, EN_TOKENS, Reason
from paranmt.core.text import TextProcessor
from tests.support.prefilter_reference import prefilter_row
from tests.support.prefiltered_rows import decoded_row
from tests.support.taste_data import TASTE_DATA
from tests.support.text_files import read_lines

BAD = [("", "Hello."), ("Ahoj\x1b[31m.", "Hi."), ("¿¿¿ !!! ...", "What?"), ("Tom.", "tom ."), ("Straße", "STRASSE"),
       ("Ano.", "Yes, I will certainly do that for you tomorrow morning."),
       ("Pes\u00a0\u00a0\u2003běží .", "%%% ### @@@ x"),
       (" ".join(["slovo"] * 201), " ".join(["word"] * 201)), ("Dobrý\ufffd den.", "Good day."), ("Ahoj.", "   ")]


def _table(pairs: list[tuple[str, str]]) -> pa.Table:
    text = TextProcessor()
    return pa.table({CS: [c for c, _ in pairs], EN: [e for _, e in pairs],
                     CS_TOKENS: [text.tokenize(c, "cs") for c, _ in pairs],
                     EN_TOKENS: [text.tokenize(e, "en") for _, e in pairs]})


def test_the_rules_in_order_reject_as_the_reference_does():
    """Real LibreOffice help and Tatoeba pairs and hand-made bad ones: the first rule (in the default order) a pair
    fails gives the reference's reason and detail, and a pair the reference keeps passes every rule."""
    software = TASTE_DATA / "bitext-software"
    cs = read_lines(software / "libreoffice-help.cs")[:200] + read_lines(TASTE_DATA / "bitext" / "tatoeba.cs")[:200]
    en = read_lines(software / "libreoffice-help.en")[:200] + read_lines(TASTE_DATA / "bitext" / "tatoeba.en")[:200]
    pairs = list(zip(cs, en, strict=True)) + BAD
    table = _table(pairs)
    rules = [Garbage(), EmptySide(), Untranslated(), SourceTooLong(max_tokens=200), SourceTargetRatio()]
    passed = [rule.check(table) for rule in rules]
    details = [rule.detail(table) for rule in rules]
    text = TextProcessor()
    for i, (c, e) in enumerate(pairs):
        _, rejected = prefilter_row(decoded_row(c, e, i + 1), text)
        failing = [k for k, ok in enumerate(passed) if not ok[i]]
        if rejected is None:
            assert failing == [], (c, e)
        else:
            first = rules[failing[0]]
            assert (first.reason, details[failing[0]][i]) == (rejected["reason"], rejected["detail"]), (c, e)
    assert {rules[k].reason for k in range(5) for i in range(len(pairs)) if not passed[k][i]} == {
        Reason.GARBAGE, Reason.EMPTY_SIDE, Reason.UNTRANSLATED, Reason.SOURCE_TOO_LONG, Reason.LENGTH_RATIO}


def test_details_name_what_each_rule_counted():
    table = _table([("", ""), ("Ahoj.", ""), ("a b c d e f g", "x")])
    assert EmptySide().detail(table) == ["cs and en empty after normalisation", "en empty after normalisation",
                                         " empty after normalisation"]
    assert SourceTargetRatio(max_ratio=2.5).detail(table)[2] == "7 cs vs 1 en tokens: ratio 7.00 > 2.5"
    assert SourceTargetRatio().detail(table)[0] == "0 cs vs 0 en tokens: ratio inf > 3"
    assert SourceTooLong(max_tokens=5).detail(table)[2] == "cs has 7 Moses tokens > 5"
    assert list(SourceTargetRatio(min_tokens=8).check(table)) == [True, True, True]  # 7 tokens: too short to judge


def test_an_unfilled_length_limit_says_who_fills_it():
    with pytest.raises(ValueError, match=r"source_too_long.max_tokens is unset \(the launcher fills it"):
        SourceTooLong().check(_table([("Ahoj.", "Hello.")]))


def test_token_counts_count_a_null_list_as_zero():
    table = pa.table({EN_TOKENS: pa.array([["a", "b"], None, []], pa.list_(pa.string()))})
    assert token_counts(table, EN_TOKENS).tolist() == [2, 0, 0]
