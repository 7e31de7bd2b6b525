"""The PMI paraphrase lexicon (pipeline/analysis/pmi_lexicon.py): hand counts on a toy corpus, the vectorised counts
against an obvious reference, selection accounting, bounded memory, evaluation and the CLI."""

from __future__ import annotations

import itertools
import json
import math
import re
import tracemalloc
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cli.lexicon_command import main
from configs.schema import LexiconConfig
from pipeline.analysis.pmi_lexicon import (
    LEXICON_SCHEMA,
    LexiconError,
    PairCounts,
    build_from_parquet,
    build_from_tables,
    compute_lexicon,
    evaluate_wordsim,
    lexicon_files,
    lexicon_metadata,
    load_wordsim,
    neighbours,
    select_pairs,
    top_k_table,
    write_outputs,
)
from tests.conftest import read_lines, shared_data, taste_pairs

PLAIN = dict(min_score=None, min_count=1, drop_stopwords=False, max_vocab=None)


def _pairs(en: list[list[str]], mt: list[list[str]], **columns) -> pa.Table:
    return pa.table({"en_tokens": pa.array(en, pa.list_(pa.string())),
                     "mt_tokens": pa.array(mt, pa.list_(pa.string())), **columns})


def _rows(lexicon: pa.Table) -> dict[tuple[str, str], dict]:
    return {(r["u"], r["v"]): r for r in lexicon.to_pylist()}


# ------------------------------------------------------------------------------------------------- toy corpus

TOY_EN = [["The", "man", "runs", "."], ["a", "man", "walks"], ["dog", "runs", "runs"]]
TOY_MT = [["a", "guy", "runs"], ["the", "man", "walks", "."], ["the", "dog", "is", "running"]]


def test_pmi_values_against_hand_counts():
    """Three pairs, stop words and punctuation dropped, types per sentence ('runs runs' counts once); the
    ``additive`` within-sentence estimate (the prior's hand values: test_paper_definition_on_a_hand_computed_corpus).

    Types: p1 {man, runs} / {guy, runs}; p2 {man, walks} / {man, walks}; p3 {dog, runs} / {dog, running}.
    P = 3, #(.,.) = N = 6; #(man) = 3, #(guy) = 1, #(runs) = 3, #(running) = 1; #_ref(man) = 2, #_mt(man) = 1,
    #_ref(runs) = 2, #_mt(runs) = 1, #_mt(guy) = 1.
    """
    config = LexiconConfig(min_score=None, min_count=1, within_estimate="additive")
    counts, vocab, marginals = build_from_tables([_pairs(TOY_EN, TOY_MT)], config)
    assert marginals.used == 3 and sorted(vocab.words.to_pylist()) == ["dog", "guy", "man", "running", "runs",
                                                                        "walks"]
    rows = _rows(compute_lexicon(counts, vocab, config))
    man_guy = rows[("man", "guy")]
    assert (man_guy["joint"], man_guy["count_u"], man_guy["count_v"]) == (1, 3, 1)
    assert man_guy["pmi_cross"] == pytest.approx(math.log(1 * 6 / (3 * 1)))
    # within: ref: #(man,guy)=0, #ref(man)=2, #ref(guy)=0 -> log(1*3/(3*1)); mt: #mt(man)=1, #mt(guy)=1 -> log(3/4)
    within = 0.5 * (math.log(1 * 3 / (3 * 1)) + math.log(1 * 3 / (2 * 2)))
    assert man_guy["pmi_within"] == pytest.approx(within)
    assert man_guy["pmi_adj"] == pytest.approx(math.log(2) - within)
    # man/runs: cross 1 (p1: man in ref, runs in translation); within_ref 1 (p1's reference holds both).
    man_runs = rows[("man", "runs")]
    assert (man_runs["joint"], man_runs["within_ref"], man_runs["within_mt"]) == (1, 1, 0)
    within = 0.5 * (math.log(2 * 3 / (3 * 3)) + math.log(1 * 3 / (2 * 2)))
    assert man_runs["pmi_cross"] == pytest.approx(math.log(6 / 9))
    assert man_runs["pmi_adj"] == pytest.approx(math.log(6 / 9) - within)
    # man/walks: p2 (man, walks) both ways: [man in a][walks in b] + [man in b][walks in a] = 2.
    assert rows[("man", "walks")]["joint"] == 2 and rows[("walks", "man")]["joint"] == 2
    assert rows[("runs", "running")]["pmi_cross"] == pytest.approx(math.log(1 * 6 / (3 * 1)))
    # Symmetric, no self pairs, nothing for words never across a pair from each other.
    assert all((v, u) in rows and rows[(v, u)]["pmi_adj"] == r["pmi_adj"] for (u, v), r in rows.items())
    assert ("man", "man") not in rows and ("guy", "walks") not in rows and ("the", "man") not in rows


