"""The translator's text chain per sentence: what one process's Python costs around every decoded sentence.

On a GPU the decoder waits for this (docs/scaling.md, "GPU workers"). Over the Czech side of every file of
``../shared/data/bitext`` and ``../shared/data/bitext-software``, in one run:

* the source's Moses steps (whitespace, punctuation normalisation, tokenisation) with stock sacremoses, the slow
  obvious reference, and with the translator's own (``paranmt.core.text.fast_moses``), interleaved over ``--rounds``;
  the sentences whose words differ (0 is the contract);
* BPE over those words, stock subword-nmt (``process_line``, its own unbounded cache) and the translator's (its
  bounded per-word memo, ``translate.text_chain.WORD_MEMO_SIZE``): the first pass (every word new to the cache) and
  a second (all cached); the lines whose pieces differ (0 is the contract); the memory each one's caches hold
  after one pass (Python's tracemalloc);
* the target side: un-BPE and Moses detokenisation of the English side's Moses tokens.

Each figure is the median over the rounds of µs per sentence; the ratios are stock over the translator's.
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from sacremoses import MosesPunctNormalizer, MosesTokenizer

from benchmarks.paths import (
    REPO,
    SHARED,
    code_commit,
)
from benchmarks.result import argument_parser, write_result
from paranmt.core.text import fast_moses
from translate.card import DEFAULT_MODEL_DIR, ModelDir
from translate.text_chain import SourceEncoder, TargetDecoder, load_bpe, moses_words

FOLDERS = ("bitext", "bitext-software")


def sides(limit: int | None) -> tuple[list[str], list[str]]:
    """Every line pair of the bitext folders' files (by folder, then by name), at most ``limit``."""
    cs: list[str] = []
    en: list[str] = []
    for folder in FOLDERS:
        for path in sorted((SHARED / "data" / folder).glob("*.cs")):
            cs += path.read_text(encoding="utf-8").splitlines()
            en += path.with_suffix(".en").read_text(encoding="utf-8").splitlines()
    return cs[:limit], en[:limit]


def per_sentence(work: Callable[[], object], n: int) -> float:
    started = time.perf_counter()
    work()
    return 1e6 * (time.perf_counter() - started) / n


def cache_mb(run: Callable[[], object]) -> float:
    """MB that ``run()`` leaves allocated: what a pass adds to the caches (tracemalloc, outside the timed rounds)."""
    tracemalloc.start()
    try:
        run()
        return round(tracemalloc.get_traced_memory()[0] / 1e6, 3)
    finally:
        tracemalloc.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--limit", type=int, help="the first N pairs only (default all)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if not SHARED.is_dir():
        print(f"error: {SHARED} is absent: the bench reads its bitext", file=sys.stderr)
        return 2
    cs, en = sides(args.limit)
    model = ModelDir(DEFAULT_MODEL_DIR)
    codes = model.path(model.card.preprocess.bpe_codes or "")
    aggressive = model.card.preprocess.aggressive_dash_splits
    stock = (MosesPunctNormalizer(lang="cs"), MosesTokenizer(lang="cs"))
    ours = fast_moses("cs")
    rounds: dict[str, list[float]] = {name: [] for name in (
        "moses_stock", "moses_translator", "bpe_stock_first", "bpe_stock_cached", "bpe_translator_first",
        "bpe_translator_cached", "target")}
    n = len(cs)
    stock_words = [moses_words(x, *stock, aggressive) for x in cs]
    our_words = [moses_words(x, *ours, aggressive) for x in cs]
    differ = sum(a != b for a, b in zip(stock_words, our_words, strict=True))
    en_tokens = [MosesTokenizer(lang="en").tokenize(x, escape=False) for x in en]
    decoder = TargetDecoder(model)
    for _ in range(args.rounds):
        rounds["moses_stock"].append(per_sentence(lambda: [moses_words(x, *stock, aggressive) for x in cs], n))
        rounds["moses_translator"].append(per_sentence(lambda: [moses_words(x, *ours, aggressive) for x in cs], n))
        bpe = load_bpe(codes)  # fresh caches: the first pass meets every word anew
        encoder = SourceEncoder(model)
        for cache in ("first", "cached"):
            rounds[f"bpe_stock_{cache}"].append(
                per_sentence(lambda: [bpe.process_line(w) for w in our_words], n))  # noqa: B023
            rounds[f"bpe_translator_{cache}"].append(
                per_sentence(lambda: [encoder._subwords(w) for w in our_words], n))  # noqa: B023
        rounds["target"].append(per_sentence(lambda: [decoder.decode(t) for t in en_tokens], n))
    pieces_differ = sum(bpe.process_line(w).split() != encoder._subwords(w) for w in our_words)
    fresh_bpe, fresh_encoder = load_bpe(codes), SourceEncoder(model)
    memory = {"bpe_stock": cache_mb(lambda: [fresh_bpe.process_line(w) for w in our_words]),
              "translator": cache_mb(lambda: [fresh_encoder._subwords(w) for w in our_words])}
    medians = {k: round(statistics.median(v), 1) for k, v in rounds.items()}
    result: dict[str, Any] = {
        "code": code_commit(REPO), "sentences": n, "rounds": args.rounds, "moses_words_differ": differ,
        "us_per_sentence": medians, "rounds_us": {k: [round(x, 1) for x in v] for k, v in rounds.items()},
        "bpe_pieces_differ": pieces_differ, "cache_mb_after_one_pass": memory,
        "moses_stock_over_translator": round(medians["moses_stock"] / medians["moses_translator"], 2),
        "bpe_stock_over_translator": {
            cache: round(medians[f"bpe_stock_{cache}"] / medians[f"bpe_translator_{cache}"], 2)
            for cache in ("first", "cached")}}
    print(f"{n:,} Czech sentences, {args.rounds} rounds, median µs per sentence: "
          + ", ".join(f"{k} {v}" for k, v in medians.items()))
    print(f"Moses: stock / translator's = {result['moses_stock_over_translator']}x; sentences whose words differ: "
          f"{differ}")
    print(f"BPE: stock / translator's = {result['bpe_stock_over_translator']}; lines whose pieces differ: "
          f"{pieces_differ}; MB its caches hold after one pass: {memory}")
    write_result(args.json, result, __file__, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
