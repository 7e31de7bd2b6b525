"""One reader of Parquet inputs: a file, a folder of shards, a pattern; _ and . names never read, stray files
skipped, one schema, a run folder read at the part each command means; and every reader of the project takes the
same files through it."""

from __future__ import annotations

import logging

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs import load_config
from configs.schema import PipelineConfig
from paranmt.cli import folds_command, report_command, score_command, train_nmt_command
from paranmt.core.pair_schema import CS, EN, EN_TOKENS, ID, PARAPHRASE_SCORE, SchemaMismatch
from paranmt.core.parquet_inputs import ParquetInputError, read_parquet_input
from paranmt.core.run_definition import DEFINITION_FILE
from paranmt.core.run_layout import PAIRS, STAGING, TRAIN
from pipeline.analysis.corpus_report import read_pairs
from pipeline.analysis.lexicon.counting import build_from_parquet
from pipeline.inputs.plan import InputSpec, plan_reads
from train_embeddings.training.data import PairSource


def messy_shards(run, folder):
    """The sample run's pairs/ shards copied into ``folder``, with what a shards folder can also hold: a killed
    run's ``_staging/`` (Parquet inside), a hidden partial shard, a ``_SUCCESS`` marker, a stray text file."""
    folder.mkdir()
    shards = sorted((run / PAIRS).glob("*.parquet"))
    for shard in shards:
        (folder / shard.name).write_bytes(shard.read_bytes())
    (folder / STAGING / PAIRS).mkdir(parents=True)
    (folder / STAGING / PAIRS / shards[0].name).write_bytes(shards[0].read_bytes())
    (folder / f".{shards[1].name}.partial").write_bytes(shards[1].read_bytes())
    (folder / "_SUCCESS").write_text("")
    (folder / "notes.txt").write_text("not a shard\n")
    return [str(folder / s.name) for s in shards]


def planned_files(path) -> list[str]:
    """The files ``paranmt run --parquet PATH`` reads (its launcher's plan)."""
    plan = plan_reads([InputSpec.parquet(path, mt="mt")], PipelineConfig())
    return [path for source in plan.sources for path in source["paths"]]


def train_nmt_pairs(path) -> tuple[list[str], list[str]]:
    """The Czech and English sides ``paranmt train-nmt --parquet PATH`` trains on."""
    cs, en, _ = train_nmt_command.read_inputs(train_nmt_command.build_parser().parse_args(
        ["--parquet", str(path), "--out", "unused"]))
    return cs, en


def text_sides(files) -> tuple[list[str], list[str]]:
    table = pq.read_table(files)
    return [x or "" for x in table[CS].to_pylist()], [x or "" for x in table[EN].to_pylist()]


def test_every_reader_takes_the_same_files(sample_run, tmp_path, capsys):
    folder = tmp_path / "shards"
    expected = messy_shards(sample_run, folder)
    rows = pq.read_table(sample_run / PAIRS).num_rows
    for given in (folder, f"{folder}/", f"file://{folder}", f"{folder}/*", f"{folder}/pairs-*.parquet"):
        assert list(read_parquet_input(given).files) == expected, given
    assert PairSource(folder, only_kept=False).files == expected  # paranmt train
    assert train_nmt_pairs(folder) == text_sides(expected)  # paranmt train-nmt --parquet
    assert planned_files(folder) == expected  # paranmt run --parquet
    assert plan_reads([InputSpec.parquet(folder, mt="mt")], PipelineConfig()).expected_rows == rows
    assert read_pairs(folder).num_rows == rows  # paranmt report
    config = load_config("sample").lexicon.model_copy(update={"min_score": None})
    assert build_from_parquet([folder], config, progress=False)[2].read == rows  # paranmt lexicon
    out = tmp_path / "scored.parquet"
    assert score_command.main(["--input", str(folder), "--config", "sample", "--out", str(out), "--quiet"]) == 0
    assert pq.read_table(out)[ID].to_pylist() == pq.read_table(expected)[ID].to_pylist()  # paranmt score
    assert folds_command.main(["--input", str(folder), "--out", str(tmp_path / "folds")]) == 0
    assert f"of {rows:,} pairs" in capsys.readouterr().out  # paranmt folds