# The paper's definitions (Appendix A.1) on a corpus small enough to count by hand. Types per sentence:
#   p1 {car, red} / {auto, red}    p2 {car, fast} / {auto, quick}    p3 {red, fast} / {red, quick}
#   p4 {red, dog} / {red, dog}
# P = 4 pairs, #(.,.) = N = 8. Per side: ref car 2, red 3, fast 2, dog 1; mt auto 2, red 3, quick 2, dog 1.
# Both sides: car 2, auto 2, fast 2, quick 2, red 6, dog 2.
HAND_EN = [["car", "red"], ["car", "fast"], ["red", "fast"], ["red", "dog"]]
HAND_MT = [["auto", "red"], ["auto", "quick"], ["red", "quick"], ["red", "dog"]]


def test_paper_definition_on_a_hand_computed_corpus():
    """car/auto is a paraphrase (always across a pair, never in one sentence); red/dog only ever shares a sentence
    (the paper's Hong/Kong). By hand:

    - car/auto: #(car,auto) = 2 (p1, p2; auto is never on the reference side) -> PMI_cross = log(2*8/(2*2)) = log 4.
      Within: car is never a translation word and auto never a reference word: E_ref = E_mt = 0 and #_X = 0, so
      the paper's ordinary PMI is log(0/0), undefined; the prior says nothing either way, PMI = log(1/1) = 0 and
      PMI_adj = log 4. The additive estimate gives log((0+1)*4/((2+1)(0+1))) = log(4/3) per side: PMI_adj = log 3.
    - red/dog: #(red,dog) = 2 (p4 both ways) -> PMI_cross = log(2*8/(6*2)) = log(4/3). Within: #_X(red,dog) = 1,
      #_X(red) = 3, #_X(dog) = 1 per side: the paper's PMI = log(1*4/(3*1)) = log(4/3), PMI_adj = 0 (all of the
      cross-sentence association is explained by the sentence). Prior b = 1: E = 3/4, PMI = log(2/1.75) =
      log(8/7), PMI_adj = log(4/3) - log(8/7) = log(7/6). Additive: log(2*4/(4*2)) = 0, PMI_adj = log(4/3).
    - red/quick: #(red,quick) = 1 (p3) -> PMI_cross = log(1*8/(6*2)) = log(2/3). Ref: quick absent, 0; mt:
      #_mt = 1, E_mt = 3*2/4 = 1.5 -> log(2/2.5); PMI = log(0.8)/2.
    """
    rows = _rows(compute_lexicon(*build_from_tables([_pairs(HAND_EN, HAND_MT)], LexiconConfig(**PLAIN))[:2],
                                 LexiconConfig(**PLAIN)))
    log = math.log
    car_auto, red_dog, red_quick = rows[("car", "auto")], rows[("red", "dog")], rows[("red", "quick")]
    assert (car_auto["joint"], car_auto["within_ref"], car_auto["within_mt"]) == (2, 0, 0)
    assert (red_dog["joint"], red_dog["within_ref"], red_dog["within_mt"]) == (2, 1, 1)
    assert car_auto["pmi_cross"] == pytest.approx(log(4)) and red_dog["pmi_cross"] == pytest.approx(log(4 / 3))
    assert car_auto["pmi_within"] == pytest.approx(0) and car_auto["pmi_adj"] == pytest.approx(log(4))
    assert red_dog["pmi_within"] == pytest.approx(log(8 / 7)) and red_dog["pmi_adj"] == pytest.approx(log(7 / 6))
    assert red_quick["pmi_cross"] == pytest.approx(log(2 / 3))
    assert red_quick["pmi_adj"] == pytest.approx(log(2 / 3) - log(0.8) / 2)
    assert rows[("fast", "quick")]["pmi_adj"] == pytest.approx(log(4))  # the other paraphrase, same counts

    # A prior of ~0 is the paper's unsmoothed ordinary PMI wherever that is defined.
    plain = LexiconConfig(**PLAIN, within_prior=1e-12)
    exact = _rows(compute_lexicon(*build_from_tables([_pairs(HAND_EN, HAND_MT)], plain)[:2], plain))
    assert exact[("red", "dog")]["pmi_within"] == pytest.approx(log(4 / 3), abs=1e-9)
    assert exact[("red", "dog")]["pmi_adj"] == pytest.approx(0, abs=1e-9)

    additive = LexiconConfig(**PLAIN, within_estimate="additive")
    old = _rows(compute_lexicon(*build_from_tables([_pairs(HAND_EN, HAND_MT)], additive)[:2], additive))
    assert old[("car", "auto")]["pmi_within"] == pytest.approx(log(4 / 3))
    assert old[("car", "auto")]["pmi_adj"] == pytest.approx(log(3))
    assert old[("red", "dog")]["pmi_adj"] == pytest.approx(log(4 / 3))


