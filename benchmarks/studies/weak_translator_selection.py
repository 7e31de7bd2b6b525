"""Which selection keeps real paraphrases when the translator is weak (docs/filters.md).

Step 1 (``sample``): over a run's ``pairs/`` (scored with ``select.scores: [sentence_transformer]``, so every pair has
``paraphrase_score``, ``trigram_overlap``, ``translation_score`` and ``st_cosine``), apply each selection of
:data:`SELECTIONS` with :func:`filters.folds.select_training_pairs` (the pipeline's decisions, Beam-free), count
the pairs each keeps, and draw ``--per-selection`` random kept pairs from each (seeded). The drawn pairs of all
selections go, shuffled and without their selection, into one blind file ``judge.tsv`` (item, English,
back-translation, label) for a reader; ``key.json`` remembers which selections drew each item.

Step 2 (``tally``): with the ``label`` column filled (``paraphrase``, ``partial`` or ``not``; criteria in
:data:`CRITERIA`), print per selection: pairs kept, share of the corpus, and the share of its drawn pairs judged
real paraphrases, with a 95% Wilson interval; write ``tally.json`` and ``tally.md``.
"""

from __future__ import annotations

import csv
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from benchmarks.doc_sections import table
from benchmarks.result import argument_parser, write_result
from configs.schema import SelectConfig
from filters.folds import select_training_pairs

CRITERIA = """\
paraphrase: the back-translation is an English sentence (or heading/label) a careful writer could have produced,
  and it says the same thing as the English side: same actions, objects, negation, numbers and UI names;
  differing words, word order, articles or punctuation are fine; it differs from the English side in more than
  case or punctuation.
partial: the same meaning for the most part, but a garbled phrase, a dropped or added content word, a wrong
  term (e.g. a mistranslated UI name) or broken grammar that a reader would notice.
not: a different meaning, garbled text, or a fragment that no longer says what the English side says."""

#: The selections compared. Thresholds were fixed before reading any pair: a translation-score floor of -1.0 (a
#: geometric-mean token probability of e^-1 = 0.37), and a sentence-transformers floor of 0.8.
SELECTIONS: dict[str, dict[str, Any]] = {
    "paper (top 2 deciles of SIF-GloVe paraphrase_score)": {},
    "top 2 deciles of st_cosine (MiniLM)": {"rank_by": "st_cosine"},
    "paper + translation_score >= -1.0": {"score_ranges": {"translation_score": {"min": -1.0}}},
    "st_cosine >= 0.8 and translation_score >= -1.0 (no ranking)": {
        "rank_by": None, "score_ranges": {"st_cosine": {"min": 0.8}, "translation_score": {"min": -1.0}}},
}
LABELS = ("paraphrase", "partial", "not")


def _read(pairs: Path) -> pa.Table:
    return pa.concat_tables([pq.read_table(f) for f in sorted(pairs.glob("*.parquet"))])


def sample(pairs: Path, out: Path, per_selection: int, seed: int) -> dict[str, Any]:
    table = _read(pairs)
    if "st_cosine" not in table.column_names:
        raise SystemExit(f"{pairs} has no st_cosine column: run the pipeline with --set "
                         "'select.scores=[sentence_transformer]'")
    rng = np.random.default_rng(seed)
    ids = np.asarray(table["id"].to_pylist(), dtype=object)
    drawn: dict[str, list[str]] = {}
    kept: dict[str, int] = {}
    for name, overrides in SELECTIONS.items():
        result = select_training_pairs(table, SelectConfig(**overrides), seed=1234)
        rows = np.flatnonzero(result.keep)
        kept[name] = len(rows)
        drawn[name] = [str(ids[i]) for i in rng.choice(rows, size=min(per_selection, len(rows)), replace=False)]
    items = sorted({i for chosen in drawn.values() for i in chosen})
    rng.shuffle(items)
    by_id = {r["id"]: r for r in table.select(["id", "en", "mt"]).to_pylist()}
    out.mkdir(parents=True, exist_ok=True)
    with (out / "judge.tsv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["item", "english", "back_translation", "label"])
        for n, pair_id in enumerate(items, start=1):
            writer.writerow([n, by_id[pair_id]["en"], by_id[pair_id]["mt"], ""])
    key = {"criteria": CRITERIA, "pairs": table.num_rows, "kept": kept,
           "items": {str(n): {"id": pair_id, "selections": [s for s, chosen in drawn.items() if pair_id in chosen]}
                     for n, pair_id in enumerate(items, start=1)}}
    write_result(out / "key.json", key, __file__)
    print(f"{table.num_rows:,} pairs; {len(items)} distinct pairs to judge in {out / 'judge.tsv'}")
    for name, n in kept.items():
        print(f"  {name}: keeps {n:,}")
    return key


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of ``k`` successes in ``n``."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n))


def read_labels(path: Path) -> list[dict[str, str]]:
    """The rows of a filled ``judge.tsv`` (item, english, back_translation, label); every label one of
    :data:`LABELS`."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = [{**row, "label": row["label"].strip()} for row in csv.DictReader(handle, delimiter="\t")]
    missing = [row["item"] for row in rows if row["label"] not in LABELS]
    if missing:
        raise SystemExit(f"{path}: items {missing[:10]} have no label in {LABELS}")
    return rows


def tally(out: Path) -> dict[str, Any]:
    key = json.loads((out / "key.json").read_text(encoding="utf-8"))
    labels = {row["item"]: row["label"] for row in read_labels(out / "judge.tsv")}
    results = {}
    for name, kept in key["kept"].items():
        mine = [labels[item] for item, info in key["items"].items() if name in info["selections"]]
        counts = {label: mine.count(label) for label in LABELS}
        low, high = wilson(counts["paraphrase"], len(mine))
        results[name] = {"kept": kept, "kept_share": kept / key["pairs"], "judged": len(mine), **counts,
                         "paraphrase_share": counts["paraphrase"] / max(len(mine), 1), "ci95": [low, high]}
    lines = table(["selection", "pairs kept", "of all pairs", "judged", "real paraphrases", "partial", "not", "95% CI"],
                  "l", [[name, f"{r['kept']:,}", f"{r['kept_share']:.1%}", r["judged"],
                         f"{r['paraphrase']} ({r['paraphrase_share']:.0%})", r["partial"], r["not"],
                         f"{r['ci95'][0]:.0%}-{r['ci95'][1]:.0%}"] for name, r in results.items()])
    write_result(out / "tally.json", results, __file__)
    (out / "tally.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__)
    sub = parser.add_subparsers(dest="step", required=True)
    s = sub.add_parser("sample")
    s.add_argument("--pairs", type=Path, required=True)
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--per-selection", type=int, default=100)
    s.add_argument("--seed", type=int, default=23)
    t = sub.add_parser("tally")
    t.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.step == "sample":
        sample(args.pairs, args.out, args.per_selection, args.seed)
    else:
        tally(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
