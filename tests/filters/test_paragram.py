"""PARAGRAM-PHRASE scorer: SIF weights and component removal against a per-sentence Python reference on real
pairs (the bundled back-translation pairs), unknown words, save/load, and the shuffled-pair control that justifies
SIF.

``pair_vectors()`` is shared with the other score tests (GloVe is loaded once per session).
"""

from __future__ import annotations

import collections
import functools
from pathlib import Path

import numpy as np
import pytest

from configs.schema import ScoreConfig
from filters.paragram import ParagramScorer
from paranmt.core.word_vectors import WordVectors, WordVectorsError
from tests.filters.test_trigram import real_pairs
from tests.support.shared_data import shared_data
from tests.support.word_vectors import glove

ENWIKI = "wordfreq/enwiki_vocab_min200.txt"


@functools.lru_cache(maxsize=1)
def pair_vectors() -> WordVectors:
    """GloVe restricted to the words of the test pairs: same scores on them, much faster to fit and hash."""
    en, mt = real_pairs()
    words = {t.lower() for sentence in en + mt for t in sentence} | {"the", "a", "cat", "dog", "man"}
    return glove().restrict(words)


def toy_vectors() -> WordVectors:
    words = ["the", "cat", "sat", "dog", "ran", "mat"]
    matrix = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 1], [1, 1, 0], [1, 0, 1]], np.float32)
    return WordVectors(words, matrix, "toy")


# ---------------------------------------------------------------------------------------------------- reference


class ReferenceSIF:
    """SIF-PARAGRAM the obvious way, independently of the scorer: dicts, Counters and per-sentence loops."""

    def __init__(self, vectors: WordVectors, sample: list[list[str]], a: float = 1e-3, components: int = 1,
                 frequency_file: Path | None = None) -> None:
        self.vector = dict(zip(vectors.words.to_pylist(), vectors.matrix.astype(np.float64), strict=True))
        sample = [[t.lower() for t in s] for s in sample]
        counts = collections.Counter(t for s in sample for t in s)
        total = sum(counts.values())
        p = {w: c / total for w, c in counts.items()}
        if frequency_file is not None:
            file_counts: collections.Counter = collections.Counter()
            for line in frequency_file.read_text(encoding="utf-8").splitlines():
                word, count = line.split()
                file_counts[word.lower()] += float(count)
            file_total = sum(file_counts.values())
            p.update({w: c / file_total for w, c in file_counts.items()})  # the file wins where it has the word
        self.weight = {w: a / (a + p.get(w, 0.0)) for w in self.vector}
        self.components = np.zeros((0, vectors.dim))
        rows = [v for v in (self.average(s) for s in sample) if v is not None]
        if components:
            self.components = np.linalg.svd(np.array(rows), full_matrices=False)[2][:components]

    def average(self, tokens: list[str]) -> np.ndarray | None:
        known = [t.lower() for t in tokens if t.lower() in self.vector]
        if not known:
            return None
        return sum(self.weight[t] * self.vector[t] for t in known) / len(known)

    def embed(self, tokens: list[str]) -> np.ndarray | None:
        v = self.average(tokens)
        if v is None:
            return None
        for u in self.components:
            v = v - u * (u @ v)
        return v

    def score(self, en: list[str], mt: list[str]) -> tuple[float, bool]:
        a, b = self.embed(en), self.embed(mt)
        if a is None or b is None:
            return 0.0, True
        return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))), False


@functools.lru_cache(maxsize=1)
def default_scorer() -> ParagramScorer:
    """The default configuration (SIF weights from the sample, first component removed) fitted on both sides (all
    4,000 sentences, so the per-sentence reference, which fits on everything, can be compared with it)."""
    en, mt = real_pairs()
    return ParagramScorer.fit(pair_vectors(), en + mt, ScoreConfig(fit_sample=100_000))


# ---------------------------------------------------------------------------------------------------- scoring