def test_additive_estimate_finds_rare_pairs_associated_and_the_prior_does_not():
    """The diagnosis of issue 27 in one corpus: two words in 2 of 1,000 sentences per side that never share one,
    always paraphrases of each other: #(lorry, truck) = 4, #(lorry) = #(truck) = 4, PMI_cross = log(4*2000/16) =
    log 500. Expected together in one sentence E = 2*2/1000 = 0.004 times per side. The additive estimate's PMI
    is log(1*1000/(3*3)) = log(111): strongly associated, so their adjusted PMI is pushed down by 4.7 nats; the
    prior's is log(1/1.004) ~ 0, so the adjusted PMI stays the cross-sentence PMI."""
    en = [["lorry"], ["lorry"], ["truck"], ["truck"]] + [["filler"]] * 996
    mt = [["truck"], ["truck"], ["lorry"], ["lorry"]] + [["padding"]] * 996
    for estimate, within in (("additive", math.log(1000 / 9)), ("prior", math.log(1 / 1.004))):
        config = LexiconConfig(**PLAIN, within_estimate=estimate)
        row = _rows(compute_lexicon(*build_from_tables([_pairs(en, mt)], config)[:2], config))[("lorry", "truck")]
        assert (row["joint"], row["within_ref"], row["within_mt"]) == (4, 0, 0)
        assert row["pmi_cross"] == pytest.approx(math.log(500))
        assert row["pmi_within"] == pytest.approx(within)
        assert row["pmi_adj"] == pytest.approx(row["pmi_cross"] - within)


