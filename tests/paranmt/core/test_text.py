"""paranmt.core.text: the precompiled Moses tokeniser against stock sacremoses on real text."""

from __future__ import annotations

from paranmt.core.text import TextProcessor
from tests.support.taste_data import TASTE_DATA
from tests.support.text_files import read_lines


def test_fast_tokeniser_matches_stock_sacremoses_on_real_text():
    # The bundled licensed excerpts (the same on every clone): software help paragraphs with placeholders, menu
    # paths and quotes, and short everyday sentences.
    cs = read_lines(TASTE_DATA / "bitext-software" / "libreoffice-help.cs") + read_lines(
        TASTE_DATA / "bitext" / "tatoeba.cs")
    en = read_lines(TASTE_DATA / "bitext-software" / "libreoffice-help.en") + read_lines(
        TASTE_DATA / "bitext" / "tatoeba.en")
    assert len(cs) == len(en) == 2300
    fast, stock = TextProcessor(fast=True), TextProcessor(fast=False)
    for lang, lines in (("cs", cs), ("en", en)):
        assert [fast.tokenize(x, lang) for x in lines] == [stock.tokenize(x, lang) for x in lines]
    tricky = ["U.S.A. a.m. No. 5 vs. 3.5 e.g. Mr. Smith", "ČR. Praha... „uvozovky“ – 3:00 p.m.",
              # the normaliser's and tokeniser's group templates and literal steps: "(x) .", "5 %", a‘b, 1\xa0000,
              # '"..', «\xa0», ´´, nº\xa0, and the tokeniser's apostrophes and commas
              "(ahoj) . 5 % rock‘n’roll 1\xa0000 \"., «\xa0x\xa0» ´´ nº\xa01 ``x'' I'm 5,300, a,b", "\r\n"]
    for lang in ("cs", "en"):
        assert [fast.tokenize(x, lang) for x in tricky] == [stock.tokenize(x, lang) for x in tricky]


def test_resolved_templates_expand_as_re_does():
    """_replacement (templates parsed once) against Match.expand (re's own expansion), unmatched groups included."""
    import re

    from paranmt.core.text import _replacement

    match = re.search(r"(a)(b)?(c)", "xacx")
    for template in [r" \1 ", r"\1\2\3x", r"\g<1>'\g<3>", r"\g<2>", "plain", r"\\1", r"\n\1"]:
        resolved = _replacement(template)
        got = resolved(match) if callable(resolved) else match.expand(resolved)
        assert got == match.expand(template), template


def test_needles_are_text_every_match_contains():
    """_needle: the literal text on a pattern's mandatory path (runs, counted repeats), None where there is none;
    checked against re on strings with and without it."""
    import re

    from paranmt.core.text import _needle

    expected = {r"\.{2,}": "..", r"\.' ?$": ".'", r"(?:DOT)+MULTI": "MULTI", r" +": " ", r"\s+": None,
                r"[,]([^0-9])": ",", r"(\d) %": " %", r"a{3}b": "aaab", r"(?i)abc": None, r"x?y": "y",
                r"(ab|cd)e": "e", r"a(b)c": "a"}
    for source, needle in expected.items():
        pattern = re.compile(source)
        assert _needle(pattern) == needle, source
        for text in ("xx... DOTDOTMULTI a, b 5 % aaab cde abc y \t", "plain words"):
            if needle is not None and needle not in text:
                assert pattern.search(text) is None, (source, text)
