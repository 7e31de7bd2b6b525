"""Training checkpoints (train_embeddings/training/checkpoint.py): what ``checkpoint.pt`` holds and restores, the
run-folder rule (the same run continues, another is refused, ``overwrite`` replaces it), and the errors a user meets;
on a real model set up from real pairs (the loop itself: tests/train_embeddings/training/test_trainer.py)."""

from __future__ import annotations

import random

import pytest
import torch

from configs.schema import ParaNMTConfig
from paranmt.core.run_definition import DifferentRun
from tests.support.training_pairs import tiny
from train_embeddings.losses.negative_mining import MinedNegatives
from train_embeddings.training.checkpoint import (
    CHECKPOINT,
    CHECKPOINT_FORMAT,
    Checkpointer,
    TrainingError,
    training_definition,
)
from train_embeddings.training.preparation import prepare_training


def test_the_definition_is_the_settings_and_the_seed_in_effect(tatoeba_129_pairs):
    config = tiny("word", tatoeba_129_pairs)
    definition = training_definition(config, 7)
    assert definition["seed"] == 7 and "seed" not in definition["train"]
    assert definition["train"]["batch_size"] == 20 and definition["train"]["model"] == "word"
    # train.seed or the top-level seed: the same seed gives the same definition (one key for one change)
    by_train = ParaNMTConfig(train=config.model_copy(update={"seed": 7})).train
    assert training_definition(by_train, 7) == definition
    assert training_definition(config.model_copy(update={"batch_size": 10}), 7) != definition


def test_save_then_restore_brings_back_position_generator_rngs_negatives_and_the_new_lr(tatoeba_129_pairs,
                                                                                        tmp_path):
    setup = prepare_training(tiny("word", tatoeba_129_pairs), tmp_path / "run", evaluate_fn=None, progress=False)
    state, checkpointer = setup.state, setup.checkpointer
    state.position.epoch, state.position.megabatch, state.position.step = 1, 2, 9
    state.history["log"].append({"step": 9, "loss": 0.5})
    negatives = MinedNegatives(torch.tensor([[1, 0], [2, 1]]), torch.tensor([[True, True], [True, False]]))
    generator_state = state.generator.get_state()
    torch.manual_seed(123)
    random.seed(456)
    checkpointer.save(state, negatives)
    expected_torch, expected_python = torch.rand(3), random.random()
    assert sorted(p.name for p in (tmp_path / "run").iterdir() if p.name.startswith(".")) == []  # no temporary left
    assert checkpointer.timing["checkpoint_s"] > 0

    loaded = Checkpointer(tmp_path / "run", checkpointer.definition).load_for_run(resume=False, overwrite=False)
    assert loaded["format"] == CHECKPOINT_FORMAT and loaded["n_pairs"] == 129
    assert all(torch.equal(loaded["model"][k], v) for k, v in state.encoder.state_dict().items())
    state.generator.manual_seed(99)
    state.position.step = 0
    torch.manual_seed(0)
    random.seed(0)
    Checkpointer.restore(state, loaded, lr=0.125)
    assert state.position.step == 9 and state.position.epoch == 1 and state.position.megabatch == 2
    assert torch.equal(state.generator.get_state(), generator_state)
    assert torch.equal(torch.rand(3), expected_torch) and random.random() == expected_python
    assert [group["lr"] for group in state.optimizer.param_groups] == [0.125] * len(state.optimizer.param_groups)
    assert torch.equal(state.resumed_negatives.index, negatives.index)
    assert torch.equal(state.resumed_negatives.valid, negatives.valid)


def test_the_run_folder_rule_and_its_errors(tatoeba_129_pairs, tmp_path):
    setup = prepare_training(tiny("word", tatoeba_129_pairs), tmp_path / "run", evaluate_fn=None, progress=False)
    setup.checkpointer.save(setup.state, None)
    definition = setup.checkpointer.definition
    assert Checkpointer(tmp_path / "run", definition).load_for_run(resume=True, overwrite=False) is not None
    other = {**definition, "seed": definition["seed"] + 1}
    with pytest.raises(DifferentRun, match=r"holds a different run \(seed .*\): pass --overwrite"):
        Checkpointer(tmp_path / "run", other).load_for_run(resume=False, overwrite=False)
    with pytest.raises(TrainingError, match=r"--resume: no checkpoint\.pt in .*elsewhere"):
        Checkpointer(tmp_path / "elsewhere", definition).load_for_run(resume=True, overwrite=False)
    assert Checkpointer(tmp_path / "elsewhere", definition).load_for_run(resume=False, overwrite=False) is None
    old = torch.load(tmp_path / "run" / CHECKPOINT, weights_only=True)
    torch.save({**old, "format": CHECKPOINT_FORMAT - 1}, tmp_path / "run" / CHECKPOINT)
    with pytest.raises(TrainingError, match=rf"checkpoint\.pt: checkpoint format {CHECKPOINT_FORMAT - 1}, this code "
                                            rf"reads {CHECKPOINT_FORMAT}"):
        Checkpointer(tmp_path / "run", definition).load_for_run(resume=False, overwrite=False)
    assert Checkpointer(tmp_path / "run", other).load_for_run(resume=False, overwrite=True) is None
    assert not (tmp_path / "run").exists()  # overwrite deleted the other run's folder
