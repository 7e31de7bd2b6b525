"""score_pairs on Arrow tables, score_parquet on Parquet files, and the scorer the pipeline's workers load
(``paranmt score``: tests/paranmt/cli/test_score_command.py; the selection itself:
tests/pipeline/stages/test_selection.py)."""

from __future__ import annotations

import functools

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs.schema import ScoreConfig
from filters.paragram import ParagramScorer
from filters.scores import SCORE_COLUMNS, score_pairs, score_parquet
from filters.trigram import trigram_overlap
from paranmt.core.pair_schema import (
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
from paranmt.core.parquet_inputs import read_parquet_input
from pipeline.stages.selection import check_scorer, load_scorer
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


def test_score_parquet_writes_what_score_pairs_gives_batch_by_batch(tmp_path):
    """The library form of ``paranmt score``."""
    table = pairs_table(600)
    shards = [tmp_path / f"pairs-{k}.parquet" for k in range(2)]
    pq.write_table(table.slice(0, 350), shards[0])
    pq.write_table(table.slice(350), shards[1])
    seen: list[int] = []
    out = tmp_path / "out" / "scored.parquet"
    done = score_parquet(read_parquet_input(tmp_path), out, scorer(), batch_rows=100, progress=seen.append)
    scored = pq.read_table(out)
    expected = score_pairs(table, scorer())
    assert scored.to_pydict() == expected.to_pydict()
    assert done.path == out and done.pairs == sum(seen) == table.num_rows and max(seen) <= 100
    assert done.no_known_words == int(np.count_nonzero(expected[NO_KNOWN_WORDS].to_numpy()))
    assert done.mean_paraphrase_score == pytest.approx(float(np.mean(expected[PARAPHRASE_SCORE].to_numpy(),
                                                                      dtype=np.float64)))
    assert read_metadata(scored.schema)["scorer_id"] == scorer().scorer_id
    assert sorted(p.name for p in out.parent.iterdir()) == ["scored.parquet"]  # the partial file was renamed


def test_score_parquet_leaves_no_file_under_its_name_when_it_fails(tmp_path):
    source = tmp_path / "pairs.parquet"
    pq.write_table(pairs_table(50).drop_columns([MT_TOKENS]), source)
    with pytest.raises(SchemaMismatch):
        score_parquet(read_parquet_input(source), tmp_path / "scored.parquet", scorer())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.parquet"]  # no scored file, no partial one
