"""../shared beside the repository: the data the product reads and the models beside it; a test that needs a part
that is absent skips, except under CI=true, where it fails."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paranmt.core.data_dirs import data_dir
from translate.card import DEFAULT_MODEL_DIR

# The data folder the product reads (paranmt.core.data_dirs: ../shared/data from the repository's root, where the
# suite runs; PARANMT_DATA_DIR points elsewhere, a missing folder shows how a clone without it runs); the models
# beside it (../shared/models).
SHARED_DATA = data_dir()


def shared_path(relative: str) -> Path:
    """A path under ../shared (data, models); skips the test when it is absent, but fails under CI=true."""
    path = SHARED_DATA.parent / relative
    if not path.exists():
        message = f"{path} is absent (../shared is provided beside the repository in development and CI)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def shared_data(relative: str) -> Path:
    """A path under ../shared/data (see :func:`shared_path`)."""
    return shared_path(f"data/{relative}")


def small_cs_en() -> Path:
    """../shared/models/small-cs-en, else the package's own copy of its CTranslate2 model (the same model.bin; no
    fairseq checkpoint)."""
    shared = SHARED_DATA.parent / "models" / "small-cs-en"
    return shared if shared.exists() else DEFAULT_MODEL_DIR
