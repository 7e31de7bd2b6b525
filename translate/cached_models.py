"""The demo model and the small models the tests decode with, trained here on CPU in seconds to a minute (no model
can be downloaded at run time). The default model of a run is not one of these: it is the real small-cs-en shipped
in ``translate/models`` (:data:`translate.card.DEFAULT_MODEL_DIR`).

They are :mod:`translate.train` runs with its ``tiny`` preset (:class:`TinyModelRecipe` is that recipe) on small
data, cached under ``$PARANMT_CACHE`` (default ``~/.cache/paranmt``) keyed by data and recipe. Their output is only
as good as a tiny model on a few thousand sentences can be: real corpora need a real model (docs/translate-models.md:
converting one, or training one with ``paranmt train-nmt``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import shutil
from collections.abc import Sequence
from pathlib import Path

from filelock import FileLock

from translate.train import RUN_FILE, TrainRecipe, train_model

log = logging.getLogger(__name__)

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "configs" / "sample"
RECIPE_VERSION = "2"  # bump when the recipe changes, so cached models are rebuilt

# The tiny preset of translate.train: 2+2 layers of 64, 2,000 BPE merges, 20 epochs, 5% held out.
TinyModelRecipe = TrainRecipe

# Models on real Czech (the first 12,000 Tatoeba pairs): they exercise the real text chain and serve the tests
# ("tiny", 2 layers of 64) and the CPU benchmark ("small", 3 layers of 256, a few times longer to train), where
# a model too small to keep the matrix units busy would measure only per-step overhead. Not useful translators.
TATOEBA_TRAIN_PAIRS = 12000
TATOEBA_RECIPES = {
    "tiny": TinyModelRecipe(bpe_merges=4000, max_epoch=8, max_tokens=2048, warmup_updates=200),
    "small": TinyModelRecipe(bpe_merges=4000, layers=3, embed_dim=256, ffn_dim=1024, heads=4, max_epoch=10,
                             max_tokens=4096, lr=0.002, warmup_updates=200),
}
DEMO_RECIPE = TinyModelRecipe(bpe_merges=1000, max_epoch=60, valid_fraction=0.05)


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
    recipe = recipe or TinyModelRecipe()
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
        if partial.exists() and not (partial / RUN_FILE).is_file():
            shutil.rmtree(partial)  # left by an older version: not a run folder that can be resumed
        log.warning("training the %s model once (cached in %s); this takes about a minute on 2 cores", name, target)
        # an interrupted earlier attempt is resumed (same data and recipe), not restarted
        train_model(source_lines, target_lines, partial, recipe, name=name, device="cpu",
                    data_description=f"{name} ({len(source_lines)} pairs)")
        shutil.rmtree(target, ignore_errors=True)
        partial.rename(target)
    return target


def ensure_demo_model(cache_dir: Path | None = None) -> Path:
    """A tiny model trained on the bundled sample bitext on first use (``--model`` it explicitly; junk on real text)."""
    cs = (SAMPLE_DIR / "sample.cs").read_text(encoding="utf-8").splitlines()
    en = (SAMPLE_DIR / "sample.en").read_text(encoding="utf-8").splitlines()
    return cached_model("demo-tiny-cs-en", cs, en, DEMO_RECIPE, cache_dir)


# A synthetic "toy Czech" -> English language: word-for-word over a fixed lexicon with an adjective-noun order
# swap and sentence-type punctuation. Learnable to near-perfect output by a tiny model in well under a minute,
# so the two backends can be compared on confident, non-degenerate output.
_TOY_NOUNS = {"pes": "dog", "kočka": "cat", "muž": "man", "žena": "woman", "dítě": "child", "auto": "car",
              "dům": "house", "řeka": "river", "strom": "tree", "město": "town", "kniha": "book",
              "loď": "ship", "pták": "bird", "učitel": "teacher", "sestra": "sister", "chléb": "bread"}
_TOY_ADJS = {"velký": "big", "malý": "small", "starý": "old", "nový": "new", "červený": "red",
             "zelený": "green", "rychlý": "fast", "tichý": "quiet", "šťastný": "happy", "bílý": "white"}
_TOY_VERBS = {"vidí": "sees", "má": "has", "hledá": "seeks", "miluje": "loves", "nese": "carries",
              "kreslí": "draws", "potká": "meets", "slyší": "hears"}
_TOY_ADVS = {"dnes": "today", "večer": "tonight", "často": "often", "znovu": "again", "tady": "here"}


def make_toy_corpus(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """``n`` distinct toy pairs, e.g. ``Velký pes vidí červený dům dnes.`` -> ``Dog big sees house red today.``"""
    rng = random.Random(seed)
    nouns, adjs, verbs, advs = (list(d.items()) for d in (_TOY_NOUNS, _TOY_ADJS, _TOY_VERBS, _TOY_ADVS))

    def noun_phrase() -> tuple[list[str], list[str]]:
        noun = rng.choice(nouns)
        if rng.random() < 0.5:
            adj = rng.choice(adjs)
            return [adj[0], noun[0]], [noun[1], adj[1]]  # adjective-noun order swaps
        return [noun[0]], [noun[1]]

    seen: set[str] = set()
    cs_lines: list[str] = []
    en_lines: list[str] = []
    while len(cs_lines) < n:
        cs, en = noun_phrase()
        verb = rng.choice(verbs)
        obj_cs, obj_en = noun_phrase()
        cs, en = [*cs, verb[0], *obj_cs], [*en, verb[1], *obj_en]
        if rng.random() < 0.4:
            adv = rng.choice(advs)
            cs, en = [*cs, adv[0]], [*en, adv[1]]
        if rng.random() < 0.3:
            conj_cs, conj_en = noun_phrase()
            cs, en = [*cs, "a", *conj_cs], [*en, "and", *conj_en]
        mark = "?" if rng.random() < 0.25 else "."
        cs_text = " ".join(cs).capitalize() + mark
        if cs_text in seen:
            continue
        seen.add(cs_text)
        cs_lines.append(cs_text)
        en_lines.append(" ".join(en).capitalize() + mark)
    return cs_lines, en_lines
