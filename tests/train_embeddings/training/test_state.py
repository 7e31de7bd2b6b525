"""What a training run tracks (train_embeddings/training/state.py): updates per epoch and the evaluation points,
against a mega-batch by mega-batch count; the data position and its JSON; the mega-batch and epoch moves."""

from __future__ import annotations

import json
import math

import pytest

from train_embeddings.training.state import Position, Schedule, TrainingState, new_history, steps_in_epoch


def _updates_by_counting(n_pairs: int, megabatch_pairs: int, batch_size: int) -> int:
    """Walk the epoch's mega-batches; a mega-batch of n >= 2 pairs is ceil(n / batch_size) updates."""
    updates, left = 0, n_pairs
    while left > 0:
        n = min(megabatch_pairs, left)
        left -= n
        if n >= 2:
            updates += -(-n // batch_size)
    return updates


@pytest.mark.parametrize("n_pairs", [0, 1, 2, 59, 60, 61, 62, 129, 300, 301, 1000])
@pytest.mark.parametrize("megabatch,batch_size", [(1, 20), (3, 20), (4, 7)])
def test_steps_in_epoch_is_the_count_of_updates(n_pairs, megabatch, batch_size):
    megabatch_pairs = megabatch * batch_size
    assert steps_in_epoch(n_pairs, megabatch_pairs, batch_size) == _updates_by_counting(n_pairs, megabatch_pairs,
                                                                                        batch_size)


def test_the_schedule_spreads_the_evaluation_points_over_the_epoch():
    plan = Schedule.plan(300, megabatch=3, batch_size=20, epochs=3, max_steps=None, evals_per_epoch=2)
    assert plan.megabatch_pairs == 60 and plan.steps_per_epoch == 15 and plan.total_steps == 45
    assert plan.eval_points == {8, 15}  # ceil(15 / 2), 15: the points the trainer's test sees as 8, 15, 23, ...
    assert Schedule.plan(300, 3, 20, 3, max_steps=20, evals_per_epoch=2).total_steps == 20
    assert Schedule.plan(300, 3, 20, 1, None, evals_per_epoch=0).eval_points == frozenset()
    few = Schedule.plan(30, 3, 20, 1, None, evals_per_epoch=10)  # 2 updates: at most one point per update
    assert few.steps_per_epoch == 2 and few.eval_points == {1, 2}


def test_position_round_trips_through_json_and_reports_epoch_progress():
    position = Position(epoch=2, megabatch=3, pairs_done=180, minibatch=1, step=40, epoch_start_step=30)
    text = position.to_json()
    assert list(json.loads(text)) == ["epoch", "megabatch", "pairs_done", "minibatch", "step",
                                                     "epoch_start_step"]
    assert Position.from_json(text) == position
    assert position.epoch_progress(15) == round(2 + 10 / 15, 4) == 2.6667


def test_a_megabatch_ends_after_its_last_minibatch_and_an_epoch_starts_at_the_current_step():
    state = TrainingState(spec=None, encoder=None, optimizer=None, generator=None, n_pairs=129,  # type: ignore
                          history=new_history())
    assert state.best is None and state.history == {"log": [], "evaluations": [], "best": None}
    state.start_megabatch(negatives="mined", n=45)  # type: ignore[arg-type]
    state.position.minibatch, state.position.step = 2, 2
    state.finish_megabatch_if_done(batch_size=20)  # 45 pairs are ceil(45 / 20) = 3 mini-batches: not done
    assert state.position.megabatch == 0 and state.negatives == "mined"
    state.position.minibatch, state.position.step = math.ceil(45 / 20), 3
    state.finish_megabatch_if_done(batch_size=20)
    assert (state.position.megabatch, state.position.pairs_done, state.position.minibatch) == (1, 45, 0)
    assert state.negatives is None and state.megabatch_size == 0
    state.next_epoch()
    assert state.position == Position(epoch=1, megabatch=0, pairs_done=0, minibatch=0, step=3, epoch_start_step=3)
    state.history["best"] = {"score": 0.5}
    assert state.best == {"score": 0.5}
