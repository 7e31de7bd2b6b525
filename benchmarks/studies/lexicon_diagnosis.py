"""Why adjusted PMI fell below cross-sentence PMI, and the within-sentence estimate that fixes it.

Corpora: ``captions`` is the Multi30k caption-pair corpus of ``benchmarks/lexicon/lexicon_eval.py`` (all 10 pairs of the
five captions of each image; ``min_score`` off); ``NAME=PATH`` is a folder of pair shards (a ``pipeline.run``
output's ``pairs/``), counted with the default ``lexicon.*`` settings (the paper's score >= 0.35, <= 30 tokens).

For each corpus it prints (and writes as Markdown with ``--markdown``), on every set in ``../shared/data/wordsim``:

1. before -> after: cross PMI, adjusted PMI with the earlier ``additive`` within-sentence estimate (alpha 1), and
   with the ``prior`` estimate (the default ``within_prior``): Spearman rho x 100 with unseen pairs scored 0 and on
   covered pairs, coverage;
2. the frequency bands: the covered pairs of all sets (gold as a within-set percentile), banded by E, the
   co-occurrences per side expected if the two words were independent: mean within-sentence PMI of each
   estimate, mean adjusted PMI, and rho of each score inside the band; the rank correlation of each score with E;
3. the top adjusted pairs of the whole lexicon in each band, before and after;
4. the size curve: a seeded random 10 % / 30 % / 100 % of the pairs (nested), mean rho over the sets;
5. the choice of ``within_prior`` (a sweep) and of a joint-count threshold both scores respect (evaluation
   ``min_joint``).
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from benchmarks.doc_sections import table
from benchmarks.lexicon.lexicon_eval import WORDSIM, batches, caption_pairs
from benchmarks.result import argument_parser, write_result
from configs.schema import LexiconConfig
from paranmt.core.correlation import spearman
from paranmt.core.pair_schema import EN_TOKENS, MT_TOKENS, PARAPHRASE_SCORE
from pipeline.analysis.lexicon.counting import PairCounts, Vocabulary, build_from_tables
from pipeline.analysis.lexicon.evaluation import load_wordsim
from pipeline.analysis.lexicon.pmi import compute_lexicon
from pipeline.analysis.lexicon.query import lookup_pairs

SETS = {"MEN": "EN-MEN-TR-3k.txt", "MTurk-771": "EN-MTurk-771.txt", "RG-65": "EN-RG-65.txt",
        "RW": "EN-RW-STANFORD.txt", "SimVerb-3500": "EN-SimVerb-3500.txt", "WS-353-ALL": "EN-WS-353-ALL.txt",
        "WS-353-REL": "EN-WS-353-REL.txt", "WS-353-SIM": "EN-WS-353-SIM.txt"}
BANDS = (0.0, 0.1, 1.0, 10.0, np.inf)  # E, expected within-sentence co-occurrences per side
THRESHOLDS = (1, 2, 5, 10)
TOP_PAIRS = 6
TOP_MIN_JOINT = (1, 10)  # every pair, and those seen as often as the paper's Table 12 asks


def load_corpus(spec: str, images: int | None) -> tuple[str, pa.Table, LexiconConfig]:
    if spec == "captions":
        return "captions", caption_pairs("all", images), LexiconConfig(min_score=None)
    name, _, path = spec.partition("=")
    if not path:
        raise SystemExit(f"--corpus {spec}: expected 'captions' or NAME=PATH (a folder of pair shards)")
    table = ds.dataset(path, format="parquet").to_table(columns=[EN_TOKENS, MT_TOKENS, PARAPHRASE_SCORE])
    return name, table, LexiconConfig()


def variants(base: LexiconConfig, priors: list[float]) -> dict[str, LexiconConfig]:
    """``before``: the earlier additive estimate; ``after``: the default prior; ``prior=b``: the sweep."""
    out = {"before": base.model_copy(update={"within_estimate": "additive", "smoothing": 1.0}),
           "after": base.model_copy(update={"within_estimate": "prior"})}
    for b in priors:
        out[f"prior={b:g}"] = base.model_copy(update={"within_estimate": "prior", "within_prior": b})
    return out


def expected_within(vocab: Vocabulary, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """E: co-occurrences per side expected under independence, mean of the two sides."""
    ref, mt = vocab.ref.astype(np.float64), vocab.mt.astype(np.float64)
    return 0.5 * (ref[u] * ref[v] + mt[u] * mt[v]) / vocab.pairs


class Gold:
    """The word-similarity sets, looked up once per lexicon."""

    def __init__(self) -> None:
        self.sets = {name: load_wordsim(WORDSIM / file) for name, file in SETS.items()}
        self.words = sorted({w for first, second, _ in self.sets.values() for w in first + second})

    def score(self, lexicon: pa.Table, vocab: Vocabulary, min_joint: int = 1) -> dict[str, dict[str, Any]]:
        """Per set: rho(0), rho(cov), coverage of cross and adjusted PMI; the covered pairs' scores, E and gold."""
        out = {}
        for name, (first, second, gold) in self.sets.items():
            found = lookup_pairs(lexicon, first, second, ("pmi_cross", "pmi_adj", "pmi_within"), min_joint)
            covered = ~np.isnan(found["joint"])
            row: dict[str, Any] = {"pairs": len(gold), "covered": int(covered.sum())}
            for key, column in (("cross", "pmi_cross"), ("adj", "pmi_adj")):
                values = found[column]
                row[f"{key}_rho0"] = spearman(np.where(covered, values, 0.0), gold)
                row[f"{key}_rhocov"] = spearman(values[covered], gold[covered]) if covered.sum() >= 3 else np.nan
            u = vocab.lookup(pa.array([w for w, c in zip(first, covered, strict=True) if c], pa.string()))
            v = vocab.lookup(pa.array([w for w, c in zip(second, covered, strict=True) if c], pa.string()))
            row["_covered"] = {"cross": found["pmi_cross"][covered], "adj": found["pmi_adj"][covered],
                               "within": found["pmi_within"][covered], "E": expected_within(vocab, u, v),
                               "gold": gold[covered], "percentile": _percentile(gold)[covered]}
            out[name] = row
        return out


