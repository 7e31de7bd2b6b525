"""The written lexicon (pipeline/analysis/lexicon/shards.py): shards read in order are the one table, the stand-alone
build's outputs, and an empty count."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs.schema import LexiconConfig
from paranmt.cli.lexicon_command import main
from pipeline.analysis.lexicon.counting import LexiconError, PairCounts, build_from_parquet
from pipeline.analysis.lexicon.query import neighbours
from pipeline.analysis.lexicon.shards import lexicon_files, lexicon_metadata, write_outputs
from tests.support.lexicon_pairs import TOY_EN, TOY_MT, token_pairs


def test_shards_read_in_order_are_the_one_table(pairs_lexicon, tmp_path):
    """Four shards (merged and written one by one, as the pipeline's workers do) hold exactly the rows of the
    one-shard table, in its order; the top-k list and the counts are the same, and each word is in one shard."""
    shards = lexicon_files(pairs_lexicon)
    assert [f.name for f in shards] == [f"lexicon-0000{i}-of-00004.parquet" for i in range(4)]
    assert main(["build", "--input", str(pairs_lexicon.parent / "pairs"), "--out", str(tmp_path / "one"),
                 "--quiet", "--set", "lexicon.min_joint=5"]) == 0
    tables = [pq.read_table(f) for f in shards]
    one = pq.read_table(lexicon_files(tmp_path / "one")[0])
    assert all(t.num_rows > 0.1 * one.num_rows for t in tables)  # balanced: no shard is nearly empty
    assert pa.concat_tables(tables).replace_schema_metadata().equals(one.replace_schema_metadata())
    vocabulary = pq.read_table(pairs_lexicon / "vocabulary.parquet").to_pydict()
    shard_of = dict(zip(vocabulary["word"], vocabulary["shard"], strict=True))
    for index, table in enumerate(tables):
        assert {shard_of[u] for u in table.column("u").to_pylist()} == {index}
    assert (pairs_lexicon / "top_k.tsv").read_text() == (tmp_path / "one" / "top_k.tsv").read_text()
    stats = {p: json.loads((p / "stats.json").read_text())["stats"] for p in (pairs_lexicon, tmp_path / "one")}
    assert stats[pairs_lexicon].pop("lexicon_shards") == 4 and stats[tmp_path / "one"].pop("lexicon_shards") == 1
    assert stats[pairs_lexicon] == stats[tmp_path / "one"]
    # a rebuild with another shard count replaces the shards; a set with one missing is refused by name
    assert main(["build", "--input", str(pairs_lexicon.parent / "pairs"), "--out", str(tmp_path / "one"),
                 "--quiet", "--set", "lexicon.num_shards=2"]) == 0
    assert [f.name for f in lexicon_files(tmp_path / "one")] == ["lexicon-00000-of-00002.parquet",
                                                                  "lexicon-00001-of-00002.parquet"]
    (tmp_path / "one" / "lexicon-00001-of-00002.parquet").unlink()
    with pytest.raises(LexiconError, match="not one complete set of 2"):
        neighbours(tmp_path / "one", "bicycle")


def test_build_command_outputs(caption_lexicon):
    stats = json.loads((caption_lexicon / "stats.json").read_text())["stats"]
    assert stats["read"] == 20_000 and stats["skipped"]["score_below_min"] == 400
    assert stats["read"] == stats["used"] + sum(stats["skipped"].values())
    meta = lexicon_metadata(caption_lexicon)
    assert meta["lexicon_config"]["min_joint"] == 5 and meta["lexicon_stats"]["used"] == stats["used"] > 19_000
    lexicon = pa.concat_tables([pq.read_table(f) for f in lexicon_files(caption_lexicon)])
    assert lexicon.num_rows == stats["lexicon_rows"] > 10_000
    top = (caption_lexicon / "top_k.tsv").read_text().splitlines()
    assert top[0].split("\t") == ["word", "rank", "paraphrase", "joint", "pmi_adj", "pmi_cross"]
    assert all(int(line.split("\t")[3]) >= 5 and int(line.split("\t")[1]) <= 50 for line in top[1:])


def test_write_outputs_of_an_empty_count_and_build_from_parquet(tmp_path):
    pq.write_table(token_pairs(TOY_EN, TOY_MT), tmp_path / "toy.parquet")
    config = LexiconConfig(min_score=None, min_count=1)
    counts, vocab, marginals = build_from_parquet([tmp_path / "*.parquet"], config, progress=False)
    stats = write_outputs(tmp_path / "lex", counts, vocab, marginals, config)
    written = pq.read_table(tmp_path / "lex" / "lexicon-00000-of-00001.parquet")
    assert stats["used"] == 3 and stats["lexicon_rows"] == written.num_rows > 0
    empty = write_outputs(tmp_path / "none", PairCounts(0), vocab, marginals, config)
    assert empty["lexicon_rows"] == 0
