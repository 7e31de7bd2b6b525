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

    monkeypatch.setattr(translate.loading, "cuda_device_count", lambda kernel: 0)
    monkeypatch.setattr(translate.loading, "_torch_has_cuda", lambda: False)
    with pytest.raises(BackendUnavailable, match="--device cuda: no CUDA device is visible here"):
        checked_model_id(TranslateConfig(device="cuda"), local=True)
    assert checked_model_id(TranslateConfig(device="cuda"), local=False) == "small-cs-en"
    assert checked_model_id(TranslateConfig(device="auto"), local=True) == "small-cs-en"


def test_a_model_folder_without_ct2_decodes_with_fairseq_and_each_refusal_names_the_fix(toy_model, tmp_path):
    """The card lists both backends; the folder has lost ct2/: fairseq (asked for, or auto) still serves, and
    CTranslate2 is refused in one line naming the fix. Without any complete backend the folder is refused."""
    import shutil

    from translate.card import ModelDir

    folder = tmp_path / "no-ct2"
    shutil.copytree(toy_model, folder)
    card = ModelDir(folder).card
    assert card.ctranslate2 is not None and card.fairseq is not None
    shutil.rmtree(folder / card.ctranslate2)
    model = ModelDir(folder)
    assert model.auto_backend == "fairseq" and model.backend_problem("fairseq") is None
    assert model.backend_problem("ctranslate2") == (
        f"--backend ctranslate2: model directory {folder} lacks ctranslate2 model.bin "
        f"({folder / card.ctranslate2 / 'model.bin'}): restore it, or use --backend fairseq (its files are here)")
    for backend in ("fairseq", "auto"):
        assert checked_model_id(TranslateConfig(model=folder, backend=backend), local=True) == card.name
    with pytest.raises(ModelDirError) as refused:
        checked_model_id(TranslateConfig(model=folder, backend="ctranslate2"), local=True)
    assert str(refused.value) == model.backend_problem("ctranslate2")
    (folder / card.fairseq.checkpoint).unlink()
    with pytest.raises(ModelDirError, match=r"is incomplete; missing: ctranslate2 model\.bin .*, fairseq\.checkpoint "
                                            r".*: restore them, or give --model a complete model directory$"):
        ModelDir(folder)
