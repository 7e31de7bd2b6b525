"""paranmt.core.data_dirs: the data folders come from their environment variables, else from ../shared/data of the
folder a command runs in; a missing one is reported in one line naming the folder and the variable."""

from __future__ import annotations

import pytest

from paranmt.core.data_dirs import data_dir, sick_dir, sts_dir, word_counts_file
from train_embeddings.evaluation.sts.datasets import StsDataMissing, check_dev_data

VARIABLES = ("PARANMT_DATA_DIR", "PARANMT_STS_DIR", "PARANMT_SICK_DIR")


@pytest.fixture
def unset(monkeypatch):
    for variable in VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return monkeypatch


def test_unset_the_data_folder_is_shared_data_beside_the_folder_a_command_runs_in(unset, tmp_path):
    (tmp_path / "repo").mkdir()
    unset.chdir(tmp_path / "repo")
    assert data_dir() == tmp_path / "shared" / "data"
    assert (sts_dir(), sick_dir()) == (tmp_path / "shared" / "data" / "sts", tmp_path / "shared" / "data" / "sick")
    assert word_counts_file() == tmp_path / "shared" / "data" / "wordfreq" / "enwiki_vocab_min200.txt"


def test_the_data_folder_moves_every_set_and_each_set_has_its_own_variable(unset, tmp_path):
    unset.setenv("PARANMT_DATA_DIR", str(tmp_path / "data"))
    assert (sts_dir(), sick_dir()) == (tmp_path / "data" / "sts", tmp_path / "data" / "sick")
    unset.setenv("PARANMT_STS_DIR", str(tmp_path / "elsewhere"))
    assert (sts_dir(), sick_dir()) == (tmp_path / "elsewhere", tmp_path / "data" / "sick")
    unset.chdir(tmp_path)
    unset.setenv("PARANMT_SICK_DIR", "sick")  # relative: to the folder the command runs in
    assert sick_dir() == tmp_path / "sick"


def test_run_from_another_folder_the_missing_data_is_one_line_naming_the_folder_and_the_variable(unset, tmp_path):
    unset.chdir(tmp_path)
    with pytest.raises(StsDataMissing) as missing:
        check_dev_data()
    line = str(missing.value)
    assert "\n" not in line and "PARANMT_STS_DIR" in line
    assert str(tmp_path.parent / "shared" / "data" / "sts" / "STSB" / "sts-dev.csv") in line
