"""The ``docs`` step of ``reproduce.py``: the reproduction's results as the markdown page (``--docs``) and its PNGs,
the sections other commands own kept."""

from __future__ import annotations

import argparse
import math
import shutil
from pathlib import Path
from typing import Any

from benchmarks.doc_sections import kept_sections, save_figure, table
from benchmarks.paths import shown
from paranmt.core import pair_schema as S
from paranmt.core.plotting import pyplot
from pipeline.outputs.dataset_card import accounting_line

TEST_YEARS = (2012, 2013, 2014, 2015)
CRITERION_LABELS = {S.TRANSLATION_SCORE: "translation score", S.TRIGRAM_OVERLAP: "trigram overlap",
                    S.PARAPHRASE_SCORE: "paraphrase score"}
MODEL_LABELS = {"word": "WORD", "trigram": "TRIGRAM", "word,trigram": "WORD+TRIGRAM", "lstm": "LSTM"}


def _f(value: float | None, digits: int = 1) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def plot_table5(result: dict[str, Any], path: Path) -> None:
    plt = pyplot()

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for criterion, per_fold in result["table"].items():
        folds = sorted(per_fold, key=int)
        for ax, key in zip(axes, ("avg sts2017", "avg mean_pearson"), strict=True):
            ax.plot([int(f) for f in folds], [per_fold[f][key] for f in folds], marker="o",
                    label=CRITERION_LABELS[criterion])
    for ax, title in zip(axes, ("STS2017 (dev)", "mean over STS 2012–2015"), strict=True):
        ax.set_xlabel("fold (1 = lowest tenth by the criterion)")
        ax.set_ylabel("Pearson × 100, mean of models")
        ax.set_title(title)
        ax.grid(alpha=0.3)
    axes[0].legend()
    fig.suptitle(f"Table 5 in miniature: one epoch on {result['folds']['pairs_per_fold']:,} pairs per fold")
    save_figure(fig, path)


def plot_table6(result: dict[str, Any], path: Path) -> None:
    plt = pyplot()

    ms = sorted(result["table"], key=int)
    models = list(next(iter(result["table"].values())))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for model in models:
        for ax, key in zip(axes, ("sts2017", "positive_nearer"), strict=True):
            means = [result["table"][m][model][key]["mean"] for m in ms]
            sds = [result["table"][m][model][key]["sd"] for m in ms]
            ax.errorbar([int(m) for m in ms], means, yerr=sds, marker="o", capsize=3, label=MODEL_LABELS[model])
    axes[0].set_ylabel("STS2017 Pearson × 100")
    axes[1].set_ylabel("positive_nearer (last log window)")
    for ax in axes:
        ax.set_xlabel("mega-batch size M")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(f"Table 6 in miniature: {result['pairs']:,} train/ pairs, {result['epochs']} epochs, "
                 f"{len(result['seeds'])} seeds")
    save_figure(fig, path)


def verdicts(results: dict[str, dict[str, Any]]) -> list[str]:
    """The paper's directions and the issue's goals, checked on the numbers of this run (one line each)."""
    t5, t6, rows = results["table5"], results["table6"], results["compare"]["rows"]
    out = []
    best = {c: per_fold[t5["best_fold"][c]]["avg sts2017"] for c, per_fold in t5["table"].items()}
    spread = {c: max(f["avg sts2017"] for f in per_fold.values()) - min(f["avg sts2017"] for f in per_fold.values())
              for c, per_fold in t5["table"].items()}
    ranked = sorted(best, key=best.get, reverse=True)
    margin = best[ranked[0]] - best[ranked[1]]
    if margin < 1.0:  # folds of one criterion already differ by about a point from seed and sampling noise
        verdict = f"not distinguishable here (the best two criteria differ by {margin:.1f} points)"
    else:
        verdict = "holds" if ranked[0] == S.PARAPHRASE_SCORE else f"does not hold ({CRITERION_LABELS[ranked[0]]} wins)"
    out.append(f"Table 5 (the paraphrase score selects the best training data): {verdict} — best folds on STS2017: "
               + ", ".join(f"{CRITERION_LABELS[c]} {v:.1f} (fold {t5['best_fold'][c]}; folds span "
                           f"{spread[c]:.1f})" for c, v in best.items()) + ".")
    for model in next(iter(t6["table"].values())):
        cells = {int(m): per_model[model]["sts2017"] for m, per_model in t6["table"].items()}
        base = min(cells)
        for m in sorted(cells)[1:]:
            gain, noise = cells[m]["mean"] - cells[base]["mean"], cells[m]["sd"] + cells[base]["sd"]
            state = "holds" if gain > noise else "within the seeds' spread" if gain > -noise else "reversed"
            out.append(f"Table 6 ({MODEL_LABELS[model]}, M = {m} beats M = {base} on STS2017): {state} — "
                       f"{cells[m]['mean']:.1f} ± {cells[m]['sd']:.1f} vs {cells[base]['mean']:.1f} ± "
                       f"{cells[base]['sd']:.1f}.")
    sif = rows["SIF-GloVe"]["mean_pearson"]
    for name, row in rows.items():
        if "back-translated" in name:
            verdict = "beats" if row["mean_pearson"] > sif else "does not beat"
            out.append(f"{name} {verdict} SIF-GloVe on the mean over STS 2012–2015: {row['mean_pearson']:.1f} vs "
                       f"{sif:.1f}.")
    return out


