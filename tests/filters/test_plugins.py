"""filters.plugins' scores: a key names a class of the table of built-ins the caller gives, anything else is named
by its import path."""

from __future__ import annotations

import pytest

from filters.plugins import BUILTIN_SCORES, PluginError, build_scores
from tests.support.plugin_examples import LengthGap


def test_a_key_names_a_score_of_the_table_given_and_nothing_else():
    table = {**BUILTIN_SCORES, "length_gap": "tests.support.plugin_examples:LengthGap"}
    [built] = build_scores([{"length_gap": {"column": "gap"}}], table)
    assert type(built) is LengthGap and [field.name for field in built.fields] == ["gap"]
    with pytest.raises(PluginError, match=r"^select.scores\[0\]: 'length_gap' is neither a built-in "
                                          r"\(sentence_transformer\) nor an import path"):
        build_scores(["length_gap"])
    [by_path] = build_scores(["tests.support.plugin_examples:LengthGap"])
    assert type(by_path) is LengthGap and by_path.column == "length_gap"
