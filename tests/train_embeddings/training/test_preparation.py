"""The trainer's set-up (train_embeddings/training/preparation.py) on real paraphrase pairs: vocabularies kept in the
run folder, and a run folder's checkpoint restored into the state a Trainer is given."""

from __future__ import annotations

import torch

from tests.support.training_pairs import tiny
from train_embeddings.training.data import PairSource
from train_embeddings.training.preparation import Vocabularies, build_vocabularies, prepare_training
from train_embeddings.training.trainer import Trainer, train


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
