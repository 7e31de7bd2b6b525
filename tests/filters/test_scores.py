"""score_pairs on Arrow tables, the ``paranmt score`` CLI, and the scorer the pipeline's workers load
(score and select itself: tests/pipeline/test_score_transforms.py)."""

from __future__ import annotations

import functools

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cli.score_command import main
from configs.schema import ScoreConfig
from core.pair_schema import (
    EN_TOKENS,
    ID,
    MT_TOKENS,
    NO_KNOWN_WORDS,
    PAIRS_SCHEMA,
    PARAPHRASE_SCORE,
    SCORER_ID,
    SOURCE,
    TRANSLATION_SCORE,
    TRIGRAM_OVERLAP,
    SchemaMismatch,
    read_metadata,
)
from filters.paragram import ParagramScorer
from filters.scores import SCORE_COLUMNS, score_pairs
from filters.trigram import trigram_overlap
from pipeline.score_transforms import check_scorer, load_scorer
from tests.filters.test_paragram import pair_vectors
from tests.filters.test_trigram import real_pairs
from tests.support.pair_tables import table_from_columns


@functools.lru_cache(maxsize=1)
def scorer() -> ParagramScorer:
    en, mt = real_pairs()
    return ParagramScorer.fit(pair_vectors(), en + mt, ScoreConfig())


def pairs_table(n: int = 2000, extra_rows: bool = True) -> pa.Table:
    """Real pairs (the bundled back-translation pairs) in the full PAIRS_SCHEMA layout (plus awkward rows: empty,
    null, unknown-only)."""
    en, mt = real_pairs(n)
    if extra_rows:
        en, mt = [*en, [], None, ["qwxzv", "zzkq"]], [*mt, ["a", "dog"], ["a", "dog"], ["a", "dog"]]
    count = len(en)
    return table_from_columns({
        ID: [f"tatoeba:{i}" for i in range(count)], SOURCE: ["tatoeba"] * count,
        EN_TOKENS: en, MT_TOKENS: mt,
        TRANSLATION_SCORE: np.linspace(-2, -0.1, count).astype(np.float32),
    })


def test_score_pairs_adds_typed_columns_and_carries_the_rest():
    table = pairs_table()
    scored = score_pairs(table, scorer())
    assert scored.schema.names == table.schema.names  # PAIRS_SCHEMA has the columns: filled in place
    for name in SCORE_COLUMNS:
        assert scored.schema.field(name).type == PAIRS_SCHEMA.field(name).type
    for name in (ID, SOURCE, EN_TOKENS, MT_TOKENS, TRANSLATION_SCORE):
        assert scored[name].equals(table[name])
    np.testing.assert_array_equal(scored[TRIGRAM_OVERLAP].to_numpy(),
                                  trigram_overlap(table[EN_TOKENS], table[MT_TOKENS]))
    expected_scores, expected_flags = scorer().score(table[EN_TOKENS], table[MT_TOKENS])
    np.testing.assert_array_equal(scored[PARAPHRASE_SCORE].to_numpy(), expected_scores)
    np.testing.assert_array_equal(scored[NO_KNOWN_WORDS].to_numpy(), expected_flags)
    assert set(scored[SCORER_ID].to_pylist()) == {scorer().scorer_id}
    tail = scored.slice(scored.num_rows - 3).select([TRIGRAM_OVERLAP, PARAPHRASE_SCORE, NO_KNOWN_WORDS])
    assert tail.to_pylist() == [{TRIGRAM_OVERLAP: 0.0, PARAPHRASE_SCORE: 0.0, NO_KNOWN_WORDS: True}] * 3


def test_score_pairs_appends_or_overwrites_with_the_contract_types():
    en, mt = real_pairs(50)
    minimal = pa.table({EN_TOKENS: pa.array(en, pa.list_(pa.string())), MT_TOKENS: pa.array(mt)})
    scored = score_pairs(minimal, scorer())
    assert scored.schema.names == [EN_TOKENS, MT_TOKENS, *SCORE_COLUMNS]
    stale = scored.set_column(2, TRIGRAM_OVERLAP, pa.array(np.full(50, 9.0)))  # float64, wrong values
    rescored = score_pairs(stale, scorer())
    assert rescored.schema == scored.schema and rescored.equals(scored)
    empty = score_pairs(minimal.slice(0, 0), scorer())
    assert empty.num_rows == 0 and empty.schema == scored.schema
    with pytest.raises(SchemaMismatch, match="missing columns"):
        score_pairs(minimal.drop_columns([MT_TOKENS]), scorer())


