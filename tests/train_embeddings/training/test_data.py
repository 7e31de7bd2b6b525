"""Streaming training pairs: Parquet files / directories / globs / fsspec URLs, pushed-down filters, the seeded
cross-shard shuffle, groups, released-ParaNMT TSV, and clear errors for bad data."""

from __future__ import annotations

import gzip

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.support.training_pairs import pairs_table, tatoeba_pairs_parquet
from train_embeddings.training.data import PairSource, TrainDataError, tsv_to_parquet


def toy_shards(directory, n=250, shards=5, **extra_columns):
    """Pairs whose tokens name their row ("s17" / "p17"), written as ``shards`` files in document order."""
    directory.mkdir(parents=True, exist_ok=True)
    rows = list(range(n))
    table = pairs_table([f"s{i}" for i in rows], [f"p{i}" for i in rows], [[f"s{i}", "x"] for i in rows],
                        [[f"p{i}"] for i in rows], [f"doc:{i}" for i in rows],
                        paraphrase_score=[i / n for i in rows], **extra_columns)
    per = n // shards
    for k in range(shards):
        pq.write_table(table.slice(k * per, per), directory / f"pairs-{k:05d}-of-{shards:05d}.parquet")
    return directory


def rows_of(chunks) -> list[int]:
    return [int(tokens[0][1:]) for chunk in chunks for tokens in chunk.left.to_pylist()]


