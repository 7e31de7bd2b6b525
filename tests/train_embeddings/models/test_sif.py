"""SIF models (train_embeddings/models/sif.py): weights and uncentred principal-component removal against slow obvious
references, batching-independence of a saved reference component, save/load through model_io.load_model, WORD
model directories as word vectors, the CLI, and — on the real STS 2012–2015 data — SIF beating plain averaging."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from paranmt.cli.sif_command import main
from paranmt.core.correlation import pearson
from paranmt.core.text import CachedTokenizer
from paranmt.core.word_vectors import WordVectors, WordVectorsError
from tests.support.shared_data import shared_data
from train_embeddings.evaluation import sts
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import build_encoder
from train_embeddings.models.model_io import load_model, save_model
from train_embeddings.models.sif import SifModel, build_sif, glove_average, load_sif
from train_embeddings.models.spec import ModelSpec
from train_embeddings.vocab import WordVocab

WS = {"kind": "whitespace", "lowercase": True}
WORDS = ["the", "a", "man", "dog", "plays", "runs", "guitar", "park", "in", ".", "cat", "sleeps"]


@pytest.fixture(scope="module")
def vectors() -> WordVectors:
    rng = np.random.default_rng(0)
    matrix = rng.normal(size=(len(WORDS), 6)) + 0.5  # a common direction, as real word vectors have
    return WordVectors(WORDS, matrix.astype(np.float32), "toy")


@pytest.fixture()
def counts_file(tmp_path: Path) -> Path:
    path = tmp_path / "counts.txt"
    path.write_text("the 600\na 300\nman 50\ndog 30\nplays 10\nin 10\n", encoding="utf-8")  # total 1000
    return path


SENTENCES = ["the man plays guitar .", "a dog runs in the park", "The cat sleeps .", "a man runs", "zzz qqq",
             "the dog plays in the park ."]


def slow_weighted_average(sentence: str, vectors: WordVectors, weight: dict[str, float]) -> np.ndarray:
    """Algorithm 1, line 2, one sentence at a time: (1/|s|) Σ_w a/(a+p(w)) v_w over the known words."""
    index = {w: i for i, w in enumerate(vectors.words.to_pylist())}
    known = [w for w in sentence.lower().split() if w in index]
    if not known:
        return np.zeros(vectors.dim)
    return sum(weight[w] * vectors.matrix[index[w]].astype(np.float64) for w in known) / len(known)


def slow_sif(sentences: list[str], reference: list[str], vectors: WordVectors, weight: dict[str, float]) -> np.ndarray:
    """SIF with numpy's full SVD of the UNcentred reference matrix (no mean subtracted), then v - u u^T v."""
    emb = np.stack([slow_weighted_average(s, vectors, weight) for s in sentences])
    ref = np.stack([slow_weighted_average(s, vectors, weight) for s in reference])
    ref = ref[np.abs(ref).sum(1) > 0]
    u = np.linalg.svd(ref, full_matrices=False)[2][0]
    return emb - np.outer(emb @ u, u)


def hand_weights(a: float) -> dict[str, float]:
    """p(w) from the file (total 1000); words it lacks from the fit sentences' tokens (SENTENCES: 27 tokens)."""
    p = {"the": 0.6, "a": 0.3, "man": 0.05, "dog": 0.03, "plays": 0.01, "in": 0.01,
         ".": 3 / 27, "guitar": 1 / 27, "runs": 2 / 27, "park": 2 / 27, "cat": 1 / 27, "sleeps": 1 / 27}
    assert sum(len(s.split()) for s in SENTENCES) == 27
    return {w: a / (a + p[w]) for w in WORDS}


def test_weights_match_hand_computation(vectors: WordVectors, counts_file: Path) -> None:
    for a in (1e-3, 1e-2):
        model = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, a=a, tokenizer=WS)
        expected = hand_weights(a)
        got = dict(zip(WORDS, model.weights.tolist(), strict=True))
        for word in WORDS:
            assert got[word] == pytest.approx(expected[word], rel=1e-6), word
    # Without a counts file p(w) comes from the fit sentences alone ("the": 5 of 27 tokens, lower-cased).
    model = build_sif(vectors, fit_sentences=SENTENCES, tokenizer=WS, pc="none")
    got = dict(zip(WORDS, model.weights.tolist(), strict=True))
    assert got["the"] == pytest.approx(1e-3 / (1e-3 + 5 / 27), rel=1e-6)
    # Weighted averages (pc="none") against the one-sentence-at-a-time reference.
    model = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, pc="none", tokenizer=WS)
    expected = np.stack([slow_weighted_average(s, vectors, hand_weights(1e-3)) for s in SENTENCES])
    np.testing.assert_allclose(model.encode(SENTENCES), expected, rtol=1e-5, atol=1e-7)
    assert not model.encode(["zzz"]).any()  # no known word: zero vector


