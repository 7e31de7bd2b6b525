"""Small cs-en models trained here on CPU in seconds to a minute and cached (no model can be downloaded at run
time): the decoders of the CPU translation benchmark (``benchmarks/translate/translate_bench.py``) and of the tests. The
default model of a run is not one of these: it is the real small-cs-en shipped in ``translate/models``
(:data:`translate.card.DEFAULT_MODEL_DIR`).

They are :mod:`translate.train` runs with its ``tiny`` preset (the defaults of
:class:`~translate.train_recipe.TrainRecipe`) on small data, cached under ``$PARANMT_CACHE`` (default
``~/.cache/paranmt``) keyed by data and recipe. Their output
is only as good as a small model on a few thousand sentences can be: real corpora need a real model
(docs/translate-models.md: converting one, or training one with ``paranmt train-nmt``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from filelock import FileLock

from paranmt.core.run_definition import DEFINITION_FILE
from translate.train import train_model
from translate.train_recipe import TrainRecipe

log = logging.getLogger(__name__)

RECIPE_VERSION = "2"  # bump when the recipe changes, so cached models are rebuilt

# Models on real Czech (the first 12,000 Tatoeba pairs): they exercise the real text chain and serve the tests
# ("tiny", 2 layers of 64) and the CPU benchmark ("small", 3 layers of 256, a few times longer to train), where
# a model too small to keep the matrix units busy would measure only per-step overhead. Not useful translators.
TATOEBA_TRAIN_PAIRS = 12000
TATOEBA_RECIPES = {
    "tiny": TrainRecipe(bpe_merges=4000, max_epoch=8, max_tokens=2048, warmup_updates=200),
    "small": TrainRecipe(bpe_merges=4000, layers=3, embed_dim=256, ffn_dim=1024, heads=4, max_epoch=10,
                             max_tokens=4096, lr=0.002, warmup_updates=200),
}


def tatoeba_model(bitext_dir: Path, size: str = "tiny", cache_dir: Path | None = None) -> Path:
    """A Tatoeba model (``size`` in :data:`TATOEBA_RECIPES`), trained once from ``bitext_dir/tatoeba.{cs,en}``."""
    cs = (bitext_dir / "tatoeba.cs").read_text(encoding="utf-8").splitlines()[:TATOEBA_TRAIN_PAIRS]
    en = (bitext_dir / "tatoeba.en").read_text(encoding="utf-8").splitlines()[:TATOEBA_TRAIN_PAIRS]
    return cached_model(f"tatoeba-{size}-cs-en", cs, en, TATOEBA_RECIPES[size], cache_dir)


def default_cache_dir() -> Path:
    return Path(os.environ.get("PARANMT_CACHE", Path.home() / ".cache" / "paranmt")).expanduser()


def cached_model(
    name: str, source_lines: Sequence[str], target_lines: Sequence[str],
    recipe: TrainRecipe | None = None, cache_dir: Path | None = None,
) -> Path:
    """Train once with :func:`translate.train.train_model`, then reuse: the model lives under the cache directory
    keyed by data + recipe, guarded by a file lock so parallel test workers or runs train it only once."""
    recipe = recipe or TrainRecipe()
    digest = hashlib.sha256()
    for part in (RECIPE_VERSION, name, json.dumps(recipe.model_dump(), sort_keys=True)):
        digest.update(part.encode())
    for line in (*source_lines, "\x00", *target_lines):
        digest.update(line.encode("utf-8", "surrogateescape") + b"\n")
    root = (cache_dir or default_cache_dir()) / "models"
    root.mkdir(parents=True, exist_ok=True)
    target = root / f"{name}-{digest.hexdigest()[:12]}"
    with FileLock(str(target) + ".lock"):
        if (target / "model_card.yaml").is_file():
            return target
        partial = target.with_name(target.name + ".partial")
        if partial.exists() and not (partial / DEFINITION_FILE).is_file():
            shutil.rmtree(partial)  # left by an older version: not a run folder that can be resumed
        log.warning("training the %s model once (cached in %s); this takes about a minute on 2 cores", name, target)
        # an interrupted earlier attempt is resumed (same data and recipe), not restarted
        train_model(source_lines, target_lines, partial, recipe, name=name, device="cpu",
                    data_description=f"{name} ({len(source_lines)} pairs)")
        shutil.rmtree(target, ignore_errors=True)
        partial.rename(target)
    return target