def test_directory_file_glob_and_memory_url_read_the_same_pairs(tmp_path):
    directory = toy_shards(tmp_path / "train")
    (directory / "_SUCCESS").write_text("")  # non-shard files in a directory are ignored
    (directory / "summary.json").write_text("{}")
    assert PairSource(directory).count() == 250
    assert PairSource(directory / "pairs-00000-of-00005.parquet").count() == 50
    assert PairSource(str(directory / "pairs-0000[0-1]-*.parquet")).count() == 100
    import fsspec

    memory = fsspec.filesystem("memory")
    for file in sorted(directory.glob("*.parquet")):
        memory.pipe(f"/corpus/train/{file.name}", file.read_bytes())
    remote = PairSource("memory://corpus/train")
    assert len(remote.files) == 5 and remote.count() == 250
    assert sorted(rows_of(remote.chunks(64, seed=1, epoch=0))) == list(range(250))
    from paranmt.cli import export_command  # its --input was a Path, which made memory://... memory:/...

    out = tmp_path / "from-url.tsv"
    assert export_command.main(["--format", "paranmt-tsv", "--input", "memory://corpus/train", "--out", str(out)]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 250
    with pytest.raises(TrainDataError, match="training data xyz://corpus/train: Protocol not known: xyz"):
        PairSource("xyz://corpus/train")  # an unknown protocol (or gcsfs missing) used to be a traceback


def test_filters_are_pushed_down(tmp_path):
    directory = toy_shards(tmp_path / "train", keep=[i % 10 != 0 for i in range(250)])
    assert PairSource(directory).count() == 225  # keep=false rows dropped
    assert PairSource(directory, only_kept=False).count() == 250
    source = PairSource(directory, min_score=0.5, max_score=0.8, only_kept=False)
    scores = np.float32(np.arange(250) / 250).astype(np.float64)  # stored as float32
    assert sorted(rows_of(source.chunks(1000, 0, 0))) == [i for i in range(250) if 0.5 <= scores[i] <= 0.8]
    assert source.describe_filter() == "en_tokens and mt_tokens not empty; paraphrase_score >= 0.5 (min_score); " \
        "paraphrase_score <= 0.8 (max_score)"  # in words, not Arrow's expression
    assert PairSource(directory, max_tokens=1, only_kept=False).count() == 0  # left side has 2 tokens
    long_table = pairs_table(["a"], ["b"], [["w"] * 40], [["w"] * 3], ["x:1"])
    pq.write_table(long_table, tmp_path / "long.parquet")
    assert PairSource(tmp_path / "long.parquet", max_tokens=30).count() == 0
    assert PairSource(tmp_path / "long.parquet").count() == 1


def test_shuffle_is_seeded_complete_and_crosses_shards(tmp_path):
    source = PairSource(toy_shards(tmp_path / "train", n=1000, shards=10), read_batch_rows=25)
    first = rows_of(source.chunks(100, seed=7, epoch=0, shuffle_buffer=400))
    assert sorted(first) == list(range(1000))  # every pair exactly once
    assert first == rows_of(source.chunks(100, seed=7, epoch=0, shuffle_buffer=400))  # seeded
    assert first != rows_of(source.chunks(100, seed=7, epoch=1, shuffle_buffer=400))  # new order each epoch
    assert first != rows_of(source.chunks(100, seed=8, epoch=0, shuffle_buffer=400))
    # Document-order neighbours rarely share a mega-batch: with a buffer, a chunk of 100 mixes many shards and
    # holds about as many adjacent rows as a uniform shuffle would (~99 over all chunks); shard order alone: ~960.
    chunks = [rows_of([c]) for c in source.chunks(100, seed=7, epoch=0, shuffle_buffer=400)]
    assert all(len({row // 100 for row in chunk}) >= 6 for chunk in chunks)
    adjacent = sum(len(set(chunk) & {r + 1 for r in chunk}) for chunk in chunks)
    assert adjacent < 200
    skipped = rows_of(source.chunks(100, seed=7, epoch=0, skip=300, shuffle_buffer=400))
    assert skipped == first[300:]  # a resumed run re-reads the same stream and skips what it has done


def test_chunks_have_fixed_size_and_dense_groups(tmp_path):
    images = [f"img{i // 5}" for i in range(250)]  # five pairs per group
    rows = range(250)
    table = pairs_table([f"s{i}" for i in rows], [f"p{i}" for i in rows], [[f"s{i}"] for i in rows],
                        [[f"p{i}"] for i in rows], [f"x:{i}" for i in rows])
    table = table.append_column("image", pa.array(images))
    pq.write_table(table, tmp_path / "g.parquet")
    source = PairSource(tmp_path / "g.parquet", group_column="image")
    chunks = list(source.chunks(60, seed=0, epoch=0, shuffle_buffer=0))
    assert [len(c) for c in chunks] == [60, 60, 60, 60, 10]
    for chunk in chunks:
        rows = [int(t[0][1:]) for t in chunk.left.to_pylist()]
        image = np.array([r // 5 for r in rows])
        assert ((image[:, None] == image[None, :]) == (chunk.groups[:, None] == chunk.groups[None, :])).all()
    by_id = next(PairSource(tmp_path / "g.parquet").chunks(250, 0, 0, shuffle_buffer=0))
    assert len(set(by_id.groups.tolist())) == 250  # default group: the row id


def test_released_tsv_format(tmp_path):
    path = tmp_path / "para-nmt-sample.txt.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write("sir, i'm just trying to protect.\ti'm just trying to protect you, sir.\t0.81\n")
        out.write("i'm looking at him, you know?\ti'm watching him, you know?\t0.52\n\n")
        out.write("two fields only\tno score here\n")
    source = PairSource(path)
    assert source.format == "tsv" and source.count() == 3
    chunk = next(source.chunks(10, 0, 0, shuffle_buffer=0))
    assert chunk.left.to_pylist()[0] == ["sir", ",", "i", "'m", "just", "trying", "to", "protect", "."]
    assert PairSource(path, min_score=0.6).count() == 1
    shards = tsv_to_parquet(path, tmp_path / "converted")
    converted = PairSource(tmp_path / "converted")
    assert len(shards) == 1 and converted.count() == 3
    assert pq.read_table(shards[0])["id"].to_pylist() == ["para-nmt-sample.txt.gz:1", "para-nmt-sample.txt.gz:2",
                                                          "para-nmt-sample.txt.gz:4"]
    bad = tmp_path / "bad.tsv"
    bad.write_text("one field only\n", encoding="utf-8")
    with pytest.raises(TrainDataError, match=r"bad.tsv:1: expected sentence<TAB>paraphrase"):
        PairSource(bad).count()


def test_real_pair_shards_read(tmp_path):
    source = PairSource(tatoeba_pairs_parquet(tmp_path / "pairs", n=120, shards=3))
    assert source.count() == 120 and len(source.files) == 3
    chunk = next(source.chunks(200, 0, 0))
    assert len(chunk) == 120 and all(isinstance(t, str) for t in chunk.left.to_pylist()[0])


# ---------------------------------------------------------------------------------------------- bad data


def test_empty_shard_set_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(TrainDataError, match=r"empty holds no Parquet file"):
        PairSource(tmp_path / "empty")
    with pytest.raises(TrainDataError, match="matches no Parquet file"):
        PairSource(str(tmp_path / "nothing-*.parquet"))
    with pytest.raises(TrainDataError, match="does not exist"):
        PairSource(tmp_path / "missing")


def test_missing_column_and_wrong_types_are_clear_errors(tmp_path):
    pq.write_table(pa.table({"id": ["a"], "en_tokens": [["x"]]}), tmp_path / "one.parquet")
    with pytest.raises(TrainDataError, match=r"one.parquet: missing column\(s\) \['mt_tokens'\]"):
        PairSource(tmp_path / "one.parquet")
    pq.write_table(pa.table({"id": ["a"], "en_tokens": ["x y"], "mt_tokens": [["x"]]}), tmp_path / "str.parquet")
    with pytest.raises(TrainDataError, match="column en_tokens has type string, expected list<string>"):
        PairSource(tmp_path / "str.parquet")
    pq.write_table(pa.table({"id": ["a"], "en_tokens": [["x"]], "mt_tokens": [["y"]], "paraphrase_score": ["hi"]}),
                   tmp_path / "score.parquet")
    with pytest.raises(TrainDataError, match="paraphrase_score has type string, expected a number"):
        PairSource(tmp_path / "score.parquet", min_score=0.1)
    (tmp_path / "junk.parquet").write_text("not parquet")
    with pytest.raises(TrainDataError, match=r"junk\.parquet is not a readable Parquet file"):
        PairSource(tmp_path / "junk.parquet")
