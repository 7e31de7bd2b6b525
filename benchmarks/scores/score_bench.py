"""Pair-scoring throughput, one core: the vectorised scores vs a plain per-pair Python reference, same pairs.

What is timed: all three pair scores of ``filters.scores.score_pairs`` — trigram overlap and the PARAGRAM-PHRASE
score (SIF-weighted GloVe 6B 50d, first principal component removed: the default scorer); the translation score
is a given column and is only carried — on Arrow token lists, record batch by record batch. Dictionary encoding,
lower-casing, vocabulary lookup and trigram hashing are inside the timed region. Not timed: reading and Moses
tokenisation of the captions (cached), loading the word vectors and fitting the scorer (done once per corpus).

The reference is the obvious implementation, timed in the same run on the same pairs: per pair, Python sets of
lower-cased trigram tuples, and per sentence, dict lookups of the known words and a NumPy weighted average with
the component projected out. Its results are checked against the fast path (trigram exactly, paraphrase score to
1e-5), and the ratio of pairs/s is printed.

Real pairs: Multi30k (Flickr30k) captions, five independent English captions per image; line i of
``train.k.en`` and ``train.(k+1).en`` describe the same image, giving 4 x 29,000 = 116,000 pairs. Everything runs
on one thread (BLAS, torch and Arrow are pinned to 1 at start-up) so the figures are per core.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMEXPR_NUM_THREADS",
             "VECLIB_MAXIMUM_THREADS"):
    os.environ[_var] = "1"  # before numpy/torch load BLAS: "per core" must mean one core

import argparse  # noqa: E402
import hashlib  # noqa: E402
import importlib.metadata  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import asdict, dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from benchmarks.paths import SHARED  # noqa: E402
from benchmarks.result import argument_parser, write_result  # noqa: E402
from benchmarks.timing import repeat  # noqa: E402
from configs.schema import ScoreConfig  # noqa: E402
from filters.paragram import ParagramScorer  # noqa: E402
from filters.scores import score_pairs  # noqa: E402
from filters.trigram import trigram_overlap  # noqa: E402
from paranmt.core import pair_schema as S  # noqa: E402
from paranmt.core.word_vectors import load_word_vectors  # noqa: E402
from translate.cached_models import default_cache_dir as paranmt_cache  # noqa: E402

DEFAULT_CAPTIONS = SHARED / "data" / "paraphrase" / "multi30k-captions"
CAPTION_FILES = 5
GOAL_PAIRS_PER_SECOND = 100_000


def default_cache_dir() -> Path:
    return paranmt_cache() / "score_bench"


def tokenised_lines(path: Path, cache_dir: Path | None = None) -> pa.Array:
    """Moses tokens (sacremoses, ``escape=False``) of every line of ``path``, cached by content hash."""
    cache_dir = cache_dir or default_cache_dir()
    data = path.read_bytes()
    key = hashlib.sha1(data + importlib.metadata.version("sacremoses").encode()).hexdigest()[:16]
    cached = cache_dir / f"{path.name}.{key}.parquet"
    if cached.is_file():
        return pq.read_table(cached)["tokens"].combine_chunks()
    from sacremoses import MosesTokenizer

    tokenizer = MosesTokenizer(lang="en")
    tokens = pa.array([tokenizer.tokenize(line, escape=False) for line in data.decode("utf-8").splitlines()],
                      pa.list_(pa.string()))
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    pq.write_table(pa.table({"tokens": tokens}), tmp)
    os.replace(tmp, cached)  # atomic: concurrent runs never read a half-written cache
    return tokens


def caption_pairs(n: int | None = None, captions_dir: Path = DEFAULT_CAPTIONS,
                  cache_dir: Path | None = None) -> pa.Table:
    """The first ``n`` of the 116,000 caption pairs (file k line i, file k+1 line i), as a pairs table with
    ``en_tokens``, ``mt_tokens`` and a stand-in ``translation_score`` (carried, not computed)."""
    per_file = None
    en: list[pa.Array] = []
    mt: list[pa.Array] = []
    remaining = n
    previous = None
    for k in range(1, CAPTION_FILES + 1):
        if remaining is not None and remaining <= 0:
            break
        current = tokenised_lines(captions_dir / f"train.{k}.en", cache_dir)
        per_file = per_file or len(current)
        if len(current) != per_file:
            raise ValueError(f"{captions_dir}/train.{k}.en has {len(current)} lines, expected {per_file}")
        if previous is not None:
            take = per_file if remaining is None else min(per_file, remaining)
            en.append(previous.slice(0, take))
            mt.append(current.slice(0, take))
            remaining = None if remaining is None else remaining - take
        previous = current
    if n is not None and remaining:
        raise ValueError(f"only {n - remaining} caption pairs available, asked for {n}")
    en_tokens = pa.concat_arrays(en)
    scores = np.random.default_rng(0).uniform(-2.0, -0.1, len(en_tokens)).astype(np.float32)
    return pa.table({S.EN_TOKENS: en_tokens, S.MT_TOKENS: pa.concat_arrays(mt),
                     S.TRANSLATION_SCORE: pa.array(scores, pa.float32())})


class ReferenceScorer:
    """The slow, obvious implementation: Python per pair / per sentence. Building its word index is set-up."""

    def __init__(self, scorer: ParagramScorer) -> None:
        self.index = {word: i for i, word in enumerate(scorer.vectors.words.to_pylist())}
        self.matrix = scorer.vectors.matrix.astype(np.float64)
        self.weights = scorer.weights.astype(np.float64)
        self.components = scorer.components.astype(np.float64)
        self.lowercase = scorer.lowercase

    @staticmethod
    def trigrams(tokens: list[str]) -> set[tuple[str, str, str]]:
        lower = [t.lower() for t in tokens]
        return {(lower[i], lower[i + 1], lower[i + 2]) for i in range(len(lower) - 2)}

    def embed(self, tokens: list[str]) -> np.ndarray | None:
        words = [t.lower() for t in tokens] if self.lowercase else tokens
        rows = [self.index[w] for w in words if w in self.index]
        if not rows:
            return None
        vector = (self.matrix[rows] * self.weights[rows, None]).mean(axis=0)
        for u in self.components:
            vector = vector - u * (u @ vector)
        return vector

    def score(self, en: list[list[str]], mt: list[list[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        overlap = np.zeros(len(en), np.float32)
        paraphrase = np.zeros(len(en), np.float32)
        no_known = np.zeros(len(en), bool)
        for i, (a, b) in enumerate(zip(en, mt, strict=True)):
            ta, tb = self.trigrams(a), self.trigrams(b)
            fewer = min(len(ta), len(tb))
            overlap[i] = len(ta & tb) / fewer if fewer else 0.0
            va, vb = self.embed(a), self.embed(b)
            if va is None or vb is None:
                no_known[i] = True
                continue
            norms = np.linalg.norm(va) * np.linalg.norm(vb)
            paraphrase[i] = va @ vb / norms if norms > 0 else 0.0
        return overlap, paraphrase, no_known


@dataclass
class Result:
    pairs: int
    batch_rows: int
    repeats: int
    threads: int = 1
    tokens_per_pair: float = 0.0
    scorer_id: str = ""
    fit_seconds: float = 0.0
    seconds: float = 0.0  # best of the repeats, all scores
    pairs_per_second: float = 0.0
    seconds_all_repeats: list[float] = field(default_factory=list)
    cpu_per_wall: float = 0.0  # CPU time / wall time while timing: ~1 on one core
    trigram_only_pairs_per_second: float = 0.0
    paragram_only_pairs_per_second: float = 0.0
    reference_pairs: int = 0
    reference_seconds: float = 0.0
    reference_pairs_per_second: float = 0.0
    speedup_vs_reference: float = 0.0
    trigram_equal_to_reference: bool = False
    paraphrase_max_abs_diff: float = 0.0
    no_known_words_equal: bool = False
    median_paraphrase_score: float = 0.0
    mean_trigram_overlap: float = 0.0
    goal_pairs_per_second: int = GOAL_PAIRS_PER_SECOND
    meets_goal: bool = False
    versions: dict[str, str] = field(default_factory=dict)


def build_parser() -> argparse.ArgumentParser:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--pairs", type=int, default=116_000, help="caption pairs (at most 116,000)")
    parser.add_argument("--reference-pairs", type=int, help="pairs the slow reference runs on (default: all)")
    parser.add_argument("--batch-rows", type=int, default=65_536, help="rows per record batch")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats (the best counts)")
    parser.add_argument("--captions", type=Path, default=DEFAULT_CAPTIONS, help="multi30k-captions directory")
    return parser


def fit_scorer(table: pa.Table, result: Result) -> ParagramScorer:
    """The default scorer fitted on the pairs' sentences, as the pipeline fits it (timed, not part of the rate)."""
    started = time.perf_counter()
    scorer = ParagramScorer.fit(load_word_vectors(None), pa.chunked_array([table[S.EN_TOKENS], table[S.MT_TOKENS]]),
                                ScoreConfig())
    result.fit_seconds = time.perf_counter() - started
    result.scorer_id = scorer.scorer_id
    return scorer