def test_within_estimate_settings_are_validated():
    from configs import ConfigError, load_config

    assert load_config(None, []).lexicon.within_estimate == "prior"
    assert load_config(None, ["lexicon.within_estimate=additive", "lexicon.smoothing=0.5"]).lexicon.smoothing == 0.5
    for overrides, shown in ((["lexicon.smoothing=0.5"], "smoothing (0.5) applies to within_estimate 'additive'"),
                             (["lexicon.within_estimate=additive", "lexicon.within_prior=3"], "within_prior (3.0)"),
                             (["lexicon.within_prior=0"], "lexicon.within_prior: Input should be greater than 0"),
                             (["lexicon.within_estimate=bayes"], "lexicon.within_estimate: Input should be")):
        with pytest.raises(ConfigError, match=re.escape(shown)):
            load_config(None, overrides)
    # A full dump (every field written out at its default, e.g. copied from stats.json) loads again.
    assert LexiconConfig(**LexiconConfig().model_dump()) == LexiconConfig()


def _reference(en, mt, lowercase=True):
    """Obvious nested-loop counts: marginals per side, cross (both directions), within per side (ordered)."""
    refm, mtm, cross, wref, wmt = Counter(), Counter(), Counter(), Counter(), Counter()
    for a, b in zip(en, mt, strict=True):
        a = {w.lower() if lowercase else w for w in a}
        b = {w.lower() if lowercase else w for w in b}
        refm.update(a)
        mtm.update(b)
        for x in a:
            for y in b:
                cross[(x, y)] += 1
                cross[(y, x)] += 1
        wref.update(itertools.permutations(a, 2))
        wmt.update(itertools.permutations(b, 2))
    return refm, mtm, cross, wref, wmt


def _reference_within(joint: int, count_u: int, count_v: int, sentences: int, config: LexiconConfig) -> float:
    """One side's within-sentence PMI of one word pair, written out (docs/lexicon.md)."""
    if config.within_estimate == "prior":
        b = config.within_prior
        return math.log((joint + b) / (count_u * count_v / sentences + b))
    a = config.smoothing
    return math.log((joint + a) * sentences / ((count_u + a) * (count_v + a)))


@pytest.mark.parametrize(("chunk_keys", "estimate"), [(1000, "prior"), (2_000_000, "prior"),
                                                      (2_000_000, "additive")])
def test_vectorised_counts_equal_the_reference_on_real_pairs(chunk_keys, estimate):
    _, en_lines, mt_lines = taste_pairs(400)  # real back-translation pairs, bundled
    en, mt = [line.split() for line in en_lines], [line.split() for line in mt_lines]
    config = LexiconConfig(**PLAIN, drop_punctuation=False, chunk_keys=chunk_keys, max_tokens=None,
                           within_estimate=estimate)
    tables = [_pairs(en[i:i + 37], mt[i:i + 37]) for i in range(0, 400, 37)]  # uneven batches
    counts, vocab, _ = build_from_tables(tables, config)
    lexicon = compute_lexicon(counts, vocab, config)
    refm, mtm, cross, wref, wmt = _reference(en, mt)
    expected = {k: c for k, c in cross.items() if k[0] != k[1]}
    rows = _rows(lexicon)
    assert len(rows) == len(expected)
    P = 400
    for (u, v), r in rows.items():
        assert (r["joint"], r["within_ref"], r["within_mt"]) == (expected[(u, v)], wref[(u, v)], wmt[(u, v)])
        tu, tv = refm[u] + mtm[u], refm[v] + mtm[v]
        cross_pmi = math.log(expected[(u, v)] * 2 * P / (tu * tv))
        within = 0.5 * (_reference_within(wref[(u, v)], refm[u], refm[v], P, config)
                        + _reference_within(wmt[(u, v)], mtm[u], mtm[v], P, config))
        assert r["pmi_cross"] == pytest.approx(cross_pmi, abs=1e-9)
        assert r["pmi_adj"] == pytest.approx(cross_pmi - within, abs=1e-9)
    # Merging two halves (what Beam's combiners do) gives the same counts.
    first, vocab1, _ = build_from_tables(tables, config)
    half = PairCounts(len(vocab1), chunk_keys)
    other = PairCounts(len(vocab1), chunk_keys)
    for k, t in enumerate(tables):
        (half if k % 2 else other).add_table(t, vocab1, config)
    merged = half.merge(other).compact()
    assert np.array_equal(merged.cross.keys, first.cross.keys) and np.array_equal(merged.cross.counts,
                                                                                   first.cross.counts)


