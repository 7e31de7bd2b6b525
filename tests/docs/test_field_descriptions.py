"""Every setting a user can give is described where it is defined: each field of the run configuration
(``configs/schema.py``, whose descriptions are the flags' help and the YAML keys' documentation) and each field of
``train-nmt``'s recipe (``translate/train_recipe.py``'s ``TrainRecipe``, set with ``--set field=value``). A section
of the configuration is described by its class's docstring."""

from __future__ import annotations

import inspect
import typing

import pytest
from pydantic import BaseModel

from configs.schema import ParaNMTConfig
from translate.train_recipe import TrainRecipe


def _models(annotation: object) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds (``ScoreBounds`` in ``dict[Criterion, ScoreBounds]``, say)."""
    if inspect.isclass(annotation) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for argument in typing.get_args(annotation) for model in _models(argument)]


def _fields(model: type[BaseModel], prefix: str = "") -> list[tuple[str, type[BaseModel] | None, str | None]]:
    """``(dotted name, the model it holds or None, description)`` for every field under ``model``."""
    out = []
    for name, field in model.model_fields.items():
        nested = _models(field.annotation)
        out.append((prefix + name, nested[0] if nested else None, field.description))
        for inner in nested:
            out += _fields(inner, f"{prefix}{name}.")
    return out


CONFIG_FIELDS = _fields(ParaNMTConfig)


def test_the_walk_reaches_every_section_and_nested_model() -> None:
    names = {name for name, _, _ in CONFIG_FIELDS}
    assert {"pipeline.compression", "train.lowercase", "lexicon.rank_by", "select.score_ranges.min"} <= names
    assert len(names) > 140


@pytest.mark.parametrize(("name", "section", "description"), CONFIG_FIELDS, ids=[f[0] for f in CONFIG_FIELDS])
def test_each_config_field_is_described(name: str, section: type[BaseModel] | None, description: str | None) -> None:
    if section is not None and not description:
        assert (section.__doc__ or "").strip(), f"{name}: the section's class {section.__name__} has no docstring"
    else:
        assert description and description.strip(), f"configs/schema.py: {name} has no description"


@pytest.mark.parametrize("name", list(TrainRecipe.model_fields))
def test_each_train_recipe_field_is_described(name: str) -> None:
    description = TrainRecipe.model_fields[name].description
    assert description and description.strip(), f"translate/train_recipe.py: TrainRecipe.{name} has no description"