def time_fast_path(batches: list[pa.Table], scorer: ParagramScorer, repeats: int, result: Result) -> pa.Table:
    """``score_pairs`` over every record batch, best of ``repeats``, and each score alone; the scored pairs."""
    n = result.pairs
    score_pairs(batches[0].slice(0, 1000), scorer)  # warm-up: lazy imports, first-touch allocations
    scored: list[pa.Table] = []

    def run_all() -> None:
        scored.clear()
        scored.extend(score_pairs(batch, scorer) for batch in batches)

    times = repeat(run_all, repeats)
    result.seconds, result.seconds_all_repeats, result.cpu_per_wall = times.best, times.wall, times.cpu_per_wall
    result.pairs_per_second = n / result.seconds
    tri_seconds = repeat(lambda: [trigram_overlap(b[S.EN_TOKENS], b[S.MT_TOKENS]) for b in batches], repeats).best
    para_seconds = repeat(lambda: [scorer.score(b[S.EN_TOKENS], b[S.MT_TOKENS]) for b in batches], repeats).best
    result.trigram_only_pairs_per_second = n / tri_seconds
    result.paragram_only_pairs_per_second = n / para_seconds
    out = pa.concat_tables(scored)
    result.median_paraphrase_score = float(np.median(out[S.PARAPHRASE_SCORE].to_numpy())) if n else 0.0
    result.mean_trigram_overlap = float(out[S.TRIGRAM_OVERLAP].to_numpy().mean()) if n else 0.0
    print(f"fast:      {result.pairs_per_second:12,.0f} pairs/s  (best of {repeats}: {result.seconds:.3f} s; "
          f"trigram alone {result.trigram_only_pairs_per_second:,.0f}/s, paragram alone "
          f"{result.paragram_only_pairs_per_second:,.0f}/s; CPU/wall {result.cpu_per_wall:.2f})", flush=True)
    return out


