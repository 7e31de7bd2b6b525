"""The bundled default model (translate/models/small-cs-en): a valid CTranslate2-only model directory within the
size budget, with its card, shipped by the package data, and chosen when no model is given."""

from __future__ import annotations

import fnmatch
import tomllib

import pytest

from configs.schema import TranslateConfig
from pipeline.stages.backtranslate import checked_model_id
from tests.support.repo import REPO_ROOT
from translate.card import DEFAULT_MODEL_DIR, ModelDir, ModelDirError, model_or_default


def test_the_default_model_is_a_small_ct2_model_with_its_card():
    model = ModelDir(DEFAULT_MODEL_DIR)
    files = [p for p in DEFAULT_MODEL_DIR.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) <= 15_000_000
    card = model.card
    assert card.name == "small-cs-en" and card.ctranslate2 == "ct2" and card.fairseq is None
    assert card.preprocess.bpe_codes == "bpe.codes" and card.preprocess.tokenize == "moses"
    for key in ("valid_perplexity", "bleu_multi30k_test2016", "bleu_newstest2016", "bleu_multi30k_val",
                "chrf_multi30k_val", "bleu_newstest2015", "chrf_newstest2015"):
        assert key in card.metrics, key
    assert {"recipe", "data", "updates", "converted_from"} <= set(card.provenance)


def test_the_package_data_ships_every_file_of_the_default_model():
    """An installed (non-editable) paranmt must find it: every file matches a package-data pattern."""
    patterns = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    package = REPO_ROOT / "translate"
    for path in DEFAULT_MODEL_DIR.rglob("*"):
        if path.is_file():
            relative = path.relative_to(package).as_posix()
            assert any(fnmatch.fnmatch(relative, p) and relative.count("/") == p.count("/")
                       for p in patterns["translate"]), relative


def test_no_model_means_the_default_model():
    assert model_or_default(None) == DEFAULT_MODEL_DIR
    assert checked_model_id(TranslateConfig(), local=True) == "small-cs-en"  # ready for the CTranslate2 backend
    with pytest.raises(ModelDirError, match="names no fairseq checkpoint"):
        checked_model_id(TranslateConfig(backend="fairseq"), local=True)


def test_cuda_where_there_is_none_fails_on_the_launcher(monkeypatch):
    """``--device cuda`` on a machine without a GPU failed inside the job, after the claim, with CTranslate2's
    hint about cuBLAS; a remote runner's workers may have the GPU, so only a local run is checked."""
    import translate.loading
    from translate.ct2_backend import BackendUnavailable

    monkeypatch.setattr(translate.loading, "cuda_device_count", lambda: 0)
    monkeypatch.setattr(translate.loading, "_torch_has_cuda", lambda: False)
    with pytest.raises(BackendUnavailable, match="--device cuda: no CUDA device is visible here"):
        checked_model_id(TranslateConfig(device="cuda"), local=True)
    assert checked_model_id(TranslateConfig(device="cuda"), local=False) == "small-cs-en"
    assert checked_model_id(TranslateConfig(device="auto"), local=True) == "small-cs-en"
