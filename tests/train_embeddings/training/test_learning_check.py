"""Real-data learning check (``-m slow``; a seconds-long smoke version runs by default).

Pairs of captions of the same image (Multi30k/Flickr30k, five independent captions per image), selected two ways:
``chain`` — captions k and k+1 form a pair (4 per image); ``top2`` — the paper's training-set rule (ParaNMT-50M
§5.1: the top two deciles by PARAGRAM-PHRASE score, both sides <= 30 tokens) applied to all 10 pairs of each image,
scored with the project's own SIF-GloVe paraphrase score. The group is the image, so other captions of the same
image are never negatives. Every caption
whose normalised text (lower-cased word characters) equals a sentence of any STS file (2012–2015 and STS-B) is
dropped first: no test sentence is trained on. A WORD model initialised from GloVe 6B 50d (kumo; pretrained
words unseen in training kept frozen) is trained with the paper's settings (Adam 1e-3, batch 100, δ 0.4, MAX
negatives), selected on STS2017 dev when ``train_embeddings.evaluation.sts`` provides it (else the final model), and
compared on the STS caption sets (STS12 MSRvid, STS14 images, STS15 images; empty gold lines skipped) with plain
GloVe averaging and SIF-GloVe, and M = 20 against M = 1 on the same budget (5 epochs, as in Table 6) over three
seeds.

Why M = 20 loses here (measured; the test is an expected failure with this reason): Table 6's gain assumes that the
hardest sentence of a larger pool is a *harder negative*, not a paraphrase. Two captions of one image describe
different details, while a caption of another image often says the same thing ("A man rides a bike ."), so as the
pool grows the mined negative is more and more often closer than the positive — the report's ``positive_nearest``
(fraction of sentences whose paraphrase is nearer than their mined negative, with the trained M = 1 model) falls from
0.70 (pool of 1 mini-batch) to 0.38 (M = 20) on chain pairs, and with most hinge terms unsatisfiable the M = 20
model collapses towards one direction (mean cosines of positives and negatives ~0.996). The paper's selection
(``top2``) keeps the positives closer (0.93 -> 0.65) and M = 20 no longer collapses, but still trails M = 1.
Measured (Pearson x 100 on MSRvid / images14 / images15, mean of 3 seeds, sd <= 0.2): chain M = 1 82.3 / 83.3 /
86.0, M = 20 61.1 / 51.2 / 60.9; top2 M = 1 83.2 / 83.4 / 87.0, M = 20 76.9 / 77.4 / 78.3; GloVe average 56.2 /
54.1 / 60.0. With a longer budget on top2 (40 epochs, one seed) the two meet: STS2017 dev 0.789 for both.

Pearson's r is computed here from the files themselves (a minimal reader), so the check does not depend on the
evaluation module; the mean over all STS years (papers' protocol) is added when ``train_embeddings.evaluation.sts``
exists. The report is printed (``-s``) and written to ``$PARANMT_CACHE/train_learning/report.json``.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import torch

from benchmarks.reproduction.caption_pairs import build_caption_pairs, cache_root, sif_scorer, sts_pairs, tokenize
from configs.schema import TrainConfig
from filters.paragram import ParagramScorer
from paranmt.core.word_vectors import load_kumo
from tests.support.shared_data import shared_data
from train_embeddings.losses.margin_loss import MARGIN_STATISTICS, margin_statistics
from train_embeddings.losses.negative_mining import MegaBatchMiner
from train_embeddings.models.model_io import load_model
from train_embeddings.training.data import PairSource
from train_embeddings.training.trainer import default_evaluate_fn, train

CAPTION_SETS = {"MSRvid": ("STS12", "MSRvid"), "images14": ("STS14", "images"), "images15": ("STS15", "images")}
SEEDS = (1, 2, 3)


def pearson(encode, year: str, name: str) -> float:
    left, right, gold = sts_pairs(year, name)
    a, b = encode(left).astype(np.float64), encode(right).astype(np.float64)
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    cosines = np.divide((a * b).sum(1), norms, out=np.zeros(len(a)), where=norms > 0)
    return float(np.corrcoef(cosines, gold)[0, 1])


def caption_scores(encode) -> dict[str, float]:
    return {label: round(100 * pearson(encode, *where), 2) for label, where in CAPTION_SETS.items()}


def positive_nearest(model, data: Path, pools: tuple[int, ...] = (1, 20, 40), pairs: int = 4000) -> dict[str, float]:
    """For mega-batches of M mini-batches (the first ``pairs`` pairs of the seeded stream, cut into pools of
    M x 100 pairs), the fraction of sentences whose paraphrase is more similar than the negative the miner picks
    (MAX, same-image sentences excluded). Near 1: mined negatives are true negatives; well below 0.5: the pool's
    nearest sentence is usually another image's near-identical caption, and the margin loss pushes paraphrases
    apart."""
    chunk = next(PairSource.from_config(TrainConfig(data=str(data), group_column="image")).chunks(pairs, 1, 0))
    left, right = torch.from_numpy(model.encode_tokens(chunk.left)), torch.from_numpy(model.encode_tokens(chunk.right))
    groups = torch.from_numpy(chunk.groups)
    rates = {}
    for megabatch in pools:
        size = min(megabatch * 100, len(groups))
        nearer = []
        for start in range(0, len(groups) - size + 1, size):
            part = slice(start, start + size)
            mined = MegaBatchMiner("max")(left[part], right[part], groups[part])
            negatives = torch.cat([left[part], right[part]])[mined.index]
            statistics = margin_statistics(left[part], right[part], negatives[:size], negatives[size:],
                                           mined.valid[:size], mined.valid[size:])
            nearer.append(statistics[MARGIN_STATISTICS.index("positive_nearer")].item())
        rates[f"M={megabatch}"] = round(float(np.mean(nearer)), 3)
    return rates


def word_config(data: Path, megabatch: int, seed: int, epochs: int, **overrides) -> TrainConfig:
    values = dict(data=str(data), model="word", word_vectors="kumo", group_column="image", megabatch=megabatch,
                  epochs=epochs, seed=seed, threads=1, evals_per_epoch=4, lr=1e-3, batch_size=100, margin=0.4)
    values.update(overrides)
    return TrainConfig(**values)


def run_experiment(work: Path, images: int, megabatches: tuple[int, ...], seeds: tuple[int, ...],
                   epochs: int, extras: bool = True, evals_per_epoch: int = 4, selection: str = "chain",
                   pools: tuple[int, ...] = (1, 20, 40)) -> dict:
    """Build the data, score the baselines, train every (M, seed); ``extras``: SIF and the all-years means."""
    for needed in ("paraphrase/multi30k-captions", "sts", "wordfreq/enwiki_vocab_min200.txt"):
        shared_data(needed)  # skips (or fails under CI=true) with a reason when ../shared/data is absent
    data = build_caption_pairs(work / "data", images, selection)
    glove = ParagramScorer.plain_average(load_kumo())

    def glove_encode(sentences):
        return glove.sentence_vectors(tokenize(sentences))[0]

    evaluate = default_evaluate_fn()  # STS2017 dev when train_embeddings.evaluation.sts provides it
    report = {"data": data, "epochs": epochs, "selection": "best on STS2017 dev" if evaluate else "final model",
              "baselines": {"GloVe avg": caption_scores(glove_encode)}, "runs": []}
    encoders = {"GloVe avg": glove_encode}
    if extras:  # SIF fitted on training captions, word frequencies from enwiki (no STS sentence involved)
        sif = sif_scorer([list(t) for t in pq.read_table(work / "data")["en_tokens"].to_pylist()[:50_000]])

        def sif_encode(sentences):
            return sif.sentence_vectors(tokenize(sentences))[0]

        report["baselines"]["SIF GloVe"] = caption_scores(sif_encode)
        encoders["SIF GloVe"] = sif_encode
    for megabatch in megabatches:
        for seed in seeds:
            config = word_config(work / "data", megabatch, seed, epochs, evals_per_epoch=evals_per_epoch)
            result = train(config, work / f"M{megabatch}-s{seed}", evaluate_fn=evaluate, progress=False)
            model = load_model(result.best_dir or result.model_dir)
            scores = caption_scores(model)
            # best/ selected at the last update holds the final weights: scored once
            final_is_best = result.best_dir is None or result.best["step"] == result.steps
            report["runs"].append({"M": megabatch, "seed": seed, "steps": result.steps, "best": result.best,
                                   "scores": scores,
                                   "final_scores": scores if final_is_best else caption_scores(
                                       load_model(result.model_dir)),
                                   "seconds": result.timing.get("wall_s")})
            if seed == seeds[0]:
                report[f"positive_nearest (model M={megabatch})"] = positive_nearest(model, work / "data", pools)
            encoders[f"WORD M={megabatch} seed {seed}"] = model
    report["summary"] = {}
    for megabatch in megabatches:
        runs = [r for r in report["runs"] if r["M"] == megabatch]
        report["summary"][f"M={megabatch}"] = {
            label: {"mean": round(statistics.mean(r["scores"][label] for r in runs), 2),
                    "sd": round(statistics.stdev(r["scores"][label] for r in runs), 2) if len(runs) > 1 else 0.0}
            for label in CAPTION_SETS}
    if not extras:
        return report
    try:
        from train_embeddings.evaluation import sts

        bench = sts.load_benchmarks()
        report["all_years_mean_pearson"] = {}
        for name, encoder in encoders.items():
            result = sts.evaluate_all(encoder, data=bench)
            report["all_years_mean_pearson"][name] = {
                str(y.year): round(100 * y.mean_pearson, 2) for y in result.years}
    except (ImportError, AttributeError) as exc:  # the evaluation module is optional here
        report["all_years_mean_pearson"] = f"unavailable: {exc}"
    return report


def print_report(report: dict) -> None:
    print("\n" + json.dumps(report["data"]))
    for key in (k for k in report if k.startswith("positive_nearest")):
        print(f"{key}: {report[key]}")
    print(f"{'':24}" + "".join(f"{label:>12}" for label in CAPTION_SETS))
    for name, scores in report["baselines"].items():
        print(f"{name:24}" + "".join(f"{scores[label]:12.2f}" for label in CAPTION_SETS))
    for name, summary in report["summary"].items():
        print(f"{'WORD ' + name:24}" + "".join(f"{summary[label]['mean']:7.2f} ±{summary[label]['sd']:4.2f}"
                                              for label in CAPTION_SETS))


def test_learning_check_smoke(tmp_path):
    """Seconds-long version: 1,000 images, one epoch, M = 1 and 4, one seed; the leak filter holds."""
    report = run_experiment(tmp_path, images=1000, megabatches=(1, 4), seeds=(1,), epochs=1, extras=False,
                            evals_per_epoch=1, pools=(1, 20))
    print_report(report)
    assert report["data"]["training_sentences_in_sts"] == 0
    assert report["data"]["pairs"] > 3500
    # The larger the pool, the more often its nearest sentence is closer than the paraphrase (captions).
    rates = report["positive_nearest (model M=1)"]
    assert 0 < rates["M=20"] < rates["M=1"] < 1
    for run in report["runs"]:
        assert all(np.isfinite(v) for v in run["scores"].values())
    assert report["baselines"]["GloVe avg"]["MSRvid"] == pytest.approx(56.2, abs=1.0)


def full_experiment(work: Path, selection: str) -> dict:
    report = run_experiment(work, images=29_000, megabatches=(1, 20), seeds=SEEDS, epochs=5, selection=selection,
                            evals_per_epoch=2)
    cache_root().mkdir(parents=True, exist_ok=True)
    (cache_root() / f"report-{selection}.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print_report(report)
    return report


@pytest.fixture(scope="module")
def full_report(tmp_path_factory):
    return full_experiment(tmp_path_factory.mktemp("learning"), "chain")


@pytest.fixture(scope="module")
def top2_report(tmp_path_factory):
    return full_experiment(tmp_path_factory.mktemp("learning-top2"), "top2")


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("selection", ["chain", "top2"])
def test_trained_word_beats_glove_averaging_on_caption_sts(selection, request):
    """WORD (M = 1) beats GloVe averaging on every caption set and on the mean over all STS years (measured:
    chain 82.3 / 83.3 / 86.0 vs 56.2 / 54.1 / 60.0; years 52.6 vs 45.2). M = 20 on chain pairs is the collapse
    the module docstring describes (61.1 / 51.2 / 60.9): it is reported, not asserted."""
    report = request.getfixturevalue("full_report" if selection == "chain" else "top2_report")
    assert report["data"]["training_sentences_in_sts"] == 0
    glove = report["baselines"]["GloVe avg"]
    summary = report["summary"]["M=1"]
    for label in CAPTION_SETS:
        assert summary[label]["mean"] > glove[label], (label, summary[label], glove[label])
    years = report["all_years_mean_pearson"]
    glove_mean = statistics.mean(years["GloVe avg"].values())
    for name, per_year in years.items():
        if name.startswith("WORD M=1 "):
            assert statistics.mean(per_year.values()) > glove_mean, (name, per_year, years["GloVe avg"])


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.xfail(strict=False, reason="measured on caption pairs (5 epochs, 3 seeds): M=1 beats M=20 on every "
                   "caption set; the mega-batch's nearest sentence is mostly another image's paraphrase "
                   "(positive_nearest 0.38 at M=20 on chain pairs, 0.65 on top2), see the module docstring")
@pytest.mark.parametrize("selection", ["chain", "top2"])
def test_megabatch_20_beats_1_on_the_same_budget(selection, request):
    report = request.getfixturevalue("full_report" if selection == "chain" else "top2_report")
    assert report["positive_nearest (model M=1)"]["M=20"] < report["positive_nearest (model M=1)"]["M=1"]
    m1, m20 = report["summary"]["M=1"], report["summary"]["M=20"]
    assert all(m20[label]["mean"] > m1[label]["mean"] for label in CAPTION_SETS), (m1, m20)
