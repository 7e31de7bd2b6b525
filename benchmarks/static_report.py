"""The ``static`` section of docs/reproduction.md from ``benchmarks.static_table``'s results JSON.

    python -m benchmarks.static_report [--json benchmarks/results/static_table.json] [--docs docs/reproduction.md]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.doc_sections import replace_section  # noqa: E402

SEED = re.compile(r"-s\d+$")
METRICS = ("mean", "stsb_test", "sts2017")
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
    lines = ["| row | model | training pairs | lr | variant | seeds | STS 2012–15 | STS-B test | STS2017 (dev) |",
             "|---|---|---|---:|---|---:|---:|---:|---:|"]
    for name, rows in sorted(groups(data["rows"]).items(), key=lambda item: order(item[1][0])):
        if name.startswith(tuple(CURVES)):
            continue
        row = rows[0]
        values = {m: [r["eval"][m] for r in rows] for m in METRICS}
        lr = "–" if not row.get("train", True) else f"{row['lr']:g}"
        lines.append(f"| {name} | {row['model']} | {DATA.get(row['data'], row['data'])} | {lr} | {what(row)} | "
                     f"{len(rows)} | {cell(values['mean'])} | {cell(values['stsb_test'])} | "
                     f"{cell(values['sts2017'])} |")
    minilm = data.get("minilm")
    if minilm:
        e = minilm["eval"]
        lines.append(f"| all-MiniLM-L6-v2 | transformer | – | – | the teacher | – | {e['mean']:.1f} | "
                     f"{e['stsb_test']:.1f} | {e['sts2017']:.1f} |")
    return lines


def speed_table(data: dict[str, Any]) -> list[str]:
    speed = data.get("speed")
    if not speed:
        return []
    lines = [f"Encoding speed: {speed['rounds']} rounds of {speed['sentences']:,} unseen STS-B train sentences, one "
             "thread, cold, tokenisation included, every encoder in the same run (`benchmarks.frontier`'s timing); "
             "median over rounds, and the median of the per-round ratios to all-MiniLM-L6-v2.", "",
             "| encoder | row | sentences/s | × MiniLM | size on disk |", "|---|---|---:|---:|---:|"]
    for label, row in speed["encoders"].items():
        lines.append(f"| {label} | {row['row']} | {row['sentences_per_second']:,.0f} | {row['x_minilm']:.0f}× | "
                     f"{row['disk_bytes'] / 1e6:.1f} MB |")
    return lines


CURVES = {"curve-": "curve_row", "bestcurve-": "best_curve_row"}  # row-name prefix -> the choice naming its row


def curve(data: dict[str, Any], prefix: str) -> list[str]:
    """The learning curve of the rows named ``<prefix><pairs>``, ending at the full-corpus row they sample."""
    best = data.get("choices", {}).get(CURVES[prefix])
    points = sorted((int(n[len(prefix):]), r["eval"]["mean"]) for n, r in data["rows"].items()
                    if n.startswith(prefix))
    if not best or not points:
        return []
    full = data["rows"][best]
    pts = sorted([*points, (data["sets"].get(full["data"], 0), full["eval"]["mean"])])
    lines = [f"Learning curve of {best}'s configuration (STATIC, lr {full['lr']:g}, "
             f"{what(full) if what(full) != '–' else 'no teacher loss'}), on nested seeded samples of all ranked "
             "pairs (one seed):", "", "| pairs | STS 2012–15 |", "|---:|---:|"]
    lines += [f"| {n:,} | {m:.1f} |" for n, m in pts]
    if len(pts) >= 3:
        xs, ys = [math.log10(n) for n, _ in pts], [m for _, m in pts]
        mx, my = statistics.mean(xs), statistics.mean(ys)
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
        a = my - b * mx
        lines += ["", f"Least-squares fit mean = {a:.1f} + {b:.2f}·log10(pairs): {a + b * 6:.1f} at 1M pairs, "
                  f"{a + b * math.log10(5e6):.1f} at 5M (an extrapolation far past the data: read it as a trend)."]
    return lines


def markdown(data: dict[str, Any]) -> str:
    lines = ["## The static encoder: what the corpus adds to a distilled teacher", "",
             "Written by `python -m benchmarks.corpora` then `python -m benchmarks.static_table --docs "
             "docs/reproduction.md` (results: `benchmarks/results/static_table.json`). STATIC is the model2vec "
             "distillation of all-MiniLM-L6-v2 (PCA 256 unless the row says otherwise), trained with the paper's "
             "margin loss (δ 0.4, MAX negatives, batch 100, M = 20, Adam, 5 epochs, one thread); every choice "
             "(learning rate, teacher-loss weight, the curve's row) was made on STS2017 alone. STS 2012–15: mean of "
             "the per-year mean Pearson × 100. `± ` is the standard deviation over the seeds.", ""]
    lines += main_table(data)
    for block in (speed_table(data), *(curve(data, prefix) for prefix in CURVES)):
        if block:
            lines += ["", *block]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.static_report", description=__doc__)
    p.add_argument("--json", type=Path, default=REPO / "benchmarks" / "results" / "static_table.json")
    p.add_argument("--docs", type=Path, help="markdown page whose 'static' section is (re)written")
    args = p.parse_args(argv)
    data = json.loads(args.json.read_text(encoding="utf-8"))
    text = markdown(data)
    print(text)
    if args.docs:
        replace_section(args.docs, "static", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
