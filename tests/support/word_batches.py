"""Hand-built inputs for the word encoders' tests (tests/train_embeddings/models/, training/; no tests here): batches
of word ids, a word table with known rows, the small specs and encoders of the ICLR'16 zoo and CSE, and the check
every one of those encoders must pass (padding invariance, masking, scrambling)."""

from __future__ import annotations

import torch

from train_embeddings.models.encoder import SentenceEncoder, build_encoder
from train_embeddings.models.spec import RECURRENT, ModelSpec
from train_embeddings.models.word_table import WordTable
from train_embeddings.vocab import SentenceBatch

# Ids 2..29: trainable (< 24) and frozen pretrained rows (>= 24) mixed; lengths 1..6 and an empty sentence.
SENTENCES = [[2, 5, 9, 26, 3], [7], [4, 4, 28, 11, 12, 13], [], [20, 21], [6, 25, 8]]


def batch_of(sentences: list[list[int]]) -> SentenceBatch:
    """A batch of word ids only (sentence ``i`` is ``sentences[i]``)."""
    lengths = torch.tensor([len(s) for s in sentences])
    offsets = torch.zeros(len(sentences) + 1, dtype=torch.long)
    torch.cumsum(lengths, 0, out=offsets[1:])
    ids = torch.tensor([i for s in sentences for i in s], dtype=torch.long)
    return SentenceBatch(len(sentences), ids, offsets)


def hand_table(dim: int, n: int = 12, seed: int = 5) -> WordTable:
    """A trainable-only word table of ``n`` seeded random rows (``<pad>`` zero)."""
    table = WordTable(n, 0, dim)
    with torch.no_grad():
        table.weight.copy_(torch.randn(n, dim, generator=torch.Generator().manual_seed(seed)))
        table.weight[0].zero_()
    return table


def zoo_spec(components: list[str], **overrides) -> ModelSpec:
    """A small spec over the 30 ids of :data:`SENTENCES` (24 trainable, 6 frozen)."""
    values = dict(components=components, word_dim=6, lstm_dim=5, n_words=30, n_trainable_words=24, cse_maps=3,
                  hidden_dim=7, dan_layers=2)
    values.update(overrides)
    return ModelSpec(**values)


def zoo_encoder(name: str, seed: int = 0, **overrides) -> SentenceEncoder:
    """One component built from random pretrained vectors, its other parameters moved off their initial values
    (biases, peepholes) so that masking bugs show; ``irnn`` keeps its identity initialisation."""
    torch.manual_seed(seed)
    vectors = torch.randn(30, 6)
    known = torch.ones(30, dtype=torch.bool)
    encoder = build_encoder(zoo_spec([name], **overrides), vectors, known)
    with torch.no_grad():
        for n, p in encoder.named_parameters():
            if "table" not in n and name != "irnn":
                p.add_(0.3 * torch.randn_like(p))
    return encoder.eval()


def check_padding_masking_and_scrambling(name: str, expected_dim: int) -> None:
    """A sentence embeds the same alone, in :data:`SENTENCES` and between two long ones; an empty one embeds to zero
    (recurrent models and CSE: no state, no window); scrambling changes only the marked sentences, and only in a
    recurrent model."""
    encoder = zoo_encoder(name)
    assert encoder.output_dim == expected_dim
    with torch.no_grad():
        together = encoder(batch_of(SENTENCES))
        assert together.shape == (len(SENTENCES), expected_dim) and torch.isfinite(together).all()
        long = [3] * 15
        for k, sentence in enumerate(SENTENCES):
            alone = encoder(batch_of([sentence]))[0]
            padded = encoder(batch_of([long, sentence, long]))[1]
            torch.testing.assert_close(alone, together[k], atol=1e-6, rtol=1e-5)
            torch.testing.assert_close(padded, together[k], atol=1e-6, rtol=1e-5)
        if name in ("rnn", "irnn", "lstm-peep", "lstm-peep-nog", "cse"):
            assert torch.equal(together[3], torch.zeros(expected_dim))
        scramble = torch.tensor([True, False, True, False, False, True])
        encoder.set_generator(torch.Generator().manual_seed(0))
        shuffled = encoder(batch_of(SENTENCES), scramble)
        unmarked = ~scramble
        torch.testing.assert_close(shuffled[unmarked], together[unmarked])
        if name not in RECURRENT:
            torch.testing.assert_close(shuffled, together)
