"""The NMT training recipe: its presets and which of its fields define a run."""

from __future__ import annotations

from paranmt.core.run_definition import changed_keys, run_definition
from translate.train_recipe import PRESETS, TrainRecipe


def test_recipe_budget_fields_do_not_change_a_runs_definition():
    recipe = PRESETS["cpu-small"]
    assert run_definition(recipe) == run_definition(recipe.model_copy(update={"max_hours": 1.0, "max_update": 10}))
    assert changed_keys(run_definition(recipe), run_definition(recipe.model_copy(update={"lr": 0.001}))) == [
        "lr 0.002 -> 0.001"]
    assert TrainRecipe() == PRESETS["tiny"]
