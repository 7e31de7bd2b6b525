"""``paranmt export``: a model or train/ in another format."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paranmt.core.command_line import ArgumentParser, command

# train_embeddings.export.model_export.FORMATS (a test keeps them equal): the library is imported only once the
# arguments parse, so --help loads neither torch nor pyarrow.
FORMATS = ("sentence-transformers", "model2vec", "paranmt-tsv")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="paranmt export",
                            description="Export a model for sentence-transformers (a static one also for "
                            "model2vec), or train/ as ParaNMT TSV.")
    parser.add_argument("--format", required=True, choices=FORMATS)
    parser.add_argument("--model", type=Path, help="sentence-transformers / model2vec: a saved model directory or "
                        "training run")
    parser.add_argument("--input", help="paranmt-tsv: Parquet shards (a run's train/, a file, a glob or a URL)")
    parser.add_argument("--evaluation", type=Path, metavar="FILE",
                        help="sentence-transformers / model2vec: the `paranmt evaluate --model DIR --json FILE` "
                        "file whose STS figures the model card gives")
    parser.add_argument("--out", required=True, type=Path, help="output directory (model) or file (TSV)")
    parser.add_argument("--tokenized", action="store_true",
                        help="paranmt-tsv: write the Moses tokens joined by spaces instead of the raw sentences")
    return parser


@command(build_parser, pass_parser=True)
def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.format in ("sentence-transformers", "model2vec") and args.model is None:
        parser.error(f"--format {args.format} needs --model DIR")
    if args.format == "paranmt-tsv" and args.input is None:
        parser.error("--format paranmt-tsv needs --input (e.g. runs/x/train)")
    # a model is a folder: it would replace the file
    if args.format in ("sentence-transformers", "model2vec") and args.out.is_file():
        print(f"error: --out {args.out} is a file: a sentence-transformers model is a folder, choose a new path",
              file=sys.stderr)
        return 2
    from train_embeddings.export.model_export import export_model
    from train_embeddings.training.data import parquet_to_tsv

    try:
        if args.format in ("sentence-transformers", "model2vec"):
            message = export_model(args.model, args.out, args.format, args.evaluation)
        else:
            message = f"wrote {parquet_to_tsv(args.input, args.out, tokenized=args.tokenized)} pairs to {args.out}"
    except (ValueError, FileNotFoundError, ImportError) as error:  # a library's own (ParanmtError: run_main)
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(message, file=sys.stderr)
    return 0
