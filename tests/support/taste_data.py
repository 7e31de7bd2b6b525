"""Licensed excerpts of a few ../shared/data files bundled in tests/data/shared-taste/ (its README): enough for a
test that reads only their first lines, so it runs on any clone; and the real paraphrase pairs made of them."""

from __future__ import annotations

from pathlib import Path

from tests.support.repo import REPO_ROOT
from tests.support.shared_data import SHARED_DATA, shared_data
from tests.support.text_files import read_lines

TASTE_DATA = REPO_ROOT / "tests" / "data" / "shared-taste" / "data"
# Made from those excerpts (same README): tatoeba.mt.en, the default model's translation of the bundled tatoeba.cs.
TASTE_GENERATED = TASTE_DATA.parent / "generated"

# Real paraphrase pairs the way ParaNMT makes them, the same on every clone: line i of the bundled Tatoeba excerpt
# (tatoeba.cs / tatoeba.en) and the default model's translation of its Czech sentence (tatoeba.mt.en).
TASTE_PAIRS = 2000


def taste_data(relative: str, lines: int) -> Path:
    """A file under ../shared/data of which the test reads only the first ``lines`` lines: the file itself, else
    its bundled excerpt (:data:`TASTE_DATA`, the same first lines) when that holds as many; else a skip."""
    full = SHARED_DATA / relative
    taste = TASTE_DATA / relative
    if not full.exists() and taste.is_file() and len(read_lines(taste)) >= lines:
        return taste
    return shared_data(relative)


def taste_pairs(n: int) -> tuple[list[str], list[str], list[str]]:
    """The first ``n`` (at most :data:`TASTE_PAIRS`) bundled back-translation triples as ``(cs, en, mt)`` lists."""
    if n > TASTE_PAIRS:
        raise ValueError(f"the bundled pairs are {TASTE_PAIRS}, not {n}")
    cs, en = read_lines(TASTE_DATA / "bitext" / "tatoeba.cs"), read_lines(TASTE_DATA / "bitext" / "tatoeba.en")
    mt = read_lines(TASTE_GENERATED / "tatoeba.mt.en")
    assert len(cs) == len(en) == len(mt) == TASTE_PAIRS
    return cs[:n], en[:n], mt[:n]