# ----------------------------------------------------------------------------------------- selection, vocabulary


def test_selection_accounts_for_every_row():
    table = _pairs([["a"], [], ["b"], ["c"], ["x"] * 31, ["d"]], [["a"], ["b"], ["b"], ["c"], ["y"], ["d"]],
                   paraphrase_score=pa.array([0.9, 0.9, None, 0.2, 0.9, 0.35], pa.float32()),
                   keep=pa.array([True, True, True, True, True, False]))
    en, _, skipped = select_pairs(table, LexiconConfig())
    assert en.to_pylist() == [["a"], ["d"]]  # 0.35 is inclusive
    assert skipped == {"empty_side": 1, "missing_score": 1, "score_below_min": 1, "too_many_tokens": 1}
    _, _, skipped = select_pairs(table, LexiconConfig(only_kept=True))
    assert skipped["not_kept"] == 1
    with pytest.raises(LexiconError, match="no paraphrase_score column"):
        select_pairs(table.drop_columns(["paraphrase_score"]), LexiconConfig())


def test_vocabulary_cap_min_count_stopwords_and_punctuation():
    en = [["The", "cat", ",", "sat", "mat"], ["the", "cat", "ran"], ["cat", "sat", "zebra"]]
    mt = [["a", "cat", "sat", "!"], ["cat", "ran"], ["cat", "sat"]]
    config = LexiconConfig(min_score=None, min_count=2, max_vocab=2, stopwords=["mat"])
    _, vocab, _ = build_from_tables([_pairs(en, mt)], config)
    assert vocab.words.to_pylist() == ["cat", "sat"]  # most frequent first; ran (2 sentences) cut by the cap
    assert vocab.excluded == {"punctuation": 2, "stopword": 3, "min_count": 1, "max_vocab": 1}


def test_memory_stays_bounded_on_long_sentences():
    """20 pairs of 3,000-token sentences over 5,000 word types (the cartesian products alone would be ~2.5e6 word
    pairs per pair per table): with a 500-word vocabulary and 50k keys per chunk, peak allocations stay small, and
    the counts equal an unbounded run's."""
    rng = np.random.default_rng(0)
    words = np.array([f"w{i}" for i in range(5000)])
    # A Zipf-like draw, so the vocabulary cap keeps the frequent words.
    draw = lambda: words[np.minimum(rng.zipf(1.2, 3000), 5000) - 1].tolist()  # noqa: E731
    table = _pairs([draw() for _ in range(20)], [draw() for _ in range(20)])
    bounded = LexiconConfig(min_score=None, max_tokens=None, min_count=1, max_vocab=500, chunk_keys=50_000,
                            batch_pairs=5)
    tables = [table.slice(i, 5) for i in range(0, 20, 5)]
    tracemalloc.start()
    counts, vocab, _ = build_from_tables(tables, bounded)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(vocab) == 500
    assert counts.cross.keys.size <= 500 * 501 // 2
    assert peak < 40e6, f"peak {peak / 1e6:.1f} MB"
    tracemalloc.start()
    unbounded, _, _ = build_from_tables([table], bounded.model_copy(update={"chunk_keys": 50_000_000}))
    _, unbounded_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert unbounded_peak > 3 * peak  # what the chunking saves: the whole batch's products at once
    assert np.array_equal(counts.cross.counts, unbounded.cross.counts)
    assert np.array_equal(counts.within["mt"].keys, unbounded.within["mt"].keys)


# ------------------------------------------------------------------------------------------ outputs, evaluation


