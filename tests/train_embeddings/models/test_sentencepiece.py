"""The ``sp`` encoder (ParaGram-SP: SentencePiece trained on the training pairs, piece embeddings averaged):
trained in seconds on real paraphrase pairs, it saves, loads and encodes identically, combines with the other
components and segments every word (no out-of-vocabulary sentence embeds to zero); the SentencePiece vocabulary
itself: tests/train_embeddings/test_vocab.py."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from tests.support.training_pairs import pair_lines, tiny
from train_embeddings.models.model_io import load_model, save_model
from train_embeddings.training.trainer import train
from train_embeddings.vocab import SentencePieceVocab

RAW = ["A man in a blue shirt is playing the guitar.", "", "Zyzzyvas quixotically flummox jabberwockies."]


@pytest.fixture(scope="module")
def sp_run(tatoeba_pairs, tmp_path_factory):
    return train(tiny("sp", tatoeba_pairs, sp_vocab_size=400, sp_dim=16), tmp_path_factory.mktemp("sp"),
                 evaluate_fn=None, progress=False)


def test_sp_model_round_trip_and_no_unknown_words(sp_run, tmp_path) -> None:
    model = load_model(sp_run.model_dir)
    assert model.spec.components == ["sp"] and model.dim == 16
    assert model.pieces is not None and len(model.pieces) == model.spec.n_pieces == 400
    vectors = model.encode(RAW)
    assert vectors.shape == (3, 16) and np.isfinite(vectors).all()
    assert not vectors[1].any()  # the empty sentence embeds to zero
    assert np.abs(vectors[2]).sum() > 0  # words never seen in training still have pieces
    batch = model.featurizer(model.tokenize(RAW[2:]))
    assert batch.sp_ids is not None and int((batch.sp_ids == 0).sum()) < batch.sp_ids.numel()  # not all <unk>
    copy = save_model(model, tmp_path / "copy")
    assert (copy / "sp.model").is_file()
    assert np.array_equal(load_model(copy).encode(RAW), vectors)
    meta = json.loads((copy / "model.json").read_text())
    assert meta["spec"]["n_pieces"] == 400


def test_sp_combines_with_word_and_trigram(tatoeba_pairs, tmp_path) -> None:
    run = train(tiny("sp,word,trigram", tatoeba_pairs, sp_vocab_size=400, sp_dim=8), tmp_path / "run",
                evaluate_fn=None, progress=False)
    model = load_model(run.model_dir)
    assert model.dim == 8 + 16 + 16
    full = model.encode(RAW)
    assert np.array_equal(full[:, :8], _part(model, "sp", RAW))
    summed = train(tiny("sp+trigram", tatoeba_pairs, sp_vocab_size=400, sp_dim=16), tmp_path / "sum",
                   evaluate_fn=None, progress=False)
    assert load_model(summed.model_dir).dim == 16


def _part(model, name, sentences):
    batch = model.featurizer(model.tokenize(sentences))
    with torch.inference_mode():
        return model.encoder.parts[name](batch).numpy()

def test_small_corpus_gets_the_vocabulary_it_supports() -> None:
    vocab = SentencePieceVocab.train([s.lower() for s in pair_lines("en", 50)], vocab_size=50_000, seed=1)
    assert 16 < len(vocab) < 50_000
