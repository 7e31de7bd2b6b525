"""The lexicon's PMI (pipeline/analysis/lexicon/pmi.py): hand counts on a toy corpus and on the paper's definition,
the within-sentence estimates, and each word's top k."""

from __future__ import annotations

import math

import pyarrow as pa
import pytest

from configs.schema import LexiconConfig
from pipeline.analysis.lexicon.counting import build_from_tables
from pipeline.analysis.lexicon.pmi import LEXICON_SCHEMA, compute_lexicon, top_k_table
from tests.support.lexicon_pairs import PLAIN, TOY_EN, TOY_MT, rows_by_pair, token_pairs


def test_pmi_values_against_hand_counts():
    """Three pairs, stop words and punctuation dropped, types per sentence ('runs runs' counts once); the
    ``additive`` within-sentence estimate (the prior's hand values: test_paper_definition_on_a_hand_computed_corpus).

    Types: p1 {man, runs} / {guy, runs}; p2 {man, walks} / {man, walks}; p3 {dog, runs} / {dog, running}.
    P = 3, #(.,.) = N = 6; #(man) = 3, #(guy) = 1, #(runs) = 3, #(running) = 1; #_ref(man) = 2, #_mt(man) = 1,
    #_ref(runs) = 2, #_mt(runs) = 1, #_mt(guy) = 1.
    """
    config = LexiconConfig(min_score=None, min_count=1, within_estimate="additive")
    counts, vocab, marginals = build_from_tables([token_pairs(TOY_EN, TOY_MT)], config)
    assert marginals.used == 3 and sorted(vocab.words.to_pylist()) == ["dog", "guy", "man", "running", "runs",
                                                                        "walks"]
    rows = rows_by_pair(compute_lexicon(counts, vocab, config))
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
    rows = rows_by_pair(compute_lexicon(*build_from_tables([token_pairs(HAND_EN, HAND_MT)], LexiconConfig(**PLAIN))[:2],
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
    exact = rows_by_pair(compute_lexicon(*build_from_tables([token_pairs(HAND_EN, HAND_MT)], plain)[:2], plain))
    assert exact[("red", "dog")]["pmi_within"] == pytest.approx(log(4 / 3), abs=1e-9)
    assert exact[("red", "dog")]["pmi_adj"] == pytest.approx(0, abs=1e-9)

    additive = LexiconConfig(**PLAIN, within_estimate="additive")
    old = rows_by_pair(compute_lexicon(*build_from_tables([token_pairs(HAND_EN, HAND_MT)], additive)[:2], additive))
    assert old[("car", "auto")]["pmi_within"] == pytest.approx(log(4 / 3))
    assert old[("car", "auto")]["pmi_adj"] == pytest.approx(log(3))
    assert old[("red", "dog")]["pmi_adj"] == pytest.approx(log(4 / 3))


def test_additive_estimate_finds_rare_pairs_associated_and_the_prior_does_not():
    """Why the adjusted PMI exists, in one corpus: two words in 2 of 1,000 sentences per side that never share one,
    always paraphrases of each other: #(lorry, truck) = 4, #(lorry) = #(truck) = 4, PMI_cross = log(4*2000/16) =
    log 500. Expected together in one sentence E = 2*2/1000 = 0.004 times per side. The additive estimate's PMI
    is log(1*1000/(3*3)) = log(111): strongly associated, so their adjusted PMI is pushed down by 4.7 nats; the
    prior's is log(1/1.004) ~ 0, so the adjusted PMI stays the cross-sentence PMI."""
    en = [["lorry"], ["lorry"], ["truck"], ["truck"]] + [["filler"]] * 996
    mt = [["truck"], ["truck"], ["lorry"], ["lorry"]] + [["padding"]] * 996
    for estimate, within in (("additive", math.log(1000 / 9)), ("prior", math.log(1 / 1.004))):
        config = LexiconConfig(**PLAIN, within_estimate=estimate)
        lexicon = compute_lexicon(*build_from_tables([token_pairs(en, mt)], config)[:2], config)
        row = rows_by_pair(lexicon)[("lorry", "truck")]
        assert (row["joint"], row["within_ref"], row["within_mt"]) == (4, 0, 0)
        assert row["pmi_cross"] == pytest.approx(math.log(500))
        assert row["pmi_within"] == pytest.approx(within)
        assert row["pmi_adj"] == pytest.approx(row["pmi_cross"] - within)


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
