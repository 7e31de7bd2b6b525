"""The encoder zoo on one budget: every model family trained on the same real caption pairs for the same number
of updates through the trainer (``train_embeddings.training.trainer.train``, i.e. the CLI's code path), then evaluated
on STS 2012–2016 and the STS Benchmark (``train_embeddings.evaluation.sts.evaluate_all``), with training pairs/s.

Setup (the same for every model): Multi30k caption pairs (caption k and k+1 of an image; the image is the group,
so two captions of one image are never each other's negatives; ``--pairs`` pairs of the first images,
Moses-tokenised once and cached), GloVe 6B 50d initial word vectors
(``word_vectors: kumo``), margin 0.4, mini-batches of 100, MIX negatives (ICLR'16: the hardest sentence of the
mini-batch with probability 0.5, a random one otherwise) mined inside each mini-batch (``--megabatch 1``, as
ICLR'16 did), Adam 1e-3, no scrambling (ICLR'16 did not scramble), ``--steps`` updates (one pass over
``--pairs``), no dev selection (the final model is evaluated). Why MIX and M = 1: on caption pairs the hardest
"negative" of a pool is often a paraphrase (another image's caption saying the same thing), so with MAX (even at
M = 1) every model with composition parameters drifts to the collapsed solution (all sentences one direction,
loss = 2δ = 0.8, below what the hinge terms allow otherwise); see
tests/train_embeddings/training/test_learning_check.py for the measured mechanism. ``--negatives max --megabatch 20``
reproduces that.
Output sizes follow ICLR'16 (= the word size, 50 here; LSTMs ``lstm_dim`` 50); CSE keeps its paper's
3 x 100 maps (300-d). The identity-RNN uses ``lambda_c`` = 1 toward its initialisation, as the
paper does; every other model is unregularised (ParaNMT-50M's setting). ``glove-avg`` is the untrained baseline
(the same vectors averaged).

Pairs/s = updates x 100 / (data + mining + update seconds) of the run, one CPU thread unless ``--threads``.
Figures from a small budget rank the families on captions, not the papers' PPDB-trained numbers.
"""

from __future__ import annotations

import os
import sys

_threads = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv[:-1] else "1"
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, _threads)  # before torch loads

import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from benchmarks.doc_sections import table  # noqa: E402
from benchmarks.reproduction.caption_pairs import CAPTIONS, caption_tokens  # noqa: E402
from benchmarks.result import argument_parser, write_result  # noqa: E402
from configs.schema import TrainConfig  # noqa: E402
from paranmt.core.text import CachedTokenizer  # noqa: E402
from train_embeddings.evaluation import sts  # noqa: E402
from train_embeddings.models.model_io import load_model  # noqa: E402
from train_embeddings.training.trainer import train  # noqa: E402

# label -> (TrainConfig.model, extra TrainConfig settings)
FAMILIES: dict[str, tuple[str, dict]] = {
    "word": ("word", {}),
    "proj": ("proj", {}),
    "dan": ("dan", {"dan_layers": 1, "dan_activation": "tanh"}),
    "rnn": ("rnn", {"rnn_activation": "tanh"}),
    "irnn": ("irnn", {"lambda_c": 1.0}),
    "lstm-peep": ("lstm-peep", {"peep_pool": "last"}),
    "lstm-peep-nog": ("lstm-peep-nog", {"peep_pool": "last"}),
    "lstm-peep-nog-mean": ("lstm-peep-nog", {"peep_pool": "mean"}),
    "lstm": ("lstm", {}),
    "cse": ("cse", {}),
}


def write_pairs(captions: Path, n_pairs: int, out: Path) -> Path:
    """``n_pairs`` caption pairs (caption k, k+1 of the first ``n_pairs / 4`` images; id = image) as Parquet."""
    images = -(-n_pairs // 4)
    sides = [caption_tokens(k, images, captions) for k in range(1, 6)]
    images = len(sides[0])
    order = np.random.default_rng(0).permutation(4 * images)[:n_pairs]
    table = pa.table({"id": pa.array([f"img{i}" for i in np.tile(np.arange(images), 4)[order]]),
                      "en_tokens": pa.concat_arrays(sides[:4]).take(pa.array(order)),
                      "mt_tokens": pa.concat_arrays(sides[1:]).take(pa.array(order))})
    out.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, out / "pairs.parquet")
    return out / "pairs.parquet"


