"""How much a CTranslate2 translation depends on the batch it is decoded in, per compute type, on a real model.

The same real Czech sentences (a seeded sample of every ``*.cs`` file in ../shared/data/bitext) are translated at
beam 12 through the project's ``Translator`` twice per compute type: once in chunks of 500 consecutive rows (the
pipeline's default chunk) and once as the same sentences in another order cut into chunks of 64 (what a different
container split used to produce). Each sentence's hypothesis and score are compared between the two: how many
hypotheses differ, and the largest and median score difference. This is the effect the pipeline's row-defined
chunks keep out of the corpus (docs/pipeline.md); it prints a table and writes ``--json``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

from benchmarks.paths import REPO, SHARED, shown
from benchmarks.result import argument_parser, write_result
from configs.schema import TranslateConfig
from translate.loading import load_translator


def sample_sentences(bitext: Path, n: int, seed: int) -> list[str]:
    lines = [line for path in sorted(bitext.glob("*.cs")) for line in path.read_text(encoding="utf-8").splitlines()]
    return random.Random(seed).sample([line for line in lines if line.strip()], n)


def translate_in_chunks(translator, sentences: list[str], order: list[int], size: int) -> list[tuple[str, float]]:
    """Translations of ``sentences``, decoded chunk by chunk (``size`` rows of ``order`` each), in input order."""
    out: list[tuple[str, float] | None] = [None] * len(sentences)
    for start in range(0, len(order), size):
        rows = order[start:start + size]
        for row, t in zip(rows, translator.translate([sentences[r] for r in rows]), strict=True):
            out[row] = (t.hypothesis or "", float("nan") if t.score is None else t.score)
    return out  # type: ignore[return-value]


def compare(model: Path, sentences: list[str], compute_type: str, threads: int, seed: int) -> dict[str, float]:
    translator = load_translator(TranslateConfig(model=model, backend="ctranslate2", device="cpu",
                                                 compute_type=compute_type, threads=threads, beam_size=12))
    n = len(sentences)
    shuffled = list(range(n))
    random.Random(seed + 1).shuffle(shuffled)
    a = translate_in_chunks(translator, sentences, list(range(n)), 500)
    b = translate_in_chunks(translator, sentences, shuffled, 64)
    again = translate_in_chunks(translator, sentences, list(range(n)), 500)
    diff = np.array([abs(x[1] - y[1]) for x, y in zip(a, b, strict=True)])
    diff = diff[~np.isnan(diff)]
    return {"compute_type": compute_type, "sentences": n,
            "hypotheses_differ": sum(x[0] != y[0] for x, y in zip(a, b, strict=True)),
            "scores_differ": int((diff > 0).sum()), "max_score_diff": float(diff.max(initial=0.0)),
            "median_score_diff": float(np.median(diff)) if len(diff) else 0.0,
            "same_chunks_repeat_identical": a == again}


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, result=REPO / "benchmarks" / "results" / "batch_composition.json")
    parser.add_argument("--model", type=Path, default=SHARED / "models" / "small-cs-en")
    parser.add_argument("--bitext", type=Path, default=SHARED / "data" / "bitext")
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compute-types", nargs="+", default=["int8", "float32"])
    args = parser.parse_args(argv)
    if not args.model.exists() or not args.bitext.exists():
        print(f"error: {args.model} or {args.bitext} does not exist (../shared beside the repository)",
              file=sys.stderr)
        return 2
    sentences = sample_sentences(args.bitext, args.sentences, args.seed)
    rows = [compare(args.model, sentences, ct, args.threads, args.seed) for ct in args.compute_types]
    print(f"{args.sentences} real sentences, beam 12, {args.model.name}: chunks of 500 in order vs the same "
          "sentences shuffled into chunks of 64")
    print(f"{'compute type':>12} {'hypotheses differ':>18} {'scores differ':>14} {'max |Δscore|':>13} "
          f"{'median |Δscore|':>16} {'same chunk, same bytes':>23}")
    for r in rows:
        print(f"{r['compute_type']:>12} {r['hypotheses_differ']:>18,} {r['scores_differ']:>14,} "
              f"{r['max_score_diff']:>13.2e} {r['median_score_diff']:>16.2e} "
              f"{'yes' if r['same_chunks_repeat_identical'] else 'NO':>23}")
    write_result(args.json, {"model": shown(args.model), "threads": args.threads, "rows": rows}, __file__, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
