"""``paranmt train-nmt``'s own part: the preset and ``--recipe`` fields it validates, and the three forms of
training pairs it reads (the training itself is tests/translate/test_train.py's)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from paranmt.cli.train_nmt_command import build_parser, main, read_inputs, recipe_from_args
from tests.support.commands import one_error_line
from tests.support.text_files import write_pair_files
from tests.support.toy_corpus import make_toy_corpus
from translate.train_recipe import PRESETS


@pytest.fixture(scope="module")
def toy_files(tmp_path_factory) -> dict[str, Path]:
    cs, en = make_toy_corpus(60, seed=3)
    cs_file, en_file = write_pair_files(tmp_path_factory.mktemp("toy-bitext"), "train", cs, en)
    return {"cs": cs_file, "en": en_file}


def test_unknown_preset_and_bad_recipe_fields(tmp_path, toy_files, capsys):
    base = ["--cs", str(toy_files["cs"]), "--en", str(toy_files["en"]), "--out", str(tmp_path / "m")]
    err = one_error_line(capsys, main, [*base, "--preset", "huge"])
    assert "--preset 'huge' is unknown" in err and "cpu-small, base, big" in err
    err = one_error_line(capsys, main, [*base, "--recipe", "bpe_merges=-5"])
    assert "recipe field 'bpe_merges'" in err
    err = one_error_line(capsys, main, [*base, "--recipe", "no_such_field=1"])
    assert "recipe field 'no_such_field'" in err
    err = one_error_line(capsys, main, [*base, "--recipe", "layers"])
    assert "FIELD=VALUE" in err
    err = one_error_line(capsys, main, ["--out", str(tmp_path / "m")])
    assert "no training pairs" in err
    err = one_error_line(capsys, main, ["--cs", str(tmp_path / "nope.cs"), "--en", str(toy_files["en"]),
                          "--out", str(tmp_path / "m")])
    assert "nope.cs: no such file" in err


def test_tsv_and_parquet_inputs_read_the_same_pairs(tmp_path, toy_files, capsys):
    cs = toy_files["cs"].read_text(encoding="utf-8").splitlines()
    en = toy_files["en"].read_text(encoding="utf-8").splitlines()
    (tmp_path / "p.tsv").write_text("cs\ten\n" + "".join(f"{a}\t{b}\n" for a, b in zip(cs, en, strict=True)))
    pq.write_table(pa.table({"czech": cs, "english": en}), tmp_path / "p.parquet")
    parser = build_parser()
    from_tsv = read_inputs(parser.parse_args(["--tsv", str(tmp_path / "p.tsv"), "--tsv-header", "--out", "x"]))
    from_parquet = read_inputs(parser.parse_args(["--parquet", str(tmp_path / "p.parquet"), "--cs-column", "czech",
                                                  "--en-column", "english", "--out", "x"]))
    assert from_tsv[:2] == from_parquet[:2] == (cs, en)
    err = one_error_line(capsys, main, ["--parquet", str(tmp_path / "p.parquet"), "--out", str(tmp_path / "m")])
    assert "missing columns ['cs', 'en']" in err
    assert err.rstrip().endswith("set --cs-column/--en-column to the text columns")
    pq.write_table(pa.table({"czech": [1], "english": ["one"]}), tmp_path / "n.parquet")
    err = one_error_line(capsys, main, ["--parquet", str(tmp_path / "n.parquet"), "--cs-column", "czech",
                                        "--en-column", "english", "--out", str(tmp_path / "m")])
    assert "column 'czech' is int64, not a string" in err and not (tmp_path / "m").exists()


def test_budget_flags_and_recipe_fields_override_the_preset():
    args = build_parser().parse_args(["--cs", "a.cs", "--en", "a.en", "--out", "m", "--preset", "tiny",
                                      "--recipe", "bpe_merges=300", "--max-epoch", "7", "--threads", "2"])
    recipe = recipe_from_args(args)
    assert (recipe.bpe_merges, recipe.max_epoch, recipe.threads) == (300, 7, 2)
    untouched = {k: v for k, v in recipe.model_dump().items() if k not in ("bpe_merges", "max_epoch", "threads")}
    assert untouched == {k: v for k, v in PRESETS["tiny"].model_dump().items() if k in untouched}


def test_pair_files_tsv_and_parquet_add_up_in_that_order(tmp_path, toy_files):
    cs = toy_files["cs"].read_text(encoding="utf-8").splitlines()
    en = toy_files["en"].read_text(encoding="utf-8").splitlines()
    (tmp_path / "p.tsv").write_text("".join(f"{b}\t{a}\n" for a, b in zip(cs[:5], en[:5], strict=True)),
                                    encoding="utf-8")
    args = build_parser().parse_args(["--cs", str(toy_files["cs"]), "--en", str(toy_files["en"]),
                                      "--tsv", str(tmp_path / "p.tsv"), "--cs-column", "1", "--en-column", "0",
                                      "--out", "x"])
    assert read_inputs(args) == (cs + cs[:5], en + en[:5], "train.cs,p.tsv")


def test_an_empty_input_is_named(tmp_path, capsys):
    (tmp_path / "empty.tsv").write_text("", encoding="utf-8")
    err = one_error_line(capsys, main, ["--tsv", str(tmp_path / "empty.tsv"), "--out", str(tmp_path / "m")])
    assert "the training input is empty (empty.tsv); give non-empty files" in err
    assert not (tmp_path / "m").exists()
