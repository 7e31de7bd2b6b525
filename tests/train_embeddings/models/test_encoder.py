"""Vocabularies, featurisation and encoders: trigrams against a naive reference, padding invariance, word
scrambling, combinations."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyarrow as pa
import pytest
import torch

from configs.schema import TrainConfig
from train_embeddings.models.encoder import build_encoder
from train_embeddings.models.spec import ModelSpec
from train_embeddings.vocab import (
    PAD,
    UNK,
    Featurizer,
    TrigramVocab,
    WordVocab,
    count_trigrams,
    count_words,
    sentence_strings,
    trigram_keys,
)

SENTENCES = [["A", "man", "is", "playing", "a", "guitar", "."], ["Dogs", "run"], [], ["Ünïcode", "naïve", "café"],
             ["a"], ["The", "dog", "runs", "through", "the", "tall", "green", "grass", "near", "a", "river", "."]]


def naive_trigrams(tokens: list[str], trailing: bool = False) -> list[str]:
    text = " " + " ".join(tokens).lower() + (" " if trailing else "")
    return [text[i:i + 3] for i in range(len(text) - 2)]


def vocabularies(trailing: bool = False) -> tuple[WordVocab, TrigramVocab]:
    words = WordVocab.build(count_words(SENTENCES))
    trigrams = TrigramVocab.build(count_trigrams(sentence_strings(SENTENCES, trailing_space=trailing)),
                                  trailing_space=trailing)
    return words, trigrams


@pytest.mark.parametrize("trailing", [False, True])
def test_trigrams_match_naive_reference(trailing):
    strings = sentence_strings(SENTENCES, trailing_space=trailing)
    keys, offsets = trigram_keys(strings)
    _, trigrams = vocabularies(trailing)
    assert set(trigrams.trigrams[1:]) == {t for s in SENTENCES for t in naive_trigrams(s, trailing)}
    ids = trigrams.lookup_keys(keys)
    for i, sentence in enumerate(SENTENCES):
        got = [trigrams.trigrams[j] for j in ids[offsets[i]:offsets[i + 1]]]
        assert got == naive_trigrams(sentence, trailing)
    counts = Counter(t for s in SENTENCES for t in naive_trigrams(s, trailing))
    first = trigrams.trigrams[1]
    assert counts[first] == max(counts.values())  # most frequent first


def test_words_lowercased_unknown_and_pretrained_frozen():
    counts = count_words([["The", "the", "dog"], ["a", "Dog"]])
    assert counts == {"the": 2, "dog": 2, "a": 1}
    vocab = WordVocab.build(counts, min_count=2, pretrained=["cat", "dog", "the", "zebra"])
    assert vocab.words[:2] == [PAD, UNK]
    assert vocab.words[2:vocab.n_trainable] == ["dog", "the"]  # count order, ties by word
    assert vocab.words[vocab.n_trainable:] == ["cat", "zebra"]  # frozen pretrained rows
    featurizer = Featurizer(vocab, None)
    batch = featurizer([["The", "DOG", "a", "Zebra", "unseen"]])
    assert batch.word_ids.tolist() == [vocab.index["the"], vocab.index["dog"], 1, vocab.index["zebra"], 1]


def test_select_gathers_ragged_sentences():
    words, trigrams = vocabularies()
    batch = Featurizer(words, trigrams)(SENTENCES)
    index = torch.tensor([5, 2, 0, 0, 3])
    picked = batch.select(index)
    alone = Featurizer(words, trigrams)([SENTENCES[i] for i in index.tolist()])
    for name in ("word_ids", "word_offsets", "trigram_ids", "trigram_offsets"):
        assert torch.equal(getattr(picked, name), getattr(alone, name)), name


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


def test_featurizer_accepts_arrow_columns():
    words, trigrams = vocabularies()
    column = pa.chunked_array([pa.array(SENTENCES[:3], pa.list_(pa.string())),
                               pa.array(SENTENCES[3:], pa.large_list(pa.large_string())).cast(
                                   pa.list_(pa.string()))])
    batch = Featurizer(words, trigrams)(column)
    reference = Featurizer(words, trigrams)(SENTENCES)
    assert torch.equal(batch.word_ids, reference.word_ids) and torch.equal(batch.trigram_ids, reference.trigram_ids)
    assert np.array_equal(batch.word_offsets.numpy(), reference.word_offsets.numpy())