def test_an_object_store_url_reads_like_a_folder(sample_run, tmp_path):
    memory = fsspec.filesystem("memory")
    for shard in sorted((sample_run / PAIRS).glob("*.parquet")):
        memory.pipe(f"/runs/x/pairs/{shard.name}", shard.read_bytes())
    memory.pipe("/runs/x/pairs/_staging/pairs/a.parquet", b"half a shard")
    found = read_parquet_input("memory://runs/x/pairs")
    assert [found.name(f) for f in found.files] == [f"memory:///runs/x/pairs/{s.name}"
                                                    for s in sorted((sample_run / PAIRS).glob("*.parquet"))]
    assert found.dataset().to_table().num_rows == found.num_rows == 400


def test_a_run_folder_is_read_at_the_part_each_command_means(sample_run, tmp_path, caplog, capsys):
    assert (sample_run / DEFINITION_FILE).is_file()
    pairs = sorted(str(p) for p in (sample_run / PAIRS).glob("*.parquet"))
    train = sorted(str(p) for p in (sample_run / TRAIN).glob("*.parquet"))
    with caplog.at_level(logging.INFO):
        assert list(read_parquet_input(sample_run, run_part=PAIRS).files) == pairs
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("INFO", f"{sample_run} is a run folder: reading its pairs/")]
    with pytest.raises(ParquetInputError, match=f"{sample_run} is a run folder: give one of its Parquet folders"):
        read_parquet_input(sample_run)  # a reader that names no part
    assert PairSource(sample_run).files == train  # paranmt train: train/, not the translation cache
    assert train_nmt_pairs(sample_run) == text_sides(train)  # paranmt train-nmt: train/ too
    assert planned_files(sample_run) == pairs  # paranmt run --parquet: pairs/
    assert read_pairs(sample_run).num_rows == pq.read_table(pairs).num_rows  # report: pairs/, not scorer.npz
    assert report_command.main(["--input", str(sample_run), "--out", str(tmp_path / "report"),
                                "--max-parse", "0"]) == 0
    # information, shown by a command whose console log starts at WARNING
    assert (f"INFO paranmt.core.parquet_inputs: {sample_run} is a run folder: reading its pairs/\n"
            in capsys.readouterr().err)
    config = load_config("sample").lexicon.model_copy(update={"min_score": None})
    assert build_from_parquet([sample_run], config, progress=False)[2].read == 400  # lexicon: pairs/
    assert read_parquet_input(sample_run / PAIRS).run_folder == str(sample_run)


def test_problems_are_one_line_naming_the_path(tmp_path):
    with pytest.raises(ParquetInputError, match="absent does not exist"):
        read_parquet_input(tmp_path / "absent")
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "readme.txt").write_text("x")
    with pytest.raises(ParquetInputError, match=r"empty holds no Parquet file \(\*\.parquet\)"):
        read_parquet_input(tmp_path / "empty")
    with pytest.raises(ParquetInputError, match="matches no Parquet file"):
        read_parquet_input(tmp_path / "empty" / "*")
    (tmp_path / "two").mkdir()
    pq.write_table(pa.table({ID: ["a"], EN_TOKENS: [["x"]]}), tmp_path / "two" / "a.parquet")
    pq.write_table(pa.table({ID: ["b"]}), tmp_path / "two" / "b.parquet")
    with pytest.raises(ParquetInputError, match=r"b\.parquet has other columns than .*a\.parquet"):
        read_parquet_input(tmp_path / "two")
    (tmp_path / "two" / "b.parquet").write_text("not parquet")
    with pytest.raises(ParquetInputError, match=r"b\.parquet is not a readable Parquet file"):
        read_parquet_input(tmp_path / "two")
    with pytest.raises(SchemaMismatch, match=f"{tmp_path / 'two' / 'a.parquet'}: missing columns"):
        read_parquet_input(tmp_path / "two" / "a.parquet", required=(PARAPHRASE_SCORE,))
