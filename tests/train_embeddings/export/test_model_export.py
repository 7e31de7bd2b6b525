"""``paranmt export`` (train_embeddings/export/model_export.py) and the corpus as a dataset, on real pipeline output:
the bundled sample's run folder (the suite's ``sample_run``), its four ``train/`` shards loaded by Hugging Face
``datasets.load_dataset("parquet", ...)`` and exported as the released ParaNMT files' TSV
(train_embeddings/training/data.py:parquet_to_tsv), which the trainer's TSV reader reads back."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from paranmt.cli import export_command as export
from paranmt.core.hf_imports import hide_broken_torchaudio
from paranmt.core.pair_schema import PAIRS_SCHEMA
from train_embeddings.training.data import read_tsv_tables


def train_table(run: Path):
    return pq.read_table(sorted((run / "train").glob("*.parquet")))


def test_datasets_load_dataset_reads_the_train_shards(sample_run: Path, tmp_path: Path) -> None:
    hide_broken_torchaudio()  # the fairseq extra's CUDA torchaudio would break the datasets/transformers import
    datasets = pytest.importorskip("datasets", reason="the st extra (datasets) is not installed")
    loaded = datasets.load_dataset("parquet", data_files=str(sample_run / "train" / "*.parquet"), split="train",
                                   cache_dir=str(tmp_path / "hf-cache"))
    assert sorted(p.name for p in (sample_run / "train").glob("*.parquet")) == [f"train-0000{i}-of-00004.parquet"
                                                                              for i in range(4)]
    table = train_table(sample_run)
    assert loaded.num_rows == table.num_rows > 20
    assert loaded.column_names == PAIRS_SCHEMA.names  # the paranmt/core/pair_schema.py contract, in order
    features = loaded.features
    assert features["en_tokens"].feature.dtype == "string" and features["paraphrase_score"].dtype == "float32"
    assert features["reason"].dtype == "string"  # the dictionary-encoded reason arrives as plain strings
    assert set(loaded["reason"]) == {"kept"} and all(loaded["keep"])
    by_id = dict(zip(table["id"].to_pylist(), table["en_tokens"].to_pylist(), strict=True))
    assert all(by_id[row["id"]] == row["en_tokens"] for row in loaded)


@pytest.mark.parametrize("tokenized", [False, True])
def test_paranmt_tsv_export_reads_back(sample_run: Path, tmp_path: Path, tokenized: bool, capsys) -> None:
    out = tmp_path / "paranmt.tsv.gz"
    args = ["--format", "paranmt-tsv", "--input", str(sample_run / "train"), "--out", str(out)]
    assert export.main(args + (["--tokenized"] if tokenized else [])) == 0
    table = train_table(sample_run)
    assert f"wrote {table.num_rows} pairs" in capsys.readouterr().err
    lines = gzip.decompress(out.read_bytes()).decode("utf-8").splitlines()
    assert len(lines) == table.num_rows
    fields = [line.split("\t") for line in lines]
    assert {len(f) for f in fields} == {3}
    if tokenized:
        assert [f[0] for f in fields] == [" ".join(t) for t in table["en_tokens"].to_pylist()]
        assert [f[1] for f in fields] == [" ".join(t) for t in table["mt_tokens"].to_pylist()]
    else:
        assert [f[0] for f in fields] == table["en"].to_pylist()
        assert [f[1] for f in fields] == table["mt"].to_pylist()
    scores = table["paraphrase_score"].to_numpy()
    np.testing.assert_allclose([float(f[2]) for f in fields], scores, rtol=1e-5)
    back = [t for t in read_tsv_tables(str(out))]  # the trainer's reader of the released files
    assert sum(t.num_rows for t in back) == table.num_rows
    np.testing.assert_allclose(np.concatenate([t["paraphrase_score"].to_numpy() for t in back]), scores, rtol=1e-5)


def test_export_errors_are_one_line(tmp_path: Path, capsys) -> None:
    assert export.main(["--format", "paranmt-tsv", "--input", str(tmp_path / "absent"), "--out",
                        str(tmp_path / "x.tsv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "absent" in err and err.count("\n") == 1
    assert export.main(["--format", "sentence-transformers", "--model", str(tmp_path / "nomodel"), "--out",
                        str(tmp_path / "st")]) == 2
    assert capsys.readouterr().err.startswith("error:")
    with pytest.raises(SystemExit):
        export.main(["--format", "paranmt-tsv", "--out", str(tmp_path / "x.tsv")])  # no --input


def test_paranmt_tsv_export_skips_only_keep_false(tmp_path: Path) -> None:
    """An unscored pairs/ (a --no-score run: keep null) used to export as an empty file, exit 0."""
    import pyarrow as pa

    from train_embeddings.training.data import parquet_to_tsv

    pq.write_table(pa.table({"en": ["a", "b", "c"], "mt": ["x", "y", "z"],
                             "paraphrase_score": pa.array([None, 0.5, 0.25], pa.float32()),
                             "keep": pa.array([None, True, False], pa.bool_())}), tmp_path / "pairs.parquet")
    assert parquet_to_tsv(tmp_path / "pairs.parquet", tmp_path / "out.tsv") == 2
    assert (tmp_path / "out.tsv").read_text(encoding="utf-8") == "a\tx\t\nb\ty\t0.5\n"
