"""translate.backend as an import path: a backend of the user's, built by the loader, checked before any work."""

from __future__ import annotations

import pytest

from configs.schema import TranslateConfig
from pipeline.stages.backtranslate import checked_model_id
from translate.card import ModelDir
from translate.ct2_backend import BackendUnavailable
from translate.loading import load_translator
from translate.translator import RawHypothesis, Status


class EchoBackend:
    """Answers every sentence with its own source tokens: the text chain around it is the translator's."""

    name = "echo"

    def __init__(self, model_dir: ModelDir, config: TranslateConfig, device: str) -> None:
        self.device, self.beam = device, config.beam_size

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        return [[RawHypothesis(list(tokens), -0.5)] for tokens in batch]

    def recover(self) -> None:
        """Nothing to free."""


def test_a_backend_of_your_own_decodes_inside_the_translators_text_chain():
    config = TranslateConfig(backend=f"{__name__}:EchoBackend", device="cpu", beam_size=3)
    translator = load_translator(config)
    assert translator.backend.name == "echo" and translator.backend.beam == 3
    (echoed, empty) = translator.translate(["Pes vidí dům.", ""])
    assert (echoed.status, echoed.hypothesis, echoed.score) == (Status.OK, "Pes vidí dům.", -0.5)
    assert empty.status == Status.EMPTY
    assert checked_model_id(config, local=True) == translator.model_id


@pytest.mark.parametrize("path, message", [
    ("nonexistent_pkg.backends:Mine", r"translate.backend: cannot import nonexistent_pkg.backends"),
    (f"{__name__}:Missing", rf"translate.backend: {__name__} has no class Missing"),
])
def test_a_wrong_import_path_is_one_line_before_any_work(path, message):
    config = TranslateConfig(backend=path, device="cpu")
    for attempt in (lambda: load_translator(config), lambda: checked_model_id(config, local=True)):
        with pytest.raises(BackendUnavailable, match=message) as caught:
            attempt()
        assert "\n" not in str(caught.value)