def _copy_figures(results: dict[str, dict[str, Any]], figures: Path) -> None:
    """The page's plots into ``figures``: Tables 5 and 6 drawn, the corpus report's histogram and scatter copied."""
    figures.mkdir(parents=True, exist_ok=True)
    plot_table5(results["table5"], figures / "table5_folds.png")
    plot_table6(results["table6"], figures / "table6_megabatch.png")
    for plot in results["corpus_stats"]["plots"]:
        if "hist_paraphrase_score" in plot or "scatter" in plot:
            shutil.copyfile(plot, figures / Path(plot).name.replace("back-translated_bitext.", ""))


def _corpus_section(results: dict[str, dict[str, Any]], args: argparse.Namespace) -> list[str]:
    """The page's title and §1: the run's stages, its row identity, copies per source and the throughput table."""
    corpus, speed, stats = results["corpus"], results["throughput"], results["corpus_stats"]
    s = corpus["summary"]
    lines = ["# Reproduction: a mini ParaNMT on real back-translations", "",
             f"Written by `python -m benchmarks.reproduction.reproduce --model {shown(args.model)} "
             f"--bitext {shown(args.bitext)} --out {shown(args.out)}"
             + (" --quick" if args.quick else "") + "` (2 CPU cores). Every number below comes from that run; "
             "rerun it to regenerate this page. Model selection uses STS2017 only; STS 2012–2015 and STS-B test "
             "are never used for a choice.", "",
             "## 1. The corpus", "",
             f"`{shown(args.model)}` (a 3+3-layer transformer trained on this same bitext, CTranslate2 int8) "
             f"back-translated the Czech side of every pair at beam 12: {s['read']:,} rows read, "
             f"{corpus['wall_seconds']:.0f} s for the whole pipeline ({corpus['pairs_per_second']:.1f} pairs/s; "
             f"{corpus['rows_translated_this_run']:,} translated in this run, {corpus['rows_from_cache']:,} from the "
             "translation cache of an earlier run of the same model and settings"
             + (": decoding speed is in the throughput table below)." if corpus["rows_from_cache"] else ")."), "",
             *table(["stage", "in", "dropped", "out", "reasons"], "lrrrl",
                    [[stage["stage"], f"{stage['in']:,}", f"{stage['dropped']:,}", f"{stage['out']:,}",
                      ", ".join(f"{r} {n:,}" for r, n in stage["reasons"].items()) or "–"] for stage in s["stages"]])]
    clean = s["decontamination"]
    lines += ["", f"**{accounting_line(s['identity'])}**. Decisions over pairs/: "
              + ", ".join(f"{r} {n:,}" for r, n in s["pairs_by_decision"].items()) + f"; train/ holds {s['train']:,}.",
              "", f"Evaluation decontamination: {clean['sentences']:,} distinct normalised sentences from "
              f"{len(clean['files'])} STS / STS-B / SICK files; {clean['pairs_excluded']:,} pairs excluded "
              f"(`eval_overlap`); train/ re-read after writing: {clean['train_overlap']} of "
              f"{clean['train_pairs_checked']:,} pairs share a sentence with them.", "",
              "### Copies and overlap per source (the model translates its own training data)", ""]
    lines += table(["source", "pairs", "copy rate", "trigram overlap", "paraphrase score", "translation score",
                    "in train/", "copies in train/"], "lr",
                   [[row["source"], f"{row['pairs']:,}", f"{100 * row['copy_rate']:.1f}%",
                     *(f"{row[f'mean_{score}']:.3f}" for score in ("trigram_overlap", "paraphrase_score",
                                                                   "translation_score")),
                     f"{row['in_train']:,}", f"{row.get('copies_in_train', 0):,}"] for row in stats["per_source"]])
    unfiltered = stats["without_drop_copies"]
    lines += ["", "A copy is an MT output equal to the English reference after Moses normalisation and "
              "lower-casing. Copies score 1.0 on every criterion, so the paper's rule alone would fill the top deciles "
              f"with them: applied with copies left in, it selects {unfiltered['selected']:,} pairs of which "
              f"{unfiltered['copies']:,} ({100 * unfiltered['copies'] / max(unfiltered['selected'], 1):.0f}%) are "
              "copies. `select.drop_copies` (on by default) keeps copies out of the ranking and of train/.", "",
              "### Back-translation throughput (beam 12, same sample, same run)", "",
              f"{speed['sentences']} Czech sentences drawn at random from the bitext, {speed['threads']} threads.", ""]
    lines += table(["backend", "compute type", "sentences/s", "target tokens/s", "vs fairseq",
                    "top-1 equal to fairseq"], "llr",
                   [[case["ran_backend"], case["ran_compute_type"], f"{case['sentences_per_second']:.1f}",
                     f"{case['target_tokens_per_second']:.0f}", f"{case['speedup_vs_fairseq']:.2f}×",
                     f"{100 * case['top1_equal_to_fairseq']:.1f}%"] for case in speed["cases"]])
    return [*lines, ""]


