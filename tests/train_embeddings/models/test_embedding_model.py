"""EmbeddingModel (train_embeddings/models/embedding_model.py): raw sentences in, vectors out, tokenised as the
pipeline tokenises; similarity as the cosine of the encoded sides; batches, modes and inputs that change nothing."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
import torch

from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import build_encoder
from train_embeddings.models.model_io import load_model
from train_embeddings.models.spec import ModelSpec
from train_embeddings.vocab import WordVocab

RAW = ["A man in a blue shirt is playing the guitar.", "Two dogs run through the snow!", "", "Ünïcode café “quoted”"]
PROBE = ["a man is playing a guitar .", "a dog runs in the park", "two women are talking", "a man plays"]


def _untrained(components: list[str]) -> EmbeddingModel:
    """A WORD/LSTM model over PROBE's words, whitespace-tokenised, with random weights."""
    words = WordVocab(["<pad>", "<unk>", *sorted({w for s in PROBE for w in s.split()})])
    spec = ModelSpec(components=components, word_dim=6, lstm_dim=4, n_words=len(words), n_trainable_words=len(words),
                     tokenizer={"kind": "whitespace", "lowercase": True})
    torch.manual_seed(0)
    return EmbeddingModel(spec, build_encoder(spec), words, None)


def test_encode_tokenises_like_the_pipeline_and_similarity_is_cosine(combined_run):
    model = load_model(combined_run.model_dir)
    assert model.tokenize(["Two dogs run through the snow!"]) == [["Two", "dogs", "run", "through", "the", "snow",
                                                                  "!"]]
    raw = model.encode(["Two dogs run through the snow!"])
    tokens = model.encode_tokens([["two", "dogs", "run", "through", "the", "snow", "!"]])
    assert np.array_equal(raw, tokens)  # lower-casing happens at lookup
    a, b = RAW[:2], [RAW[1], RAW[0]]
    x, y = model.encode(a).astype(np.float64), model.encode(b).astype(np.float64)
    expected = (x * y).sum(1) / np.linalg.norm(x, axis=1) / np.linalg.norm(y, axis=1)
    assert np.allclose(model.similarity(a, b), expected, atol=1e-6)
    assert model.similarity([""], ["a dog"]).tolist() == [0.0]
    with pytest.raises(TypeError):
        model.encode("one string")



def test_batches_modes_and_input_forms_change_nothing():
    model = _untrained(["word", "lstm"])
    assert model.dim == 10 and model.device == torch.device("cpu")
    assert repr(model) == f"EmbeddingModel(word,lstm, dim=10, words={len(model.words)}, trigrams=0, device=cpu)"
    whole = model.encode(PROBE)
    assert whole.shape == (4, 10) and whole.dtype == np.float32
    np.testing.assert_allclose(model.encode(PROBE, batch_size=1), whole, atol=1e-6)  # each sentence alone
    assert np.array_equal(model(PROBE), whole)
    model.encoder.train()
    assert np.array_equal(model.encode(PROBE), whole) and model.encoder.training  # evaluated, then put back
    arrow = pa.array([s.split() for s in PROBE], pa.list_(pa.string()))
    assert np.array_equal(model.encode_tokens(arrow), model.encode_tokens([s.split() for s in PROBE]))
    assert model.encode([]).shape == (0, 10)


def test_features_read_the_words_as_the_model_does():
    model = _untrained(["word"])
    batch = model.features(["A MAN plays zither"])  # lower-cased at lookup; an unseen word is <unk>
    index = model.words.index
    assert batch.word_ids.tolist() == [index["a"], index["man"], index["plays"], 1]
    assert batch.word_offsets.tolist() == [0, 4] and batch.trigram_ids is None


def test_similarity_broadcasts_a_single_sentence():
    model = _untrained(["word"])
    x = model.encode(PROBE).astype(np.float64)
    first = x[0] / np.linalg.norm(x[0])
    expected = [float(first @ v / np.linalg.norm(v)) for v in x]
    np.testing.assert_allclose(model.similarity(PROBE[0], PROBE), expected, atol=1e-6)
    np.testing.assert_allclose(model.similarity(PROBE, PROBE[0]), expected, atol=1e-6)
    with pytest.raises(ValueError, match="2 sentences against 4"):
        model.similarity(PROBE[:2], PROBE)