def test_reference_pc_removal_matches_uncentred_svd(vectors: WordVectors, counts_file: Path) -> None:
    model = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, tokenizer=WS)
    weight = hand_weights(1e-3)
    queries = ["the man runs in the park", "a cat plays guitar", "dog"]
    expected = slow_sif(queries, SENTENCES, vectors, weight)
    np.testing.assert_allclose(model.encode(queries), expected, rtol=1e-4, atol=1e-6)
    # The component is uncentred: centring first (sklearn PCA) gives a different direction here.
    ref = np.stack([slow_weighted_average(s, vectors, weight) for s in SENTENCES if s != "zzz qqq"])
    centred = np.linalg.svd(ref - ref.mean(0), full_matrices=False)[2][0]
    assert abs(float(centred @ model.components[0])) < 0.99
    # The reference sentences themselves end up orthogonal to the saved component.
    assert np.abs(model.encode(SENTENCES) @ model.components[0]).max() < 1e-5


def test_batch_pc_removal_matches_uncentred_svd(vectors: WordVectors, counts_file: Path) -> None:
    model = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, pc="batch", tokenizer=WS)
    assert len(model.components) == 0 and model.n_components == 1
    queries = [*SENTENCES[:4], "the dog sleeps"]
    expected = slow_sif(queries, queries, vectors, hand_weights(1e-3))
    np.testing.assert_allclose(model.encode(queries), expected, rtol=1e-4, atol=1e-6)
    assert not np.abs(model.encode(["the man plays guitar"])).max() > 1e-6  # one sentence: its own PC, zero


def test_saved_reference_is_independent_of_batching(vectors: WordVectors, counts_file: Path) -> None:
    model = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, tokenizer=WS)
    batch = model.encode(SENTENCES + ["a man plays in the park"] * 3)
    for i, sentence in enumerate(SENTENCES):
        assert np.array_equal(model.encode([sentence])[0], batch[i]), sentence  # bit-for-bit
    assert np.array_equal(model.encode(SENTENCES[::-1])[::-1], batch[:len(SENTENCES)])


@pytest.mark.parametrize("pc", ["reference", "batch", "none"])
def test_save_load_round_trip(vectors: WordVectors, counts_file: Path, tmp_path: Path, pc: str) -> None:
    model = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, pc=pc, tokenizer=WS)  # type: ignore
    directory = model.save(tmp_path / "sif")
    assert sorted(p.name for p in directory.iterdir()) == ["model.json", "scorer.npz"]
    loaded = load_model(directory)  # the trainer's loader recognises a SIF directory
    assert isinstance(loaded, SifModel) and loaded.pc == pc and loaded.tokenizer_settings == WS
    assert np.array_equal(loaded.encode(SENTENCES), model.encode(SENTENCES))
    np.testing.assert_array_equal(loaded.similarity(SENTENCES[:3], SENTENCES[3:]),
                                  model.similarity(SENTENCES[:3], SENTENCES[3:]))
    assert np.array_equal(load_sif(directory).weights, model.weights)
    assert model.save(directory) == directory  # overwriting in place works
    # A corrupted component is caught by the scorer's content hash.
    meta = json.loads((directory / "model.json").read_text())
    meta["scorer_id"] = "paragram-000000000000"
    (directory / "model.json").write_text(json.dumps(meta))
    with pytest.raises(WordVectorsError, match=r"scorer\.npz"):
        load_model(directory)


def test_similarity_is_cosine(vectors: WordVectors, counts_file: Path) -> None:
    model = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, tokenizer=WS)
    a, b = SENTENCES[:3], ["a man plays", "zzz", "the cat sleeps"]
    x, y = model.encode(a).astype(np.float64), model.encode(b).astype(np.float64)
    expected = [float(u @ v / np.linalg.norm(u) / np.linalg.norm(v)) if np.linalg.norm(v) else 0.0
                for u, v in zip(x, y, strict=True)]
    np.testing.assert_allclose(model.similarity(a, b), expected, atol=1e-6)
    with pytest.raises(ValueError, match="3 sentences against 2"):
        model.similarity(a, b[:2])
    with pytest.raises(TypeError, match="not one string"):
        model.encode("one sentence")