def _built_lexicon(root: Path, en: list[list[str]], mt: list[list[str]], split: int) -> Path:
    """The stand-alone command's lexicon (4 shards, min_joint 5) of two Parquet files, rows before and after
    ``split``; every 50th pair scores 0.1, the rest 0.9."""
    score = pa.array(np.where(np.arange(len(en)) % 50 == 0, 0.1, 0.9), pa.float32())
    (root / "pairs").mkdir()
    pq.write_table(_pairs(en[:split], mt[:split], paraphrase_score=score[:split]), root / "pairs" / "a.parquet")
    pq.write_table(_pairs(en[split:], mt[split:], paraphrase_score=score[split:]), root / "pairs" / "b.parquet")
    assert main(["build", "--input", str(root / "pairs"), "--out", str(root / "lex"), "--quiet",
                 "--set", "lexicon.min_joint=5", "--set", "lexicon.num_shards=4"]) == 0
    return root / "lex"


@pytest.fixture(scope="module")
def caption_lexicon(tmp_path_factory) -> Path:
    """A lexicon from 2,000 images x 10 real caption pairs, written by the stand-alone command from Parquet."""
    root = tmp_path_factory.mktemp("captions")
    caps = [read_lines(shared_data(f"paraphrase/multi30k-captions/train.{k}.en"))[:2000] for k in range(1, 6)]
    en, mt = [], []
    for i, j in itertools.combinations(range(5), 2):
        en += [c.lower().replace(".", " .").split() for c in caps[i]]
        mt += [c.lower().replace(".", " .").split() for c in caps[j]]
    return _built_lexicon(root, en, mt, split=10_000)


@pytest.fixture(scope="module")
def pairs_lexicon(tmp_path_factory) -> Path:
    """A lexicon from the 2,000 bundled back-translation pairs (tests/conftest.py:taste_pairs), written by the
    stand-alone command from Parquet in four shards."""
    root = tmp_path_factory.mktemp("pairs")
    _, en_lines, mt_lines = taste_pairs(2000)
    en = [line.lower().replace(".", " .").split() for line in en_lines]
    mt = [line.lower().replace(".", " .").split() for line in mt_lines]
    return _built_lexicon(root, en, mt, split=1000)


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


