"""``paranmt score``: fits, saves and reuses a scorer, reads a folder of shards, and answers in one line (the
library it calls, filters.scores.score_parquet: tests/filters/test_scores.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from filters.paragram import ParagramScorer
from filters.scores import score_pairs
from paranmt.cli.paranmt_command import main as paranmt
from paranmt.cli.score_command import main
from paranmt.core.pair_schema import ID, PARAPHRASE_SCORE, SCORER_ID, TRIGRAM_OVERLAP, read_metadata
from tests.filters.test_paragram import pair_vectors
from tests.filters.test_scores import pairs_table, scorer
from tests.support.commands import run_paranmt


def test_cli_fits_saves_and_reuses_the_scorer(tmp_path, capsys):
    table = pairs_table(2000)
    source = tmp_path / "pairs.parquet"
    pq.write_table(table, source, row_group_size=1000)
    out, fitted = tmp_path / "scored.parquet", tmp_path / "scorer.npz"
    args = ["--input", str(source), "--out", str(out), "--batch-rows", "700", "--quiet"]
    vocabulary = tmp_path / "vectors.txt"  # the pairs' GloVe rows as a text file: fast to load
    vectors = pair_vectors()
    vocabulary.write_text("".join(f"{w} {' '.join(map(repr, row.tolist()))}\n"
                                  for w, row in zip(vectors.words.to_pylist(), vectors.matrix, strict=True)))
    assert main([*args, "--embeddings", str(vocabulary), "--save-scorer", str(fitted)]) == 0
    err = capsys.readouterr().err
    assert "scored 2,003 pairs" in err and "pairs/s" in err and "no_known_words 3" in err
    first = pq.read_table(out)
    assert first.num_rows == 2003 and first.schema.names == table.schema.names
    assert first.schema.field(TRIGRAM_OVERLAP).type == pa.float32()
    loaded = ParagramScorer.load(fitted)
    assert set(first[SCORER_ID].to_pylist()) == {loaded.scorer_id}
    metadata = read_metadata(pq.read_schema(out))
    assert metadata["scorer_id"] == loaded.scorer_id and metadata["score"]["weighting"] == "sif"
    assert loaded.params["fit_sentences"] == 2000  # the English side of all 2,003 rows, less 3 without a known word
    np.testing.assert_array_equal(first[PARAPHRASE_SCORE].to_numpy(),
                                  score_pairs(table, loaded)[PARAPHRASE_SCORE].to_numpy())
    # a second run with the saved scorer reproduces the output exactly
    again = tmp_path / "again.parquet"
    assert main(["--input", str(source), "--out", str(again), "--scorer", str(fitted), "--quiet",
                 "--embeddings", str(vocabulary)]) == 0
    assert "--embeddings ignored" in capsys.readouterr().err
    assert pq.read_table(again).equals(first)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.parquet", "pairs.parquet", "scored.parquet",
                                                         "scorer.npz", "vectors.txt"]  # no temporary files left


def test_cli_errors_are_one_line(tmp_path, capsys):
    assert main(["--input", str(tmp_path / "absent.parquet"), "--out", str(tmp_path / "o.parquet")]) == 2
    assert "does not exist" in capsys.readouterr().err
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"x": [1]}), bad)
    assert main(["--input", str(bad), "--out", str(tmp_path / "o.parquet")]) == 2
    assert capsys.readouterr().err.startswith(f"error: {bad}: missing columns")  # names the file it read
    assert main(["--input", str(bad), "--out", str(tmp_path / "o.parquet"), "--set", "score.sif_a=-1"]) == 2
    assert "score.sif_a" in capsys.readouterr().err


def test_cli_reads_a_directory_of_shards(tmp_path, capsys):
    """``--input runs/x/pairs`` used to say the existing directory "does not exist"."""
    table = pairs_table(600, extra_rows=False)
    shards = tmp_path / "pairs"
    shards.mkdir()
    for k in range(3):  # the pipeline's shard layout
        pq.write_table(table.slice(200 * k, 200), shards / f"pairs-{k:05d}-of-00003.parquet")
    fitted = tmp_path / "scorer.npz"
    scorer().save(fitted)
    out = tmp_path / "scored.parquet"
    assert main(["--input", str(shards), "--out", str(out), "--scorer", str(fitted), "--quiet"]) == 0
    scored = pq.read_table(out)
    assert scored[ID].to_pylist() == table[ID].to_pylist()  # every shard, in shard order
    np.testing.assert_array_equal(scored[PARAPHRASE_SCORE].to_numpy(),
                                  score_pairs(table, scorer())[PARAPHRASE_SCORE].to_numpy())
    capsys.readouterr()
    assert main(["--input", str(tmp_path / "out"), "--out", str(tmp_path / "o.parquet")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "none").mkdir()
    assert main(["--input", str(tmp_path / "none"), "--out", str(tmp_path / "o.parquet")]) == 2
    assert "holds no Parquet file" in capsys.readouterr().err
    assert main(["--input", str(shards), "--out", str(shards / "scored.parquet"), "--scorer", str(fitted)]) == 2
    assert "outside an --input directory" in capsys.readouterr().err



@pytest.mark.parametrize("out", ["folder", "file/s.parquet"])
def test_score_checks_its_out_before_any_work(out, user_paths, capsys):
    d = user_paths
    assert paranmt(["score", "--input", str(d / "in.cs"), "--out", str(d / out)]) == 2
    line = capsys.readouterr().err
    assert line == (f"error: --out {d / 'folder'} is a folder: give a file path\n" if out == "folder" else
                    f"error: --out {d / out} cannot be written: {d / 'file'} is a file, not a folder\n")


def test_the_config_flags_are_the_schemas(tmp_path, capsys):
    """Each flag sets its schema key; the word-frequency file is --word-frequencies, as in sif, sick and evaluate."""
    from paranmt.cli.score_command import CONFIG_FLAGS, build_parser
    from paranmt.core.command_line import config_values

    parser = build_parser()
    args = parser.parse_args(["--input", "i", "--out", "o", "--word-frequencies", "f.txt"])
    given = config_values(args, CONFIG_FLAGS)
    assert given["score.word_frequencies"] == str((Path.cwd() / "f.txt").resolve())
    assert given["score.scorer"] is None
    url = config_values(parser.parse_args(["--input", "i", "--out", "o", "--scorer", "gs://b/s.npz"]), CONFIG_FLAGS)
    assert url["score.scorer"] == "gs://b/s.npz"
    text = " ".join(parser.format_help().split())
    assert "(score.embeddings_format; default auto)" in text and "--word-counts" not in text


def test_no_carriage_return_bar_where_stderr_is_not_a_terminal(tmp_path):
    source, vocabulary = tmp_path / "pairs.parquet", tmp_path / "vectors.txt"
    pq.write_table(pairs_table(2000), source, row_group_size=500)
    vectors = pair_vectors()
    vocabulary.write_text("".join(f"{w} {' '.join(map(repr, row.tolist()))}\n"
                                  for w, row in zip(vectors.words.to_pylist(), vectors.matrix, strict=True)))
    done = run_paranmt("score", "--input", str(source), "--out", str(tmp_path / "scored.parquet"),
                       "--embeddings", str(vocabulary), "--batch-rows", "500")
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr and "scored 2,003 pairs" in done.stderr, done.stderr
