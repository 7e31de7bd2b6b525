"""The lexicon's counting (pipeline/analysis/lexicon/counting.py): the vectorised counts against an obvious
reference, selection accounting, the vocabulary's rules, bounded memory, and bad input to the build."""

from __future__ import annotations

import itertools
import math
import tracemalloc
from collections import Counter

import numpy as np
import pyarrow as pa
import pytest

from configs.schema import LexiconConfig
from pipeline.analysis.lexicon.counting import LexiconError, PairCounts, build_from_tables, select_pairs
from pipeline.analysis.lexicon.evaluation import load_wordsim
from pipeline.analysis.lexicon.pmi import compute_lexicon
from tests.support.lexicon_pairs import PLAIN, rows_by_pair, token_pairs
from tests.support.taste_data import taste_pairs


def _reference(en, mt, lowercase=True):
    """Obvious nested-loop counts: marginals per side, cross (both directions), within per side (ordered)."""
    refm, mtm, cross, wref, wmt = Counter(), Counter(), Counter(), Counter(), Counter()
    for a, b in zip(en, mt, strict=True):
        a = {w.lower() if lowercase else w for w in a}
        b = {w.lower() if lowercase else w for w in b}
        refm.update(a)
        mtm.update(b)
        for x in a:
            for y in b:
                cross[(x, y)] += 1
                cross[(y, x)] += 1
        wref.update(itertools.permutations(a, 2))
        wmt.update(itertools.permutations(b, 2))
    return refm, mtm, cross, wref, wmt


def _reference_within(joint: int, count_u: int, count_v: int, sentences: int, config: LexiconConfig) -> float:
    """One side's within-sentence PMI of one word pair, written out (docs/lexicon.md)."""
    if config.within_estimate == "prior":
        b = config.within_prior
        return math.log((joint + b) / (count_u * count_v / sentences + b))
    a = config.smoothing
    return math.log((joint + a) * sentences / ((count_u + a) * (count_v + a)))


@pytest.mark.parametrize(("chunk_keys", "estimate"), [(1000, "prior"), (2_000_000, "prior"),
                                                      (2_000_000, "additive")])
def test_vectorised_counts_equal_the_reference_on_real_pairs(chunk_keys, estimate):
    _, en_lines, mt_lines = taste_pairs(400)  # real back-translation pairs, bundled
    en, mt = [line.split() for line in en_lines], [line.split() for line in mt_lines]
    config = LexiconConfig(**PLAIN, drop_punctuation=False, chunk_keys=chunk_keys, max_tokens=None,
                           within_estimate=estimate)
    tables = [token_pairs(en[i:i + 37], mt[i:i + 37]) for i in range(0, 400, 37)]  # uneven batches
    counts, vocab, _ = build_from_tables(tables, config)
    lexicon = compute_lexicon(counts, vocab, config)
    refm, mtm, cross, wref, wmt = _reference(en, mt)
    expected = {k: c for k, c in cross.items() if k[0] != k[1]}
    rows = rows_by_pair(lexicon)
    assert len(rows) == len(expected)
    P = 400
    for (u, v), r in rows.items():
        assert (r["joint"], r["within_ref"], r["within_mt"]) == (expected[(u, v)], wref[(u, v)], wmt[(u, v)])
        tu, tv = refm[u] + mtm[u], refm[v] + mtm[v]
        cross_pmi = math.log(expected[(u, v)] * 2 * P / (tu * tv))
        within = 0.5 * (_reference_within(wref[(u, v)], refm[u], refm[v], P, config)
                        + _reference_within(wmt[(u, v)], mtm[u], mtm[v], P, config))
        assert r["pmi_cross"] == pytest.approx(cross_pmi, abs=1e-9)
        assert r["pmi_adj"] == pytest.approx(cross_pmi - within, abs=1e-9)
    # Merging two halves (what Beam's combiners do) gives the same counts.
    first, vocab1, _ = build_from_tables(tables, config)
    half = PairCounts(len(vocab1), chunk_keys)
    other = PairCounts(len(vocab1), chunk_keys)
    for k, t in enumerate(tables):
        (half if k % 2 else other).add_table(t, vocab1, config)
    merged = half.merge(other).compact()
    assert np.array_equal(merged.cross.keys, first.cross.keys) and np.array_equal(merged.cross.counts,
                                                                                   first.cross.counts)


