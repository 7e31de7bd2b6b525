"""The trainer's set-up, one concept per module, on real paraphrase pairs: the mega-batch loader (a skip continues
the same epoch, a lone last pair is only counted), vocabularies kept in the run folder, and a run folder's
checkpoint restored into the state a Trainer is given."""

from __future__ import annotations

import itertools

import pytest
import torch

from tests.support.training_pairs import tatoeba_pairs_parquet, tiny
from train_embeddings.training.data import PairSource
from train_embeddings.training.megabatches import MegaBatches
from train_embeddings.training.preparation import Vocabularies, build_vocabularies, prepare_training
from train_embeddings.training.trainer import Trainer, train


@pytest.fixture(scope="module")
def tatoeba_129_pairs(tmp_path_factory):
    """Two megabatches of 64 and a lone pair."""
    return tatoeba_pairs_parquet(tmp_path_factory.mktemp("tatoeba-pairs"), n=129, shards=2)


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


def test_vocabularies_round_trip_through_the_run_folder(tatoeba_129_pairs, tmp_path):
    config = tiny("word,trigram", tatoeba_129_pairs)
    built = build_vocabularies(PairSource.from_config(config), config, seed=1)
    built.save(tmp_path / "vocab")
    loaded = Vocabularies.load(tmp_path / "vocab", ["word", "trigram"])
    assert loaded.words.words == built.words.words and loaded.trigrams.trigrams == built.trigrams.trigrams
    assert loaded.pieces is None and loaded.sizes() == built.sizes()
    assert built.sizes()["words"] > 100 and built.sizes()["trigrams"] > built.sizes()["words"]


def test_a_run_folder_is_restored_into_the_trainers_state(tatoeba_129_pairs, tmp_path):
    config = tiny("word", tatoeba_129_pairs, max_steps=3)
    first = train(config, tmp_path / "run", evaluate_fn=None, progress=False)
    setup = prepare_training(config.model_copy(update={"max_steps": 5}), tmp_path / "run", evaluate_fn=None,
                             progress=False)
    assert setup.state.step == 3 and [e["step"] for e in setup.state.history["log"]] == [3]  # the last window
    checkpoint = torch.load(tmp_path / "run" / "checkpoint.pt", map_location="cpu", weights_only=True)
    restored = setup.state.encoder.state_dict()
    assert all(torch.equal(restored[k], v) for k, v in checkpoint["model"].items())
    assert setup.model.words.words == Vocabularies.load(tmp_path / "run" / "vocab", ["word"]).words.words
    result = Trainer(setup).run()
    assert result.steps == 5 and len(result.losses) == 2 and first.steps == 3
