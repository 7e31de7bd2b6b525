"""Train paraphrastic sentence embeddings with mega-batch negative mining (ParaNMT-50M §4–5).

    paranmt train --input runs/czeng/train --model word,trigram --out runs/emb/word-trigram \\
        [--megabatch 40] [--epochs 5] [--batch-size 100] [--lr 0.001] [--margin 0.4] [--scramble 0.3] \\
        [--negatives max|mix] [--word-vectors kumo|FILE] [--grad-clip 1.0] [--max-steps N] [--seed 1] \\
        [--device auto|cpu|cuda] [--threads N] [--config NAME] [--set train.key=value] [--resume] [--no-eval] \\
        [--quiet]

One update step (ParaNMT-50M §4 and Wieting et al. 2016b §3.1):

1. read the next mega-batch of ``M x batch_size`` pairs from the seeded shuffled stream
   (:class:`train_embeddings.training.data.PairSource`) and featurise both sides once;
2. encode all ``2 M batch_size`` sentences without gradients (eval mode, no scrambling) and mine one negative per
   sentence with :class:`~train_embeddings.losses.negative_mining.MegaBatchMiner` (MAX or MIX; never the pair itself
   or a sentence of the same group);
3. for each of the M mini-batches: encode ``s``, ``s′`` and their negatives ``t``, ``t′`` with gradients (the
   recurrent models scramble the words of a pair with probability ``scramble``), take the
   :class:`~train_embeddings.losses.margin_loss.MarginLoss`, add the ICLR'16 eq. 11 regularisers when ``lambda_c`` /
   ``lambda_w`` > 0 (:func:`~train_embeddings.training.trainer.regularization`), clip the gradient norm if asked, and
   step Adam (or AdaGrad, ``optimizer: adagrad``). The logged loss is this whole objective.

Outputs in ``--out``: ``checkpoint.pt`` (model, optimiser, RNG states, data position and the current
mega-batch's negatives: ``--resume`` continues exactly where it stopped), ``best/`` (the model with the best dev
score, written at each evaluation that improves it), ``model/`` (the model at the end), ``vocab/``,
``metrics.json`` (loss and pairs/s every ``log_every`` updates, every evaluation, timings) and ``curves.png``.
Each evaluation (``evals_per_epoch`` per epoch; none with ``--no-eval``) scores the model on STS 2017 (250 pairs).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from configs import load_config
from core.command_line import ArgumentParser, add_config_arguments, command, config_flags
from train_embeddings.evaluation.sts.benchmarks import check_dev_data


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="paranmt train", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_renamed("--input", "--data", dest="data",
                  help="training pairs: Parquet file / directory of shards / glob / URL, or a ParaNMT TSV file")
    p.add_argument("--model", help="word | trigram | sp | static | lstm | blstm | blstm-cat | blstm-max | proj | "
                                   "dan | rnn | "
                                   "irnn | lstm-peep | lstm-peep-nog | cse, or e.g. word,trigram (concatenation) / "
                                   "word+trigram (addition)")
    p.add_renamed("--out", "--output", required=True, type=Path,
                  help="run directory (checkpoint, best/, model/, metrics)")
    add_config_arguments(p, "train.lstm_dim=900")
    p.add_argument("--teacher", help="static: a sentence-transformers model directory whose model2vec distillation "
                   "the table starts from (default: the packaged all-MiniLM-L6-v2)")
    p.add_argument("--pca-dims", type=int, help="static: the distillation's PCA size (default 256)")
    p.add_argument("--teacher-loss", type=float, help="static: weight of the teacher loss (Tokenlearn; default 0)")
    p.add_argument("--megabatch", type=int, help="M, mini-batches per mega-batch (default 40)")
    p.add_argument("--epochs", type=int, help="default 5")
    p.add_argument("--batch-size", type=int, help="default 100")
    p.add_argument("--lr", type=float, help="learning rate (default 0.001; ICLR'16 AdaGrad: 0.05)")
    p.add_argument("--optimizer", choices=["adam", "adagrad"], help="default adam")
    p.add_argument("--lambda-c", type=float, help="L2 weight on compositional parameters (ICLR'16; default 0)")
    p.add_argument("--lambda-w", type=float, help="L2 weight toward the initial word vectors (default 0)")
    p.add_argument("--margin", type=float, help="delta (default 0.4)")
    p.add_argument("--scramble", type=float, help="word scrambling rate for recurrent models (default 0.3)")
    p.add_argument("--negatives", choices=["max", "mix"])
    p.add_argument("--word-vectors", help="'kumo' (GloVe 6B 50d; the default for word-based models when installed), "
                                         "a vector file, a WORD model directory, or 'none' (random)")
    p.add_argument("--grad-clip", type=float, help="max gradient norm")
    p.add_argument("--max-steps", type=int, help="stop after this many updates")
    p.add_argument("--seed", type=int)
    p.add_argument("--device", choices=["auto", "cpu", "cuda"])
    p.add_argument("--threads", type=int, help="CPU threads for torch (default: torch's; 1 is often fastest for "
                                               "WORD/TRIGRAM)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out from its checkpoint (also done "
                   "without this flag when --out holds a run with the same settings)")
    p.add_argument("--overwrite", action="store_true", help="replace a different run already in --out")
    p.add_argument("--no-eval", action="store_true", help="no dev evaluation (no best/ model); without it, the STS "
                   "Benchmark files STSB/sts-{dev,test}.csv must be in $PARANMT_STS_DIR (default: ../shared/data/sts "
                   "beside the repository)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _cli_path(value: str | None) -> str | None:
    if value is None or value == "kumo" or "://" in value:
        return value
    return str(Path(value).expanduser().absolute())


@command(build_parser, log_level=logging.INFO, pass_parser=True)
def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    values = {
        "train.data": _cli_path(args.data), "train.model": args.model, "train.megabatch": args.megabatch,
        "train.epochs": args.epochs, "train.batch_size": args.batch_size, "train.lr": args.lr,
        "train.margin": args.margin, "train.scramble": args.scramble, "train.negatives": args.negatives,
        "train.word_vectors": None if (args.word_vectors or "").lower() == "none" else _cli_path(args.word_vectors),
        "train.grad_clip": args.grad_clip,
        "train.max_steps": args.max_steps, "train.seed": args.seed, "train.device": args.device,
        "train.threads": args.threads, "train.optimizer": args.optimizer, "train.lambda_c": args.lambda_c,
        "train.lambda_w": args.lambda_w, "train.teacher": _cli_path(args.teacher),
        "train.static_pca_dims": args.pca_dims, "train.static_teacher_loss": args.teacher_loss,
    }
    config = load_config(args.config, args.overrides, values, flags=config_flags(parser, values))
    if not args.no_eval:
        check_dev_data()  # a clone without ../shared gets its one line at once
    from train_embeddings.training import (
        trainer,  # torch loads here, once the arguments, config and STS files are checked
    )

    if args.word_vectors is not None and args.word_vectors.lower() == "none":
        config = config.model_copy(update={"train": config.train.model_copy(update={"word_vectors": None})})
    else:
        config = trainer.default_word_vectors(config, args.word_vectors)
    result = trainer.train(config, args.out, resume=args.resume,
                           evaluate_fn=None if args.no_eval else trainer.DEFAULT_EVALUATION,
                           progress=False if args.quiet else None, overwrite=args.overwrite)
    best = result.best
    print(f"{result.steps} updates ({result.epochs_done:g} epochs){'' if result.finished else ', not finished'}; "
          f"model: {result.model_dir}" + (f"; best {best['metric']} {best['score']:.4f} at step {best['step']}: "
                                          f"{result.best_dir}" if best else "")
          + f"; metrics: {result.metrics_path}", file=sys.stderr)
    return 0
