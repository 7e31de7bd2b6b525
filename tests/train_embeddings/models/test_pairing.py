"""The two sides of ``similarity(a, b)`` (train_embeddings/models/pairing.py): a string is one sentence, two lists
pair up one to one, and the row-wise cosine against a plain loop (zero for a zero vector, one row broadcast)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from train_embeddings.models.pairing import paired_cosine, sentence_sides


def test_a_string_is_one_sentence_compared_with_every_other():
    assert sentence_sides("a dog", "a cat") == (["a dog"], ["a cat"])
    assert sentence_sides("a dog", ["x", "y", "z"]) == (["a dog"], ["x", "y", "z"])
    assert sentence_sides(("x", "y"), "a dog") == (["x", "y"], ["a dog"])
    assert sentence_sides(["x", "y"], iter(["u", "v"])) == (["x", "y"], ["u", "v"])


def test_two_lists_of_different_lengths_are_refused():
    with pytest.raises(ValueError, match="1 sentences against 3"):
        sentence_sides(["a dog"], ["x", "y", "z"])


def test_paired_cosine_against_a_loop():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(5, 4)).astype(np.float32), rng.normal(size=(5, 4)).astype(np.float32)
    x[2] = 0.0  # a sentence with no known word
    got = paired_cosine(x, y)
    assert got.dtype == np.float32
    for i in range(5):
        a, b = [float(v) for v in x[i]], [float(v) for v in y[i]]
        norm = math.sqrt(sum(v * v for v in a)) * math.sqrt(sum(v * v for v in b))
        expected = sum(p * q for p, q in zip(a, b, strict=True)) / norm if norm else 0.0
        assert got[i] == pytest.approx(expected, abs=1e-6)
    one = paired_cosine(x[:1], y)  # one row against five
    np.testing.assert_allclose(one, paired_cosine(np.repeat(x[:1], 5, axis=0), y), rtol=0, atol=0)
