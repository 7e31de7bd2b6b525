"""The STS files as read (train_embeddings/evaluation/sts/datasets.py): the SemEval 2012–2016 layout and release,
STS-B's tab-separated splits, the STS2017 selection, one-line errors naming the file and line; hand-made folders
(tests/support/sts_toy.py) and the real files in ../shared/data/sts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from paranmt.core.correlation import pearson, spearman
from tests.support.sts_toy import ToyEncoder, write, write_sts2016_release
from train_embeddings.evaluation.sts.datasets import (
    StsBenchmarks,
    StsDataMissing,
    StsDataset,
    StsFormatError,
    check_dev_data,
    is_sts2017,
    load_benchmarks,
    load_sts_dataset,
    load_sts_year,
    load_stsb,
    sts2017_dev,
    stsb_without_sts2017,
    year_directory,
)
from train_embeddings.evaluation.sts.evaluator import evaluate_all


def test_load_year_skips_unscored_and_missing_input(toy_root: Path) -> None:
    year = load_sts_year(toy_root / "STS12")
    assert year.year == 2012
    assert list(year) == ["first", "second"]
    assert year.missing_input == ("nogold",)
    second = year["second"]
    assert len(second) == 3 and second.unscored == 1
    assert second.sentences1 == ("a cat sits .",) * 3  # BOM, spaces and CR gone
    assert second.sentences2 == ("a dog sits .", "a cat is sitting .", "zero")  # extra fields ignored
    np.testing.assert_array_equal(second.scores, [2.0, 5.0, 0.0])
    assert year["first"].unique_sentences()[0] == "a cat sits ."
    with pytest.raises(FileNotFoundError, match="STS16"):
        load_sts_year(toy_root / "STS16")


def test_malformed_lines_name_file_and_line(tmp_path: Path) -> None:
    write(tmp_path / "STS.input.x.txt", "a\tb\nno tab here\nc\td\n")
    write(tmp_path / "STS.gs.x.txt", "1\n2\n3\n")
    with pytest.raises(StsFormatError, match=r"STS\.input\.x\.txt:2: .*no tab"):
        load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")
    write(tmp_path / "STS.gs.x.txt", "1\n\n3\n")  # the bad line is unscored: skipped, never parsed
    assert len(load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")) == 2
    write(tmp_path / "STS.gs.x.txt", "1\n\nfive\n")
    with pytest.raises(StsFormatError, match=r"STS\.gs\.x\.txt:3: .*'five'"):
        load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")
    write(tmp_path / "STS.gs.x.txt", "1\n\nnan\n")
    with pytest.raises(StsFormatError, match=r"STS\.gs\.x\.txt:3"):
        load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")
    write(tmp_path / "STS.gs.x.txt", "1\n2\n")
    with pytest.raises(StsFormatError, match=r"has 3 lines but .*has 2"):
        load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")
    write(tmp_path / "STS.input.y.txt", "a\t \n")
    write(tmp_path / "STS.gs.y.txt", "1\n\n\n")  # trailing blank gold lines are fine
    with pytest.raises(StsFormatError, match=r"STS\.input\.y\.txt:1: sentence2 is empty"):
        load_sts_dataset(tmp_path / "STS.input.y.txt", tmp_path / "STS.gs.y.txt")
    write(tmp_path / "bad.csv", "g\tf\t2017\t1\t2.0\tonly six fields\n")
    with pytest.raises(StsFormatError, match=r"bad\.csv:1: expected 7 tab-separated fields"):
        load_stsb(path=tmp_path / "bad.csv")
    write(tmp_path / "bad.csv", "g\tf\t2017\t1\t2.0\ta\tb\ng\tf\t2017\t2\t?\ta\tb\n")
    with pytest.raises(StsFormatError, match=r"bad\.csv:2: .*field 5"):
        load_stsb(path=tmp_path / "bad.csv")
    write(tmp_path / "not-sts" / "readme.txt", "nothing here\n")
    with pytest.raises(StsFormatError, match=r"no STS\.input"):
        load_sts_year(tmp_path / "not-sts")


def test_stsb_parsing_and_sts2017_selection(toy_root: Path) -> None:
    test = load_stsb("test", toy_root)
    assert len(test) == 4
    assert test.sentences1[0] == "a cat sits ."  # trailing space stripped; extra trailing fields ignored
    assert test.sentences2[0] == "a dog sits ."
    assert test.metadata["file"] == ("headlines", "track5.en-en", "headlines", "track5.en-en")
    assert test.metadata["id"][0] == "0004"
    assert test.sentences2[1] == '"nothing at all'
    np.testing.assert_array_equal(test.scores, [2.0, 0.5, 4.5, 3.0])
    dev17 = sts2017_dev(toy_root)
    assert len(dev17) == 4  # 2 from dev, then 2 from test
    assert dev17.metadata["id"] == ("0002", "0003", "0005", "0007")
    clean = stsb_without_sts2017(test)
    assert clean.metadata["id"] == ("0004", "0006")
    with pytest.raises(ValueError, match="split"):
        load_stsb("validation", toy_root)


def test_both_spellings_of_one_sub_dataset_are_refused(tmp_path: Path) -> None:
    write(tmp_path / "STS16" / "STS.input.headlines.txt", "a\tb\n")
    write(tmp_path / "STS16" / "STS2016.input.headlines.txt", "a\tb\n")
    write(tmp_path / "STS16" / "STS.gs.headlines.txt", "1\n")
    with pytest.raises(StsFormatError, match="keep one of them"):
        load_sts_year(tmp_path / "STS16")


def test_sts2016_as_distributed_by_semeval(toy_root: Path, tmp_path: Path) -> None:
    release = write_sts2016_release(tmp_path / "sts2016-english-with-gs-v1.0")
    year = load_sts_year(release, year=2016)
    assert list(year) == ["answer-answer", "headlines"]
    answers = year["answer-answer"]
    assert len(answers) == 3 and answers.unscored == 1
    assert answers.sentences2 == ("a cat is sitting .", "a dog sits .", "nothing at all")  # columns 3-4 are sources
    assert list(answers.scores) == [5.0, 3.0, 0.0] and len(year["headlines"]) == 2
    assert load_sts_year(release).year == 2016  # the year from the release folder's name
    # evaluate finds it: the release folder under the STS root, or anywhere through year_dirs / --year-dir
    (toy_root / "sts2016-english-with-gs-v1.0").symlink_to(release, target_is_directory=True)
    found = evaluate_all(ToyEncoder(), root=toy_root)
    assert 2016 in [y.year for y in found.years] and 2016 not in found.missing_years
    elsewhere = evaluate_all(ToyEncoder(), root=toy_root, years=(2012,), year_dirs={2016: release})
    y16 = elsewhere.year(2016)
    assert y16.dataset("answer-answer").pearson == pytest.approx(pearson([1, 0.6, -0.8], [5, 3, 0]))
    assert y16.dataset("headlines").n == 2
    assert y16.pooled_spearman == pytest.approx(spearman([1, 0.6, -0.8, 0.6, 0], [5, 3, 0, 4.2, 0.4]))
    assert elsewhere.mteb_scores()["STS16"] == y16.pooled_spearman


def test_real_files_load(real_benchmarks: StsBenchmarks) -> None:
    data = real_benchmarks
    assert data.missing_years == (2016,)  # STS16 is not shipped in ../shared/data; handled as absent
    sizes = {y.year: {name: len(d) for name, d in y.items()} for y in data.years}
    assert sizes[2012] == {"MSRpar": 750, "MSRvid": 750, "SMTeuroparl": 459, "surprise.OnWN": 750,
                           "surprise.SMTnews": 399}
    assert sizes[2013] == {"FNWN": 189, "headlines": 750, "OnWN": 561}
    assert data.years[1].missing_input == ("SMT",)  # gold but no input (licence)
    assert sum(sizes[2014].values()) == 3750 and len(sizes[2014]) == 6
    # STS15: 8,500 lines, of which 5,500 have an empty gold line (unscored)
    assert sizes[2015] == {"answers-forums": 375, "answers-students": 750, "belief": 375, "headlines": 750,
                           "images": 750}
    assert sum(d.unscored for d in data.years[3].values()) == 5500
    # 25 sub-datasets in the paper's STS 2012-2016; 19 of them here (STS13 SMT withheld, STS16 absent)
    assert sum(len(y) for y in data.years) == 19


def test_real_sts2017_selection(real_benchmarks: StsBenchmarks) -> None:
    dev17 = real_benchmarks.stsb["sts2017"]
    assert len(dev17) == 250  # the paper's "250-example" STS2017: 125 rows of sts-dev.csv + 125 of sts-test.csv
    assert set(dev17.metadata["file"]) == {"track5.en-en"} and set(dev17.metadata["year"]) == {"2017"}
    assert set(dev17.metadata["genre"]) == {"main-captions"}
    assert len(real_benchmarks.stsb["stsb_dev"]) == 1500
    assert len(real_benchmarks.stsb["stsb_test"]) == 1379  # 284 of its lines carry 2 extra trailing fields
    assert len(real_benchmarks.stsb["stsb_test_no_sts2017"]) == 1254


def test_a_dataset_refuses_columns_of_other_lengths_and_non_finite_gold() -> None:
    with pytest.raises(ValueError, match=r"x: 2 / 1 sentences for 2 scores"):
        StsDataset("x", ("a", "b"), ("c",), np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="finite"):
        StsDataset("x", ("a",), ("b",), np.array([np.inf]))
    with pytest.raises(ValueError, match=r"metadata column 'id' has 1 values for 2 pairs"):
        StsDataset("x", ("a", "b"), ("c", "d"), [1, 2], metadata={"id": ("1",)})


def test_subset_keeps_the_marked_pairs_with_their_metadata(toy_root: Path) -> None:
    test = load_stsb("test", toy_root)
    kept = test.subset([True, False, False, True], "ends")
    assert kept.name == "ends" and len(kept) == 2 and kept.unscored == 0
    assert kept.sentences2 == (test.sentences2[0], test.sentences2[3])
    assert kept.metadata["id"] == ("0004", "0007")
    np.testing.assert_array_equal(kept.scores, [2.0, 3.0])
    with pytest.raises(ValueError, match="mask of shape"):
        test.subset([True], "short")
    with pytest.raises(ValueError, match="no 'file' column"):
        is_sts2017(load_sts_year(toy_root / "STS13")["only"])


def test_unique_sentences_keep_the_order_of_first_appearance(toy_root: Path) -> None:
    first = load_sts_year(toy_root / "STS12")["first"]
    assert first.unique_sentences() == ["a cat sits .", "a cat is sitting .", "the sky is blue .", "a dog sits .",
                                        "nothing at all"]
    data = load_benchmarks(toy_root, (2012, 2013), stsb=True, cache=False)
    every = [s for d in data.datasets() for s in d.sentences1 + d.sentences2]
    assert data.unique_sentences() == sorted(set(every), key=every.index)


def test_a_file_that_is_not_utf8_is_one_error_naming_it(tmp_path: Path) -> None:
    write(tmp_path / "STS.input.x.txt", b"caf\xe9\tcoffee\n")
    write(tmp_path / "STS.gs.x.txt", "1\n")
    with pytest.raises(StsFormatError, match=r"STS\.input\.x\.txt: not UTF-8"):
        load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")
    with pytest.raises(FileNotFoundError, match=r"STS file .*STS\.input\.y\.txt not found"):
        load_sts_dataset(tmp_path / "STS.input.y.txt", tmp_path / "STS.gs.x.txt")


def test_year_directory_prefers_the_short_name_then_the_long_ones(tmp_path: Path) -> None:
    assert year_directory(2014, tmp_path) == tmp_path / "STS14"  # absent: the name the error will show
    (tmp_path / "sts2016-english-with-gs-v1.0").mkdir()
    assert year_directory(2016, tmp_path) == tmp_path / "sts2016-english-with-gs-v1.0"
    (tmp_path / "STS2016").mkdir()
    assert year_directory(2016, tmp_path) == tmp_path / "STS2016"
    (tmp_path / "STS16").mkdir()
    assert year_directory(2016, tmp_path) == tmp_path / "STS16"


def test_absent_years_are_listed_and_absent_folders_named(toy_root: Path, tmp_path: Path) -> None:
    data = load_benchmarks(toy_root, (2013, 2015), stsb=False, cache=False)
    assert [y.year for y in data.years] == [2013] and data.missing_years == (2015,) and dict(data.stsb) == {}
    with pytest.raises(FileNotFoundError, match=r"STS data directory .*absent not found \(set PARANMT_STS_DIR"):
        load_benchmarks(tmp_path / "absent", (2012,), cache=False)
    with pytest.raises(FileNotFoundError, match=r"STS 2016 directory .*nowhere not found"):
        load_benchmarks(toy_root, (), stsb=False, year_dirs={2016: tmp_path / "nowhere"}, cache=False)


def test_the_dev_check_names_the_missing_file_the_variable_and_no_eval(toy_root: Path) -> None:
    assert check_dev_data(toy_root) == toy_root
    (toy_root / "STSB" / "sts-test.csv").unlink()
    with pytest.raises(StsDataMissing) as missing:
        check_dev_data(toy_root)
    line = str(missing.value)
    assert "\n" not in line and str(toy_root / "STSB" / "sts-test.csv") in line
    assert "PARANMT_STS_DIR" in line and "--no-eval" in line
