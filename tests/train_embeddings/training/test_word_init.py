"""WORD's initialisation and its unseen words: the command line starts word-based models from GloVe (installed
with paranmt) unless told otherwise, the library warns when words start random, and the pretrained words that
training never saw are carried by the linear map the trained words define (``unseen_words: mapped``)."""

from __future__ import annotations

import logging

import numpy as np
import pyarrow as pa
import pytest
import torch

from configs import load_config
from paranmt.core.word_vectors import load_word_vectors
from tests.support.training_pairs import tiny
from train_embeddings.models.model_io import load_model
from train_embeddings.training.preparation import initial_word_vectors
from train_embeddings.training.trainer import default_word_vectors, train
from train_embeddings.training.unseen_words import ANCHORS, UnseenWordMap, fit_word_map


def test_command_line_default_is_glove_for_word_models() -> None:
    word = load_config(None, [], {"train.model": "word,trigram"})
    assert default_word_vectors(word, None).train.word_vectors == "kumo"
    assert default_word_vectors(word, "/some/file.txt").train.word_vectors is None  # given: main passes it on
    trigram = load_config(None, [], {"train.model": "trigram"})
    assert default_word_vectors(trigram, None).train.word_vectors is None
    assert default_word_vectors(load_config(None, [], {"train.model": "sp"}), None).train.word_vectors is None
    explicit = load_config(None, ["train.word_vectors=null"], {"train.model": "word"})
    assert default_word_vectors(explicit, None).train.word_vectors is None  # the config chose random
    sized = load_config(None, ["train.word_dim=8"], {"train.model": "word"})
    assert default_word_vectors(sized, None).train.word_vectors is None  # a word size of the user's: random


def test_random_words_are_announced(tatoeba_pairs, tmp_path, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="train_embeddings.trainer"):
        assert initial_word_vectors(tiny("word", tatoeba_pairs)) is None
    assert "random 16-d word vectors" in caplog.text and "--word-vectors kumo" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="train_embeddings.trainer"):
        initial_word_vectors(tiny("trigram", tatoeba_pairs))
    assert caplog.text == ""


@pytest.mark.parametrize("mode", ["mapped", "pretrained"])
def test_saved_model_carries_unseen_words(tatoeba_pairs, tmp_path, mode) -> None:
    config = tiny("word", tatoeba_pairs, word_vectors="kumo", max_steps=6, unseen_words=mode, lr=0.05)
    run = train(config, tmp_path / "run", evaluate_fn=None, progress=False)
    model = load_model(run.model_dir)
    table = model.encoder.parts["word"].table
    glove = load_word_vectors(None, "kumo")
    frozen_words = model.words.words[model.words.n_trainable:]
    pretrained = torch.from_numpy(glove.matrix[glove.lookup(pa.array(frozen_words, pa.string()))])
    anchors = UnseenWordMap.load(tmp_path / "run" / "vocab" / ANCHORS, ridge=config.unseen_words_ridge)
    assert anchors.initial.shape == (model.words.n_trainable, 50) and bool(anchors.known.any())
    if mode == "pretrained":
        assert torch.equal(table.frozen, pretrained)
        return
    w = fit_word_map(anchors.initial[anchors.known], table.weight.detach()[anchors.known], config.unseen_words_ridge)
    assert torch.allclose(table.frozen, pretrained @ w, atol=1e-5)
    assert not torch.allclose(table.frozen, pretrained, atol=1e-3)  # training moved the space: the map is no identity
    checkpoint = torch.load(tmp_path / "run" / "checkpoint.pt", map_location="cpu", weights_only=False)
    assert torch.equal(checkpoint["model"]["parts.word.table.frozen"], pretrained)  # training state keeps GloVe
    sentence = "zygote"  # a GloVe word no training pair uses: its vector is the mapped one
    assert sentence in frozen_words
    assert np.allclose(model.encode([sentence])[0], (pretrained @ w)[frozen_words.index(sentence)].numpy(), atol=1e-5)