# ----------------------------------------------------------------------------------------- selection, vocabulary


def test_selection_accounts_for_every_row():
    table = token_pairs([["a"], [], ["b"], ["c"], ["x"] * 31, ["d"]], [["a"], ["b"], ["b"], ["c"], ["y"], ["d"]],
                   paraphrase_score=pa.array([0.9, 0.9, None, 0.2, 0.9, 0.35], pa.float32()),
                   keep=pa.array([True, True, True, True, True, False]))
    en, _, skipped = select_pairs(table, LexiconConfig())
    assert en.to_pylist() == [["a"], ["d"]]  # 0.35 is inclusive
    assert skipped == {"empty_side": 1, "missing_score": 1, "score_below_min": 1, "too_many_tokens": 1}
    _, _, skipped = select_pairs(table, LexiconConfig(only_kept=True))
    assert skipped["not_kept"] == 1
    with pytest.raises(LexiconError, match="no paraphrase_score column"):
        select_pairs(table.drop_columns(["paraphrase_score"]), LexiconConfig())


def test_vocabulary_cap_min_count_stopwords_and_punctuation():
    en = [["The", "cat", ",", "sat", "mat"], ["the", "cat", "ran"], ["cat", "sat", "zebra"]]
    mt = [["a", "cat", "sat", "!"], ["cat", "ran"], ["cat", "sat"]]
    config = LexiconConfig(min_score=None, min_count=2, max_vocab=2, stopwords=["mat"])
    _, vocab, _ = build_from_tables([token_pairs(en, mt)], config)
    assert vocab.words.to_pylist() == ["cat", "sat"]  # most frequent first; ran (2 sentences) cut by the cap
    assert vocab.excluded == {"punctuation": 2, "stopword": 3, "min_count": 1, "max_vocab": 1}


def test_memory_stays_bounded_on_long_sentences():
    """20 pairs of 3,000-token sentences over 5,000 word types (the cartesian products alone would be ~2.5e6 word
    pairs per pair per table): with a 500-word vocabulary and 50k keys per chunk, peak allocations stay small, and
    the counts equal an unbounded run's."""
    rng = np.random.default_rng(0)
    words = np.array([f"w{i}" for i in range(5000)])
    # A Zipf-like draw, so the vocabulary cap keeps the frequent words.
    draw = lambda: words[np.minimum(rng.zipf(1.2, 3000), 5000) - 1].tolist()  # noqa: E731
    table = token_pairs([draw() for _ in range(20)], [draw() for _ in range(20)])
    bounded = LexiconConfig(min_score=None, max_tokens=None, min_count=1, max_vocab=500, chunk_keys=50_000,
                            batch_pairs=5)
    tables = [table.slice(i, 5) for i in range(0, 20, 5)]
    tracemalloc.start()
    counts, vocab, _ = build_from_tables(tables, bounded)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(vocab) == 500
    assert counts.cross.keys.size <= 500 * 501 // 2
    assert peak < 40e6, f"peak {peak / 1e6:.1f} MB"
    tracemalloc.start()
    unbounded, _, _ = build_from_tables([table], bounded.model_copy(update={"chunk_keys": 50_000_000}))
    _, unbounded_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert unbounded_peak > 3 * peak  # what the chunking saves: the whole batch's products at once
    assert np.array_equal(counts.cross.counts, unbounded.cross.counts)
    assert np.array_equal(counts.within["mt"].keys, unbounded.within["mt"].keys)


# ------------------------------------------------------------------------------------------ outputs, evaluation


def test_a_missing_wordsim_file_is_named(tmp_path):
    with pytest.raises(LexiconError, match="not found"):
        load_wordsim(tmp_path / "none.txt")