def _tables_1_and_3_section(stats: dict[str, Any], rel: str) -> list[str]:
    """§2: the corpus report's Tables 1 and 3, the score histogram and sample pairs per score range."""
    lines = ["## 2. Table 1 and Table 3 on this corpus", "", stats["table1_markdown"], "",
             stats["table3_markdown"], "", f"![paraphrase score histogram]({rel}/hist_paraphrase_score.png)", "",
             "### 20 random pairs per paraphrase-score range", ""]
    for block in stats["examples"]:
        lines += [f"<details><summary>{block['range']}: {block['pairs_in_range']:,} pairs</summary>", "",
                  *table(["source", "reference (en)", "back-translation (mt)", "para.", "trigram"], "lllr",
                         [[Path(row["source"]).stem, *(str(row[k]).replace("|", "\\|") for k in ("en", "mt")),
                           f"{row['paraphrase_score']:.2f}", f"{row['trigram_overlap']:.2f}"]
                          for row in block["sample"]]), "", "</details>", ""]
    return lines


def _table5_section(t5: dict[str, Any], rel: str) -> list[str]:
    """§3: each criterion's folds, the best one chosen on STS2017."""
    models = ", ".join(MODEL_LABELS[m] for m in t5["models"])
    lines = ["## 3. Table 5 in miniature: which score selects useful pairs", "",
             f"All {t5['folds']['pairs_ranked']:,} pairs the pipeline ranked (no evaluation overlap, no copy), "
             "ranked by each criterion into "
             f"{len(next(iter(t5['folds']['fold_sizes'].values())))} folds; {models} trained for "
             f"{t5['epochs']} epoch on {t5['folds']['pairs_per_fold']:,} pairs of each fold (M = 1, "
             f"{len(t5['seeds'])} seed(s), learning rates of §5); Pearson × 100 averaged over the models. Best fold "
             "per criterion chosen on STS2017.", ""]
    rows = []
    for criterion, per_fold in t5["table"].items():
        b = t5["best_fold"][criterion]
        series = " / ".join(_f(per_fold[f]["avg sts2017"]) for f in sorted(per_fold, key=int))
        rows.append([CRITERION_LABELS[criterion], b, _f(per_fold[b]["avg sts2017"]),
                     _f(per_fold[b]["avg mean_pearson"]), series])
    lines += table(["criterion", "best fold", "STS2017 (best fold)", "STS 12–15 mean (that fold)",
                    "STS2017 per fold 1→10"], "lrrrl", rows)
    return [*lines, "", f"![Table 5 folds]({rel}/table5_folds.png)", ""]


