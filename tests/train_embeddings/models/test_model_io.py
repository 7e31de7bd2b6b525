"""Saved models: round trips give identical embeddings and keep the tokeniser settings, load on CPU with
weights-only loading; WORD models export as paragram text and as a word_model directory that
filters/paragram.py reads (and scores with) exactly."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from filters.paragram import ParagramScorer
from paranmt.core.text import MOSES_EN
from paranmt.core.word_vectors import load_word_vectors
from tests.support.training_pairs import pair_lines, pair_tokens
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import SentenceEncoder
from train_embeddings.models.model_io import ModelLoadError, export_word_vectors, load_model, save_model
from train_embeddings.models.spec import ModelSpec
from train_embeddings.vocab import TrigramVocab

RAW = ["A man in a blue shirt is playing the guitar.", "Two dogs run through the snow!", "", "Ünïcode café “quoted”"]


def test_round_trip_gives_identical_embeddings(combined_run, tmp_path):
    model = load_model(combined_run.model_dir)
    first = model.encode(RAW)
    assert first.shape == (4, 16 + 16 + 32) and first.dtype == np.float32
    assert np.isfinite(first).all() and not first[2].any()  # the empty sentence embeds to zero
    copy = save_model(model, tmp_path / "copy")
    again = load_model(copy).encode(RAW)
    assert np.array_equal(first, again)
    assert np.array_equal(load_model(combined_run.out_dir).encode(RAW), first)  # a run directory: its model/
    meta = json.loads((copy / "model.json").read_text())
    assert meta["spec"]["tokenizer"] == model.spec.tokenizer
    assert {k: meta["spec"]["tokenizer"][k] for k in ("kind", "lang", "lowercase")} == MOSES_EN


def test_weights_are_plain_tensors_loaded_weights_only(combined_run):
    state = torch.load(combined_run.model_dir / "weights.pt", map_location="cpu", weights_only=True)
    assert all(isinstance(v, torch.Tensor) for v in state.values())
    with pytest.raises(ModelLoadError, match="not a saved model"):
        load_model(combined_run.model_dir.parent / "vocab")


def test_word_model_directory_is_a_paragram_word_model(word_run, tatoeba_pairs):
    model = load_model(word_run.model_dir)
    vectors = load_word_vectors(word_run.model_dir)  # auto: a directory -> word_model (word_vectors.npy + vocab.txt)
    assert vectors.source.startswith("word_model:") and len(vectors) == len(model.words) - 1 and vectors.dim == 50
    en, mt = pair_lines("en", 300)[:50], pair_lines("mt", 300)[:50]
    en_tokens, mt_tokens = pair_tokens("en", 300)[:50], pair_tokens("mt", 300)[:50]
    scorer = ParagramScorer.plain_average(vectors)
    scores, no_known = scorer.score([list(t) for t in en_tokens], [list(t) for t in mt_tokens])
    assert not no_known.any()
    # Every word of these pairs is in the model's vocabulary, so the scorer's average is the model's WORD embedding.
    assert np.allclose(scores, model.similarity(list(en), list(mt)), atol=1e-5)


def test_export_text_and_word_model_formats(word_run, tmp_path):
    model = load_model(word_run.model_dir)
    text = export_word_vectors(model, tmp_path / "vectors.txt")
    first = text.read_text(encoding="utf-8").splitlines()[0].split(" ")
    assert first[0] == "<unk>" and len(first) == 51
    from_text = load_word_vectors(text)
    directory = export_word_vectors(model, tmp_path / "vectors", format="word_model")
    from_dir = load_word_vectors(directory)
    assert from_text.words.to_pylist() == from_dir.words.to_pylist() == model.words.words[1:]
    assert np.array_equal(from_text.matrix, from_dir.matrix)  # %.9g round-trips float32 exactly
    table = model.encoder.parts["word"].table.full_matrix().detach().numpy()
    assert np.array_equal(from_dir.matrix, table[1:])
    spec = ModelSpec(components=["trigram"], trigram_dim=4, n_trigrams=3)
    trigram_only = EmbeddingModel(spec, SentenceEncoder(spec), None, TrigramVocab(["<unk>", " a ", "abc"]))
    with pytest.raises(ValueError, match="no WORD component"):
        export_word_vectors(trigram_only, tmp_path / "x.txt")