@pytest.fixture()
def word_model_dir(tmp_path: Path, vectors: WordVectors) -> Path:
    """A saved WORD model (whitespace tokeniser) whose table is ``vectors`` (plus <pad>, <unk>)."""
    vocab = WordVocab(["<pad>", "<unk>", *WORDS])
    spec = ModelSpec(components=["word"], word_dim=vectors.dim, n_words=len(vocab), n_trainable_words=len(vocab),
                     tokenizer=dict(WS))
    table = torch.cat([torch.zeros(2, vectors.dim), torch.from_numpy(vectors.matrix)])
    encoder = build_encoder(spec, table, torch.ones(len(vocab), dtype=torch.bool))
    return save_model(EmbeddingModel(spec, encoder, vocab, None), tmp_path / "word")


def test_word_model_directory_as_vectors(word_model_dir: Path, vectors: WordVectors, counts_file: Path) -> None:
    average = glove_average(word_model_dir)
    assert average.tokenizer_settings == WS  # the WORD model's own tokeniser settings
    neural = load_model(word_model_dir)
    known = ["the man plays guitar .", "a dog runs in the park"]
    np.testing.assert_allclose(average.encode(known), neural.encode(known), rtol=1e-5, atol=1e-6)
    sif = build_sif(word_model_dir, word_counts=counts_file, fit_sentences=SENTENCES)  # "PP+WR"
    expected = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, tokenizer=WS)
    np.testing.assert_allclose(sif.encode(SENTENCES), expected.encode(SENTENCES), rtol=1e-5, atol=1e-6)


def test_clear_errors(tmp_path: Path, vectors: WordVectors, counts_file: Path) -> None:
    with pytest.raises(WordVectorsError, match="nope"):
        build_sif(tmp_path / "nope", word_counts=counts_file, pc="batch")
    with pytest.raises(ValueError, match="fit_sentences are needed"):
        build_sif(vectors, word_counts=counts_file, pc="reference")
    with pytest.raises(ValueError, match="a must be positive"):
        build_sif(vectors, fit_sentences=SENTENCES, a=0.0)
    with pytest.raises(WordVectorsError, match=r"counts\.txt"):
        bad = tmp_path / "counts.txt"
        bad.write_text("the 1 2\n")
        build_sif(vectors, word_counts=bad, fit_sentences=SENTENCES)
    spec = ModelSpec(components=["trigram"], trigram_dim=4, n_trigrams=3)
    (tmp_path / "tri").mkdir()
    (tmp_path / "tri" / "model.json").write_text(json.dumps({"format": 1, "spec": spec.to_json()}))
    with pytest.raises(WordVectorsError, match=r"tri: SIF needs word vectors.*\['trigram'\]"):
        build_sif(tmp_path / "tri", word_counts=counts_file, pc="batch")


def test_cli_builds_a_loadable_model(tmp_path: Path, vectors: WordVectors, counts_file: Path, capsys) -> None:
    text = tmp_path / "vectors.txt"
    text.write_text("".join(f"{w} {' '.join(f'{v:.9g}' for v in row)}\n"
                            for w, row in zip(WORDS, vectors.matrix.tolist(), strict=True)))
    fit = tmp_path / "pairs.tsv"
    fit.write_text("".join(f"{s}\t{t}\t3.0\n" for s, t in zip(SENTENCES[:3], SENTENCES[3:], strict=True)))
    assert main(["--vectors", str(text), "--word-frequencies", str(counts_file), "--fit-sentences", str(fit),
                 "--out", str(tmp_path / "out")]) == 0
    model = load_model(tmp_path / "out")
    assert isinstance(model, SifModel) and model.pc == "reference" and model.info["fit_sentences"] == 6
    assert model.encode(["The man plays guitar."]).shape == (1, 6)  # Moses-tokenised: "guitar" "." split
    assert main(["--vectors", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "x"), "--pc", "none",
                 "--word-frequencies", str(counts_file)]) == 2
    assert "missing.txt" in capsys.readouterr().err


def test_sts_baselines_are_sif_models(vectors: WordVectors, counts_file: Path) -> None:
    split = lambda sentences: [s.split() for s in sentences]  # noqa: E731
    glove = sts.glove_average_encoder(vectors, tokenizer=split)
    sif = sts.sif_encoder(SENTENCES, vectors, word_frequencies=counts_file, tokenizer=split)
    assert isinstance(glove, SifModel) and glove.pc == "none" and (glove.weights == 1).all()
    assert isinstance(sif, SifModel) and sif.pc == "reference"
    expected = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, tokenizer=WS)
    np.testing.assert_array_equal(sif(SENTENCES), expected.encode(SENTENCES))


# ------------------------------------------------------------------------------------------------ real data


@pytest.fixture(scope="module")
def real_sts() -> sts.StsBenchmarks:
    return sts.load_benchmarks(shared_data("sts"), (2012, 2013, 2014, 2015), stsb=False)


