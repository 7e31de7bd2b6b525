"""STS evaluation (train_embeddings/evaluation/sts/, paranmt/cli/evaluate_command.py): loaders, correlations,
protocols, CLI.

Hand-made data checks the arithmetic against correlations computed by hand; the real STS 2012–2015 + STS-B files
(``../shared/data/sts``) check the loaders' counts, the STS2017 selection, and the SIF paper's direction with real
encoders (GloVe 6B 50d average vs SIF). Numbers measured with this code (Pearson × 100; SIF: enwiki p(w), a = 1e-3,
first PC fitted on the distinct evaluation sentences):

    year means (papers' protocol)   GloVe avg 44.1 / 42.2 / 47.1 / 47.3 (mean 45.2)
                                    SIF       52.0 / 54.5 / 64.9 / 64.2 (mean 58.9)
    captions MSRvid 12 / images 14 / images 15:  GloVe 56.1 / 54.1 / 60.0,  SIF 75.5 / 73.2 / 70.8
    pooled Spearman mean            GloVe 45.4, SIF 62.4
    STS-B test (w/o STS2017)        GloVe 33.4 (35.7), SIF 59.8 (61.7);  STS2017 dev: GloVe 29.3, SIF 58.9
"""

from __future__ import annotations

import json
import math
import os
import types
from pathlib import Path

import numpy as np
import pytest

from paranmt.cli import evaluate_command
from paranmt.core.correlation import pearson, spearman
from paranmt.core.text import CachedTokenizer
from tests.support.shared_data import shared_data
from train_embeddings.evaluation import sts
from train_embeddings.models import model_io  # evaluate loads models through it (replaced in the CLI tests)

try:
    from scipy import stats as scipy_stats
except ImportError:  # scipy is not a dependency of the project; the hand-computed values suffice
    scipy_stats = None


# ------------------------------------------------------------------------------------------ hand-made data

# A toy encoder: fixed 2-d vectors, so every cosine is known exactly.
VECTORS = {
    "a cat sits .": [1.0, 0.0],
    "a cat is sitting .": [2.0, 0.0],   # cos 1 with the first
    "the sky is blue .": [0.0, 3.0],    # cos 0 with "a cat sits ."
    "a dog sits .": [0.6, 0.8],         # cos 0.6
    "nothing at all": [-0.8, 0.6],      # cos -0.8
    "zero": [0.0, 0.0],
    '"nothing at all': [-0.8, 0.6],     # a quote is an ordinary character in STS-B (no CSV quoting)
}


