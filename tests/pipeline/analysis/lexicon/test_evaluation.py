"""The lexicon's word-similarity evaluation (pipeline/analysis/lexicon/evaluation.py): Spearman's rho with unseen pairs
as zero, a real caption lexicon against a shuffled control, the command, and the benchmark's figures (slow)."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pyarrow as pa
import pytest

from configs.schema import LexiconConfig
from paranmt.cli.lexicon_command import main
from pipeline.analysis.lexicon.counting import build_from_tables
from pipeline.analysis.lexicon.evaluation import evaluate_wordsim, load_wordsim
from pipeline.analysis.lexicon.pmi import compute_lexicon
from tests.support.lexicon_pairs import token_pairs
from tests.support.shared_data import shared_data
from tests.support.text_files import read_lines


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


def test_evaluate_command_on_a_built_lexicon(caption_lexicon, capsys):
    figures = caption_lexicon.parent / "eval.json"
    men, ws = shared_data("wordsim/EN-MEN-TR-3k.txt"), shared_data("wordsim/EN-WS-353-ALL.txt")
    assert main(["evaluate", "--lexicon", str(caption_lexicon), "--wordsim", str(men), "--wordsim", str(ws),
                 "--json", str(figures)]) == 0
    table = capsys.readouterr().out
    rows = json.loads(figures.read_text())
    assert [(r["set"], r["score"]) for r in rows] == [("EN-MEN-TR-3k", "pmi_cross"), ("EN-MEN-TR-3k", "pmi_adj"),
                                                      ("EN-WS-353-ALL", "pmi_cross"), ("EN-WS-353-ALL", "pmi_adj")]
    assert rows[0]["covered"] > 200 and rows[0]["rho_all"] > 0.1 and "EN-WS-353-ALL" in table


def test_real_caption_lexicon_beats_the_shuffled_control():
    """Seconds-long smoke version of benchmarks/lexicon/lexicon_eval.py: 2,000 images x 10 real caption pairs; cross PMI
    correlates with MEN, and the same pairs re-paired at random do not."""
    caps = [[line.lower().replace(".", " .").split() for line in
             read_lines(shared_data(f"paraphrase/multi30k-captions/train.{k}.en"))[:2000]] for k in range(1, 6)]
    en = [s for i, _ in itertools.combinations(range(5), 2) for s in caps[i]]
    mt = [s for _, j in itertools.combinations(range(5), 2) for s in caps[j]]
    config = LexiconConfig(min_score=None)
    men = shared_data("wordsim/EN-MEN-TR-3k.txt")
    real = evaluate_wordsim(compute_lexicon(*build_from_tables([token_pairs(en, mt)], config)[:2], config), men)[0]
    order = np.random.default_rng(0).permutation(len(mt))
    shuffled = token_pairs(en, [mt[k] for k in order])
    control = evaluate_wordsim(compute_lexicon(*build_from_tables([shuffled], config)[:2], config), men)[0]
    assert real.score == "pmi_cross" and real.covered > 200
    assert real.rho_all > 0.15 and abs(control.rho_all) < 0.08 and real.rho_all - control.rho_all > 0.12


@pytest.mark.slow
def test_benchmark_figures_on_all_caption_pairs(tmp_path):
    """benchmarks/lexicon/lexicon_eval.py on all 290,000 caption pairs (about a minute): cross-sentence PMI correlates
    with MEN and WS-353, the shuffled control collapses, and the vectorised counts equal the slow reference's."""
    from tests.support.repo import load_benchmark

    shared_data("paraphrase/multi30k-captions/train.5.en")
    out = tmp_path / "figures.json"
    assert load_benchmark("lexicon/lexicon_eval").main(["--json", str(out), "--reference-pairs", "1000"]) == 0
    figures = json.loads(out.read_text())
    real = {(r["set"], r["score"]): r for r in figures["results"]}
    control = {(r["set"], r["score"]): r for r in figures["control"]}
    assert real[("MEN", "pmi_cross")]["rho_all"] > 0.35 and real[("WS-353-ALL", "pmi_cross")]["rho_all"] > 0.2
    assert abs(control[("MEN", "pmi_cross")]["rho_all"]) < 0.05
    assert figures["throughput"]["counts_equal"] and figures["throughput"]["speedup"] > 5
