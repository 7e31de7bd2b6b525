"""Vocabularies and featurisation (train_embeddings/vocab.py): words (lower-cased, unknown, frozen pretrained rows),
character trigrams against a naive reference, SentencePiece pieces, ragged batches and their gathers, the files
a run folder keeps."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyarrow as pa
import pytest
import torch

from tests.support.training_pairs import pair_lines
from tests.support.vocab_sentences import SENTENCES, vocabularies
from train_embeddings.models.bag_average import BagAverage
from train_embeddings.vocab import (
    PAD,
    UNK,
    Featurizer,
    SentencePieceVocab,
    TrigramVocab,
    WordVocab,
    count_words,
    sentence_strings,
    trigram_keys,
)


def naive_trigrams(tokens: list[str], trailing: bool = False) -> list[str]:
    text = " " + " ".join(tokens).lower() + (" " if trailing else "")
    return [text[i:i + 3] for i in range(len(text) - 2)]


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


def test_featurizer_accepts_arrow_columns():
    words, trigrams = vocabularies()
    column = pa.chunked_array([pa.array(SENTENCES[:3], pa.list_(pa.string())),
                               pa.array(SENTENCES[3:], pa.large_list(pa.large_string())).cast(
                                   pa.list_(pa.string()))])
    batch = Featurizer(words, trigrams)(column)
    reference = Featurizer(words, trigrams)(SENTENCES)
    assert torch.equal(batch.word_ids, reference.word_ids) and torch.equal(batch.trigram_ids, reference.trigram_ids)
    assert np.array_equal(batch.word_offsets.numpy(), reference.word_offsets.numpy())


def test_piece_vocabulary_is_deterministic_and_batch_select_keeps_pieces() -> None:
    text = [s.lower() for s in pair_lines("en", 300)]
    first = SentencePieceVocab.train(text, vocab_size=300, seed=1)
    assert first.model_proto == SentencePieceVocab.train(text, vocab_size=300, seed=1).model_proto
    tokens = pa.array([s.split() for s in text[:5]], pa.list_(pa.string()))
    batch = Featurizer(None, None, pieces=first)(tokens)
    ids, offsets = first.encode_strings(sentence_strings(tokens))
    assert np.array_equal(batch.sp_ids.numpy(), ids) and np.array_equal(batch.sp_offsets.numpy(), offsets)
    picked = batch.select(torch.tensor([3, 0]))
    assert picked.sp_ids.tolist() == ids[offsets[3]:offsets[4]].tolist() + ids[offsets[0]:offsets[1]].tolist()
    layer = BagAverage(len(first), 4, "sp")
    assert layer(batch).shape == (5, 4)


def test_small_corpus_gets_the_vocabulary_it_supports() -> None:
    vocab = SentencePieceVocab.train([s.lower() for s in pair_lines("en", 50)], vocab_size=50_000, seed=1)
    assert 16 < len(vocab) < 50_000


def test_word_vocabularies_refuse_what_they_cannot_index():
    with pytest.raises(ValueError, match=r"starts with '<pad>', '<unk>'; got \['a', '<unk>'\]"):
        WordVocab(["a", UNK, "b"])
    with pytest.raises(ValueError, match="duplicates"):
        WordVocab([PAD, UNK, "a", "a"])
    with pytest.raises(ValueError, match=r"n_trainable 5 outside 2\.\.4"):
        WordVocab([PAD, UNK, "a", "b"], n_trainable=5)
    with pytest.raises(ValueError, match=r"starts with '<unk>'"):
        TrigramVocab(["abc"])
    with pytest.raises(ValueError, match=r"not trigrams: \['ab'\]"):
        TrigramVocab([UNK, "abc", "ab"])
    with pytest.raises(ValueError, match="duplicates"):
        TrigramVocab([UNK, "abc", "abc"])
    with pytest.raises(ValueError, match="needs a word, trigram, SentencePiece or static vocabulary"):
        Featurizer(None, None)


def test_size_limits_keep_the_most_frequent_and_pretrained_words_stay_frozen():
    counts = Counter({"the": 5, "dog": 3, "cat": 3, "a": 1, PAD: 9})
    vocab = WordVocab.build(counts, max_size=2, pretrained=["zebra", "dog", "zebra", "yak"])
    # cat before dog: ties by word; dog, cut by max_size, is frozen in the pretrained order (zebra once)
    assert vocab.words == [PAD, UNK, "the", "cat", "zebra", "dog", "yak"]
    assert vocab.n_trainable == 4 and vocab.n_frozen == 3 and len(vocab) == 7
    ids = vocab.lookup_distinct(pa.array(["yak", "the", "unseen"]))
    assert ids.dtype == np.int64 and ids.tolist() == [6, 2, 1]
    strings = sentence_strings([["aa", "b"], ["aa"]])  # " aa b", " aa": " aa" twice, the rest once
    keys, _ = trigram_keys(strings)
    counted = TrigramVocab.build((np.unique(keys), np.unique(keys, return_counts=True)[1]), min_count=2)
    assert counted.trigrams == [UNK, " aa"]
    assert len(TrigramVocab.build((np.unique(keys), np.unique(keys, return_counts=True)[1]), max_size=2)) == 3


def test_vocabularies_round_trip_through_their_files(tmp_path):
    _, trigrams = vocabularies(trailing=True)
    frozen = WordVocab.build(count_words(SENTENCES), pretrained=["zebra"], lowercase=False)
    frozen.save(tmp_path / "words.json")
    loaded = WordVocab.load(tmp_path / "words.json")
    assert loaded.words == frozen.words and loaded.n_trainable == frozen.n_trainable and loaded.lowercase is False
    assert "Ünïcode".lower() in loaded.index  # non-ASCII kept as written (ensure_ascii=False)
    trigrams.save(tmp_path / "trigrams.json")
    again = TrigramVocab.load(tmp_path / "trigrams.json")
    assert again.trigrams == trigrams.trigrams and again.trailing_space is True
    keys, _ = trigram_keys(sentence_strings(SENTENCES, trailing_space=True))
    assert np.array_equal(again.lookup_keys(keys), trigrams.lookup_keys(keys))
    pieces = SentencePieceVocab.train([s.lower() for s in pair_lines("en", 100)], vocab_size=100, seed=1)
    pieces.save(tmp_path / "sp.model")
    assert SentencePieceVocab.load(tmp_path / "sp.model").model_proto == pieces.model_proto


def test_padded_words_against_the_ragged_lists():
    words, trigrams = vocabularies()
    batch = Featurizer(words, trigrams)(SENTENCES)
    padded, lengths = batch.padded_words(pad=-1)
    rows = [[words.index.get(t.lower(), 1) for t in sentence] for sentence in SENTENCES]
    width = max(len(r) for r in rows)
    assert lengths.tolist() == [len(r) for r in rows] and padded.shape == (len(SENTENCES), width)
    assert padded.tolist() == [r + [-1] * (width - len(r)) for r in rows]
    moved = batch.to("cpu")
    assert len(moved) == len(SENTENCES) and torch.equal(moved.trigram_ids, batch.trigram_ids)
    empty = batch.select(torch.tensor([2, 2]))  # the empty sentence twice: no ids, offsets of zeros
    assert empty.word_ids.numel() == 0 and empty.word_offsets.tolist() == [0, 0, 0]
    assert Featurizer(words, None)([]).padded_words()[0].shape == (0, 1)