def _table6_section(t6: dict[str, Any], rel: str) -> list[str]:
    """§4: M = 1, 20, 40 on the pipeline's train/."""
    lines = ["## 4. Table 6 in miniature: mega-batch size", "",
             f"The pipeline's train/ ({t6['pairs']:,} pairs: top two paraphrase-score deciles, both sides ≤ 30 "
             f"tokens, evaluation sentences and copies excluded), {t6['epochs']} epochs, MAX negatives, learning "
             f"rates of §5, seeds {', '.join(map(str, t6['seeds']))}; final models.", ""]
    lines += table(["M", "model", "STS2017", "STS 12–15 mean", "positive_nearer"], "rlr",
                   [[m, MODEL_LABELS[model], *(f"{_f(cell[k]['mean'])} ± {_f(cell[k]['sd'])}"
                                               for k in ("sts2017", "mean_pearson")),
                     _f(cell["positive_nearer"]["mean"], 3)]
                    for m in sorted(t6["table"], key=int) for model, cell in t6["table"][m].items()])
    return [*lines, "", f"![Table 6]({rel}/table6_megabatch.png)", ""]


def _comparison_section(cmp_: dict[str, Any], select_lr: dict[str, Any]) -> list[str]:
    """§5: every encoder on STS 2012–2015, STS-B test and STS2017, and the learning rates chosen."""
    lines = ["## 5. The comparison that matters to a user", "",
             "Pearson × 100 (per-year mean over sub-datasets, the papers' protocol) and pooled Spearman × 100.", "",
             *table(["encoder", *TEST_YEARS, "**mean**", "pooled Spearman mean", "STS-B test", "STS2017"], "lr",
                    [[name, *(_f(row["years_pearson"].get(str(y))) for y in TEST_YEARS),
                      f"**{_f(row['mean_pearson'])}**",
                      *(_f(row[k]) for k in ("mean_pooled_spearman", "stsb_test", "sts2017"))]
                     for name, row in cmp_["rows"].items()])]
    lines += ["", f"Caption pairs: {cmp_['captions']['pairs']:,} (Multi30k, captions k and k+1 of an image, "
              f"{cmp_['captions']['captions_dropped_as_sts']} captions dropped as STS sentences). Learning rates of "
              "the "
              "back-translated models (Tables 5, 6 and this one), chosen on STS2017 at M = 1 (STS2017 × 100 per rate): "
              + "; ".join(f"{MODEL_LABELS[m]} " + ", ".join(f"{lr} → {v:.1f}" for lr, v in sel.items())
                          for m, sel in select_lr["sts2017"].items()) + ".", ""]
    return lines


def write_docs(results: dict[str, dict[str, Any]], docs: Path, args: argparse.Namespace) -> dict[str, Any]:
    """docs/reproduction.md from the steps' results, its figures beside it in ``<docs stem>/``."""
    figures = docs.parent / docs.stem
    _copy_figures(results, figures)
    rel = figures.name
    lines = [*_corpus_section(results, args), *_tables_1_and_3_section(results["corpus_stats"], rel),
             *_table5_section(results["table5"], rel), *_table6_section(results["table6"], rel),
             *_comparison_section(results["compare"], results["select_lr"]),
             "## 6. The paper's directions on this data (computed from the tables above)", "",
             *[f"- {line}" for line in verdicts(results)], ""]
    kept = kept_sections(docs)  # sections other commands wrote (frontier, learning curve) survive a rerun
    docs.write_text("\n".join(lines) + "\n" + ("\n" + kept if kept else ""), encoding="utf-8")
    return {"docs": str(docs), "figures": sorted(str(p) for p in figures.glob("*.png"))}


