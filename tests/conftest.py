"""The suite's session fixtures: the tiny NMT models (trained once, cached on disk), ../shared's Tatoeba bitext,
the sample's run folder, the trainer's Tatoeba pairs and two tiny encoders trained on them, the STS files (hand-made
and real), the tiny static teacher and a static-only run: thin wrappers over tests/support/ (nmt_models.py,
sample_run.py, training_pairs.py, trained_encoders.py, sts_toy.py, static_teacher.py) and the STS loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import nmt_models
from tests.support.sample_run import ReadmeBlockRun, SampleJob, run_readme_python_block, run_sample_command
from tests.support.shared_data import shared_data
from tests.support.sts_toy import write_toy_sts
from tests.support.training_pairs import tatoeba_pairs_parquet


@pytest.fixture(scope="session")
def toy_corpus() -> tuple[list[str], list[str]]:
    return nmt_models.toy_pairs()


@pytest.fixture(scope="session")
def toy_model(toy_corpus) -> Path:
    return nmt_models.toy_model(*toy_corpus)


@pytest.fixture(scope="session")
def tatoeba() -> tuple[list[str], list[str]]:
    return nmt_models.tatoeba_bitext()


@pytest.fixture(scope="session")
def real_model(tatoeba) -> Path:
    return nmt_models.tatoeba_tiny_model()


@pytest.fixture(scope="session")
def real_heldout(tatoeba) -> list[str]:
    return nmt_models.tatoeba_heldout(tatoeba[0])


@pytest.fixture(scope="session")
def sample_job(tmp_path_factory) -> SampleJob:
    """The README's main job run once in the test process: its run folder and what it printed."""
    return run_sample_command(tmp_path_factory.mktemp("runs") / "sample")


@pytest.fixture(scope="session")
def readme_block_run(tmp_path_factory) -> ReadmeBlockRun:
    """The README's Python block run once as written, in a process of its own with the sample's portable kernel."""
    return run_readme_python_block(tmp_path_factory.mktemp("readme-block"))


@pytest.fixture(scope="session")
def sample_run(sample_job) -> Path:
    """The sample's run folder, for tests that only read it (copy it before changing it)."""
    return sample_job.folder


@pytest.fixture(scope="session")
def tatoeba_pairs(tmp_path_factory) -> Path:
    """Real training pairs the trainer's tests share, written once."""
    return tatoeba_pairs_parquet(tmp_path_factory.mktemp("tatoeba-pairs"), n=300)


@pytest.fixture(scope="session")
def word_run(tatoeba_pairs, tmp_path_factory):
    from tests.support import trained_encoders  # torch loads only for the tests that ask for a trained encoder

    return trained_encoders.word_run(tatoeba_pairs, tmp_path_factory.mktemp("word"))


@pytest.fixture(scope="session")
def combined_run(tatoeba_pairs, tmp_path_factory):
    from tests.support import trained_encoders  # torch loads only for the tests that ask for a trained encoder

    return trained_encoders.combined_run(tatoeba_pairs, tmp_path_factory.mktemp("run"))


@pytest.fixture
def toy_root(tmp_path: Path) -> Path:
    """A hand-made STS folder whose every cosine is known (tests/support/sts_toy.py)."""
    return write_toy_sts(tmp_path / "sts")


@pytest.fixture(scope="session")
def real_benchmarks():
    """The real STS 2012–2016 and STS-B files in ../shared/data/sts, loaded once."""
    from train_embeddings.evaluation.sts.datasets import load_benchmarks  # the STS package only where asked

    return load_benchmarks(shared_data("sts"), (2012, 2013, 2014, 2015, 2016), stsb=True)


@pytest.fixture(scope="session")
def tatoeba_129_pairs(tmp_path_factory) -> Path:
    """Two mega-batches of 64 and a lone pair, in two shards."""
    return tatoeba_pairs_parquet(tmp_path_factory.mktemp("tatoeba-pairs"), n=129, shards=2)


@pytest.fixture(scope="session")
def teacher(tmp_path_factory) -> Path:
    """The tiny sentence-transformers teacher (tests/support/static_teacher.py); skips without the extras."""
    from tests.support.static_teacher import PROBE, static_extras, tiny_teacher

    static_extras()
    return tiny_teacher(tmp_path_factory.mktemp("teacher"), PROBE)


@pytest.fixture(scope="session")
def static_run(teacher, tmp_path_factory) -> Path:
    """A static-only model's run folder, trained once for the tests that read it."""
    from tests.support.static_teacher import static_only_run  # torch loads only for the tests that ask for it

    return static_only_run(tmp_path_factory.mktemp("static-only"), teacher)
