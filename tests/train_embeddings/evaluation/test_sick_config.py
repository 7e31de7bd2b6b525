"""A SICK head's settings: the defaults the papers give and the checks ``paranmt sick`` relies on."""

from __future__ import annotations

import pytest

from train_embeddings.evaluation.sick_config import TASKS, SickConfig


def test_defaults_are_the_papers_and_validate() -> None:
    config = SickConfig()
    assert (config.hidden, config.batch_size, config.epochs, config.patience) == (50, 25, 30, 5)
    config.validate()
    assert TASKS == ("relatedness", "entailment")


@pytest.mark.parametrize(("field", "value"), [("hidden", 0), ("epochs", 0), ("encode_batch", 0), ("lr", -1e-3),
                                              ("lambda_w", float("nan")), ("encoder_lr", float("inf"))])
def test_a_bad_setting_is_refused_by_name(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        SickConfig(**{field: value}).validate()