def test_cli_fits_saves_and_reuses_the_scorer(tmp_path, capsys):
    table = pairs_table(2000)
    source = tmp_path / "pairs.parquet"
    pq.write_table(table, source, row_group_size=1000)
    out, fitted = tmp_path / "scored.parquet", tmp_path / "scorer.npz"
    args = ["--input", str(source), "--output", str(out), "--batch-rows", "700", "--quiet"]
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
    assert loaded.params["fit_sentences"] == 4003  # both sides of all 2,003 rows, less 3 without a known word
    np.testing.assert_array_equal(first[PARAPHRASE_SCORE].to_numpy(),
                                  score_pairs(table, loaded)[PARAPHRASE_SCORE].to_numpy())
    # a second run with the saved scorer reproduces the output exactly
    again = tmp_path / "again.parquet"
    assert main(["--input", str(source), "--output", str(again), "--scorer", str(fitted), "--quiet",
                 "--embeddings", str(vocabulary)]) == 0
    assert "--embeddings ignored" in capsys.readouterr().err
    assert pq.read_table(again).equals(first)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.parquet", "pairs.parquet", "scored.parquet",
                                                         "scorer.npz", "vectors.txt"]  # no temporary files left


def test_cli_errors_are_one_line(tmp_path, capsys):
    assert main(["--input", str(tmp_path / "absent.parquet"), "--output", str(tmp_path / "o.parquet")]) == 2
    assert "does not exist" in capsys.readouterr().err
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"x": [1]}), bad)
    assert main(["--input", str(bad), "--output", str(tmp_path / "o.parquet")]) == 2
    assert capsys.readouterr().err.startswith(f"error: {bad}: missing columns")  # names the file it read
    assert main(["--input", str(bad), "--output", str(tmp_path / "o.parquet"), "--set", "score.sif_a=-1"]) == 2
    assert "score.sif_a" in capsys.readouterr().err


def test_the_worker_loads_one_scorer_per_process(tmp_path):
    path = scorer().save(tmp_path / "scorer.npz")
    assert load_scorer(ScoreConfig(scorer=path)) is load_scorer(str(path))  # however the DoFns name it
    assert load_scorer(path).scorer_id == scorer().scorer_id


def test_stage_6_needs_a_saved_scorer(tmp_path):
    with pytest.raises(FileNotFoundError, match="fit and save a scorer first"):
        check_scorer(tmp_path / "absent.npz")
    with pytest.raises(FileNotFoundError, match=r"absent\.npz not found"):
        check_scorer(ScoreConfig(scorer=tmp_path / "absent.npz"))
    with pytest.raises(ValueError, match="needs fitting on a sample"):
        check_scorer(ScoreConfig())


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
    assert main(["--input", str(shards), "--output", str(out), "--scorer", str(fitted), "--quiet"]) == 0
    scored = pq.read_table(out)
    assert scored[ID].to_pylist() == table[ID].to_pylist()  # every shard, in shard order
    np.testing.assert_array_equal(scored[PARAPHRASE_SCORE].to_numpy(),
                                  score_pairs(table, scorer())[PARAPHRASE_SCORE].to_numpy())
    capsys.readouterr()
    assert main(["--input", str(tmp_path / "out"), "--output", str(tmp_path / "o.parquet")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "none").mkdir()
    assert main(["--input", str(tmp_path / "none"), "--output", str(tmp_path / "o.parquet")]) == 2
    assert "without .parquet files" in capsys.readouterr().err
    assert main(["--input", str(shards), "--output", str(shards / "scored.parquet"), "--scorer", str(fitted)]) == 2
    assert "outside an --input directory" in capsys.readouterr().err
