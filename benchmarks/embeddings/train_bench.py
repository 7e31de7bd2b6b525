"""Training throughput of the sentence-embedding trainer: pairs/s for WORD, TRIGRAM and LSTM at M = 1 and M = 40,
absolute step and mining times, and the vectorised mega-batch miner against naive loops, in one run.

What is timed, per model and M, over whole mega-batches of ``M x 100`` real caption pairs (after one warm-up
mega-batch): featurisation (vocabulary and trigram look-ups, moving ids to the device), **mining** (encoding the ``2 x M
x 100`` sentences without gradients and one :class:`~train_embeddings.losses.negative_mining.MegaBatchMiner` call) and
the **M updates** (forward of ``s, s′, t, t′``, margin loss, backward, Adam). Pairs/s = pairs / (all three). The *mining
fraction* is mining / (mining + updates) of a mega-batch — the issue's goal: < 10% for WORD at M = 40. Beside it, the
bare ``(2 M 100) x d`` by ``d x (2 M 100)`` float32 product of the same embeddings is timed on its own: its GFLOP/s is
the device's matrix-product rate, and its fraction (product / (product + updates)) is what mining would cost if it were
that full product. On a CPU the miner computes only the upper triangle (the matrix is symmetric), so an exact miner's
floor is about half that fraction. Reading Parquet is not timed (the trainer streams it; see
``benchmarks/scores/score_bench.py`` for Arrow rates).

Models use the paper's sizes (``--dim``): 300-d word and trigram embeddings (random init; the vocabulary is the caption
data's), LSTM with 300 hidden units (word scrambling 0.3). Adam updates the whole embedding table every step
(dense, as the paper's Theano code did), so a larger vocabulary costs more per step.

Miner check, same run: the vectorised miner against (a) the test suite's pure-Python double loop on
``--naive-pairs`` pairs and (b) a per-sentence NumPy loop (one row of cosines at a time, masked arg-max) on a full
M = 40 mega-batch; both must pick the same negatives; the speed ratios are printed.

Data: Multi30k captions (``../shared/data/paraphrase/multi30k-captions``; caption k and k+1 of an image form a
pair, the group is the image; the first ``--pairs / 4`` images), Moses-tokenised once and cached
(``benchmarks.reproduction.caption_pairs.caption_tokens``).
"""

from __future__ import annotations

import os
import sys

_threads = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv[:-1] else "1"
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, _threads)  # before torch loads: "per core" must mean one core

import math  # noqa: E402
import time  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import torch  # noqa: E402

from benchmarks.reproduction.caption_pairs import CAPTIONS, caption_tokens  # noqa: E402
from benchmarks.result import argument_parser, write_result  # noqa: E402
from train_embeddings.losses.margin_loss import MarginLoss  # noqa: E402
from train_embeddings.losses.negative_mining import MegaBatchMiner, MinedNegatives  # noqa: E402
from train_embeddings.models.encoder import build_encoder  # noqa: E402
from train_embeddings.models.spec import ModelSpec  # noqa: E402
from train_embeddings.models.word_sequences import scramble_mask  # noqa: E402
from train_embeddings.vocab import (  # noqa: E402
    Featurizer,
    SentenceBatch,
    SentencePieceVocab,
    TrigramVocab,
    WordVocab,
    count_trigrams,
    count_words,
    sentence_strings,
)

BATCH = 100
MINING_GOAL = 0.10


