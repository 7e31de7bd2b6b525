"""The ``static`` section of docs/reproduction.md from ``benchmarks.reproduction.static_table``'s results JSON.

With ``--docs``, also draws the learning curves into ``reproduction/static_curve.png`` beside the page.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.doc_sections import replace_section, save_figure, table
from benchmarks.paths import REPO
from benchmarks.reproduction.frontier import speed_protocol
from benchmarks.reproduction.learning_curve import METRICS, fit_log_linear
from benchmarks.result import argument_parser
from paranmt.core.plotting import pyplot

SEED = re.compile(r"-s\d+$")
FIT_AT = (1_000_000, 5_000_000)
TARGET = 72.0  # the static encoder's target on STS 2012–15 (docs/reproduction.md, "Against its targets")
FIGURE = "reproduction/static_curve.png"  # beside the page the section is written into
DATA = {"all": "all ranked pairs", "train": "train/ (paper's selection)", "shuffled": "all, sides shuffled (control)",
        "all+lo": "all + LibreOffice", "-": "none"}


def groups(rows: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Rows by name without their ``-s<seed>`` suffix (seed 1 has none)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, row in rows.items():
        out.setdefault(SEED.sub("", name), []).append(row)
    return out


def cell(values: list[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.1f}"
    return f"{statistics.mean(values):.1f} ± {statistics.stdev(values):.1f}"


def what(row: dict[str, Any]) -> str:
    parts = []
    if row.get("static_teacher_loss"):
        parts.append(f"teacher loss {row['static_teacher_loss']:g}")
    if row.get("paraphrase_weight") == 0.0:
        parts.append("no paraphrase loss (teacher loss alone)")
    for key, label in (("static_pca_dims", "PCA {}"), ("static_extend_vocab", "+{} corpus words"),
                       ("static_pull", "pull {}")):
        if row.get(key):
            parts.append(label.format(f"{row[key]:g}" if isinstance(row[key], float) else row[key]))
    if row.get("megabatch", 20) != 20:
        parts.append(f"M = {row['megabatch']}")
    if row.get("epochs", 5) != 5:
        parts.append(f"{row['epochs']} epochs")
    if row.get("select") == "dev":
        parts.append("checkpoint best on STS2017")
    return ", ".join(parts) or "–"


def order(row: dict[str, Any]) -> tuple[int, str, float]:
    """Table order: the distillation, the learning-rate sweep, the training sets, the teacher loss, the other
    variants, the combinations, then the paper's encoders."""
    if not row.get("train", True):
        kind = 0
    elif row["model"] != "static":
        kind = 7 if "static" in row["model"] else 8
    elif row["data"] in ("train", "shuffled"):
        kind = 2
    elif row.get("static_teacher_loss"):
        kind = 3
    elif row["data"] == "all+lo":
        kind = 5
    elif what(row) != "–":
        kind = 4
    else:
        kind = 1
    return kind, row["data"], row.get("lr", 0.0)


def main_table(data: dict[str, Any]) -> list[str]:
    rows = []
    for name, runs in sorted(groups(data["rows"]).items(), key=lambda item: order(item[1][0])):
        if not name.startswith(tuple(CURVES)):
            row = runs[0]
            lr = "–" if not row.get("train", True) else f"{row['lr']:g}"
            rows.append([name, row["model"], DATA.get(row["data"], row["data"]), lr, what(row), len(runs),
                         *(cell([r["eval"][m] for r in runs]) for m in METRICS)])
    minilm = data.get("minilm")
    if minilm:
        rows.append(["all-MiniLM-L6-v2", "transformer", "–", "–", "the teacher", "–",
                     *(f"{minilm['eval'][m]:.1f}" for m in METRICS)])
    return table(["row", "model", "training pairs", "lr", "variant", "seeds", "STS 2012–15", "STS-B test",
                  "STS2017 (dev)"], "lllrlr", rows)


def speed_table(data: dict[str, Any]) -> list[str]:
    speed = data.get("speed")
    if not speed:
        return []
    lines = [f"Encoding speed, from the frontier's timing above (`{speed['source']}`: one measurement for both "
             f"sections). {speed_protocol(speed)} Median over rounds, the median of the per-round ratios to "
             "all-MiniLM-L6-v2, and the spread of the rounds ((max − min) / median).", ""]
    return lines + table(["encoder", "row", "sentences per CPU-second (1 pinned thread)", "× MiniLM", "spread",
                          "wall sentences/s (× MiniLM)", "size on disk"], "llr",
                         [[label, row["row"], f"{row['sentences_per_cpu_second']:,.0f}", f"{row['x_minilm']:.0f}×",
                           f"{100 * row['spread']:.0f}%",
                           f"{row['wall_sentences_per_second']:,.0f} ({row['wall_x_minilm']:.0f}×)",
                           f"{row['disk_bytes'] / 1e6:.1f} MB"] for label, row in speed["encoders"].items()])


CURVES = {"curve-": "curve_row", "bestcurve-": "best_curve_row"}  # row-name prefix -> the choice naming its row


def curve_points(data: dict[str, Any], prefix: str) -> tuple[str, list[tuple[int, float]]] | None:
    """The full-corpus row a curve samples and its (pairs, STS 2012–15 mean) points, the full row last."""
    best = data.get("choices", {}).get(CURVES[prefix])
    points = [(int(n[len(prefix):]), r["eval"]["mean"]) for n, r in data["rows"].items() if n.startswith(prefix)]
    if not best or not points:
        return None
    full = data["rows"][best]
    return best, sorted([*points, (data["sets"].get(full["data"], 0), full["eval"]["mean"])])


