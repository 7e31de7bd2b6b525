"""Trigram overlap (ParaNMT-50M footnote 6): hand-worked cases, input forms, fallbacks, and the vectorised core
against a plain per-pair Python reference on real pairs.

``real_pairs`` (the bundled back-translation pairs, Moses-tokenised, the same on every clone) is shared with the other
score tests.
"""

from __future__ import annotations

import functools

import numpy as np
import pyarrow as pa
import pytest

import filters.trigram as trigram_module
from filters.trigram import trigram_overlap
from tests.support.taste_data import TASTE_PAIRS, taste_pairs


@functools.lru_cache(maxsize=1)
def _real_pairs() -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    from sacremoses import MosesTokenizer

    _, en, mt = taste_pairs(TASTE_PAIRS)
    tokenizer = MosesTokenizer(lang="en")
    return (tuple(tuple(tokenizer.tokenize(s, escape=False)) for s in en),
            tuple(tuple(tokenizer.tokenize(s, escape=False)) for s in mt))


def real_pairs(n: int = TASTE_PAIRS) -> tuple[list[list[str]], list[list[str]]]:
    """The first n of the 2,000 bundled back-translation pairs (support/taste_data.py:taste_pairs: a Tatoeba English
    sentence and the default model's translation of its Czech side), Moses-tokenised; the same on every clone."""
    en, mt = _real_pairs()
    return [list(s) for s in en[:n]], [list(s) for s in mt[:n]]


def reference_overlap(en: list[str] | None, mt: list[str] | None) -> float:
    """Footnote 6, the obvious way: Python sets of lower-cased trigram tuples."""
    def trigrams(tokens):
        tokens = [t.lower() for t in tokens or []]
        return {tuple(tokens[i:i + 3]) for i in range(len(tokens) - 2)}

    a, b = trigrams(en), trigrams(mt)
    fewer = min(len(a), len(b))
    return len(a & b) / fewer if fewer else 0.0


def one(en: str, mt: str) -> float:
    return float(trigram_overlap([en.split()], [mt.split()])[0])


@pytest.mark.parametrize(("en", "mt", "expected"), [
    ("a man rides a horse", "a man rides a horse", 1.0),  # identical
    ("a b c d", "a b c e", 0.5),  # {abc, bcd} vs {abc, bce}: 1 shared / 2
    ("a b c d e", "a b c", 1.0),  # the shorter side's only trigram is shared: 1 / min(3, 1)
    ("x y z", "a b c", 0.0),
    # repeated trigrams count once: {the cat sat, cat sat the, sat the cat} vs 4 distinct, 1 shared -> 1/3
    ("the cat sat the cat sat", "the cat sat on the mat", 1 / 3),
    ("a b c a b c", "a b c", 1.0),  # with multisets this would be 2 shared / 1
    ("The Dog RUNS fast", "the dog runs slowly", 0.5),  # lower-cased
    ("a b", "a b", 0.0),  # fewer than 3 tokens: no trigrams, 0.0 (not NaN)
    ("a b c", "a b", 0.0),
    ("", "a b c", 0.0),  # empty side
    ("", "", 0.0),
])
def test_hand_worked_overlaps(en, mt, expected):
    assert one(en, mt) == pytest.approx(expected)
    assert one(en, mt) == pytest.approx(reference_overlap(en.split(), mt.split()))


def test_batch_result_is_float32_in_range_and_never_nan():
    en = [["a", "b", "c"], [], None, ["x"], ["a", "a", "a", "a"]]
    mt = [["a", "b", "c"], ["a", "b", "c"], ["a", "b", "c"], ["x"], ["a", "a", "a"]]
    out = trigram_overlap(en, mt)
    assert out.dtype == np.float32 and out.shape == (5,)
    assert out.tolist() == [1.0, 0.0, 0.0, 0.0, 1.0]


def test_trigrams_never_cross_sentence_or_side_boundaries():
    # Concatenated naively, en[0] + en[1] would contain "p q r" and the end of en[1] + start of mt[0] "s t u".
    en = [["p", "q"], ["r", "s"]]
    mt = [["t", "u", "v"], ["p", "q", "r", "s", "t", "u"]]
    assert trigram_overlap(en, mt).tolist() == [0.0, 0.0]


