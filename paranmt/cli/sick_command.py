"""``paranmt sick``: SICK relatedness / entailment heads."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from paranmt.core.command_line import ArgumentParser, command
from train_embeddings.evaluation.sick_config import TASKS, SickConfig

# SickConfig's fields the command sets; the help shows their defaults
SETTINGS = ("hidden", "epochs", "batch_size", "lr", "encoder_lr", "lambda_c", "lambda_w", "patience", "seed", "threads")


def build_parser() -> argparse.ArgumentParser:
    d = SickConfig()
    p = ArgumentParser(prog="paranmt sick",
                                description="Train a SICK relatedness / entailment head (Tai et al. 2015) on "
                                            "sentence embeddings, frozen or fine-tuned.")
    p.add_argument("--model", required=True, help="model directory, 'glove' or 'sif'")
    p.add_argument("--task", required=True, choices=TASKS)
    p.add_argument("--finetune", action="store_true", help="train the encoder too (neural models), regularised "
                                                           "toward its initial parameters with --lambda-w")
    p.add_argument("--sick-dir", type=Path, help="directory of the SICK files (default ../shared/data/sick)")
    p.add_argument("--train", type=Path, help="training file (default: <sick-dir>/sicktrain[-ent].tsv)")
    p.add_argument("--dev", type=Path, help="dev file (default: <sick-dir>/sickdev[-ent].tsv)")
    p.add_argument("--limit", type=int, help="use only the first N training pairs (smoke runs)")
    p.add_argument("--word-frequencies", type=Path, metavar="FILE",
                  help="--model sif: 'word count' file (default: enwiki_vocab_min200)")
    p.add_argument("--hidden", type=int, default=d.hidden, help="hidden units (default %(default)s)")
    p.add_argument("--epochs", type=int, default=d.epochs, help="maximum epochs (default %(default)s)")
    p.add_argument("--batch-size", type=int, default=d.batch_size, help="pairs per step (default %(default)s)")
    p.add_argument("--lr", type=float, default=d.lr, help="Adam learning rate (default %(default)s)")
    p.add_argument("--encoder-lr", type=float, default=d.encoder_lr,
                   help="fine-tuning: encoder learning rate (default %(default)s)")
    p.add_argument("--lambda-c", type=float, default=d.lambda_c, help="head L2 (default %(default)s)")
    p.add_argument("--lambda-w", type=float, default=d.lambda_w,
                   help="fine-tuning: L2 toward the initial encoder parameters (default %(default)s)")
    p.add_argument("--patience", type=int, default=d.patience, help="early-stopping patience (default %(default)s)")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--threads", type=int, default=d.threads, help="torch threads (default %(default)s)")
    p.add_argument("--out", type=Path, help="write metrics.json, head.pt (and model/ when fine-tuning) here")
    p.add_argument("--quiet", action="store_true", help="no progress bar")  # as the other commands
    return p


@command(build_parser, log_level=logging.INFO)  # per-epoch dev metrics
def main(args: argparse.Namespace) -> int:
    # the library (torch) loads once the arguments parse: --help and a bad flag answer at once
    import torch

    from train_embeddings.evaluation.sick import load_encoder, load_sick, sick_files, train_sick
    from train_embeddings.models.model_io import save_model

    try:
        train_path, dev_path = sick_files(args.task, args.sick_dir)
        train = load_sick(args.train or train_path, args.task)
        dev = load_sick(args.dev or dev_path, args.task)
        if args.limit is not None:
            if args.limit < 2:
                raise ValueError("--limit must be at least 2")
            train = train.head(args.limit)
        model = load_encoder(args.model, fit_sentences=train.unique_sentences(), word_counts=args.word_frequencies)
        config = SickConfig(**{name: getattr(args, name) for name in SETTINGS})
        result = train_sick(model, train, dev, config, finetune=args.finetune, label=args.model,
                            progress=not args.quiet)
    except (FileNotFoundError, ValueError) as error:  # a library's own (ParanmtError: run_main)
        print(f"error: {error}", file=sys.stderr)
        return 2
    summary = result.to_dict()
    print(json.dumps({"task": result.task, "model": result.model, "mode": result.mode,
                      "best_epoch": result.best_epoch, "dev": summary["best"]}, indent=2))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "metrics.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        assert result.head is not None
        torch.save(result.head.state_dict(), args.out / "head.pt")
        if result.encoder is not None:
            save_model(result.encoder, args.out / "model", extra={"sick": {"task": result.task,
                                                                              "best_epoch": result.best_epoch}})
    return 0
