"""Shared fixtures: the tiny NMT models (trained once, cached on disk behind a file lock) and ../shared data."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

from paranmt.core.data_dirs import data_dir
from tests.support.toy_corpus import make_toy_corpus
from translate.cached_models import TATOEBA_TRAIN_PAIRS, cached_model, tatoeba_model
from translate.card import DEFAULT_MODEL_DIR
from translate.train_recipe import TrainRecipe

REPO_ROOT = Path(__file__).resolve().parent.parent
# The data folder the product reads (paranmt.core.data_dirs: ../shared/data from the repository's root, where the
# suite runs; PARANMT_DATA_DIR points elsewhere, a missing folder shows how a clone without it runs); the models
# beside it (../shared/models).
SHARED_DATA = data_dir()
# Licensed excerpts of a few ../shared/data files (tests/data/shared-taste/README.md): enough for a test that reads
# only their first lines, so it runs on any clone.
TASTE_DATA = REPO_ROOT / "tests" / "data" / "shared-taste" / "data"
# Made from those excerpts (same README): tatoeba.mt.en, the default model's translation of the bundled tatoeba.cs.
TASTE_GENERATED = TASTE_DATA.parent / "generated"

# The toy language: 3,000 training pairs, held-out pairs come from the same generator after them.
TOY_TRAIN_PAIRS = 3000
TOY_RECIPE = TrainRecipe(bpe_merges=300, max_epoch=12, max_tokens=1024, warmup_updates=100)


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


def taste_data(relative: str, lines: int) -> Path:
    """A file under ../shared/data of which the test reads only the first ``lines`` lines: the file itself, else
    its bundled excerpt (:data:`TASTE_DATA`, the same first lines) when that holds as many; else a skip."""
    full = SHARED_DATA / relative
    taste = TASTE_DATA / relative
    if not full.exists() and taste.is_file() and len(read_lines(taste)) >= lines:
        return taste
    return shared_data(relative)


# Real paraphrase pairs the way ParaNMT makes them, the same on every clone: line i of the bundled Tatoeba excerpt
# (tatoeba.cs / tatoeba.en) and the default model's translation of its Czech sentence (tatoeba.mt.en).
TASTE_PAIRS = 2000


def taste_pairs(n: int) -> tuple[list[str], list[str], list[str]]:
    """The first ``n`` (at most :data:`TASTE_PAIRS`) bundled back-translation triples as ``(cs, en, mt)`` lists."""
    if n > TASTE_PAIRS:
        raise ValueError(f"the bundled pairs are {TASTE_PAIRS}, not {n}")
    cs, en = read_lines(TASTE_DATA / "bitext" / "tatoeba.cs"), read_lines(TASTE_DATA / "bitext" / "tatoeba.en")
    mt = read_lines(TASTE_GENERATED / "tatoeba.mt.en")
    assert len(cs) == len(en) == len(mt) == TASTE_PAIRS
    return cs[:n], en[:n], mt[:n]


def write_sts_dir(root: Path) -> Path:
    """A small folder in the STS layout the evaluation reads (``STS13/STS.input|gs.tatoeba.txt``, ``STSB/sts-{train,
    dev,test}.csv``, the first 125 rows of dev and test marked ``track5.en-en``: the STS2017 selection), made of
    the bundled pairs (:func:`taste_pairs`), for tests that exercise reading and scoring, not published numbers.
    Every other pair is a real pair, the rest an English sentence with another pair's translation; the gold score
    is 5 x the Jaccard overlap of the two sentences' lower-cased word sets (made here, not human judgements).
    Pairs whose translation equals the sentence are left out: their cosine 1 ties, as STS pairs' do not."""
    _, en, mt = taste_pairs(TASTE_PAIRS)
    usable = [i for i in range(TASTE_PAIRS) if en[i] != mt[i]]

    def rows(start: int, stop: int) -> list[tuple[str, str, float]]:
        out = []
        for k in range(start, stop):
            i, j = usable[k], usable[(k + 7) % len(usable)]
            first, second = en[i], mt[i] if k % 2 == 0 else mt[j]
            a, b = set(first.lower().split()), set(second.lower().split())
            out.append((first, second, round(5 * len(a & b) / len(a | b), 3)))
        return out

    (root / "STS13").mkdir(parents=True)
    sts13 = rows(750, 1050)
    (root / "STS13" / "STS.input.tatoeba.txt").write_text("".join(f"{a}\t{b}\n" for a, b, _ in sts13), "utf-8")
    (root / "STS13" / "STS.gs.tatoeba.txt").write_text("".join(f"{g}\n" for _, _, g in sts13), "utf-8")
    (root / "STSB").mkdir()
    for split, start in (("train", 0), ("dev", 250), ("test", 500)):
        lines = [f"tatoeba\t{'track5.en-en' if split != 'train' and k < 125 else 'tatoeba'}\t2017\t{k:04d}\t{g}\t{a}"
                 f"\t{b}\n" for k, (a, b, g) in enumerate(rows(start, start + 250))]
        (root / "STSB" / f"sts-{split}.csv").write_text("".join(lines), "utf-8")
    return root


def small_cs_en() -> Path:
    """../shared/models/small-cs-en, else the package's own copy of its CTranslate2 model (the same model.bin; no
    fairseq checkpoint)."""
    shared = SHARED_DATA.parent / "models" / "small-cs-en"
    return shared if shared.exists() else DEFAULT_MODEL_DIR


def load_benchmark(name: str) -> ModuleType:
    """The benchmark script ``benchmarks/<name>.py`` (``name`` is ``group/script``), imported as the module
    ``python -m benchmarks.group.script`` runs, so tests can call its ``main``."""
    return importlib.import_module("benchmarks." + name.replace("/", "."))


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="session")
def toy_corpus() -> tuple[list[str], list[str]]:
    """3,500 toy pairs: the first 3,000 train the toy model, the last 500 are held out."""
    return make_toy_corpus(TOY_TRAIN_PAIRS + 500, seed=0)


@pytest.fixture(scope="session")
def toy_model(toy_corpus) -> Path:
    cs, en = toy_corpus
    return cached_model("toy-cs-en", cs[:TOY_TRAIN_PAIRS], en[:TOY_TRAIN_PAIRS], TOY_RECIPE)


@pytest.fixture(scope="session")
def tatoeba() -> tuple[list[str], list[str]]:
    cs, en = read_lines(shared_data("bitext/tatoeba.cs")), read_lines(shared_data("bitext/tatoeba.en"))
    assert len(cs) == len(en)
    return cs, en


@pytest.fixture(scope="session")
def real_model(tatoeba) -> Path:
    return tatoeba_model(SHARED_DATA / "bitext", "tiny")


@pytest.fixture(scope="session")
def real_heldout(tatoeba) -> list[str]:
    """Real Czech sentences the real model never saw."""
    return tatoeba[0][TATOEBA_TRAIN_PAIRS:]
