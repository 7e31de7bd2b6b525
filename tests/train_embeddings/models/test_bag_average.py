"""TRIGRAM and SP (train_embeddings/models/bag_average.py): the mean of the embeddings of a sentence's character
trigrams (against trigrams cut by hand from real sentences) or of its SentencePiece ids; zero for an empty one."""

from __future__ import annotations

import torch

from tests.support.training_pairs import pair_lines
from train_embeddings.models.bag_average import BagAverage
from train_embeddings.vocab import Featurizer, SentenceBatch, TrigramVocab, count_trigrams, sentence_strings


def test_trigram_mean_of_real_sentences():
    tokens = [line.split() for line in pair_lines("en", 12)] + [[]]
    vocab = TrigramVocab.build(count_trigrams(sentence_strings(tokens[:8])))  # the last five have unseen trigrams
    torch.manual_seed(0)
    layer = BagAverage(len(vocab), 6, "trigram")
    assert layer.output_dim == 6
    with torch.no_grad():
        got = layer(Featurizer(None, vocab)(tokens))
    index = {t: i for i, t in enumerate(vocab.trigrams)}
    table = layer.embedding.weight.detach().double()
    for i, sentence in enumerate(tokens):
        text = " " + " ".join(sentence).lower()
        ids = [index.get(text[k:k + 3], 0) for k in range(len(text) - 2)]  # 0: <unk>
        expected = table[ids].mean(0) if ids else torch.zeros(6, dtype=torch.float64)
        torch.testing.assert_close(got[i].double(), expected, atol=1e-7, rtol=1e-6)
    assert torch.equal(got[-1], torch.zeros(6))


def test_sp_reads_the_piece_ids():
    layer = BagAverage(10, 3, "sp")
    batch = SentenceBatch(3, sp_ids=torch.tensor([4, 4, 9, 1]), sp_offsets=torch.tensor([0, 3, 3, 4]))
    with torch.no_grad():
        got = layer(batch, scramble=torch.tensor([True, True, True]))  # an order-free mean: scrambling is moot
    table = layer.embedding.weight.detach()
    torch.testing.assert_close(got[0], (2 * table[4] + table[9]) / 3)
    assert torch.equal(got[1], torch.zeros(3)) and torch.equal(got[2], table[1])