def _percentile(values: np.ndarray) -> np.ndarray:
    ranks = np.argsort(np.argsort(values, kind="stable"), kind="stable")
    return ranks / max(len(values) - 1, 1)


MIN_COVERED = 20  # a set's rho(cov) enters the means only with this many covered pairs (RG-65 may cover 3)


def _mean(scores: dict[str, dict[str, Any]], key: str) -> float:
    """Mean over the sets: rho(0) over all, rho(cov) over those with ``MIN_COVERED`` covered pairs."""
    values = [row[key] for row in scores.values() if key.endswith("rho0") or row["covered"] >= MIN_COVERED]
    return float(np.nanmean(values)) if values else float("nan")


def _fmt(x: float) -> str:
    return "–" if x is None or np.isnan(x) else f"{100 * x:.1f}"


def lexicon_for_words(counts: PairCounts, vocab: Vocabulary, config: LexiconConfig, words: list[str]) -> pa.Table:
    """The lexicon rows whose first word is a word-similarity word (what the evaluation looks up)."""
    mask = np.zeros(len(vocab), bool)
    ids = vocab.lookup(pa.array(words, pa.string()))
    mask[ids[ids >= 0]] = True
    return compute_lexicon(counts, vocab, config, mask)


def band_table(before: dict, after: dict) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Covered pairs of all sets pooled (gold as within-set percentile), by band of E."""
    def pooled(scores: dict, key: str) -> np.ndarray:
        return np.concatenate([row["_covered"][key] for row in scores.values()])

    E, gold = pooled(after, "E"), pooled(after, "percentile")
    cross = pooled(after, "cross")
    adj_b, adj_a = pooled(before, "adj"), pooled(after, "adj")
    within_b, within_a = pooled(before, "within"), pooled(after, "within")
    rows = []
    for lo, hi in itertools.pairwise(BANDS):
        m = (lo <= E) & (hi > E)
        if m.sum() < 5:
            continue
        rows.append({"band": f"[{lo:g}, {hi:g})", "pairs": int(m.sum()), "cross_mean": float(cross[m].mean()),
                     "within_before": float(within_b[m].mean()), "within_after": float(within_a[m].mean()),
                     "adj_before_mean": float(adj_b[m].mean()), "adj_after_mean": float(adj_a[m].mean()),
                     "negative_before": float((adj_b[m] < 0).mean()), "negative_after": float((adj_a[m] < 0).mean()),
                     "rho_cross": spearman(cross[m], gold[m]), "rho_before": spearman(adj_b[m], gold[m]),
                     "rho_after": spearman(adj_a[m], gold[m])})
    log_e = np.log(np.maximum(E, 1e-12))
    trend = {"cross": spearman(cross, log_e), "before": spearman(adj_b, log_e), "after": spearman(adj_a, log_e),
             "gold": spearman(gold, log_e)}
    return rows, trend


def top_pairs_by_band(lexicon: pa.Table, vocab: Vocabulary, k: int, min_joint: int = 1) -> dict[str, list[str]]:
    """The ``k`` best word pairs (u < v) with ``joint >= min_joint`` by adjusted PMI in each band of E."""
    half = lexicon.filter(pc.and_(pc.less(lexicon.column("u"), lexicon.column("v")),
                                  pc.greater_equal(lexicon.column("joint"), min_joint)))
    u, v = vocab.lookup(half.column("u").combine_chunks()), vocab.lookup(half.column("v").combine_chunks())
    E = expected_within(vocab, u, v)
    adj = half.column("pmi_adj").to_numpy()
    joint = half.column("joint").to_numpy()
    words_u, words_v = half.column("u").to_pylist(), half.column("v").to_pylist()
    out = {}
    for lo, hi in itertools.pairwise(BANDS):
        index = np.flatnonzero((lo <= E) & (hi > E))
        best = index[np.lexsort((index, -adj[index]))[:k]]
        out[f"[{lo:g}, {hi:g})"] = [f"{words_u[i]}–{words_v[i]} ({joint[i]})" for i in best]
    return out


def sample(table: pa.Table, fraction: float, seed: int) -> pa.Table:
    if fraction >= 1:
        return table
    order = np.random.default_rng(seed).permutation(table.num_rows)  # nested: a prefix of one permutation
    return table.take(pa.array(np.sort(order[: round(fraction * table.num_rows)])))


def diagnose(name: str, table: pa.Table, base: LexiconConfig, gold: Gold, fractions: list[float],
             priors: list[float], seed: int) -> dict[str, Any]:
    configs = variants(base, priors)
    figures: dict[str, Any] = {"corpus": name, "pairs": table.num_rows, "sizes": {}}
    for fraction in sorted(fractions):
        started = time.perf_counter()
        part = sample(table, fraction, seed)
        counts, vocab, marginals = build_from_tables(batches(part, base.batch_pairs), base)
        scores = {label: gold.score(lexicon_for_words(counts, vocab, config, gold.words), vocab)
                  for label, config in configs.items()}
        cross = [row["cross_rhocov"] for row in scores["after"].values()]
        assert np.allclose(cross, [row["cross_rhocov"] for row in scores["before"].values()], equal_nan=True)
        size = {"used": marginals.used, "vocabulary": len(vocab),
                "scores": {label: {s: {k: v for k, v in row.items() if not k.startswith("_")}
                                   for s, row in table_.items()} for label, table_ in scores.items()}}
        print(f"{name} {100 * fraction:g}%: {marginals.used:,} pairs used of {part.num_rows:,}, {len(vocab):,} words, "
              f"{time.perf_counter() - started:.0f}s", flush=True)
        if fraction >= 1:
            size["bands"], size["trend"] = band_table(scores["before"], scores["after"])
            size["thresholds"] = {}
            for label in ("before", "after"):
                lexicon = lexicon_for_words(counts, vocab, configs[label], gold.words)
                size["thresholds"][label] = {m: {s: {k: v for k, v in row.items() if not k.startswith("_")}
                                                 for s, row in gold.score(lexicon, vocab, m).items()}
                                             for m in THRESHOLDS}
            size["top_pairs"] = {}
            for label in ("before", "after"):
                lexicon = compute_lexicon(counts, vocab, configs[label])
                for m in TOP_MIN_JOINT:
                    size["top_pairs"][f"{label}@{m}"] = top_pairs_by_band(lexicon, vocab, TOP_PAIRS, m)
        figures["sizes"][f"{fraction:g}"] = size
    return figures


def _means(scores: dict[str, dict[str, Any]], key: str) -> str:
    """``key``'s mean ρ(0) / mean ρ(cov) over the sets, as the tables show them."""
    return f"{_fmt(_mean(scores, f'{key}_rho0'))} / {_fmt(_mean(scores, f'{key}_rhocov'))}"


