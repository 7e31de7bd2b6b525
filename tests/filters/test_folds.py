"""Decile folds and training-pair selection (filters.folds): exact folds against a slow reference, selection,
fold subsets, the Beam approximate version, the CLI, and real caption pairs."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import filters.folds as folds_module
import paranmt.cli.folds_command as folds_command
from configs.schema import SelectConfig
from filters.folds import (
    assign_folds,
    fold_boundaries,
    fold_file_name,
    hash_sample,
    interior_boundaries,
    key_hash,
    pair_keys,
    sample_from_folds,
    select_training_pairs,
    write_fold_subsets,
)
from filters.rules import MaxTokens
from paranmt.core.pair_schema import Reason, check_schema, read_metadata
from tests.support.fold_reference import fold_of_key
from tests.support.pair_tables import table_from_columns
from tests.support.repo import REPO_ROOT
from tests.support.taste_data import taste_pairs

# ------------------------------------------------------------------------------------------ slow references

M64 = 2**64 - 1


def reference_fmix(k: int) -> int:
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) % 2**64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) % 2**64
    return k ^ (k >> 33)


def reference_hash(pair_id: str, seed: int) -> int:
    """FNV-1a 64 over UTF-8 bytes from basis offset ^ fmix(seed), then fmix: written out the slow way."""
    h = 14695981039346656037 ^ reference_fmix(seed % 2**64)
    for byte in pair_id.encode("utf-8"):
        h = ((h ^ byte) * 1099511628211) % 2**64
    return reference_fmix(h)


def reference_folds(values, ids, folds: int, seed: int) -> list[int]:
    """Python sort by (present, value, hash(id)), then cut the ranking into `folds` near-equal chunks."""
    def key(i):
        v = values[i]
        missing = v is None or math.isnan(v)
        return (0, 0.0, reference_hash(ids[i], seed)) if missing else (1, float(v), reference_hash(ids[i], seed))

    order = sorted(range(len(ids)), key=key)
    out = [0] * len(ids)
    n = len(ids)
    for chunk in range(folds):
        # chunk j holds ranks [ceil(j n / k), ceil((j + 1) n / k))
        for rank in range(-(-chunk * n // folds), -(-(chunk + 1) * n // folds)):
            out[order[rank]] = chunk + 1
    return out


def random_ids(rng: np.random.Generator, n: int) -> list[str]:
    alphabet = [*"abcxyz019-_.", "é", "ř", "€", "日", "\U0001f600", "\x00"]
    # indices, not rng.choice(alphabet): a NumPy str array would turn "\x00" into ""
    ids = ["".join(alphabet[j] for j in rng.integers(0, len(alphabet), rng.integers(0, 14))) for _ in range(n)]
    for i in rng.choice(n, size=max(1, n // 50), replace=False):  # some duplicate ids
        ids[i] = ids[(i + 1) % n]
    return ids


def pairs_table(rng: np.random.Generator, n: int, *, ties: int = 20, max_len: int = 40) -> pa.Table:
    scores = (rng.integers(0, ties, n) / ties).astype(np.float32)
    return table_from_columns({
        "id": [f"czeng-{i:06d}" for i in range(n)],
        "source": ["czeng"] * n,
        "cs": [f"věta {i}" for i in range(n)],
        "en": [f"sentence {i}" for i in range(n)],
        "en_tokens": [["w"] * k for k in rng.integers(1, max_len + 1, n)],
        "mt_tokens": [["m"] * k for k in rng.integers(1, max_len + 1, n)],  # differs from en: not a copy
        "paraphrase_score": scores,
        "trigram_overlap": rng.uniform(0, 1, n).astype(np.float32),
        "no_known_words": np.zeros(n, dtype=bool),
    })


# ------------------------------------------------------------------------------------------------ the hash


def test_key_hash_matches_the_reference_for_every_input_form():
    rng = np.random.default_rng(1)
    ids = [*random_ids(rng, 500), "", "a", "a\x00", "x" * 300]
    for seed in (0, 1234, -7, 2**70 + 3):
        expected = np.array([reference_hash(i, seed) for i in ids], dtype=np.uint64)
        np.testing.assert_array_equal(key_hash(ids, seed), expected)
        np.testing.assert_array_equal(folds_module.key_hash_scalar(ids[3], seed), expected[3])
    arrow = pa.array(["zzz", *ids], type=pa.string()).slice(1)  # a slice: non-zero array offset
    chunked = pa.chunked_array([ids[:100], ids[100:]])
    # (an object array: NumPy's fixed-width str dtype drops trailing NULs such as the one in "a\x00")
    for form in (arrow, chunked, np.array(ids, dtype=object), pa.array(ids).dictionary_encode()):
        np.testing.assert_array_equal(key_hash(form, 9), key_hash(ids, 9))
    assert key_hash([], 1).shape == (0,)
    assert key_hash(["a", "b"], 1)[0] != key_hash(["a", "b"], 2)[0]


# ------------------------------------------------------------------------------------------------- folds


@pytest.mark.parametrize("n,k,seed", [(3000, 10, 1234), (997, 7, 0), (40, 10, 5), (7, 10, 3), (1, 3, 1)])
def test_assign_folds_matches_the_slow_reference(n, k, seed):
    rng = np.random.default_rng(n + k)
    values = rng.integers(0, 6, n).astype(np.float64)  # heavy ties
    values[rng.random(n) < 0.05] = np.nan
    values[rng.random(n) < 0.05] = -0.0  # equal to 0.0
    ids = random_ids(rng, n)
    expected = reference_folds(values.tolist(), ids, k, seed)
    got = assign_folds(values, ids, k, seed)
    assert got.dtype == np.int8
    assert got.tolist() == expected


def test_fold_sizes_are_equal_within_one():
    rng = np.random.default_rng(2)
    for n in [*range(0, 45), 99, 100, 101, 1009, 4096]:
        for k in (1, 2, 3, 7, 10, 13, 100):
            values = rng.integers(0, 3, n).astype(np.float32)
            fold = assign_folds(values, [str(i) for i in range(n)], k, seed=n)
            sizes = np.bincount(fold, minlength=k + 1)[1:]
            assert sizes.sum() == n and len(sizes) == k
            assert sizes.max() - sizes.min() <= 1, (n, k, sizes)
            assert set(sizes.tolist()) <= {n // k, -(-n // k)}
            if n:
                assert fold.min() >= 1 and fold.max() <= k
                # folds are ordered by value: the top of one fold is at most the bottom of the next
                for low, high in zip(range(1, k), range(2, k + 1), strict=True):
                    if (fold == low).any() and (fold == high).any():
                        assert values[fold == low].max() <= values[fold == high].min()


def test_seed_changes_tie_breaking_not_sizes():
    n, ids = 1000, [f"pair-{i}" for i in range(1000)]
    values = np.zeros(n, dtype=np.float32)  # one big tie: only the hash decides
    a, b = assign_folds(values, ids, 10, 1), assign_folds(values, ids, 10, 2)
    assert (a != b).mean() > 0.5
    np.testing.assert_array_equal(np.bincount(a), np.bincount(b))
    np.testing.assert_array_equal(assign_folds(values, ids, 10, 1), a)  # deterministic across calls


def test_folds_do_not_depend_on_row_order_or_input_type():
    rng = np.random.default_rng(3)
    n = 5000
    values = rng.integers(0, 10, n).astype(np.float32)
    ids = [f"src-{i}" for i in range(n)]
    fold = assign_folds(values, ids, 10, 42)
    perm = rng.permutation(n)
    permuted = assign_folds(values[perm], [ids[i] for i in perm], 10, 42)
    np.testing.assert_array_equal(permuted, fold[perm])
    np.testing.assert_array_equal(assign_folds(values, pa.chunked_array([ids[:7], ids[7:]]), 10, 42), fold)
    np.testing.assert_array_equal(assign_folds(list(values), pa.array(ids), 10, 42), fold)


def test_missing_values_rank_lowest_and_bad_arguments_fail():
    values = np.array([0.5, np.nan, -3.0, 0.1, np.nan, 9.0])
    fold = assign_folds(values, list("abcdef"), 3, 0)
    assert set(fold[[1, 4]].tolist()) == {1}
    assert fold[5] == 3
    assert assign_folds([None, 1.0, 2.0], ["x", "y", "z"], 3, 0).tolist() == [1, 2, 3]
    bounds = fold_boundaries(values, fold, 3)
    assert bounds[0].missing == 2 and bounds[0].min is None and bounds[0].size == 2
    with pytest.raises(ValueError):
        assign_folds([1.0, 2.0], ["a"], 2, 0)
    with pytest.raises(ValueError):
        assign_folds([1.0], ["a"], 0, 0)


# --------------------------------------------------------------------------------------------- selection


def test_default_selection_top_two_deciles_short_pairs_exact_sample():
    rng = np.random.default_rng(4)
    n = 5000
    table = pairs_table(rng, n)
    config = SelectConfig(sample=300)
    result = select_training_pairs(table, config, seed=1234)
    assert result.keep.sum() == 300
    assert sum(result.counts.values()) == n == sum(result.rule_counts.values())
    assert result.counts["kept"] == 300 and result.rule_counts["sample"] == result.counts["not_sampled"]

    sizes = np.bincount(result.fold, minlength=11)[1:]
    assert sizes.sum() == n and sizes.max() - sizes.min() <= 1
    np.testing.assert_array_equal(result.fold, assign_folds(table.column("paraphrase_score").to_numpy(),
                                                            pair_keys(table), 10, 1234))
    short = MaxTokens(30).check(table)
    top = np.isin(result.fold, [9, 10])
    assert np.all(top[result.keep]) and np.all(short[result.keep])
    assert np.all(result.reason[~top] == Reason.NOT_IN_SELECTED_FOLDS)
    assert np.all(result.reason[top & ~short] == Reason.TOO_MANY_TOKENS)
    assert np.all(result.reason[top & short & ~result.keep] == Reason.NOT_SAMPLED)
    assert [b.size for b in result.boundaries] == sizes.tolist()
    assert result.boundaries[9].max == pytest.approx(float(table.column("paraphrase_score").to_numpy().max()))

    again = select_training_pairs(table, config, seed=1234)
    np.testing.assert_array_equal(again.keep, result.keep)
    other_seed = select_training_pairs(table, config, seed=99)
    assert (other_seed.keep != result.keep).any() and other_seed.keep.sum() == 300


def test_selection_ranks_only_rule_passing_pairs():
    rng = np.random.default_rng(5)
    n = 1000
    table = pairs_table(rng, n)
    scores = table.column("paraphrase_score").to_pylist()
    flags = [False] * n
    for i in range(0, n, 10):
        scores[i] = None
    for i in range(5, n, 10):
        flags[i] = True
    table = table.set_column(table.schema.get_field_index("paraphrase_score"), "paraphrase_score",
                             pa.array(scores, pa.float32()))
    table = table.set_column(table.schema.get_field_index("no_known_words"), "no_known_words", pa.array(flags))
    config = SelectConfig(score_ranges={"trigram_overlap": {"max": 0.9}})
    result = select_training_pairs(table, config, seed=7)
    nulls, unknown = np.arange(0, n, 10), np.arange(5, n, 10)
    assert np.all(result.reason[nulls] == Reason.MISSING_SCORE) and np.all(result.fold[nulls] == 0)
    assert np.all(result.reason[unknown] == Reason.NO_KNOWN_WORDS) and np.all(result.fold[unknown] == 0)
    overlap = table.column("trigram_overlap").to_numpy()
    ranked = result.fold > 0
    assert np.all(overlap[ranked] <= np.float32(0.9))
    sizes = np.bincount(result.fold[ranked], minlength=11)[1:]
    assert sizes.sum() == ranked.sum() and sizes.max() - sizes.min() <= 1
    assert "sample" not in result.rule_counts  # no sample configured: every short top-decile pair is kept
    assert result.keep.sum() == (np.isin(result.fold, [9, 10]) & MaxTokens(30).check(table)).sum()


def test_thresholds_only_mode():
    rng = np.random.default_rng(6)
    table = pairs_table(rng, 2000)
    config = SelectConfig(rank_by=None, score_ranges={"trigram_overlap": {"min": 0.25, "max": 0.75}})
    result = select_training_pairs(table, config, seed=1)
    overlap = table.column("trigram_overlap").to_numpy()
    expected = (overlap >= np.float32(0.25)) & (overlap <= np.float32(0.75)) & MaxTokens(30).check(table)
    np.testing.assert_array_equal(result.keep, expected)
    assert not result.fold.any() and result.boundaries == []
    assert set(result.counts) == {"kept", "score_out_of_range", "too_many_tokens"}
    sampled = select_training_pairs(table, config.model_copy(update={"sample": 100}), seed=1)
    assert sampled.keep.sum() == 100 and np.all(expected[sampled.keep])
    everything = select_training_pairs(table, config.model_copy(update={"sample": 10**6}), seed=1)
    np.testing.assert_array_equal(everything.keep, expected)  # a sample larger than the pool keeps it all


def test_hash_sample_is_order_free_and_nested():
    rng = np.random.default_rng(8)
    n = 3000
    ids = [f"p{i}" for i in range(n)]
    eligible = rng.random(n) < 0.5
    small, large = hash_sample(eligible, ids, 100, 3), hash_sample(eligible, ids, 400, 3)
    assert small.sum() == 100 and large.sum() == 400
    assert np.all(large[small]) and np.all(eligible[large])
    perm = rng.permutation(n)
    np.testing.assert_array_equal(hash_sample(eligible[perm], [ids[i] for i in perm], 100, 3), small[perm])


def test_sample_from_folds_for_table_5():
    rng = np.random.default_rng(9)
    table = pairs_table(rng, 4000)
    fold = assign_folds(table.column("paraphrase_score").to_numpy(), table.column("id"), 10, 1)
    for j in (1, 5, 10):
        chosen = sample_from_folds(table, fold, [j], 150, seed=2)
        assert chosen.sum() == 150 and np.all(fold[chosen] == j)
        assert np.all(MaxTokens(30).check(table)[chosen])
    everything = sample_from_folds(table, fold, [3], 10**6, seed=2, max_tokens=None)
    np.testing.assert_array_equal(everything, fold == 3)


# ------------------------------------------------------------------------------------------- fold subsets


def test_write_fold_subsets_round_trip(tmp_path):
    rng = np.random.default_rng(10)
    table = pairs_table(rng, 1234)
    config = SelectConfig()
    result = select_training_pairs(table, config, seed=1234)
    paths = write_fold_subsets(table, result.fold, tmp_path / "folds", config, criterion="paraphrase_score",
                               folds=10)
    assert [p.name for p in paths] == [fold_file_name(j, 10) for j in range(1, 11)]
    assert paths[0].name == "fold-01-of-10.parquet" and fold_file_name(7, 100) == "fold-007-of-100.parquet"
    total = 0
    for j, path in enumerate(paths, start=1):
        back = pq.read_table(path)
        check_schema(back.schema)
        meta = read_metadata(back.schema)
        assert meta["fold"] == j and meta["folds"] == 10 and meta["criterion"] == "paraphrase_score"
        assert meta["config"]["select_folds"] == [9, 10]
        assert meta["boundaries"][j - 1]["size"] == back.num_rows == int((result.fold == j).sum())
        scores = back.column("paraphrase_score").to_numpy()
        assert meta["boundaries"][j - 1]["min"] == pytest.approx(float(scores.min()))
        assert meta["boundaries"][j - 1]["max"] == pytest.approx(float(scores.max()))
        assert back.column("id").to_pylist() == table.filter(pa.array(result.fold == j)).column("id").to_pylist()
        total += back.num_rows
    assert total == table.num_rows
    assert not list((tmp_path / "folds").glob(".*tmp*"))

    # fewer rows than folds: empty folds are still written, unranked rows (fold 0) are not
    tiny = table.slice(0, 3)
    paths = write_fold_subsets(tiny, np.array([0, 2, 5], dtype=np.int8), tmp_path / "tiny", {"note": "x"}, folds=5)
    assert [pq.read_metadata(p).num_rows for p in paths] == [0, 1, 0, 0, 1]
    with pytest.raises(ValueError):
        write_fold_subsets(tiny, np.array([1, 2]), tmp_path / "bad", None)


def test_cli_writes_folds_and_prints_sizes(tmp_path, capsys):
    rng = np.random.default_rng(11)
    table = pairs_table(rng, 777)
    pq.write_table(table, tmp_path / "pairs.parquet")
    code = folds_command.main(["--input", str(tmp_path / "pairs.parquet"), "--out", str(tmp_path / "out"),
                              "--criterion", "trigram_overlap", "--folds", "5", "--seed", "3"])
    assert code == 0
    out = capsys.readouterr().out
    assert "ranked 777 of 777 pairs by trigram_overlap into 5 folds (seed 3)" in out
    files = sorted((tmp_path / "out").glob("fold-*.parquet"))
    assert [f.name for f in files] == [fold_file_name(j, 5) for j in range(1, 6)]
    sizes = [pq.read_metadata(f).num_rows for f in files]
    assert sorted(set(sizes)) == [155, 156] and sum(sizes) == 777
    summary = json.loads((tmp_path / "out" / "folds.json").read_text())
    assert [b["size"] for b in summary["boundaries"]] == sizes
    expected = assign_folds(table.column("trigram_overlap").to_numpy(), table.column("id"), 5, 3)
    back = pq.read_table(files[4])
    assert sorted(back.column("id").to_pylist()) == sorted(np.array(table.column("id").to_pylist())[expected == 5])
    assert read_metadata(back.schema)["config"]["seed"] == 3
    assert folds_command.main(["--input", str(tmp_path / "missing.parquet"), "--out", str(tmp_path / "x")]) == 2
    (tmp_path / "empty").mkdir()
    capsys.readouterr()
    assert folds_command.main(["--input", str(tmp_path / "empty"), "--out", str(tmp_path / "x")]) == 2
    assert "holds no Parquet file" in capsys.readouterr().err
    shards = tmp_path / "shards"  # a pairs/ folder: its shards together, as one file
    shards.mkdir()
    pq.write_table(table.slice(0, 400), shards / "pairs-00000-of-00002.parquet")
    pq.write_table(table.slice(400), shards / "pairs-00001-of-00002.parquet")
    assert folds_command.main(["--input", str(shards), "--out", str(tmp_path / "from-shards"),
                               "--criterion", "trigram_overlap", "--folds", "5", "--seed", "3"]) == 0
    assert [pq.read_table(f).sort_by("id").equals(pq.read_table(g).sort_by("id")) for f, g in zip(
        sorted((tmp_path / "from-shards").glob("fold-*.parquet")), files, strict=True)] == [True] * 5
    unscored = table.set_column(table.schema.get_field_index("paraphrase_score"), "paraphrase_score",
                                pa.nulls(table.num_rows, table.schema.field("paraphrase_score").type))
    pq.write_table(unscored, tmp_path / "unscored.parquet")  # a --no-score run's pairs: it wrote ten empty folds
    capsys.readouterr()
    assert folds_command.main(["--input", str(tmp_path / "unscored.parquet"), "--out", str(tmp_path / "u")]) == 2
    assert "score them first with paranmt score" in capsys.readouterr().err and not (tmp_path / "u").exists()


def test_module_import_does_not_import_beam_and_cli_runs(tmp_path):
    code = "import sys, filters.folds; assert 'apache_beam' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True, timeout=60)
    pq.write_table(pairs_table(np.random.default_rng(13), 50), tmp_path / "pairs.parquet")
    run = subprocess.run([sys.executable, "-m", "paranmt", "folds",
                          "--input", str(tmp_path / "pairs.parquet"), "--out", str(tmp_path / "out")], cwd=REPO_ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "into 10 folds (seed 1234)" in run.stdout and "fold-10-of-10.parquet" in run.stdout
    assert len(list((tmp_path / "out").glob("fold-*-of-10.parquet"))) == 10


# ---------------------------------------------------------------------------------------- Beam, approximate


def test_interior_boundaries_exact_for_small_inputs():
    for n in range(0, 25):
        for k in (2, 3, 10):
            keys = [(1, float(i), 0) for i in range(n)]
            interior = interior_boundaries(keys, k) if n < k + 1 else None
            if interior is None:
                continue
            got = [fold_of_key(key, interior) for key in keys]
            assert got == [r * k // n + 1 for r in range(n)], (n, k)
def test_beam_approximate_folds_are_within_the_epsilon_bound(tmp_path):
    """The pipeline's ranking at scale: boundaries from ApproximateQuantiles in Beam (FoldBoundaries), folds
    column-wise (folds_of_keys); fold sizes within 2εn + 1 of n/k, each row at most one fold from the exact one."""
    import apache_beam as beam

    from pipeline.stages.selection import FoldBoundaries, folds_of_keys

    rng = np.random.default_rng(12)
    n, k, eps, seed = 20_000, 10, 0.01, 77
    values = (rng.integers(0, 50, n) / 50).astype(np.float32)  # many ties: the key hash must split them
    keys = [folds_module.pair_key(f"czeng-{i}", "x", None) for i in range(n)]  # ties are split by the pair's text
    hashes = folds_module.key_hash(keys, seed)
    sort_keys = [(1, float(v), int(h)) for v, h in zip(values, hashes, strict=True)]
    with beam.Pipeline(runner="BundleBasedDirectRunner") as pipeline:
        # Keys made in a Map, as the pipeline makes them in a FlatMap: Create would encode them with the varint
        # coder it infers for int tuples, which a 64-bit hash above 2**63 does not fit.
        interior = (pipeline | beam.Create(range(n), reshuffle=False) | beam.Map(sort_keys.__getitem__)
                    | FoldBoundaries(k, eps, max_num_elements=n))
        _ = interior | beam.Map(json.dumps) | beam.io.WriteToText(str(tmp_path / "bounds"))
    (bounds_file,) = tmp_path.glob("bounds*")
    interior = [tuple(b) for b in json.loads(bounds_file.read_text())]
    assert len(interior) == k - 1
    approx_fold = folds_of_keys(np.ones(n, np.int64), values.astype(np.float64), hashes, interior)
    sizes = np.bincount(approx_fold, minlength=k + 1)[1:]
    assert np.all(np.abs(sizes - n / k) <= 2 * eps * n + 1), sizes

    # same total order as the exact folds; boundaries within eps * n ranks of the exact ones
    exact = assign_folds(values, keys, k, seed)
    assert (approx_fold == exact).mean() > 1 - 2 * eps * (k - 1)
    assert np.all(np.abs(approx_fold - exact) <= 1)
    ordered = sorted(sort_keys)
    for j, boundary in enumerate(interior, start=1):
        rank = ordered.index(boundary)
        assert abs(rank - math.ceil(j * n / k)) <= eps * n + 1, (j, rank)
        exact_start = values[exact == j + 1].min()
        assert abs(boundary[1] - exact_start) <= 0.02 + 1e-6  # one tie level of the 50 either way


# ---------------------------------------------------------------------------------------------- real pairs


@pytest.fixture(scope="module")
def real_pairs() -> pa.Table:
    """2,000 real pairs (the bundled back-translation pairs: a Tatoeba sentence and the default model's translation
    of its Czech side), Moses-tokenised, scored by a Jaccard overlap of lower-cased token sets (many ties)."""
    from sacremoses import MosesTokenizer

    _, first, second = taste_pairs(2000)
    n = len(first)
    tokenizer = MosesTokenizer(lang="en")
    en_tokens = [tokenizer.tokenize(s, escape=False) for s in first]
    mt_tokens = [tokenizer.tokenize(s, escape=False) for s in second]
    jaccard = []
    for a, b in zip(en_tokens, mt_tokens, strict=True):
        sa, sb = {t.lower() for t in a}, {t.lower() for t in b}
        jaccard.append(len(sa & sb) / len(sa | sb) if sa | sb else 0.0)
    return table_from_columns({
        "id": [f"tatoeba-{i}" for i in range(n)],
        "source": ["tatoeba"] * n,
        "en": first,
        "mt": second,
        "en_tokens": en_tokens,
        "mt_tokens": mt_tokens,
        "paraphrase_score": np.array(jaccard, dtype=np.float32),
        "no_known_words": [len(a) == 0 or len(b) == 0 for a, b in zip(en_tokens, mt_tokens, strict=True)],
    })


def test_real_pairs_folds_and_selection(real_pairs, tmp_path):
    table = real_pairs
    n = table.num_rows
    scores = table.column("paraphrase_score").to_numpy()
    assert len(np.unique(scores)) < n / 10  # heavy ties: the tie-break matters

    keys = pair_keys(table).to_pylist()  # ties (many here) are split by the pair's text, not its id
    fold = assign_folds(scores, pair_keys(table), 10, 1234)
    assert fold.tolist() == reference_folds(scores.tolist(), keys, 10, 1234)
    sizes = np.bincount(fold, minlength=11)[1:]
    assert sizes.tolist() == [n // 10] * 10
    means = [scores[fold == j].mean() for j in range(1, 11)]
    assert means == sorted(means) and means[-1] > 2 * means[0]

    # Translations identical to their sentence are copies (drop_copies would take them out of the ranking): compare
    # the selection's folds with the plain ranking of every pair.
    # Tatoeba's sentences are short: a 10-token cap (the default is 30) so that the length rule rejects some too.
    sample, cap = n // 12, 10
    result = select_training_pairs(table, SelectConfig(sample=sample, drop_copies=False, max_tokens=cap), seed=1234)
    np.testing.assert_array_equal(result.fold, fold)
    assert result.keep.sum() == sample and sum(result.counts.values()) == n
    lengths = MaxTokens(cap).check(table)
    assert np.all(np.isin(fold[result.keep], [9, 10])) and np.all(lengths[result.keep])
    assert result.counts["too_many_tokens"] == int((np.isin(fold, [9, 10]) & ~lengths).sum())
    assert scores[result.keep].min() >= result.boundaries[8].min
    kept = table.filter(pa.array(result.keep))
    assert all(0 < len(t) <= cap for t in kept.column("en_tokens").to_pylist())

    paths = write_fold_subsets(table, fold, tmp_path, SelectConfig(), criterion="paraphrase_score", folds=10)
    top = pq.read_table(paths[-1])
    assert top.num_rows == n // 10 and read_metadata(top.schema)["boundaries"][9]["max"] == pytest.approx(1.0)