def curve(data: dict[str, Any], prefix: str) -> list[str]:
    """The learning curve of the rows named ``<prefix><pairs>``, ending at the full-corpus row they sample, and its
    log-linear fit (``benchmarks.reproduction.learning_curve.fit_log_linear``, 95% prediction intervals)."""
    found = curve_points(data, prefix)
    if found is None:
        return []
    best, pts = found
    full = data["rows"][best]
    lines = [f"Learning curve of {best}'s configuration (STATIC, lr {full['lr']:g}, "
             f"{what(full) if what(full) != '–' else 'no teacher loss'}), on nested seeded samples of all ranked "
             "pairs (one seed; the epochs are fixed, so a smaller sample also gets fewer updates):", "",
             *table(["pairs", "STS 2012–15"], "r", [[f"{n:,}", f"{m:.1f}"] for n, m in pts])]
    if len(pts) >= 3:
        fit = fit_log_linear([n for n, _ in pts], [m for _, m in pts], FIT_AT)
        at = [fit["predictions"][str(n)] for n in FIT_AT]
        lines += ["", f"Least-squares fit mean = {fit['a']:.1f} + {fit['b']:.2f}·log10(pairs) (slope ± "
                  f"{fit['slope_se']:.2f}): {at[0]['value']:.1f} at 1M pairs (95% PI {at[0]['low']:.1f}–"
                  f"{at[0]['high']:.1f}), {at[1]['value']:.1f} at 5M ({at[1]['low']:.1f}–{at[1]['high']:.1f}) — an "
                  "extrapolation far past the data: read it as a trend."]
    return lines


def plot_curves(data: dict[str, Any], path: Path) -> None:
    """Both learning curves (STS 2012–15 mean over training pairs, log x), their fits, the distillation, the
    target and all-MiniLM-L6-v2 as lines."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    grid = np.logspace(np.log10(2000), np.log10(5_000_000), 50)
    for prefix, colour in zip(CURVES, ("tab:blue", "tab:red"), strict=True):
        found = curve_points(data, prefix)
        if found is None:
            continue
        best, pts = found
        variant = what(data["rows"][best])
        ax.plot([n for n, _ in pts], [m for _, m in pts], "o-", color=colour,
                label=f"{best} ({variant if variant != '–' else 'no teacher loss'})")
        if len(pts) >= 3:
            fit = fit_log_linear([n for n, _ in pts], [m for _, m in pts], FIT_AT)
            ax.plot(grid, fit["a"] + fit["b"] * np.log10(grid), ":", color=colour, alpha=0.7)
    lines = [("distilled" in data["rows"] and data["rows"]["distilled"]["eval"]["mean"], "the distillation", "grey"),
             (TARGET, "the target", "tab:green"),
             (data.get("minilm", {}).get("eval", {}).get("mean"), "all-MiniLM-L6-v2 (the teacher)", "k")]
    for value, label, colour in lines:
        if value:
            ax.axhline(value, ls="--", color=colour, alpha=0.6, label=f"{label}: {value:.1f}")
    low, high = ax.get_ylim()
    shown = [value for value, _, _ in lines if value]
    ax.set_ylim(min([low, *shown]) - 0.5, max([high, *shown]) + 0.5)  # every line in view
    ax.set_xscale("log")
    ax.set_xlabel("training pairs (nested samples of the ranked pairs; dotted: log-linear fit)")
    ax.set_ylabel("STS 2012–2015 mean, Pearson × 100")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, loc="lower right")
    save_figure(fig, path)


def markdown(data: dict[str, Any]) -> str:
    lines = ["## The static encoder: what the corpus adds to a distilled teacher", "",
             "Written by `python -m benchmarks.reproduction.corpora` then "
             "`python -m benchmarks.reproduction.static_table --docs docs/reproduction.md` (results: "
             "`benchmarks/results/static_table.json`). STATIC is the model2vec "
             "distillation of all-MiniLM-L6-v2 (PCA 256 unless the row says otherwise), trained with the paper's "
             "margin loss (δ 0.4, MAX negatives, batch 100, M = 20, Adam, 5 epochs, one thread, unless the row "
             "says otherwise); every choice (learning rate, teacher-loss weight, the chosen configuration, the "
             "curves' rows) was made on STS2017 alone. STS 2012–15: mean of the per-year mean Pearson × 100. `± ` is "
             "the standard deviation over the seeds.", ""]
    chosen = data.get("choices", {}).get("best_static")
    if chosen:
        lines += [f"The chosen static encoder (the best mean STS2017 over its seeds): **{chosen}** "
                  f"({what(data['rows'][chosen])}).", ""]
    lines += main_table(data)
    curves = [block for block in (curve(data, prefix) for prefix in CURVES) if block]
    for block in (speed_table(data), *curves):
        if block:
            lines += ["", *block]
    if curves:
        lines += ["", f"![STATIC's learning curves]({FIGURE})"]
    return "\n".join(lines) + "\n"


def write_section(data: dict[str, Any], docs: Path) -> None:
    """Rewrite the ``static`` section of ``docs`` and its figure (``FIGURE``, beside the page)."""
    plot_curves(data, docs.parent / FIGURE)
    replace_section(docs, "static", markdown(data))


def main(argv: Sequence[str] | None = None) -> int:
    p = argument_parser(__file__, __doc__, result=REPO / "benchmarks" / "results" / "static_table.json")
    p.add_argument("--docs", type=Path, help="markdown page whose 'static' section is (re)written")
    args = p.parse_args(argv)
    data = json.loads(args.json.read_text(encoding="utf-8"))
    text = markdown(data)
    print(text)
    if args.docs:
        write_section(data, args.docs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
