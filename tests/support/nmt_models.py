"""The tests' tiny NMT models and the pairs they learn from: a toy model on the toy language (tests/support/
toy_corpus.py) and a tiny model on real Tatoeba Czech, each trained once and cached on disk behind a file lock
(translate.cached_models)."""

from __future__ import annotations

from pathlib import Path

from tests.support.shared_data import shared_data
from tests.support.text_files import read_lines
from tests.support.toy_corpus import make_toy_corpus
from translate.cached_models import TATOEBA_TRAIN_PAIRS, cached_model, tatoeba_model
from translate.train_recipe import TrainRecipe

# The toy language: 3,000 training pairs, held-out pairs come from the same generator after them. 8 epochs after a
# 50-update warm-up: validation perplexity ~1.02, the confident model the backend comparisons ask for.
TOY_TRAIN_PAIRS = 3000
TOY_HELD_OUT_PAIRS = 500
TOY_RECIPE = TrainRecipe(bpe_merges=300, max_epoch=8, max_tokens=1024, warmup_updates=50)


def toy_pairs() -> tuple[list[str], list[str]]:
    """3,500 toy pairs: the first 3,000 train the toy model, the last 500 are held out."""
    return make_toy_corpus(TOY_TRAIN_PAIRS + TOY_HELD_OUT_PAIRS, seed=0)


def toy_model(cs: list[str], en: list[str]) -> Path:
    """The toy model, trained on the first :data:`TOY_TRAIN_PAIRS` of the toy pairs."""
    return cached_model("toy-cs-en", cs[:TOY_TRAIN_PAIRS], en[:TOY_TRAIN_PAIRS], TOY_RECIPE)


def tatoeba_bitext() -> tuple[list[str], list[str]]:
    """The whole Tatoeba bitext of ../shared/data, Czech and English lines."""
    cs, en = read_lines(shared_data("bitext/tatoeba.cs")), read_lines(shared_data("bitext/tatoeba.en"))
    assert len(cs) == len(en)
    return cs, en


def tatoeba_tiny_model() -> Path:
    """The tiny model trained on the first :data:`TATOEBA_TRAIN_PAIRS` Tatoeba pairs."""
    return tatoeba_model(shared_data("bitext"), "tiny")


def tatoeba_heldout(cs: list[str]) -> list[str]:
    """Real Czech sentences the tiny Tatoeba model never saw."""
    return cs[TATOEBA_TRAIN_PAIRS:]
