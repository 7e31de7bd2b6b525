"""Hand-picked token lists (mixed case, empty, non-ASCII, long) and the word and trigram vocabularies built from
them, for the vocabulary's and the encoders' tests."""

from __future__ import annotations

from train_embeddings.vocab import TrigramVocab, WordVocab, count_trigrams, count_words, sentence_strings

SENTENCES = [["A", "man", "is", "playing", "a", "guitar", "."], ["Dogs", "run"], [], ["Ünïcode", "naïve", "café"],
             ["a"], ["The", "dog", "runs", "through", "the", "tall", "green", "grass", "near", "a", "river", "."]]


def vocabularies(trailing: bool = False) -> tuple[WordVocab, TrigramVocab]:
    """The vocabularies of :data:`SENTENCES` (all words, all trigrams)."""
    words = WordVocab.build(count_words(SENTENCES))
    trigrams = TrigramVocab.build(count_trigrams(sentence_strings(SENTENCES, trailing_space=trailing)),
                                  trailing_space=trailing)
    return words, trigrams