def test_input_forms_agree():
    en = [["A", "b", "c", "d"], ["x", "y", "z"], None, ["a", "b", "c"], ["q", "r", "s", "t"]]
    mt = [["a", "b", "c", "e"], ["x", "y", "z"], ["a", "b", "c"], [], ["q", "r", "s", "u"]]
    expected = np.array([reference_overlap(a, b) for a, b in zip(en, mt, strict=True)], np.float32)
    en_arr, mt_arr = pa.array(en, pa.list_(pa.string())), pa.array(mt, pa.list_(pa.string()))
    forms = [
        (en, mt),
        (en_arr, mt_arr),
        (pa.chunked_array([en_arr[:2], en_arr[2:]]), pa.chunked_array([mt_arr[:3], mt_arr[3:]])),
        (en_arr.cast(pa.large_list(pa.large_string())), mt_arr.cast(pa.large_list(pa.string()))),
    ]
    for a, b in forms:
        np.testing.assert_array_equal(trigram_overlap(a, b), expected)
    # a sliced array (non-zero offset) scores only its own rows
    np.testing.assert_array_equal(trigram_overlap(en_arr.slice(1, 3), mt_arr.slice(1, 3)), expected[1:4])


def test_empty_batch_and_bad_input():
    assert trigram_overlap([], []).shape == (0,)
    with pytest.raises(ValueError, match="1 references but 2 translations"):
        trigram_overlap([["a"]], [["a"], ["b"]])
    with pytest.raises(TypeError, match="list<string>"):
        trigram_overlap(pa.array([1, 2]), pa.array([1, 2]))


def test_null_tokens_inside_a_list_count_as_empty_strings():
    assert trigram_overlap([["a", None, "b"]], [["a", "", "b"]]).tolist() == [1.0]


@pytest.mark.parametrize(("id_bits", "key_bits"), [(2, 64), (21, 24), (2, 24)])
def test_exact_fallbacks_for_huge_vocabularies_and_batches(monkeypatch, id_bits, key_bits):
    """Force the paths taken beyond 2^21 distinct tokens (bigram relabelling) and beyond 64-bit keys (trigram
    relabelling) on small inputs: results stay exact, no hashing."""
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(40)]
    en = [list(rng.choice(words, rng.integers(0, 12))) for _ in range(300)]
    mt = []
    for sentence in en:  # a perturbed copy: some trigrams shared, some not
        copy = list(sentence)
        if copy:
            copy[rng.integers(len(copy))] = str(rng.choice(words))
        mt.append(copy + list(rng.choice(words, rng.integers(0, 3))))
    expected = np.array([reference_overlap(a, b) for a, b in zip(en, mt, strict=True)], np.float32)
    monkeypatch.setattr(trigram_module, "_PACK_ID_BITS", id_bits)
    monkeypatch.setattr(trigram_module, "_KEY_BITS", key_bits)
    relabelled = []
    original = trigram_module._dense_rank
    monkeypatch.setattr(trigram_module, "_dense_rank", lambda values: relabelled.append(1) or original(values))
    np.testing.assert_array_equal(trigram_overlap(en, mt), expected)
    assert len(relabelled) == (id_bits < 21) + (key_bits < 64)  # the fallback(s) really ran
    assert (expected > 0).sum() > 100 and (expected < 1).sum() > 100  # not a trivial case


def test_vectorised_equals_reference_on_real_pairs():
    en, mt = real_pairs()
    expected = np.array([reference_overlap(a, b) for a, b in zip(en, mt, strict=True)], np.float32)
    got = trigram_overlap(en, mt)
    np.testing.assert_array_equal(got, expected)  # exact, not approximate
    assert 0.01 < got.mean() < 0.5 and (got > 0).mean() > 0.1  # real overlap, not a degenerate case
    # and shuffled pairs share almost nothing
    shuffled = trigram_overlap(en, mt[1:] + mt[:1])
    assert shuffled.mean() < got.mean() / 2
