"""Encoders: padding invariance, order, combinations, pretrained initialisation (vocabularies and featurisation:
tests/train_embeddings/test_vocab.py; word scrambling: models/test_word_sequences.py)."""

from __future__ import annotations

import pytest
import torch

from configs.schema import TrainConfig
from tests.support.vocab_sentences import SENTENCES, vocabularies
from train_embeddings.models.encoder import build_encoder
from train_embeddings.models.spec import ModelSpec
from train_embeddings.vocab import Featurizer, WordVocab


def _spec(components, combine="concat", words=None, trigrams=None, dim=8) -> ModelSpec:
    return ModelSpec(components=components, combine=combine, word_dim=dim, trigram_dim=dim, lstm_dim=dim,
                     n_words=len(words) if words else 0, n_trainable_words=words.n_trainable if words else 0,
                     n_trigrams=len(trigrams) if trigrams else 0)


@pytest.mark.parametrize("model", ["word", "trigram", "lstm", "blstm", "blstm-cat", "blstm-max", "word,trigram",
                                   "word+trigram+lstm"])
def test_padding_invariance(model):
    """A sentence's embedding does not depend on the other (longer, shorter, empty) sentences of its batch."""
    components, combine = TrainConfig.parse_model(model)
    words, trigrams = vocabularies()
    torch.manual_seed(0)
    encoder = build_encoder(_spec(components, combine, words, trigrams)).eval()
    featurizer = Featurizer(words, trigrams)
    with torch.no_grad():
        together = encoder(featurizer(SENTENCES))
        for i, sentence in enumerate(SENTENCES):
            alone = encoder(featurizer([sentence]))[0]
            if set(components) <= {"word", "trigram"}:
                assert torch.equal(alone, together[i]), (model, i)  # no padding at all: bit-identical
            else:
                assert torch.allclose(alone, together[i], atol=1e-6), (model, i)
        assert torch.equal(together[2], torch.zeros_like(together[2]))  # the empty sentence
    expected = {"word": 8, "trigram": 8, "lstm": 8, "blstm": 8, "blstm-cat": 16, "blstm-max": 16,
                "word,trigram": 16, "word+trigram+lstm": 8}[model]
    assert encoder.output_dim == expected == together.shape[1]


def test_order_free_models_ignore_word_order_recurrent_do_not():
    words, _ = vocabularies()
    featurizer = Featurizer(words, None)
    torch.manual_seed(0)
    word = build_encoder(_spec(["word"], words=words)).eval()
    lstm = build_encoder(_spec(["lstm"], words=words)).eval()
    batch = featurizer([["a", "man", "is", "playing"], ["playing", "is", "man", "a"]])
    with torch.no_grad():
        w, r = word(batch), lstm(batch)
    assert torch.allclose(w[0], w[1], atol=1e-7)
    assert not torch.allclose(r[0], r[1], atol=1e-4)


def test_sum_of_different_sizes_is_a_clear_error():
    words, trigrams = vocabularies()
    spec = _spec(["word", "blstm-cat"], "sum", words, trigrams)
    with pytest.raises(ValueError, match="different sizes"):
        build_encoder(spec)


def test_pretrained_initialisation_keeps_vectors_and_zero_unknown():
    words = WordVocab.build({"dog": 3, "xyzzy": 2}, pretrained=["dog", "cat"])
    vectors = torch.zeros(len(words), 4)
    known = torch.zeros(len(words), dtype=torch.bool)
    for w, v in {"dog": [1.0, 2, 3, 4], "cat": [4.0, 3, 2, 1]}.items():
        vectors[words.index[w]] = torch.tensor(v)
        known[words.index[w]] = True
    encoder = build_encoder(_spec(["word"], words=words, dim=4), vectors, known)
    table = encoder.parts["word"].table
    full = table.full_matrix()
    assert torch.equal(full[words.index["dog"]], vectors[words.index["dog"]])
    assert torch.equal(full[words.index["cat"]], vectors[words.index["cat"]])  # frozen row
    assert torch.equal(full[0], torch.zeros(4)) and torch.equal(full[1], torch.zeros(4))  # <pad>, <unk>
    assert full[words.index["xyzzy"]].abs().sum() > 0  # a training word without a vector: random
    assert [name for name, _ in encoder.named_parameters()] == ["parts.word.table.weight"]  # frozen: a buffer