def test_unknown_words_are_skipped_and_unknown_only_sentences_flagged():
    scorer = ParagramScorer.plain_average(toy_vectors())
    en = [["the", "cat"], ["the", "cat", "xyzzy"], ["xyzzy", "plugh"], [], None, ["the"]]
    mt = [["the", "dog"], ["the", "dog"], ["the", "cat"], ["cat"], ["cat"], ["ZORK"]]
    scores, flag = scorer.score(en, mt)
    assert scores.dtype == np.float32 and flag.dtype == bool
    assert scores[0] == scores[1] > 0  # the unknown word changes nothing
    assert scores[2:].tolist() == [0.0, 0.0, 0.0, 0.0] and flag.tolist() == [False, False, True, True, True, True]
    assert not np.isnan(scores).any()


def test_plain_average_is_the_cosine_of_averages_and_lowercases():
    scorer = ParagramScorer.plain_average(toy_vectors())
    scores, _ = scorer.score([["The", "CAT"], ["the"]], [["dog"], ["the"]])
    a, b = np.array([1, 1, 0]) / 2, np.array([0, 1, 1])
    assert scores[0] == pytest.approx(a @ b / np.linalg.norm(a) / np.linalg.norm(b))
    assert scores[1] == pytest.approx(1.0)
    cased = ParagramScorer.plain_average(toy_vectors(), lowercase=False)
    assert cased.score([["The", "CAT"]], [["dog"]])[1].tolist() == [True]  # "The", "CAT" are not in the vocab


def test_sif_weights_follow_the_frequency_file_then_the_sample(tmp_path):
    freq = tmp_path / "freq.txt"
    freq.write_text("the 900\ncat 100\n", encoding="utf-8")
    sample = [["the", "cat", "sat"], ["the", "dog", "sat", "sat"]]  # 7 tokens: sat 3/7, dog 1/7
    config = ScoreConfig(word_frequencies=freq, remove_components=0, sif_a=0.01)
    scorer = ParagramScorer.fit(toy_vectors(), sample, config)
    weight = dict(zip(scorer.vectors.words.to_pylist(), scorer.weights.tolist(), strict=True))
    expected = {"the": 0.9, "cat": 0.1, "sat": 3 / 7, "dog": 1 / 7, "ran": 0.0, "mat": 0.0}  # p(w)
    for word, p in expected.items():
        assert weight[word] == pytest.approx(0.01 / (0.01 + p), rel=1e-6), word
    # no sample needed when neither the frequencies nor the components need one
    assert ParagramScorer.fit(toy_vectors(), None, config).params["fit_sentences"] == 0
    with pytest.raises(ValueError, match="needs a sample"):
        ParagramScorer.fit(toy_vectors(), None, ScoreConfig())


def test_component_removal_makes_sentence_vectors_orthogonal_to_it():
    scorer = default_scorer()
    assert scorer.components.shape == (1, 50)
    assert np.linalg.norm(scorer.components[0]) == pytest.approx(1.0, abs=1e-6)
    en, _ = real_pairs()
    vectors, known = scorer.sentence_vectors(en)
    assert (known > 0).all()
    assert np.abs(vectors @ scorer.components[0]).max() < 1e-5 * np.abs(vectors).max()
    assert scorer.params["fit_sentences"] == 4_000 and scorer.params["weighting"] == "sif"


@pytest.mark.parametrize("frequencies", [None, ENWIKI])
def test_vectorised_equals_per_sentence_reference_on_real_pairs(frequencies):
    en, mt = real_pairs()
    frequency_file = shared_data(frequencies) if frequencies else None
    if frequencies is None:
        scorer = default_scorer()
    else:
        config = ScoreConfig(word_frequencies=frequency_file, fit_sample=100_000)
        scorer = ParagramScorer.fit(pair_vectors(), en + mt, config)
    reference = ReferenceSIF(pair_vectors(), en + mt, frequency_file=frequency_file)
    np.testing.assert_allclose(np.abs(scorer.components), np.abs(reference.components), atol=1e-5)
    expected = [reference.score(a, b) for a, b in zip(en, mt, strict=True)]
    scores, flags = scorer.score(en, mt)
    np.testing.assert_allclose(scores, [s for s, _ in expected], atol=1e-5, rtol=0)
    np.testing.assert_array_equal(flags, [f for _, f in expected])