def markdown(figures: dict[str, Any], default_prior: float) -> str:
    name = figures["corpus"]
    full = figures["sizes"]["1"]
    before, after = full["scores"]["before"], full["scores"]["after"]
    lines = [f"### {name}: {full['used']:,} pairs counted (of {figures['pairs']:,}), vocabulary {full['vocabulary']:,}",
             "", f"Before → after (adjusted PMI: `additive` α = 1 → `prior` b = {default_prior:g}); cross PMI is "
             "unchanged. ρ × 100, unseen pairs scored 0 / covered pairs only.", ""]
    lines += table(["set", "pairs", "coverage", "cross ρ(0) / ρ(cov)", "adjusted before ρ(0) / ρ(cov)",
                    "adjusted after ρ(0) / ρ(cov)"], "lr",
                   [*([s, f"{row['pairs']:,}", f"{100 * row['covered'] / row['pairs']:.1f} % ({row['covered']:,})",
                       f"{_fmt(row['cross_rho0'])} / {_fmt(row['cross_rhocov'])}",
                       f"{_fmt(before[s]['adj_rho0'])} / {_fmt(before[s]['adj_rhocov'])}",
                       f"**{_fmt(row['adj_rho0'])} / {_fmt(row['adj_rhocov'])}**"] for s, row in after.items()),
                    [f"mean (ρ(cov): sets with ≥ {MIN_COVERED} covered)", "", "", _means(after, "cross"),
                     _means(before, "adj"), f"**{_means(after, 'adj')}**"]])
    lines += ["", "Frequency bands (covered pairs of all sets pooled, gold as a within-set percentile; E = "
              "co-occurrences per side expected under independence; PMI_within and adjusted PMI are band means; "
              "neg = share of adjusted PMI < 0, which rank below the unseen pairs' 0):", ""]
    lines += table(["E", "pairs", "cross mean", "PMI_within before / after", "adjusted before / after",
                    "neg before / after", "ρ cross", "ρ adjusted before", "ρ adjusted after"], "lr",
                   [[r["band"], f"{r['pairs']:,}", f"{r['cross_mean']:.2f}",
                     f"{r['within_before']:.2f} / {r['within_after']:.2f}",
                     f"{r['adj_before_mean']:.2f} / {r['adj_after_mean']:.2f}",
                     f"{100 * r['negative_before']:.0f} % / {100 * r['negative_after']:.0f} %",
                     _fmt(r["rho_cross"]), _fmt(r["rho_before"]), _fmt(r["rho_after"])] for r in full["bands"]])
    t = full["trend"]
    lines += ["", f"Rank correlation with E over the pooled pairs: gold {_fmt(t['gold'])}, cross {_fmt(t['cross'])}, "
              f"adjusted before {_fmt(t['before'])}, after {_fmt(t['after'])}.", "",
              f"Top {TOP_PAIRS} adjusted pairs of the whole lexicon in each band (joint count), among all pairs and "
              "among pairs seen ≥ 10 times (the paper's Table 12 threshold):", ""]
    lines += table(["E", "joint ≥", "before (`additive`)", "after (`prior`)"], "lrl",
                   [[band, m, ", ".join(pairs) or "–", ", ".join(full["top_pairs"][f"after@{m}"][band]) or "–"]
                    for m in TOP_MIN_JOINT for band, pairs in full["top_pairs"][f"before@{m}"].items()])
    lines += ["", "Size curve (a seeded random share of the pairs, nested; mean ρ over the sets, MEN and SimVerb):",
              ""]
    rows = []
    for share, size in figures["sizes"].items():
        b, a = size["scores"]["before"], size["scores"]["after"]
        triple = ((a, "cross_rhocov"), (b, "adj_rhocov"), (a, "adj_rhocov"))
        coverage = np.mean([row["covered"] / row["pairs"] for row in a.values()])
        rows.append([f"{100 * float(share):g} %", f"{size['used']:,}", f"{100 * coverage:.1f} %",
                     _means(a, "cross"), _means(b, "adj"), _means(a, "adj"),
                     *(" / ".join(_fmt(x[wordsim][k]) for x, k in triple) for wordsim in ("MEN", "SimVerb-3500"))])
    lines += table(["share", "pairs counted", "mean coverage", "mean cross ρ(0) / ρ(cov)", "mean adjusted before",
                    "mean adjusted after", "MEN cross / before / after ρ(cov)",
                    "SimVerb cross / before / after ρ(cov)"], "r", rows)
    lines += ["", "Choice of `within_prior` (adjusted PMI; ρ(cov) per set, means over the sets):", ""]
    choices = [("cross PMI", after, "cross"), ("additive α = 1 (before)", before, "adj")]
    choices += [(f"prior b = {label.split('=')[1]}", full["scores"][label], "adj")
                for label in full["scores"] if label.startswith("prior=")]
    lines += table(["estimate", "mean ρ(0)", "mean ρ(cov)", *after], "lr",
                   [[label, *_means(scores, key).split(" / "), *(_fmt(row[f"{key}_rhocov"]) for row in scores.values())]
                    for label, scores, key in choices])
    lines += ["", "A joint-count threshold both scores respect (pairs seen fewer times count as unseen; means over "
              "the sets):", ""]
    thresholds = [(m, full["thresholds"]["before"][m], full["thresholds"]["after"][m]) for m in THRESHOLDS]
    lines += table(["min joint", "mean coverage", "cross ρ(0) / ρ(cov)", "adjusted before", "adjusted after"], "r",
                   [[m, f"{100 * np.mean([row['covered'] / row['pairs'] for row in a.values()]):.1f} %",
                     _means(a, "cross"), _means(b, "adj"), _means(a, "adj")] for m, b, a in thresholds])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--corpus", action="append", help="'captions' or NAME=PATH (pair shards); repeatable")
    parser.add_argument("--fractions", default="0.1,0.3,1", help="shares of the pairs for the size curve")
    parser.add_argument("--priors", default="0.1,0.3,1,3,10", help="within_prior values of the sweep")
    parser.add_argument("--images", type=int, help="captions: only the first N images")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--markdown", type=Path, help="also write the tables as Markdown")
    args = parser.parse_args(argv)
    if not WORDSIM.is_dir():
        parser.error(f"{WORDSIM} is absent (../shared/data)")
    fractions = sorted({float(x) for x in args.fractions.split(",")} | {1.0})
    priors = [float(x) for x in args.priors.split(",")]
    gold = Gold()
    default_prior = LexiconConfig().within_prior
    results, text = [], []
    for spec in args.corpus or ["captions"]:
        name, table, base = load_corpus(spec, args.images)
        figures = diagnose(name, table, base, gold, fractions, priors, args.seed)
        results.append(figures)
        text.append(markdown(figures, default_prior))
        print(text[-1], flush=True)
    if args.markdown:
        args.markdown.write_text("\n".join(text))
    write_result(args.json, {"corpora": results}, __file__, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