def main(argv: list[str] | None = None) -> int:
    p = argument_parser(__file__, __doc__, result=True)
    p.add_argument("--captions", type=Path, default=CAPTIONS)
    p.add_argument("--pairs", type=int, default=40_000, help="training pairs (default 40000)")
    p.add_argument("--steps", type=int, default=400, help="updates per model (default 400)")
    p.add_argument("--megabatch", type=int, default=1, help="M (default 1: within the mini-batch)")
    p.add_argument("--models", default=",".join(FAMILIES), help=f"comma-separated subset of {list(FAMILIES)}")
    p.add_argument("--negatives", choices=["max", "mix"], default="mix", help="default mix")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    labels = [m for m in args.models.split(",") if m]
    unknown = [m for m in labels if m not in FAMILIES]
    if unknown:
        p.error(f"unknown model(s) {unknown}; choose from {list(FAMILIES)}")

    import torch

    torch.set_num_threads(args.threads)
    tokens = CachedTokenizer()  # cached: every model encodes the same STS sentences
    data = sts.load_benchmarks()
    reports: dict[str, sts.StsReport] = {}
    speed: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="train_zoo.") as tmp:
        pairs = write_pairs(args.captions, args.pairs, Path(tmp) / "data")
        reports["glove-avg"] = sts.evaluate_all(sts.glove_average_encoder(tokenizer=tokens), data=data,
                                                label="glove-avg")
        for label in labels:
            model, extra = FAMILIES[label]
            config = TrainConfig(data=str(pairs), model=model, word_vectors="kumo", batch_size=100,
                                 megabatch=args.megabatch, negatives=args.negatives, epochs=1000, max_steps=args.steps,
                                 scramble=0.0,
                                 lstm_dim=50,  # ICLR'16: recurrent outputs the size of the word vectors
                                 evals_per_epoch=0, threads=args.threads, seed=args.seed, device="cpu",
                                 log_every=max(args.steps // 4, 1), **extra)
            started = time.perf_counter()
            result = train(config, Path(tmp) / label, evaluate_fn=None, progress=False)
            trained = load_model(result.model_dir)
            seconds = sum(result.timing.get(k, 0.0) for k in ("data_s", "mining_s", "train_s"))
            speed[label] = {"model": model, **extra, "steps": result.steps, "dim": trained.dim,
                            "parameters": sum(int(t.numel()) for t in trained.encoder.parameters()),
                            "pairs_per_s": round(result.steps * 100 / max(seconds, 1e-9), 1),
                            "mining_s": round(result.timing.get("mining_s", 0.0), 2),
                            "train_s": round(seconds, 2), "final_loss": round(float(np.mean(result.losses[-20:])), 4)}
            reports[label] = sts.evaluate_all(lambda s, m=trained: m.encode_tokens(tokens(list(s))), data=data,
                                              label=label)
            speed[label]["wall_s"] = round(time.perf_counter() - started, 1)
            print(f"{label}: {speed[label]}; STS mean Pearson {100 * reports[label].mean_pearson:.1f}",
                  file=sys.stderr, flush=True)

    print(f"## Encoder zoo: {args.steps} updates x 100 pairs (M = {args.megabatch}, {args.negatives.upper()} "
          f"negatives) on {args.pairs} Multi30k caption pairs, GloVe 50d init, CPU {args.threads} thread(s)\n")
    print(sts.markdown_comparison(reports))
    print(*table(["model", "dim", "parameters", "pairs/s", "mining s", "timed s (data + mining + updates)",
                  "loss (last 20)"], "lr",
                 [[label, s["dim"], s["parameters"], s["pairs_per_s"], s["mining_s"], s["train_s"], s["final_loss"]]
                  for label, s in speed.items()]), sep="\n")
    write_result(args.json, {"speed": speed, "sts": {k: r.to_dict() for k, r in reports.items()}}, __file__, argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