class ToyEncoder:
    """Looks sentences up in VECTORS and records every call."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, sentences: list[str]) -> np.ndarray:
        self.calls.append(list(sentences))
        return np.asarray([VECTORS[s] for s in sentences], dtype=np.float32)


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


@pytest.fixture
def toy_root(tmp_path: Path) -> Path:
    """STS12 with three sub-datasets (one without input), STS13 with one, no STS14–16, and a tiny STS-B."""
    root = tmp_path / "sts"
    # 'first': cosines [1, 0, 0.6, -0.8] against gold [4, 1, 3, 0].
    write(root / "STS12" / "STS.input.first.txt",
          "a cat sits .\ta cat is sitting .\n"
          "a cat sits .\tthe sky is blue .\n"
          "a cat sits .\ta dog sits .\n"
          "a cat sits .\tnothing at all\n")
    write(root / "STS12" / "STS.gs.first.txt", "4\n1\n3.0\n0.000\n")
    # 'second': CRLF, stray whitespace, extra fields, unscored lines (one of them not even a pair), BOM.
    write(root / "STS12" / "STS.input.second.txt",
          "\ufeff a cat sits . \t a dog sits .\tsource-a\tsource-b\r\n"
          "this line is unscored and has no tab\r\n"
          "a cat sits .\ta cat is sitting .\r\n"
          "a cat sits .\tzero\r\n\r\n")
    write(root / "STS12" / "STS.gs.second.txt", " 2 \r\n\r\n5\r\n0\r\n\r\n")  # + a trailing blank line
    write(root / "STS12" / "STS.gs.nogold.txt", "1\n2\n")  # gold without input (like STS13 SMT): skipped
    write(root / "STS13" / "STS.input.only.txt", "a cat sits .\ta dog sits .\na cat sits .\tthe sky is blue .\n")
    write(root / "STS13" / "STS.gs.only.txt", "3\n0\n")
    # STS-B: genre, file, year, id, score, sentence1, sentence2 (no header line, no quoting, extra fields)
    write(root / "STSB" / "sts-dev.csv",
          "main-captions\tMSRvid\t2012test\t0001\t5.0\ta cat sits .\ta cat is sitting .\n"
          "main-captions\ttrack5.en-en\t2017\t0002\t1.0\ta cat sits .\tthe sky is blue .\n"
          "main-captions\ttrack5.en-en\t2017\t0003\t4.0\ta cat sits .\ta dog sits .\n")
    write(root / "STSB" / "sts-test.csv",
          "main-news\theadlines\t2016\t0004\t2.0\ta cat sits . \ta dog sits .\tEurope Media Monitor\textra\r\n"
          'main-captions\ttrack5.en-en\t2017\t0005\t0.5\ta cat sits .\t"nothing at all\r\n'
          "main-news\theadlines\t2016\t0006\t4.5\ta cat sits .\ta cat is sitting .\r\n"
          "main-captions\ttrack5.en-en\t2017\t0007\t3.0\ta cat sits .\ta dog sits .\r\n")
    return root


R_FIRST = 4.2 / math.sqrt(18.4)  # by hand: deviations (.8, -.2, .4, -1) and (2, -1, 1, -2)
# Pooled 2012 of the toy data: cosines (1, 0, .6, -.8, .6, 1, 0) vs gold (4, 1, 3, 0, 2, 5, 0); average ranks
# (6.5, 2.5, 4.5, 1, 4.5, 6.5, 2.5) vs (6, 3, 5, 1.5, 4, 7, 1.5), both of mean 4: 25.75 / sqrt(26.5 * 27.5).
RHO_POOLED_2012 = 25.75 / math.sqrt(26.5 * 27.5)


def test_cosine_similarity() -> None:
    a = np.array([[1.0, 0.0], [0.0, 0.0], [3.0, 4.0]])
    b = np.array([[2.0, 0.0], [1.0, 1.0], [-3.0, -4.0]])
    np.testing.assert_allclose(sts.cosine_similarity(a, b), [1.0, 0.0, -1.0])
    with pytest.raises(ValueError):
        sts.cosine_similarity(a, b[:2])


def test_load_year_skips_unscored_and_missing_input(toy_root: Path) -> None:
    year = sts.load_sts_year(toy_root / "STS12")
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
        sts.load_sts_year(toy_root / "STS16")


def test_malformed_lines_name_file_and_line(tmp_path: Path) -> None:
    write(tmp_path / "STS.input.x.txt", "a\tb\nno tab here\nc\td\n")
    write(tmp_path / "STS.gs.x.txt", "1\n2\n3\n")
    with pytest.raises(sts.StsFormatError, match=r"STS\.input\.x\.txt:2: .*no tab"):
        sts.load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")
    write(tmp_path / "STS.gs.x.txt", "1\n\n3\n")  # the bad line is unscored: skipped, never parsed
    assert len(sts.load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")) == 2
    write(tmp_path / "STS.gs.x.txt", "1\n\nfive\n")
    with pytest.raises(sts.StsFormatError, match=r"STS\.gs\.x\.txt:3: .*'five'"):
        sts.load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")
    write(tmp_path / "STS.gs.x.txt", "1\n\nnan\n")
    with pytest.raises(sts.StsFormatError, match=r"STS\.gs\.x\.txt:3"):
        sts.load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")
    write(tmp_path / "STS.gs.x.txt", "1\n2\n")
    with pytest.raises(sts.StsFormatError, match=r"has 3 lines but .*has 2"):
        sts.load_sts_dataset(tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt")
    write(tmp_path / "STS.input.y.txt", "a\t \n")
    write(tmp_path / "STS.gs.y.txt", "1\n\n\n")  # trailing blank gold lines are fine
    with pytest.raises(sts.StsFormatError, match=r"STS\.input\.y\.txt:1: sentence2 is empty"):
        sts.load_sts_dataset(tmp_path / "STS.input.y.txt", tmp_path / "STS.gs.y.txt")
    write(tmp_path / "bad.csv", "g\tf\t2017\t1\t2.0\tonly six fields\n")
    with pytest.raises(sts.StsFormatError, match=r"bad\.csv:1: expected 7 tab-separated fields"):
        sts.load_stsb(path=tmp_path / "bad.csv")
    write(tmp_path / "bad.csv", "g\tf\t2017\t1\t2.0\ta\tb\ng\tf\t2017\t2\t?\ta\tb\n")
    with pytest.raises(sts.StsFormatError, match=r"bad\.csv:2: .*field 5"):
        sts.load_stsb(path=tmp_path / "bad.csv")
    write(tmp_path / "not-sts" / "readme.txt", "nothing here\n")
    with pytest.raises(sts.StsFormatError, match=r"no STS\.input"):
        sts.load_sts_year(tmp_path / "not-sts")


def test_stsb_parsing_and_sts2017_selection(toy_root: Path) -> None:
    test = sts.load_stsb("test", toy_root)
    assert len(test) == 4
    assert test.sentences1[0] == "a cat sits ."  # trailing space stripped; extra trailing fields ignored
    assert test.sentences2[0] == "a dog sits ."
    assert test.metadata["file"] == ("headlines", "track5.en-en", "headlines", "track5.en-en")
    assert test.metadata["id"][0] == "0004"
    assert test.sentences2[1] == '"nothing at all'
    np.testing.assert_array_equal(test.scores, [2.0, 0.5, 4.5, 3.0])
    dev17 = sts.sts2017_dev(toy_root)
    assert len(dev17) == 4  # 2 from dev, then 2 from test
    assert dev17.metadata["id"] == ("0002", "0003", "0005", "0007")
    clean = sts.stsb_without_sts2017(test)
    assert clean.metadata["id"] == ("0004", "0006")
    with pytest.raises(ValueError, match="split"):
        sts.load_stsb("validation", toy_root)


def test_evaluate_all_by_hand(toy_root: Path) -> None:
    encoder = ToyEncoder()
    report = sts.evaluate_all(encoder, root=toy_root, batch_size=2, label="toy")
    assert [y.year for y in report.years] == [2012, 2013]
    assert report.missing_years == (2014, 2015, 2016)
    y12 = report.year(2012)
    first, second = y12.dataset("first"), y12.dataset("second")
    assert first.n == 4 and first.pearson == pytest.approx(R_FIRST) and first.spearman == pytest.approx(1.0)
    # second: cosines (0.6, 1, 0) against (2, 5, 0)
    assert second.n == 3 and second.unscored == 1
    assert second.pearson == pytest.approx(pearson([0.6, 1, 0], [2, 5, 0]))
    assert second.spearman == pytest.approx(1.0)
    assert y12.mean_pearson == pytest.approx((R_FIRST + second.pearson) / 2)
    assert y12.missing_input == ("nogold",)
    # pooled: cosines (1, 0, .6, -.8, .6, 1, 0) against (4, 1, 3, 0, 2, 5, 0)
    pooled_sims, pooled_gold = [1, 0, 0.6, -0.8, 0.6, 1, 0], [4, 1, 3, 0, 2, 5, 0]
    assert y12.pooled_spearman == pytest.approx(spearman(pooled_sims, pooled_gold))
    assert y12.pooled_spearman == pytest.approx(RHO_POOLED_2012)
    y13 = report.year(2013).dataset("only")
    assert y13.n == 2 and y13.pearson == pytest.approx(1.0)
    # STS-B: test cosines (0.6, -0.8, 1, 0.6) vs (2, 0.5, 4.5, 3); without track5: (0.6, 1) vs (2, 4.5)
    assert report.stsb["stsb_test"].pearson == pytest.approx(pearson([0.6, -0.8, 1, 0.6], [2, 0.5, 4.5, 3]))
    assert report.stsb["stsb_test_no_sts2017"].n == 2
    assert report.stsb["stsb_test_no_sts2017"].pearson == pytest.approx(1.0)
    assert report.stsb["sts2017"].n == 4
    # batching: every call at most batch_size sentences, each sentence once per dataset
    assert max(len(call) for call in encoder.calls) <= 2
    # to_dict is JSON-clean; markdown has the paper-style rows
    payload = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert payload["years"]["2012"]["datasets"]["first"]["n"] == 4
    assert payload["missing_years"] == [2014, 2015, 2016]
    text = report.markdown()
    assert f"| 2012 | first | 4 | {100 * R_FIRST:.1f} | 100.0 |" in text
    assert "skipped, no input: nogold" in text and "STS-B test without STS2017 | 2 | 100.0" in text
    table = sts.markdown_comparison({"toy": report, "again": report})
    assert "| 2012 first | 97.9 | 97.9 |" in table


def test_each_sentence_encoded_once_per_dataset(toy_root: Path) -> None:
    dataset = sts.load_sts_year(toy_root / "STS12")["first"]
    encoder = ToyEncoder()
    sims = sts.pair_similarities(encoder, dataset, batch_size=3)
    np.testing.assert_allclose(sims, [1, 0, 0.6, -0.8], atol=1e-6)
    encoded = [s for call in encoder.calls for s in call]
    assert sorted(encoded) == sorted(set(dataset.sentences1 + dataset.sentences2))  # 5 distinct, each once
    assert [len(call) for call in encoder.calls] == [3, 2]


def test_dev_score_reads_only_sts2017(toy_root: Path) -> None:
    encoder = ToyEncoder()
    expected = pearson([0, 0.6, -0.8, 0.6], [1.0, 4.0, 0.5, 3.0])
    assert sts.dev_score(encoder, root=toy_root) == pytest.approx(expected)
    encoded = {s for call in encoder.calls for s in call}
    assert "a cat is sitting ." not in encoded  # only in non-track5 rows


def test_bad_encoder_output(toy_root: Path) -> None:
    dataset = sts.load_sts_year(toy_root / "STS13")["only"]
    with pytest.raises(ValueError, match="shape"):
        sts.pair_similarities(lambda s: np.zeros((len(s) + 1, 3)), dataset)
    with pytest.raises(ValueError, match="non-finite"):
        sts.pair_similarities(lambda s: np.full((len(s), 3), np.nan), dataset)


def test_cli_with_a_saved_model_and_json(toy_root: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    loaded: list[Path] = []

    def load_model(directory):
        loaded.append(Path(directory))
        return types.SimpleNamespace(encode=ToyEncoder())

    monkeypatch.setattr(model_io, "load_model", load_model)
    model_dir = tmp_path / "word-model"
    model_dir.mkdir()
    out = tmp_path / "out" / "sts.json"
    rc = evaluate_command.main(["--model", str(model_dir), "--sts-dir", str(toy_root), "--years", "2012",
                                "--json", str(out)])
    assert rc == 0 and loaded == [model_dir]
    printed = capsys.readouterr().out
    assert "| 2012 | first | 4 |" in printed and "STS-B test without STS2017" in printed
    payload = json.loads(out.read_text())
    assert payload["reports"]["word-model"]["years"]["2012"]["mean_pearson"] == pytest.approx(
        (R_FIRST + pearson([0.6, 1, 0], [2, 5, 0])) / 2)
    assert evaluate_command.main(["--model", str(model_dir), "--sts-dir", str(tmp_path / "absent")]) == 2
    with pytest.raises(SystemExit):
        evaluate_command.main(["--years", "2012"])  # nothing to evaluate


# ------------------------------------------------------------------------------------------ real data


@pytest.fixture(scope="module")
def real_benchmarks() -> sts.StsBenchmarks:
    root = shared_data("sts")
    return sts.load_benchmarks(root, (2012, 2013, 2014, 2015, 2016), stsb=True)


def test_real_files_load(real_benchmarks: sts.StsBenchmarks) -> None:
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


def test_real_sts2017_selection(real_benchmarks: sts.StsBenchmarks) -> None:
    dev17 = real_benchmarks.stsb["sts2017"]
    assert len(dev17) == 250  # the paper's "250-example" STS2017: 125 rows of sts-dev.csv + 125 of sts-test.csv
    assert set(dev17.metadata["file"]) == {"track5.en-en"} and set(dev17.metadata["year"]) == {"2017"}
    assert set(dev17.metadata["genre"]) == {"main-captions"}
    assert len(real_benchmarks.stsb["stsb_dev"]) == 1500
    assert len(real_benchmarks.stsb["stsb_test"]) == 1379  # 284 of its lines carry 2 extra trailing fields
    assert len(real_benchmarks.stsb["stsb_test_no_sts2017"]) == 1254


@pytest.fixture(scope="module")
def baseline_reports(real_benchmarks: sts.StsBenchmarks) -> dict[str, sts.StsReport]:
    from paranmt.core.word_vectors import load_kumo

    vectors = load_kumo()
    tokenizer = CachedTokenizer()
    glove = sts.glove_average_encoder(vectors, tokenizer=tokenizer)
    sif = sts.sif_encoder(real_benchmarks.unique_sentences(), vectors, tokenizer=tokenizer,
                          word_frequencies=shared_data("wordfreq/enwiki_vocab_min200.txt"))
    return {"glove": sts.evaluate_all(glove, data=real_benchmarks, label="GloVe avg"),
            "sif": sts.evaluate_all(sif, data=real_benchmarks, label="SIF GloVe")}
def test_real_sif_beats_glove_average(baseline_reports: dict[str, sts.StsReport]) -> None:
    glove, sif = baseline_reports["glove"], baseline_reports["sif"]
    print(sts.markdown_comparison({"GloVe avg": glove, "SIF": sif}))
    pairs = [(g.pearson, s.pearson) for gy, sy in zip(glove.years, sif.years, strict=True)
             for g, s in zip(gy.datasets, sy.datasets, strict=True)]
    wins = sum(s > g for g, s in pairs)
    assert wins >= 0.75 * len(pairs), f"SIF beats averaging on only {wins} of {len(pairs)} sub-datasets"  # 16 of 19
    for gy, sy in zip(glove.years, sif.years, strict=True):
        assert sy.mean_pearson > gy.mean_pearson + 0.05, gy.year
        assert sy.pooled_spearman > gy.pooled_spearman - 0.01, gy.year  # 2012 pooled: 50.5 vs 50.1
    assert sif.mean_pearson > glove.mean_pearson + 0.10  # 58.9 vs 45.2
    assert sif.mean_pooled_spearman > glove.mean_pooled_spearman + 0.10  # 62.4 vs 45.4
    for key, result in glove.caption_sets().items():
        assert sif.caption_sets()[key].pearson > result.pearson + 0.05, key
    for key in ("sts2017", "stsb_test", "stsb_test_no_sts2017"):
        assert sif.stsb[key].pearson > glove.stsb[key].pearson + 0.15, key
    # The numbers recorded in the module docstring (pinned GloVe 6B 50d, Moses tokens), to 0.5 points.
    assert 100 * glove.mean_pearson == pytest.approx(45.2, abs=0.5)
    assert 100 * sif.mean_pearson == pytest.approx(58.9, abs=0.5)
    assert 100 * glove.stsb["stsb_test"].pearson == pytest.approx(33.4, abs=0.5)
    assert 100 * sif.stsb["stsb_test"].pearson == pytest.approx(59.8, abs=0.5)


def test_real_correlations_match_scipy(real_benchmarks: sts.StsBenchmarks,
                                       baseline_reports: dict[str, sts.StsReport]) -> None:
    if scipy_stats is None:
        pytest.skip("scipy is not installed (the hand-computed checks above still run)")
    from paranmt.core.word_vectors import load_kumo

    dataset = real_benchmarks.years[0]["MSRvid"]
    encoder = sts.glove_average_encoder(load_kumo())
    sims = sts.pair_similarities(encoder, dataset)
    result = baseline_reports["glove"].year(2012).dataset("MSRvid")
    assert result.pearson == pytest.approx(scipy_stats.pearsonr(sims, dataset.scores)[0], abs=1e-9)
    assert result.spearman == pytest.approx(scipy_stats.spearmanr(sims, dataset.scores)[0], abs=1e-9)
    year = real_benchmarks.years[2]
    pooled = np.concatenate([sts.pair_similarities(encoder, d) for d in year.values()])
    gold = np.concatenate([d.scores for d in year.values()])
    expected = scipy_stats.spearmanr(pooled, gold)[0]
    assert baseline_reports["glove"].year(2014).pooled_spearman == pytest.approx(expected, abs=1e-9)


# ------------------------------------------------------------------------------------------ SemEval 2016 release


def sts2016_release(directory: Path) -> Path:
    """A small STS 2016 folder in the format SemEval distributed it (sts2016-english-with-gs-v1.0): four
    tab-separated input columns (sentence1, sentence2, then the source of each sentence), gold files with an
    empty line for every unscored pair. 'answer-answer': cosines (1, 0.6, -0.8) vs gold (5, 3, 0)."""
    write(directory / "STS2016.input.answer-answer.txt",
          "a cat sits .\ta cat is sitting .\tanswers.stackexchange.com/q/1\tanswers.stackexchange.com/q/2\n"
          "a cat sits .\tthe sky is blue .\tanswers.stackexchange.com/q/3\tanswers.stackexchange.com/q/4\n"
          "a cat sits .\ta dog sits .\tanswers.stackexchange.com/q/5\tanswers.stackexchange.com/q/6\n"
          "a cat sits .\tnothing at all\tanswers.stackexchange.com/q/7\tanswers.stackexchange.com/q/8\n")
    write(directory / "STS2016.gs.answer-answer.txt", "5\n\n3\n0\n")  # the second pair is unscored
    write(directory / "STS2016.input.headlines.txt",
          "a dog sits .\ta cat sits .\tEurope Media Monitor\tEurope Media Monitor\n"
          "the sky is blue .\ta cat sits .\tEurope Media Monitor\tEurope Media Monitor\n"
          "zero\ta cat sits .\tEurope Media Monitor\tEurope Media Monitor\n")
    write(directory / "STS2016.gs.headlines.txt", "4.2\n0.4\n\n")
    write(directory / "LICENSE.txt", "not an STS file\n")
    return directory


def test_sts2016_as_distributed_by_semeval(toy_root: Path, tmp_path: Path) -> None:
    release = sts2016_release(tmp_path / "sts2016-english-with-gs-v1.0")
    year = sts.load_sts_year(release, year=2016)
    assert list(year) == ["answer-answer", "headlines"]
    answers = year["answer-answer"]
    assert len(answers) == 3 and answers.unscored == 1
    assert answers.sentences2 == ("a cat is sitting .", "a dog sits .", "nothing at all")  # columns 3-4 are sources
    assert list(answers.scores) == [5.0, 3.0, 0.0] and len(year["headlines"]) == 2
    assert sts.load_sts_year(release).year == 2016  # the year from the release folder's name
    # evaluate finds it: the release folder under the STS root, or anywhere through year_dirs / --year-dir
    (toy_root / "sts2016-english-with-gs-v1.0").symlink_to(release, target_is_directory=True)
    found = sts.evaluate_all(ToyEncoder(), root=toy_root)
    assert 2016 in [y.year for y in found.years] and 2016 not in found.missing_years
    elsewhere = sts.evaluate_all(ToyEncoder(), root=toy_root, years=(2012,), year_dirs={2016: release})
    y16 = elsewhere.year(2016)
    assert y16.dataset("answer-answer").pearson == pytest.approx(pearson([1, 0.6, -0.8], [5, 3, 0]))
    assert y16.dataset("headlines").n == 2
    assert y16.pooled_spearman == pytest.approx(spearman([1, 0.6, -0.8, 0.6, 0], [5, 3, 0, 4.2, 0.4]))
    assert elsewhere.mteb_scores()["STS16"] == y16.pooled_spearman


def test_cli_reads_the_2016_release(toy_root: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    release = sts2016_release(tmp_path / "release")
    monkeypatch.setattr(model_io, "load_model", lambda directory: types.SimpleNamespace(encode=ToyEncoder()))
    (tmp_path / "m").mkdir()
    assert evaluate_command.main(["--model", str(tmp_path / "m"), "--sts-dir", str(toy_root), "--years", "2012",
                     "--year-dir", f"2016={release}"]) == 0
    printed = capsys.readouterr().out
    assert "| 2016 | answer-answer | 3 |" in printed and "MTEB STS16: Spearman" in printed
    with pytest.raises(SystemExit):
        evaluate_command.main(["--model", str(tmp_path / "m"), "--year-dir", "2016"])  # not YEAR=DIR


def test_both_spellings_of_one_sub_dataset_are_refused(tmp_path: Path) -> None:
    write(tmp_path / "STS16" / "STS.input.headlines.txt", "a\tb\n")
    write(tmp_path / "STS16" / "STS2016.input.headlines.txt", "a\tb\n")
    write(tmp_path / "STS16" / "STS.gs.headlines.txt", "1\n")
    with pytest.raises(sts.StsFormatError, match="keep one of them"):
        sts.load_sts_year(tmp_path / "STS16")


def test_mteb_and_papers_protocols_in_one_table(toy_root: Path) -> None:
    report = sts.evaluate_all(ToyEncoder(), root=toy_root, label="toy")
    mteb = report.mteb_scores()
    assert mteb["STS12"] == pytest.approx(RHO_POOLED_2012)  # pooled Spearman of the year
    assert mteb["STSBenchmark"] == pytest.approx(spearman([0.6, -0.8, 1, 0.6], [2, 0.5, 4.5, 3]))
    assert "STS14" not in mteb  # absent years are not scored as zero
    assert mteb["mean"] == pytest.approx(np.mean([mteb["STS12"], mteb["STS13"], mteb["STSBenchmark"]]))
    assert json.loads(json.dumps(report.to_dict()))["mteb"]["STS12"] == pytest.approx(RHO_POOLED_2012)
    table = sts.markdown_protocols({"toy": report, "again": report}, {"toy": 1234.4})
    lines = table.splitlines()
    assert lines[0] == "| × 100 | toy | again |"
    assert f"| MTEB STS12: Spearman | {100 * RHO_POOLED_2012:.1f} | {100 * RHO_POOLED_2012:.1f} |" in lines
    mean_pearson_2012 = 100 * report.year(2012).mean_pearson
    assert f"| papers STS12: mean Pearson of sub-datasets | {mean_pearson_2012:.1f} | {mean_pearson_2012:.1f} |" \
        in lines
    assert "| sentences/s (1 CPU thread) | 1,234 | – |" in lines


def test_sentences_per_second_times_one_cold_pass_with_the_pools_pinned() -> None:
    import torch

    calls: list[tuple[int, int, str | None]] = []

    def encode(sentences: list[str]) -> np.ndarray:
        calls.append((len(sentences), torch.get_num_threads(), os.environ.get("TOKENIZERS_PARALLELISM")))
        return np.zeros((len(sentences), 2))

    rate = sts.sentences_per_second(encode, [f"s{i}" for i in range(600)], batch_size=256, warmup=64)
    assert rate > 0 and calls == [(64, 1, "false"), (256, 1, "false"), (256, 1, "false"), (24, 1, "false")]
    with pytest.raises(ValueError, match="more than 64"):
        sts.sentences_per_second(encode, ["a"] * 10)


def test_cli_speed_times_unseen_sentences(toy_root: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    encoder = ToyEncoder()
    monkeypatch.setattr(model_io, "load_model", lambda directory: types.SimpleNamespace(encode=encoder))
    (tmp_path / "m").mkdir()
    lines = write(tmp_path / "timing.txt", "".join(f"unseen {i}\n" for i in range(80)) + "\n")
    for i in range(80):
        monkeypatch.setitem(VECTORS, f"unseen {i}", [1.0, float(i)])
    out = tmp_path / "r.json"
    assert evaluate_command.main(["--model", str(tmp_path / "m"), "--sts-dir", str(toy_root), "--speed", "10",
                     "--speed-file", str(lines), "--json", str(out)]) == 0
    timed = [s for call in encoder.calls for s in call if s.startswith("unseen")]
    assert timed == [f"unseen {i}" for i in range(74)]  # 64 to warm up, then the 10 timed
    assert "| sentences/s (1 CPU thread) |" in capsys.readouterr().out
    assert json.loads(out.read_text())["sentences_per_second"]["m"] > 0
    assert evaluate_command.main(["--model", str(tmp_path / "m"), "--sts-dir", str(toy_root), "--speed", "100",
                     "--speed-file", str(lines)]) == 2  # not enough sentences: one error line
    assert "only 80 unseen sentences" in capsys.readouterr().err
