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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from configs import command_config
from configs.schema import ParaNMTConfig
from paranmt.core.command_line import (
    ArgumentParser,
    ConfigFlag,
    add_config_arguments,
    add_config_flags,
    command,
)


def _cli_path(value: str) -> str:
    """A path typed on the command line, made absolute against the working directory (a relative one in the
    config file is against the file's folder); ``kumo`` and URLs as given."""
    if value == "kumo" or "://" in value:
        return value
    return str(Path(value).expanduser().absolute())


def _word_vectors(value: str) -> str:
    """``--word-vectors``: a path as :func:`_cli_path`, or ``none`` (random vectors on purpose)."""
    return "none" if value.lower() == "none" else _cli_path(value)


# The flags that set config values; each one's type, help and default are its schema field's.
CONFIG_FLAGS = (
    ConfigFlag("--input", "train.data", type=_cli_path, required=True),
    ConfigFlag("--model", "train.model"),
    ConfigFlag("--teacher", "train.teacher", type=_cli_path),
    ConfigFlag("--pca-dims", "train.static_pca_dims"),
    ConfigFlag("--teacher-loss", "train.static_teacher_loss"),
    ConfigFlag("--megabatch", "train.megabatch"),
    ConfigFlag("--epochs", "train.epochs"),
    ConfigFlag("--batch-size", "train.batch_size"),
    ConfigFlag("--lr", "train.lr"),
    ConfigFlag("--optimizer", "train.optimizer"),
    ConfigFlag("--lambda-c", "train.lambda_c"),
    ConfigFlag("--lambda-w", "train.lambda_w"),
    ConfigFlag("--margin", "train.margin"),
    ConfigFlag("--scramble", "train.scramble"),
    ConfigFlag("--negatives", "train.negatives"),
    ConfigFlag("--word-vectors", "train.word_vectors", type=_word_vectors),
    ConfigFlag("--grad-clip", "train.grad_clip"),
    ConfigFlag("--max-steps", "train.max_steps"),
    ConfigFlag("--seed", "train.seed"),
    ConfigFlag("--device", "train.device"),
    ConfigFlag("--threads", "train.threads"),
)


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="paranmt train", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, type=Path,
                  help="run directory (checkpoint, best/, model/, metrics)")
    add_config_arguments(p, "train.lstm_dim=900")
    add_config_flags(p, ParaNMTConfig, CONFIG_FLAGS)
    p.add_argument("--resume", action="store_true", help="continue the run in --out from its checkpoint (also done "
                   "without this flag when --out holds a run with the same settings)")
    p.add_argument("--overwrite", action="store_true", help="replace a different run already in --out")
    p.add_argument("--no-eval", action="store_true", help="no dev evaluation (no best/ model); without it, the STS "
                   "Benchmark files STSB/sts-{dev,test}.csv must be in $PARANMT_STS_DIR (default: sts/ in "
                   "$PARANMT_DATA_DIR, itself by default ../shared/data from the current folder)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def train_config(path: str | None, overrides: list[str], flags: Sequence[ConfigFlag],
                 values: dict[str, Any]) -> ParaNMTConfig:
    """The config (:func:`configs.command_config`); ``--word-vectors none`` (random vectors) is set once it is
    loaded, over the config's own."""
    if values["train.word_vectors"] != "none":
        return command_config(path, overrides, flags, values)
    config = command_config(path, overrides, flags, {**values, "train.word_vectors": None})
    return config.model_copy(update={"train": config.train.model_copy(update={"word_vectors": None})})


@command(build_parser, log_level=logging.INFO, config=train_config, config_flags=CONFIG_FLAGS)
def main(args: argparse.Namespace, config: ParaNMTConfig) -> int:
    word_vectors = getattr(args, "train.word_vectors")
    if not args.no_eval:
        # sacremoses loads here, once the arguments parse; a clone without ../shared gets its one line at once
        from train_embeddings.evaluation.sts.datasets import check_dev_data

        check_dev_data()
    from train_embeddings.training import (
        trainer,  # torch loads here, once the arguments, config and STS files are checked
    )

    config = trainer.default_word_vectors(config, word_vectors)  # a given --word-vectors (none too) is kept
    result = trainer.train(config, args.out, resume=args.resume,
                           evaluate_fn=None if args.no_eval else trainer.DEFAULT_EVALUATION,
                           progress=False if args.quiet else None, overwrite=args.overwrite)
    best = result.best
    print(f"{result.steps} updates ({result.epochs_done:g} epochs){'' if result.finished else ', not finished'}; "
          f"model: {result.model_dir}" + (f"; best {best['metric']} {best['score']:.4f} at step {best['step']}: "
                                          f"{result.best_dir}" if best else "")
          + f"; metrics: {result.metrics_path}", file=sys.stderr)
    return 0