def test_build_command_outputs(caption_lexicon, capsys):
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
    best = neighbours(caption_lexicon, "Bicycle", k=5, min_joint=5)
    assert "bike" in best.column("v").to_pylist()
    assert best.column("pmi_adj").to_pylist() == sorted(best.column("pmi_adj").to_pylist(), reverse=True)
    assert main(["neighbours", "--lexicon", str(caption_lexicon), "bicycle", "zzzz", "-k", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bicycle\t") and out[1] == "zzzz\t-"
    figures = caption_lexicon.parent / "eval.json"
    men, ws = shared_data("wordsim/EN-MEN-TR-3k.txt"), shared_data("wordsim/EN-WS-353-ALL.txt")
    assert main(["evaluate", "--lexicon", str(caption_lexicon), "--wordsim", str(men), "--wordsim", str(ws),
                 "--json", str(figures)]) == 0
    table = capsys.readouterr().out
    rows = json.loads(figures.read_text())
    assert [(r["set"], r["score"]) for r in rows] == [("EN-MEN-TR-3k", "pmi_cross"), ("EN-MEN-TR-3k", "pmi_adj"),
                                                      ("EN-WS-353-ALL", "pmi_cross"), ("EN-WS-353-ALL", "pmi_adj")]
    assert rows[0]["covered"] > 200 and rows[0]["rho_all"] > 0.1 and "EN-WS-353-ALL" in table


def test_top_k_table_ranks_within_each_word():
    lexicon = pa.table({"u": ["a", "a", "a", "b"], "v": ["x", "y", "z", "x"], "joint": [10, 12, 3, 10],
                        "pmi_adj": [1.0, 2.0, 9.0, 0.5], "pmi_cross": [0.0, 0.0, 0.0, 0.0]})
    top = top_k_table(lexicon, k=1, min_joint=10)
    assert top.select(["u", "rank", "v"]).to_pylist() == [{"u": "a", "rank": 1, "v": "y"},
                                                          {"u": "b", "rank": 1, "v": "x"}]


def test_an_empty_top_k_table_has_the_schema_of_a_full_one():
    """A shard where no pair reaches min_joint: its empty list concatenates with the other shards' (it had a
    schema of its own, nullable columns, and the lexicon summary failed on real pairs)."""
    columns = {"u": ["a", "b"], "v": ["x", "x"], "joint": [10, 3], "pmi_adj": [1.0, 0.5]}
    lexicon = pa.table({f.name: columns.get(f.name, [0, 0]) for f in LEXICON_SCHEMA}, schema=LEXICON_SCHEMA)
    full, empty = top_k_table(lexicon, k=1, min_joint=10), top_k_table(lexicon, k=1, min_joint=11)
    assert empty.num_rows == 0 and empty.schema == full.schema
    assert pa.concat_tables([empty, full]).equals(full)


def test_wordsim_spearman_with_unseen_pairs_as_zero(tmp_path):
    from scipy.stats import spearmanr

    lexicon = pa.table({"u": ["car", "auto", "cup", "dog"], "v": ["auto", "car", "mug", "cat"],
                        "joint": [5, 5, 2, 1], "pmi_cross": [3.0, 3.0, 1.0, 2.0], "pmi_adj": [2.0, 2.0, -1.0, 0.5]})
    path = tmp_path / "sim.txt"
    path.write_bytes(b"Car\tauto\t9.0\r\ncup\tmug\t8.0\r\ndog\tcat\t5.0\r\nsun\tmoon\t3.0\r\nx\ty\t1.0\r\n")
    assert load_wordsim(path)[0] == ["car", "cup", "dog", "sun", "x"]  # CRLF and case handled
    cross, adj = evaluate_wordsim(lexicon, path)
    gold = [9, 8, 5, 3, 1]
    assert (cross.pairs, cross.covered, cross.coverage) == (5, 3, 0.6)
    assert cross.rho_all == pytest.approx(spearmanr([3, 1, 2, 0, 0], gold)[0])
    assert cross.rho_covered == pytest.approx(spearmanr([3, 1, 2], gold[:3])[0])
    assert adj.rho_all == pytest.approx(spearmanr([2, -1, 0.5, 0, 0], gold)[0])
    only_frequent = evaluate_wordsim(lexicon, path, min_joint=5)[0]
    assert only_frequent.covered == 1


def test_real_caption_lexicon_beats_the_shuffled_control():
    """Seconds-long smoke version of benchmarks/lexicon/lexicon_eval.py: 2,000 images x 10 real caption pairs; cross PMI
    correlates with MEN, and the same pairs re-paired at random do not."""
    caps = [[line.lower().replace(".", " .").split() for line in
             read_lines(shared_data(f"paraphrase/multi30k-captions/train.{k}.en"))[:2000]] for k in range(1, 6)]
    en = [s for i, _ in itertools.combinations(range(5), 2) for s in caps[i]]
    mt = [s for _, j in itertools.combinations(range(5), 2) for s in caps[j]]
    config = LexiconConfig(min_score=None)
    men = shared_data("wordsim/EN-MEN-TR-3k.txt")
    real = evaluate_wordsim(compute_lexicon(*build_from_tables([_pairs(en, mt)], config)[:2], config), men)[0]
    order = np.random.default_rng(0).permutation(len(mt))
    shuffled = _pairs(en, [mt[k] for k in order])
    control = evaluate_wordsim(compute_lexicon(*build_from_tables([shuffled], config)[:2], config), men)[0]
    assert real.score == "pmi_cross" and real.covered > 200
    assert real.rho_all > 0.15 and abs(control.rho_all) < 0.08 and real.rho_all - control.rho_all > 0.12


# ------------------------------------------------------------------------------------------------------ errors


def test_clear_errors_for_bad_input(tmp_path, capsys):
    assert main(["build", "--input", str(tmp_path / "absent"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["build", "--input", "gs://bucket/pairs", "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "lexicon build reads local files" in capsys.readouterr().err  # it said: does not exist
    (tmp_path / "empty").mkdir()
    assert main(["build", "--input", str(tmp_path / "empty"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "no Parquet file" in capsys.readouterr().err
    pq.write_table(pa.table({"en_tokens": [["a"]]}), tmp_path / "bad.parquet")
    assert main(["build", "--input", str(tmp_path / "bad.parquet"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "missing columns ['mt_tokens', 'paraphrase_score']" in capsys.readouterr().err
    pq.write_table(_pairs([["a"]], [["b"]], paraphrase_score=pa.array([0.1], pa.float32())), tmp_path / "low.parquet")
    assert main(["build", "--input", str(tmp_path / "low.parquet"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "no pair passed the lexicon filter" in err and "--no-score" not in err  # scored, all below min_score
    pq.write_table(_pairs([["a"]], [["b"]], paraphrase_score=pa.array([None], pa.float32())), tmp_path / "ns.parquet")
    assert main(["build", "--input", str(tmp_path / "ns.parquet"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "(the pairs/ of a --no-score run?)" in capsys.readouterr().err
    assert main(["build", "--input", str(tmp_path / "low.parquet"), "--out", str(tmp_path / "o"), "--quiet",
                 "--set", "lexicon.top_k=0"]) == 2
    assert "lexicon.top_k" in capsys.readouterr().err
    assert main(["neighbours", "--lexicon", str(tmp_path), "x"]) == 2
    assert "holds no lexicon table" in capsys.readouterr().err
    with pytest.raises(LexiconError, match="not found"):
        load_wordsim(tmp_path / "none.txt")


def test_write_outputs_of_an_empty_count_and_build_from_parquet(tmp_path):
    pq.write_table(_pairs(TOY_EN, TOY_MT), tmp_path / "toy.parquet")
    config = LexiconConfig(min_score=None, min_count=1)
    counts, vocab, marginals = build_from_parquet([tmp_path / "*.parquet"], config, progress=False)
    stats = write_outputs(tmp_path / "lex", counts, vocab, marginals, config)
    written = pq.read_table(tmp_path / "lex" / "lexicon-00000-of-00001.parquet")
    assert stats["used"] == 3 and stats["lexicon_rows"] == written.num_rows > 0
    empty = write_outputs(tmp_path / "none", PairCounts(0), vocab, marginals, config)
    assert empty["lexicon_rows"] == 0


@pytest.mark.slow
def test_benchmark_figures_on_all_caption_pairs(tmp_path):
    """benchmarks/lexicon/lexicon_eval.py on all 290,000 caption pairs (about a minute): cross-sentence PMI correlates
    with MEN and WS-353, the shuffled control collapses, and the vectorised counts equal the slow reference's."""
    from tests.conftest import load_benchmark

    shared_data("paraphrase/multi30k-captions/train.5.en")
    out = tmp_path / "figures.json"
    assert load_benchmark("lexicon/lexicon_eval").main(["--json", str(out), "--reference-pairs", "1000"]) == 0
    figures = json.loads(out.read_text())
    real = {(r["set"], r["score"]): r for r in figures["results"]}
    control = {(r["set"], r["score"]): r for r in figures["control"]}
    assert real[("MEN", "pmi_cross")]["rho_all"] > 0.35 and real[("WS-353-ALL", "pmi_cross")]["rho_all"] > 0.2
    assert abs(control[("MEN", "pmi_cross")]["rho_all"]) < 0.05
    assert figures["throughput"]["counts_equal"] and figures["throughput"]["speedup"] > 5