def test_scores_do_not_depend_on_batching():
    scorer = default_scorer()
    en, mt = real_pairs()
    whole, _ = scorer.score(en, mt)
    parts = np.concatenate([scorer.score(en[i:i + 700], mt[i:i + 700])[0] for i in range(0, len(en), 700)])
    np.testing.assert_array_equal(whole, parts)


def test_restricted_vocabulary_scores_like_the_full_one():
    en, mt = real_pairs()
    full = ParagramScorer.fit(glove(), en + mt, ScoreConfig())
    small = ParagramScorer.fit(pair_vectors(), en + mt, ScoreConfig())
    np.testing.assert_allclose(full.score(en, mt)[0], small.score(en, mt)[0], atol=1e-6)
    assert full.scorer_id != small.scorer_id  # different vectors, different id


def test_save_load_round_trip(tmp_path):
    scorer = default_scorer()
    path = scorer.save(tmp_path / "sub" / "scorer.npz")
    loaded = ParagramScorer.load(path)
    assert loaded.scorer_id == scorer.scorer_id and loaded.scorer_id.startswith("paragram-")
    assert loaded.params == scorer.params and loaded.vectors.source == scorer.vectors.source
    en, mt = real_pairs()
    for a, b in zip(scorer.score(en, mt), loaded.score(en, mt), strict=True):
        np.testing.assert_array_equal(a, b)
    assert ParagramScorer.from_config(ScoreConfig(scorer=path)).scorer_id == scorer.scorer_id
    # the id covers the parameters and the fitted state
    other = ParagramScorer.fit(pair_vectors(), en + mt, ScoreConfig(sif_a=1e-4))
    assert other.scorer_id != scorer.scorer_id
    assert ParagramScorer.plain_average(pair_vectors()).scorer_id != scorer.scorer_id


def test_load_rejects_tampered_or_foreign_files(tmp_path):
    scorer = ParagramScorer.plain_average(toy_vectors())
    path = scorer.save(tmp_path / "scorer.npz")
    with np.load(path) as npz:
        arrays = dict(npz)
    arrays["weights"] = arrays["weights"] * 2
    np.savez(tmp_path / "tampered.npz", **arrays)
    with pytest.raises(WordVectorsError, match="does not match its scorer id"):
        ParagramScorer.load(tmp_path / "tampered.npz")
    np.savez(tmp_path / "foreign.npz", x=np.zeros(2))
    with pytest.raises(WordVectorsError, match="not a saved scorer"):
        ParagramScorer.load(tmp_path / "foreign.npz")


def test_from_config_loads_and_fits(tmp_path):
    path = tmp_path / "vectors.txt"
    path.write_text("the 1 0 0\ncat 0 1 0\ndog 0 1 1\n", encoding="utf-8")
    config = ScoreConfig(embeddings=path, remove_components=0)
    scorer = ParagramScorer.from_config(config, [["the", "cat"], ["the", "dog"]])
    assert scorer.params["source"] == "text:vectors.txt" and len(scorer.components) == 0
    assert scorer.score([["cat"]], [["dog"]])[0][0] == pytest.approx(np.sqrt(0.5))


def test_shuffled_pair_control_sif_versus_plain_average():
    """A sentence and the translation of its Czech side must score well above a sentence and another pair's
    translation. With the default (SIF + first component removed) they do by a wide margin; the plain GloVe
    average gives even unrelated sentences a median cosine above 0.8 — why it is not the default."""
    en, mt = real_pairs()
    half = len(mt) // 2  # the file is sorted by its Czech side: neighbours are alike, the other half is not
    shuffled = mt[half:] + mt[:half]
    sif = default_scorer()
    true_median, shuffled_median = np.median(sif.score(en, mt)[0]), np.median(sif.score(en, shuffled)[0])
    assert true_median > 0.35 and shuffled_median < 0.15 and true_median - shuffled_median > 0.3, \
        (true_median, shuffled_median)
    plain = ParagramScorer.plain_average(pair_vectors())
    plain_true, plain_shuffled = np.median(plain.score(en, mt)[0]), np.median(plain.score(en, shuffled)[0])
    assert plain_shuffled > 0.8, plain_shuffled
    assert plain_true - plain_shuffled < true_median - shuffled_median  # SIF separates better