def caption_pairs(captions: Path, n_pairs: int) -> tuple[pa.Array, pa.Array, np.ndarray]:
    """(left tokens, right tokens, image group) of ``n_pairs`` pairs (caption k, k+1 of the first images),
    in a seeded random order."""
    images = -(-n_pairs // 4)
    sides = [caption_tokens(k, images, captions) for k in range(1, 6)]
    images = len(sides[0])
    left_all = pa.concat_arrays(sides[:4])
    right_all = pa.concat_arrays(sides[1:])
    group_all = np.tile(np.arange(images), 4)
    order = np.random.default_rng(0).permutation(len(group_all))[:n_pairs]
    return left_all.take(pa.array(order)), right_all.take(pa.array(order)), group_all[order]


def vocabularies(left: pa.Array, right: pa.Array, sentencepiece: int = 0) -> tuple:
    """The pairs' word and trigram vocabularies, and a SentencePiece one of ``sentencepiece`` pieces if given."""
    both = pa.chunked_array([left, right])
    vocab = (WordVocab.build(count_words(both)), TrigramVocab.build(count_trigrams(sentence_strings(both))))
    if sentencepiece:
        vocab += (SentencePieceVocab.train(sentence_strings(both).to_pylist(), vocab_size=sentencepiece),)
    return vocab


def naive_python_negatives(left: np.ndarray, right: np.ndarray, groups: np.ndarray) -> list[int]:
    """The test suite's reference: a Python double loop over all 2N sentences."""
    n = len(left)
    sentences = np.concatenate([left, right]).astype(np.float64)
    norms = np.linalg.norm(sentences, axis=1)
    group = np.concatenate([groups, groups]).tolist()
    out = []
    for i in range(2 * n):
        best, best_j = -math.inf, -1
        for j in range(2 * n):
            if group[j] == group[i]:
                continue
            value = float(sentences[i] @ sentences[j]) / (norms[i] * norms[j])
            if value > best:
                best, best_j = value, j
        out.append(best_j)
    return out


def numpy_row_loop_negatives(left: np.ndarray, right: np.ndarray, groups: np.ndarray) -> list[int]:
    """The obvious NumPy version: one row of cosines at a time, own group masked, arg-max."""
    sentences = np.concatenate([left, right]).astype(np.float32)
    unit = sentences / np.maximum(np.linalg.norm(sentences, axis=1, keepdims=True), 1e-8)
    group = np.concatenate([groups, groups])
    out = []
    for i in range(len(unit)):
        row = unit @ unit[i]
        row[group == group[i]] = -np.inf
        out.append(int(np.argmax(row)))
    return out


@dataclass
class Case:
    device: str
    model: str
    megabatch: int
    pairs: int
    updates: int
    pairs_per_second: float
    update_ms: float  # one mini-batch update (forward s, s', t, t' + backward + Adam)
    mining_ms: float  # one mega-batch: no-grad encoding of 2 M 100 sentences + the miner
    miner_only_ms: float  # the MegaBatchMiner call alone
    featurize_ms: float  # one mega-batch
    mining_fraction: float  # mining / (mining + updates) of a mega-batch
    parameters: int
    gemm_ms: float  # a bare (2 M 100 x d) @ (d x 2 M 100) float32 product of the same embeddings, same device
    gemm_gflops: float  # its rate: 2 (2 M 100)^2 d / time
    full_product_fraction: float  # gemm / (gemm + updates): a miner computing the whole product would cost this


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


@dataclass
class Trainee:
    """What one case trains, as the trainer builds it: the encoder, its featurizer, Adam, the MAX miner and the
    margin loss, with one seeded generator for the miner and the scrambling."""

    encoder: torch.nn.Module
    featurizer: Featurizer
    optimizer: torch.optim.Optimizer
    miner: MegaBatchMiner
    loss_fn: MarginLoss
    generator: torch.Generator


def trainee(model: str, vocab: tuple, dim: int, seed: int, device: torch.device) -> Trainee:
    words, trigrams, *more = vocab  # a third vocabulary, SentencePiece, for model "sp"
    pieces = more[0] if more else None
    torch.manual_seed(seed)
    spec = ModelSpec(components=[model], word_dim=dim, trigram_dim=dim, lstm_dim=dim, sp_dim=dim,
                     n_words=len(words), n_trainable_words=len(words),
                     n_trigrams=len(trigrams), n_pieces=len(pieces) if pieces is not None else 0)
    encoder = build_encoder(spec).to(device).train()
    featurizer = Featurizer(words if model not in ("trigram", "sp") else None, trigrams if model == "trigram" else None,
                            pieces=pieces if model == "sp" else None)
    return Trainee(encoder, featurizer, torch.optim.Adam(encoder.parameters(), lr=1e-3), MegaBatchMiner("max"),
                   MarginLoss(0.4), torch.Generator().manual_seed(seed))


def embed_without_grad(encoder: torch.nn.Module, features: SentenceBatch, sentences: int,
                       device: torch.device) -> torch.Tensor:
    """Every sentence of the mega-batch encoded for mining: eval mode, no gradients, 2,000 at a time."""
    encoder.eval()
    with torch.no_grad():
        embeddings = torch.cat([encoder(features.select(torch.arange(s, min(s + 2000, sentences), device=device)))
                                for s in range(0, sentences, 2000)])
    encoder.train()
    return embeddings


def full_product_seconds(embeddings: torch.Tensor, device: torch.device) -> float:
    """The bare product of the normalised embeddings with themselves (the miner computes half of it)."""
    unit = torch.nn.functional.normalize(embeddings, dim=1)
    sync(device)
    started = time.perf_counter()
    unit @ unit.T
    sync(device)
    return time.perf_counter() - started


def train_updates(t: Trainee, features: SentenceBatch, negatives: MinedNegatives, megabatch: int, size: int,
            device: torch.device) -> None:
    """The M mini-batch updates of one mega-batch: forward of s, s', t, t' with their mined negatives, the margin
    loss, backward and Adam, the loss read back as the trainer reads it."""
    for j in range(megabatch):
        idx = torch.arange(j * BATCH, (j + 1) * BATCH, device=device)
        selection = torch.cat([idx, idx + size, negatives.index[idx], negatives.index[idx + size]])
        batch = features.select(selection)
        scramble = None
        if t.encoder.recurrent:
            pairs = scramble_mask(BATCH, 0.3, t.generator).to(device)
            scramble = torch.cat([pairs, pairs, torch.zeros(2 * BATCH, dtype=torch.bool, device=device)])
        s, s_prime, tt, tt_prime = t.encoder(batch, scramble).split(BATCH)
        loss = t.loss_fn(s, s_prime, tt, tt_prime, negatives.valid[idx], negatives.valid[idx + size])
        t.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        t.optimizer.step()
        float(loss.detach())  # the trainer reads every loss (NaN check, progress bar)


def run_case(model: str, megabatch: int, device: torch.device, data: tuple, vocab: tuple, min_pairs: int,
             dim: int = 300, seed: int = 0) -> Case:
    """Whole mega-batches of ``M x 100`` pairs, the first a warm-up: featurisation, mining and the M updates timed
    apart, and the bare full product beside them."""
    left, right, groups = data
    t = trainee(model, vocab, dim, seed, device)
    size = megabatch * BATCH
    n_mega = max(2, math.ceil(min_pairs / size) + 1)  # the first is a warm-up
    if n_mega * size > len(left):
        raise SystemExit(f"need {n_mega * size} pairs for M={megabatch}; have {len(left)} (raise --pairs)")
    totals = {"featurize": 0.0, "mining": 0.0, "miner": 0.0, "train": 0.0, "gemm": 0.0}
    for k in range(n_mega):
        t0 = time.perf_counter()
        chunk = slice(k * size, (k + 1) * size)
        features = t.featurizer(pa.chunked_array([left[chunk], right[chunk]])).to(device)
        group = torch.from_numpy(groups[chunk]).to(device)
        sync(device)
        t1 = time.perf_counter()
        embeddings = embed_without_grad(t.encoder, features, 2 * size, device)
        sync(device)
        t_miner = time.perf_counter()
        negatives = t.miner(embeddings[:size], embeddings[size:], group, t.generator)
        sync(device)
        t2 = time.perf_counter()
        if k > 0:  # the full product alone, outside the mega-batch timing
            totals["gemm"] += full_product_seconds(embeddings, device)
        t2b = time.perf_counter()
        train_updates(t, features, negatives, megabatch, size, device)
        sync(device)
        t3 = time.perf_counter()
        if k > 0:
            for name, seconds in (("featurize", t1 - t0), ("mining", t2 - t1), ("miner", t2 - t_miner),
                                  ("train", t3 - t2b)):
                totals[name] += seconds
    n_timed = n_mega - 1
    pairs, timed_updates = n_timed * size, n_timed * megabatch
    total = totals["featurize"] + totals["mining"] + totals["train"]
    return Case(device=str(device), model=model, megabatch=megabatch, pairs=pairs, updates=timed_updates,
                pairs_per_second=round(pairs / total, 1),
                update_ms=round(1e3 * totals["train"] / timed_updates, 3),
                mining_ms=round(1e3 * totals["mining"] / n_timed, 3),
                miner_only_ms=round(1e3 * totals["miner"] / n_timed, 3),
                featurize_ms=round(1e3 * totals["featurize"] / n_timed, 3),
                mining_fraction=round(totals["mining"] / (totals["mining"] + totals["train"]), 4),
                parameters=sum(p.numel() for p in t.encoder.parameters()),
                gemm_ms=round(1e3 * totals["gemm"] / n_timed, 3),
                gemm_gflops=round(2 * (2 * size) ** 2 * embeddings.shape[1] * n_timed / totals["gemm"] / 1e9, 1),
                full_product_fraction=round(totals["gemm"] / (totals["gemm"] + totals["train"]), 4))


def miner_comparison(naive_pairs: int, megabatch_pairs: int, device: torch.device, dim: int = 300,
                     seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    out: dict = {}
    for label, n, reference in (("python_loop", naive_pairs, naive_python_negatives),
                                ("numpy_row_loop", megabatch_pairs, numpy_row_loop_negatives)):
        left = rng.normal(size=(n, dim)).astype(np.float32)
        right = rng.normal(size=(n, dim)).astype(np.float32)
        groups = np.arange(n) // 5  # five pairs per group, as with captions
        t0 = time.perf_counter()
        expected = reference(left, right, groups)
        t_ref = time.perf_counter() - t0
        miner = MegaBatchMiner("max")
        tensors = [torch.from_numpy(x).to(device) for x in (left, right, groups)]
        miner(*tensors)  # warm-up
        sync(device)
        repeats = 5
        t0 = time.perf_counter()
        for _ in range(repeats):
            got = miner(*tensors)
        sync(device)
        t_vec = (time.perf_counter() - t0) / repeats
        out[label] = {"pairs": n, "sentences": 2 * n, "reference_s": round(t_ref, 4),
                      "vectorised_s": round(t_vec, 5), "speedup": round(t_ref / t_vec, 1),
                      "same_negatives": got.index.cpu().tolist() == expected, "device": str(device)}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argument_parser(__file__, __doc__, result=True)
    p.add_argument("--captions", type=Path, default=CAPTIONS)
    p.add_argument("--pairs", type=int, default=20_000, help="caption pairs loaded (the timed ones come first)")
    p.add_argument("--min-pairs", type=int, default=8_000, help="timed pairs per case (whole mega-batches)")
    p.add_argument("--models", default="word,trigram,lstm")
    p.add_argument("--megabatches", default="1,40")
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda"], help="auto: CPU, and CUDA if any")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1: per-core figures)")
    p.add_argument("--dim", type=int, default=300, help="embedding / LSTM size (the paper's 300)")
    p.add_argument("--naive-pairs", type=int, default=200, help="pairs for the pure-Python reference miner")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    if not args.captions.is_dir():
        print(f"captions directory {args.captions} not found", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    left, right, groups = caption_pairs(args.captions, args.pairs)
    words, trigrams = vocabularies(left, right)
    print(f"{len(left)} caption pairs, {len(words)} words, {len(trigrams)} trigrams "
          f"(prepared in {time.perf_counter() - t0:.1f} s); torch threads {torch.get_num_threads()}",
          file=sys.stderr)
    devices = [torch.device("cpu")] if args.device in ("auto", "cpu") else []
    if args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available()):
        devices.append(torch.device("cuda"))
    megabatches = [int(m) for m in args.megabatches.split(",")]
    cases: list[Case] = []
    for device in devices:
        for model in args.models.split(","):
            for megabatch in megabatches:
                case = run_case(model, megabatch, device, (left, right, groups), (words, trigrams), args.min_pairs,
                                args.dim)
                cases.append(case)
                print(f"{case.device:5} {model:8} M={megabatch:<3} {case.pairs_per_second:9.0f} pairs/s  "
                      f"update {case.update_ms:7.2f} ms  mining {case.mining_ms:8.2f} ms/mega-batch "
                      f"(miner {case.miner_only_ms:.2f}; bare product {case.gemm_ms:.2f} ms = "
                      f"{case.gemm_gflops:.0f} GFLOP/s)  "
                      f"fraction {case.mining_fraction:.3f} (full product {case.full_product_fraction:.3f})",
                      file=sys.stderr)
    largest = max(megabatches) * BATCH
    miners = {str(d): miner_comparison(args.naive_pairs, largest, d, args.dim) for d in devices}
    for device, comparison in miners.items():
        for label, row in comparison.items():
            print(f"miner {device} vs {label}: {row['sentences']} sentences, reference {row['reference_s']:.3f} s, "
                  f"vectorised {row['vectorised_s'] * 1e3:.2f} ms: {row['speedup']}x, same negatives "
                  f"{row['same_negatives']}", file=sys.stderr)
    word_40 = [c for c in cases if c.model == "word" and c.megabatch == 40]
    result = {
        "threads": torch.get_num_threads(), "torch": torch.__version__,
        "cuda": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "pairs_loaded": len(left), "words": len(words), "trigrams": len(trigrams),
        "dim": args.dim,
        "cases": [asdict(c) for c in cases], "miner": miners,
        "word_m40_mining_fraction": {c.device: c.mining_fraction for c in word_40},
        "mining_goal": MINING_GOAL,
    }
    for case in word_40:
        status = "meets" if case.mining_fraction < MINING_GOAL else "misses"
        half = case.gemm_ms / 2 / (case.gemm_ms / 2 + case.update_ms * case.megabatch)
        print(f"WORD M=40 on {case.device}: mining is {100 * case.mining_fraction:.1f}% of a mega-batch step "
              f"({status} the < {100 * MINING_GOAL:.0f}% goal; the full (2M·100)² product alone would be "
              f"{100 * case.full_product_fraction:.1f}%, half of it {100 * half:.1f}%); 5M pairs/epoch would take "
              f"{5e6 / case.pairs_per_second / 60:.1f} min", file=sys.stderr)
    write_result(args.json, result, __file__, argv)
    all_same = all(row["same_negatives"] for comparison in miners.values() for row in comparison.values())
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())
