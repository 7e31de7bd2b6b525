"""Why WORD lags: train WORD as ``benchmarks.reproduction.reproduce`` does (GloVe 6B 50d, M = 20, lr 0.01, 5
epochs, seed 1) on a pipeline ``train/`` and measure the frozen-vocabulary effect on STS 2012–2015, STS-B test, STS2017:

* coverage — the share of STS 2012–2015 + STS-B tokens (and word types) whose vector training moved, that are
  frozen GloVe words, or unknown;
* the trained model with its unseen words at GloVe (``unseen_words: pretrained``), with them zeroed (so only
  trained words count), and carried by the ridge map of ``train_embeddings/training/unseen_words.py`` at ridge 1, 10,
  100.

``--data``: the ``train/`` (the paper's selection) of the bitext corpus ``benchmarks.reproduction.corpora`` builds.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from benchmarks.paths import shown
from benchmarks.reproduction.frontier import sts_row
from benchmarks.result import argument_parser, write_result
from configs.schema import TrainConfig
from paranmt.core.text import CachedTokenizer
from train_embeddings.evaluation import sts
from train_embeddings.models.model_io import load_model
from train_embeddings.training.trainer import train
from train_embeddings.training.unseen_words import ANCHORS, UnseenWordMap


def main(argv: Sequence[str] | None = None) -> int:
    p = argument_parser(__file__, __doc__, result=True)
    p.add_argument("--data", type=Path, required=True, help="training pairs (a pipeline train/ folder)")
    p.add_argument("--out", type=Path, required=True, help="run folder")
    args = p.parse_args(argv)
    if not args.data.exists():
        print(f"error: --data {args.data} does not exist", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    config = TrainConfig(data=str(args.data), model="word", word_vectors="kumo", seed=1, epochs=5, megabatch=20,
                         lr=0.01, threads=1, evals_per_epoch=0, device="cpu", unseen_words="pretrained")
    if not (args.out / "model").is_dir():
        train(config, args.out, evaluate_fn=None, progress=False)
    model = load_model(args.out / "model")
    bench = sts.load_benchmarks(years=(2012, 2013, 2014, 2015))
    tokenize = CachedTokenizer()

    def scores() -> dict[str, Any]:
        return sts_row(sts.evaluate_all(lambda s: model.encode_tokens(tokenize(s)), data=bench))

    table, words = model.encoder.parts["word"].table, model.words
    n = table.n_trainable
    tokens = [w.lower() for s in tokenize(list(bench.unique_sentences())) for w in s]
    ids = np.array([words.index.get(w, 1) for w in tokens])
    types = np.array([words.index.get(w, 1) for w in set(tokens)])
    coverage = {"tokens": len(ids), "tokens_trained": float(((ids < n) & (ids != 1)).mean()),
                "tokens_frozen": float((ids >= n).mean()), "tokens_unknown": float((ids == 1).mean()),
                "types": len(types), "types_trained": float(((types < n) & (types != 1)).mean()),
                "types_frozen": float((types >= n).mean()), "types_unknown": float((types == 1).mean())}
    results = {"pretrained (before)": scores()}
    pretrained = table.frozen.clone()
    with torch.no_grad():
        table.frozen.zero_()
        results["zeroed"] = scores()
        for ridge in (1.0, 10.0, 100.0):
            table.frozen.copy_(pretrained)
            mapped = UnseenWordMap.load(args.out / "vocab" / ANCHORS, ridge).mapped_frozen(table)
            table.frozen.copy_(mapped)
            results[f"mapped, ridge {ridge:g}"] = scores()
        table.frozen.copy_(pretrained)
    out = {"data": shown(args.data), "pairs": int(json.loads((args.out / "metrics.json").read_text())["n_pairs"]),
           "coverage": coverage, "results": results}
    print(json.dumps(write_result(args.json, out, __file__, argv), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