def test_real_sif_glove_beats_glove_average_on_sts_2012_2015(real_sts: sts.StsBenchmarks) -> None:
    """SIF paper Table 1 (GloVe+WR vs avg-GloVe): deterministic — fixed vectors, counts, fit set and tokeniser."""
    from paranmt.core.word_vectors import load_kumo

    counts = shared_data("wordfreq/enwiki_vocab_min200.txt")
    glove_vectors = load_kumo()
    tokenize = CachedTokenizer()
    average = glove_average(glove_vectors, tokenize=tokenize)
    sif_reference = build_sif(glove_vectors, word_counts=counts, fit_sentences=real_sts.unique_sentences(),
                              tokenize=tokenize)
    sif_batch = build_sif(glove_vectors, word_counts=counts, pc="batch", fit_sentences=real_sts.unique_sentences(),
                          tokenize=tokenize)
    reports = {label: sts.evaluate_all(model, data=real_sts, label=label)
               for label, model in (("avg", average), ("sif", sif_reference), ("sif-batch", sif_batch))}
    print(sts.markdown_comparison(reports))
    score = {label: float(np.mean([year.mean_pearson for year in report.years])) for label, report in reports.items()}
    assert [year.year for year in reports["avg"].years] == [2012, 2013, 2014, 2015]
    assert score["sif"] > score["avg"] + 0.10, score  # measured: 58.8 vs 45.2 (x100); batch PC: 61.0
    assert score["sif-batch"] > score["avg"] + 0.10, score
    for g, s in zip(reports["avg"].years, reports["sif"].years, strict=True):
        assert s.mean_pearson > g.mean_pearson, g.year  # every year, not just on average


def test_evaluate_cli_takes_sif_models_and_baselines(tmp_path: Path, vectors: WordVectors, counts_file: Path,
                                                     capsys) -> None:
    """A saved SIF directory is a --model; --glove/--sif use the same module (here on a text vector file)."""
    from paranmt.cli import evaluate_command as evaluate

    root = tmp_path / "sts" / "STS12"
    root.mkdir(parents=True)
    pairs = [("the man plays guitar .", "a man plays guitar", 4.5), ("a dog runs in the park", "the cat sleeps", 0.5),
             ("the dog plays in the park .", "a dog runs in the park", 3.0), ("a man runs", "the cat sleeps .", 1.0)]
    (root / "STS.input.toy.txt").write_text("".join(f"{a}\t{b}\n" for a, b, _ in pairs))
    (root / "STS.gs.toy.txt").write_text("".join(f"{g}\n" for _, _, g in pairs))
    model = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, tokenizer=WS).save(tmp_path / "sif")
    text = tmp_path / "vectors.txt"
    text.write_text("".join(f"{w} {' '.join(f'{v:.9g}' for v in row)}\n"
                            for w, row in zip(WORDS, vectors.matrix.tolist(), strict=True)))
    out = tmp_path / "sts.json"
    assert evaluate.main(["--model", str(model), "--glove", "--sif", "--sif-pc", "batch", "--vectors", str(text),
                          "--word-frequencies", str(counts_file), "--sts-dir", str(tmp_path / "sts"),
                          "--years", "2012", "--no-stsb", "--json", str(out)]) == 0
    payload = json.loads(out.read_text())
    assert list(payload["reports"]) == ["sif", "vectors.txt avg", "SIF vectors.txt (batch PC)"]
    assert payload["sif"]["pc"] == "batch"
    sims = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, tokenizer=WS).similarity(
        [a for a, _, _ in pairs], [b for _, b, _ in pairs])
    expected = pearson(sims, [g for _, _, g in pairs])
    assert payload["reports"]["sif"]["years"]["2012"]["mean_pearson"] == pytest.approx(expected, abs=1e-6)
    assert "| 2012 | toy |" in capsys.readouterr().out


def test_similarity_takes_a_single_string_as_one_sentence(word_model_dir: Path, vectors: WordVectors,
                                                          counts_file: Path) -> None:
    """``similarity("a", "b")`` used to iterate the strings as characters ("12 sentences against 11")."""
    sif = build_sif(vectors, word_counts=counts_file, fit_sentences=SENTENCES, tokenizer=WS)
    for model in (sif, load_model(word_model_dir)):
        a, b = "the man plays guitar .", "a man runs"
        one = model.similarity(a, b)
        assert one.shape == (1,)
        np.testing.assert_allclose(one, model.similarity([a], [b]), atol=1e-6)
        many = ["a man runs", "the cat sleeps .", "zzz"]
        np.testing.assert_allclose(model.similarity(a, many), model.similarity([a] * 3, many), atol=1e-6)
        np.testing.assert_allclose(model.similarity(many, a), model.similarity(many, [a] * 3), atol=1e-6)
        with pytest.raises(ValueError, match="1 sentences against 3"):
            model.similarity([a], many)  # two lists still pair up one to one
