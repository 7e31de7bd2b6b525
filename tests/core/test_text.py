"""core.text: the precompiled Moses tokeniser against stock sacremoses on real text."""

from __future__ import annotations

import pytest

from core.text import TextProcessor
from tests.conftest import read_lines, shared_data

pytestmark = pytest.mark.timeout(120)


def test_fast_tokeniser_matches_stock_sacremoses_on_real_text():
    bitext = shared_data("bitext")
    cs = read_lines(bitext / "newstest2013.cs")[:1500] + read_lines(bitext / "tatoeba.cs")[:500]
    en = read_lines(bitext / "newstest2013.en")[:1500] + read_lines(bitext / "tatoeba.en")[:500]
    fast, stock = TextProcessor(fast=True), TextProcessor(fast=False)
    for lang, lines in (("cs", cs), ("en", en)):
        assert [fast.tokenize(x, lang) for x in lines] == [stock.tokenize(x, lang) for x in lines]
    tricky = ["U.S.A. a.m. No. 5 vs. 3.5 e.g. Mr. Smith", "ČR. Praha... „uvozovky“ – 3:00 p.m."]
    for lang in ("cs", "en"):
        assert [fast.tokenize(x, lang) for x in tricky] == [stock.tokenize(x, lang) for x in tricky]