def check_against_reference(table: pa.Table, out: pa.Table, scorer: ParagramScorer, pairs: int,
                            result: Result) -> None:
    """The slow obvious reference on the first ``pairs`` pairs: its rate, and whether the fast path agrees."""
    en, mt = table[S.EN_TOKENS].to_pylist()[:pairs], table[S.MT_TOKENS].to_pylist()[:pairs]
    reference = ReferenceScorer(scorer)
    started = time.perf_counter()
    ref_overlap, ref_paraphrase, ref_no_known = reference.score(en, mt)
    result.reference_seconds = time.perf_counter() - started
    result.reference_pairs = pairs
    result.reference_pairs_per_second = pairs / result.reference_seconds if pairs else 0.0
    result.speedup_vs_reference = (result.pairs_per_second / result.reference_pairs_per_second
                                   if result.reference_pairs_per_second else 0.0)
    result.trigram_equal_to_reference = bool(np.array_equal(out[S.TRIGRAM_OVERLAP].to_numpy()[:pairs], ref_overlap))
    paraphrase = out[S.PARAPHRASE_SCORE].to_numpy()[:pairs]
    result.paraphrase_max_abs_diff = float(np.abs(paraphrase - ref_paraphrase).max()) if pairs else 0.0
    result.no_known_words_equal = bool(np.array_equal(out[S.NO_KNOWN_WORDS].to_numpy()[:pairs], ref_no_known))
    result.meets_goal = result.pairs_per_second >= GOAL_PAIRS_PER_SECOND
    print(f"reference: {result.reference_pairs_per_second:12,.0f} pairs/s  ({pairs:,} pairs in "
          f"{result.reference_seconds:.2f} s)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.captions.is_dir():
        parser.error(f"{args.captions} is absent (../shared/data)")
    import torch

    torch.set_num_threads(1)
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)

    table = caption_pairs(args.pairs, args.captions)
    n = table.num_rows
    batches = [pa.Table.from_batches([b]) for b in table.to_batches(max_chunksize=args.batch_rows)]
    result = Result(pairs=n, batch_rows=args.batch_rows, repeats=args.repeats)
    result.versions = {name: importlib.metadata.version(name) for name in ("numpy", "pyarrow", "torch")}
    result.tokens_per_pair = (sum(len(x) for x in table[S.EN_TOKENS].to_pylist())
                              + sum(len(x) for x in table[S.MT_TOKENS].to_pylist())) / max(n, 1)
    scorer = fit_scorer(table, result)
    print(f"{n:,} caption pairs ({result.tokens_per_pair:.1f} tokens per pair), {len(batches)} record batches "
          f"of <= {args.batch_rows:,} rows, 1 thread; scorer {scorer} fitted in {result.fit_seconds:.1f} s",
          flush=True)
    out = time_fast_path(batches, scorer, args.repeats, result)
    check_against_reference(table, out, scorer, n if args.reference_pairs is None else min(args.reference_pairs, n),
                            result)
    print(f"speed-up {result.speedup_vs_reference:.1f}x; goal {GOAL_PAIRS_PER_SECOND:,} pairs/s per core: "
          f"{'met' if result.meets_goal else 'NOT met'}; agreement: trigram equal "
          f"{result.trigram_equal_to_reference}, paraphrase max |diff| {result.paraphrase_max_abs_diff:.2e}, "
          f"no_known_words equal {result.no_known_words_equal}; median paraphrase score "
          f"{result.median_paraphrase_score:.3f}, mean trigram overlap {result.mean_trigram_overlap:.3f}; "
          f"repeats {', '.join(f'{s:.3f}' for s in result.seconds_all_repeats)} s "
          f"(median {statistics.median(result.seconds_all_repeats):.3f})", flush=True)
    write_result(args.json, asdict(result), __file__, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
