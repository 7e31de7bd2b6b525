"""The pipeline's scoring + selection stage (pipeline.stages.selection.Select) makes the same decisions
on Arrow batches as the Beam-free select_training_pairs on the whole table, on real caption pairs, on an explicitly
named local runner."""

from __future__ import annotations

import itertools

import apache_beam as beam
import numpy as np
import pyarrow as pa
import pytest
from apache_beam.testing.util import assert_that

from configs.schema import SelectConfig
from filters.folds import select_training_pairs
from filters.scores import score_pairs
from paranmt.core.pair_schema import FOLD, ID, KEEP, REASON, Reason
from pipeline.stages.selection import Select
from tests.filters.test_scores import pairs_table, scorer


@pytest.mark.parametrize("config", [
    SelectConfig(),  # the paper's rank rule: top two deciles, <= 30 tokens
    SelectConfig(sample=150, score_ranges={"trigram_overlap": {"max": 0.5}}),
    SelectConfig(rank_by=None, score_ranges={"paraphrase_score": {"min": 0.3}}, max_tokens=15, sample=400),
], ids=["rank-rule", "rank-thresholds-sample", "thresholds-only"])
def test_beam_selection_equals_the_table_selection(tmp_path, config):
    table = pairs_table(1500)
    path = scorer().save(tmp_path / "scorer.npz")
    expected = select_training_pairs(score_pairs(table, scorer()), config, seed=7)
    want = {row_id: (bool(k), str(Reason(r)), int(f))
            for row_id, k, r, f in zip(table[ID].to_pylist(), expected.keep, expected.reason, expected.fold,
                                       strict=True)}
    assert 0 < sum(k for k, _, _ in want.values()) < len(want)

    def check(rows):
        got = {row[ID]: (row[KEEP], row[REASON], row[FOLD]) for row in rows}
        assert len(rows) == len(want), "every pair exactly once"
        if config.rank_by is None:  # no folds in thresholds-only mode
            got = {k: (keep, reason, 0) for k, (keep, reason, _) in got.items()}
        mismatched = [k for k in want if got[k] != want[k]]
        assert not mismatched, f"{len(mismatched)} decisions differ, e.g. {mismatched[:3]}"

    # Batches of uneven sizes, as the pipeline's stages hand them over: decisions must not depend on them.
    bounds = [0, 1, 200, 613, 1024, table.num_rows]
    batches = [table.slice(a, b - a) for a, b in itertools.pairwise(bounds)]
    with beam.Pipeline(runner="BundleBasedDirectRunner") as p:
        judged = (p | beam.Create(batches)
                  | Select(str(path), config, seed=7, scorer_id=scorer().scorer_id)
                  | beam.FlatMap(pa.Table.to_pylist))
        assert_that(judged, check)


def test_selection_metadata_names_the_scorer(tmp_path):
    path = scorer().save(tmp_path / "scorer.npz")
    stage = Select(str(path), SelectConfig(), seed=1, scorer_id=scorer().scorer_id)
    assert stage.metadata["scorer_id"] == scorer().scorer_id and stage.metadata["select"]["folds"] == 10
    assert np.isin([9, 10], stage.metadata["select"]["select_folds"]).all()


def test_column_wise_folds_equal_bisect_on_every_key_kind():
    """folds_of_keys (the pipeline's vectorised fold of a batch) against fold_of_key (bisect over the boundary
    tuples, the reference) for present and missing values, ties on the value and hashes near 2**64."""
    import random

    from pipeline.stages.selection import folds_of_keys
    from tests.support.fold_reference import fold_of_key

    rng = random.Random(11)
    hashes = [0, 1, 2**63, 2**64 - 1]
    keys = []
    for _ in range(3000):
        present = int(rng.random() < 0.9)
        value = rng.choice([0.1, 0.25, 0.5, 0.75, 0.9]) if present else 0.0
        keys.append((present, value, rng.choice([*hashes, rng.getrandbits(64)])))
    for interior in (sorted(rng.sample(keys, 9)), [(-1, 0.0, 0), *sorted(rng.sample(keys, 8))]):
        got = folds_of_keys(np.array([k[0] for k in keys]), np.array([k[1] for k in keys]),
                            np.array([k[2] for k in keys], np.uint64), interior)
        assert got.tolist() == [fold_of_key(k, interior) for k in keys]
