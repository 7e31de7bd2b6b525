"""Figures for the PMI paraphrase lexicon (ParaNMT-50M Appendix A.1) on real English caption pairs.

Pairs: Multi30k (Flickr30k) training captions, five independent English captions per image (line i of
``train.1.en`` ... ``train.5.en`` describes image i). ``--pairing all`` (default) uses all 10 caption pairs of each
image (the lower-numbered file is the "reference" side), ``consecutive`` the 5 pairs (1,2) (2,3) (3,4) (4,5) (5,1).
Captions are Moses-tokenised like the pipeline's English side (``paranmt.core.text.TextProcessor``; cached).
Captions of one image are paraphrases by construction and have no paraphrase score, so ``min_score`` is off;
``max_tokens: 30`` applies as in the paper.

Prints: the evaluation table (cross-sentence vs adjusted PMI; Spearman's rho x 100 with unseen pairs scored 0 and
on covered pairs only; coverage) on every set in ``../shared/data/wordsim`` (WS-353 all / sim / rel, MEN,
SimVerb-3500, RG-65, MTurk-771, RW); the shuffled-pair
control (second captions re-paired at random with ``--seed``: cross-sentence PMI then measures nothing); the
counting throughput (pairs/s) of the vectorised core against a slow pure-Python reference on the same pairs in the
same run (counts checked equal); example neighbour lists, and PPDB XL paraphrases side by side (Table 12).
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import Counter

import numpy as np
import pyarrow as pa

from benchmarks.paths import SHARED
from benchmarks.reproduction.caption_pairs import CAPTIONS, caption_tokens
from benchmarks.result import argument_parser, write_result
from configs.schema import LexiconConfig
from pipeline.analysis.lexicon.counting import ENGLISH_STOPWORDS, PairCounts, build_from_tables
from pipeline.analysis.lexicon.evaluation import evaluate_wordsim, format_results
from pipeline.analysis.lexicon.pmi import compute_lexicon, top_k_table

DATA = SHARED / "data"
WORDSIM = DATA / "wordsim"
PPDB = DATA / "lexicon" / "retrofitting-ppdb-xl.txt"
SETS = {"WS-353-ALL": "EN-WS-353-ALL.txt", "WS-353-SIM": "EN-WS-353-SIM.txt", "WS-353-REL": "EN-WS-353-REL.txt",
        "MEN": "EN-MEN-TR-3k.txt", "SimVerb-3500": "EN-SimVerb-3500.txt", "RG-65": "EN-RG-65.txt",
        "MTurk-771": "EN-MTurk-771.txt", "RW": "EN-RW-STANFORD.txt"}
EXAMPLES = ("man", "woman", "child", "dog", "running", "smiling", "laughing", "street", "shirt", "guitar",
            "bicycle", "jumping")


def caption_pairs(pairing: str, images: int | None) -> pa.Table:
    """The caption pairs as an ``en_tokens`` / ``mt_tokens`` table, image by image."""
    captions = [caption_tokens(k) for k in range(1, 6)]
    n = len(captions[0]) if images is None else min(images, len(captions[0]))
    combos = list(itertools.combinations(range(5), 2)) if pairing == "all" else [(k, (k + 1) % 5) for k in range(5)]
    en = pa.concat_arrays([captions[i].slice(0, n) for i, _ in combos])
    mt = pa.concat_arrays([captions[j].slice(0, n) for _, j in combos])
    return pa.table({"en_tokens": en, "mt_tokens": mt})


def batches(table: pa.Table, size: int) -> list[pa.Table]:
    return [table.slice(start, size) for start in range(0, table.num_rows, size)]


def slow_reference(table: pa.Table, config: LexiconConfig, vocab_words: set[str]) -> tuple[Counter, Counter]:
    """Obvious pure-Python counting (sets and nested loops) for the throughput baseline and a correctness check."""
    cross: Counter = Counter()
    within: Counter = Counter()
    limit = config.max_tokens
    for en, mt in zip(table.column("en_tokens").to_pylist(), table.column("mt_tokens").to_pylist(), strict=True):
        if not en or not mt or (limit is not None and (len(en) > limit or len(mt) > limit)):
            continue
        a = {w.lower() for w in en} & vocab_words
        b = {w.lower() for w in mt} & vocab_words
        for x in a:
            for y in b:
                cross[(x, y)] += 1
                cross[(y, x)] += 1
        for side, words in (("ref", a), ("mt", b)):
            for x in words:
                for y in words:
                    if x < y:
                        within[(side, x, y)] += 1
    return cross, within


def measure_throughput(table: pa.Table, config: LexiconConfig) -> dict[str, float]:
    """Pairs/s of pass 2 (pair counting) vectorised vs the slow reference, same pairs, same vocabulary."""
    _, vocab, _ = build_from_tables(batches(table, config.batch_pairs), config)
    words = vocab.words.to_pylist()
    started = time.perf_counter()
    fast = PairCounts(len(vocab), config.chunk_keys)
    for batch in batches(table, config.batch_pairs):
        fast.add_table(batch, vocab, config)
    fast.compact()
    fast_s = time.perf_counter() - started
    started = time.perf_counter()
    cross, within = slow_reference(table, config, set(words))
    slow_s = time.perf_counter() - started
    V = fast.size
    got = {(words[k // V], words[k % V]): int(c) for k, c in zip(fast.cross.keys, fast.cross.counts, strict=True)}
    ids = {w: i for i, w in enumerate(words)}
    expected = {(x, y): c for (x, y), c in cross.items() if ids[x] <= ids[y]}  # canonical, as the fast path
    same = got == expected and sum(fast.within["ref"].counts) + sum(fast.within["mt"].counts) == sum(within.values())
    return {"pairs": table.num_rows, "fast_s": fast_s, "slow_s": slow_s, "fast_pairs_per_s": table.num_rows / fast_s,
            "slow_pairs_per_s": table.num_rows / slow_s, "speedup": slow_s / fast_s, "counts_equal": bool(same)}


def evaluate(lexicon: pa.Table) -> list[dict]:
    results = []
    for name, file in SETS.items():
        results += evaluate_wordsim(lexicon, WORDSIM / file, name)
    return results


def load_ppdb(words: set[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if not PPDB.exists():
        return out
    with PPDB.open(encoding="utf-8") as handle:
        for line in handle:
            parts = line.split()
            if parts and parts[0] in words:
                out[parts[0]] = parts[1:]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--pairing", choices=["all", "consecutive"], default="all")
    parser.add_argument("--images", type=int, help="only the first N images (default: all 29,000)")
    parser.add_argument("--reference-pairs", type=int, default=20_000, help="pairs timed against the slow reference")
    parser.add_argument("--seed", type=int, default=0, help="seed of the shuffled-pair control")
    parser.add_argument("--neighbours", type=int, default=10)
    args = parser.parse_args(argv)
    if not CAPTIONS.is_dir() or not WORDSIM.is_dir():
        parser.error(f"{CAPTIONS} or {WORDSIM} is absent (../shared/data)")

    config = LexiconConfig(min_score=None, max_tokens=30, min_count=2, min_joint=10)
    started = time.perf_counter()
    table = caption_pairs(args.pairing, args.images)
    images = table.num_rows // (10 if args.pairing == "all" else 5)
    print(f"{table.num_rows:,} caption pairs ({args.pairing} pairs of {images:,} images), tokenised in "
          f"{time.perf_counter() - started:.1f}s")

    started = time.perf_counter()
    counts, vocab, marginals = build_from_tables(batches(table, config.batch_pairs), config, progress=True)
    build_s = time.perf_counter() - started
    lexicon = compute_lexicon(counts, vocab, config)
    total_s = time.perf_counter() - started
    print(f"lexicon: {marginals.used:,} pairs used of {marginals.read:,} (skipped {marginals.skipped}); "
          f"{len(vocab):,} words; {counts.cross.keys.size:,} cross pairs; {lexicon.num_rows:,} rows; "
          f"counting {build_s:.1f}s ({marginals.read / build_s:,.0f} pairs/s), with PMI {total_s:.1f}s")

    results = evaluate(lexicon)
    print("\nSpearman rho x 100 against word-similarity sets (rho(0): unseen pairs scored 0; rho(cov): covered only)")
    print(format_results(results))

    rng = np.random.default_rng(args.seed)
    shuffled = table.set_column(1, "mt_tokens", table.column("mt_tokens").take(rng.permutation(table.num_rows)))
    s_counts, s_vocab, _ = build_from_tables(batches(shuffled, config.batch_pairs), config)
    control = evaluate(compute_lexicon(s_counts, s_vocab, config))
    print(f"\nshuffled-pair control (second captions re-paired at random, seed {args.seed})")
    print(format_results(control))

    throughput = measure_throughput(table.slice(0, args.reference_pairs), config)
    print(f"\npair counting on {throughput['pairs']:,} pairs: vectorised {throughput['fast_pairs_per_s']:,.0f} "
          f"pairs/s, slow reference {throughput['slow_pairs_per_s']:,.0f} pairs/s ({throughput['speedup']:.0f}x); "
          f"counts equal: {throughput['counts_equal']}")

    top = top_k_table(lexicon, args.neighbours, config.min_joint, "pmi_adj")
    top_cross = top_k_table(lexicon, args.neighbours, config.min_joint, "pmi_cross")
    ppdb = load_ppdb(set(EXAMPLES))
    examples = {}
    print(f"\nneighbours (joint count >= {config.min_joint}), adjusted PMI | cross PMI | PPDB XL")
    for word in EXAMPLES:
        adj = top.filter(pa.compute.equal(top.column("u"), word)).column("v").to_pylist()
        cross = top_cross.filter(pa.compute.equal(top_cross.column("u"), word)).column("v").to_pylist()
        examples[word] = {"adjusted": adj, "cross": cross, "ppdb": ppdb.get(word, [])[: args.neighbours]}
        print(f"{word}\n  adj   {', '.join(adj) or '-'}\n  cross {', '.join(cross) or '-'}\n"
              f"  PPDB  {', '.join(examples[word]['ppdb']) or '-'}")

    if args.json:
        figures = {"pairing": args.pairing, "pairs": table.num_rows, "used": marginals.used,
                   "vocabulary": len(vocab), "stopwords": len(ENGLISH_STOPWORDS), "build_seconds": build_s,
                   "results": [r.as_dict() for r in results], "control": [r.as_dict() for r in control],
                   "throughput": throughput, "examples": examples, "config": config.model_dump(mode="json")}
        write_result(args.json, figures, __file__, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
