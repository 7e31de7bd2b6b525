"""The training loop's mega-batch loader (train_embeddings/training/megabatches.py) on real paraphrase pairs: a skip
continues the same epoch, a lone last pair is only counted, each epoch is shuffled anew."""

from __future__ import annotations

import itertools

import torch

from tests.support.training_pairs import tiny
from train_embeddings.training.data import PairSource
from train_embeddings.training.megabatches import MegaBatches
from train_embeddings.training.preparation import build_vocabularies


def _word_rows(batch) -> list[list[int]]:
    features = batch.features
    ids, offsets = features.word_ids.tolist(), features.word_offsets.tolist()
    return [ids[a:b] for a, b in itertools.pairwise(offsets)]


def test_megabatches_skip_continues_the_epoch_and_a_lone_pair_is_only_counted(tatoeba_129_pairs):
    config = tiny("word", tatoeba_129_pairs)
    source = PairSource.from_config(config)
    vocabularies = build_vocabularies(source, config, seed=1)
    loader = MegaBatches(source, vocabularies.featurizer(lowercase=True), 64, seed=1, shuffle_buffer=100,
                         interleave=2, device=torch.device("cpu"))
    full = list(loader.epoch(0))
    assert [b.n for b in full] == [64, 64, 1]
    assert full[-1].features is None and full[-1].groups is None  # no negative exists for it: no features either
    assert len(full[0].features) == 128 and full[0].groups.shape == (64,)
    resumed = list(loader.epoch(0, skip=64))
    assert [b.n for b in resumed] == [64, 1] and _word_rows(resumed[0]) == _word_rows(full[1])
    assert _word_rows(next(loader.epoch(1))) != _word_rows(full[0])  # each epoch is shuffled anew
