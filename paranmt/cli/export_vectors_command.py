"""``paranmt export-vectors``: a WORD model's vectors."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paranmt.core.command_line import ArgumentParser, command


def build_parser() -> argparse.ArgumentParser:
    """``paranmt export-vectors --model DIR --out PATH [--format text|word_model]``: export the WORD
    vectors of a saved model (or a training run's best/ else model/)."""
    p = ArgumentParser(prog="paranmt export-vectors", description=build_parser.__doc__)
    p.add_argument("--model", required=True, type=Path, help="saved model directory or training run")
    p.add_argument("--out", required=True, type=Path, help="text file, or directory for --format word_model")
    p.add_argument("--format", choices=["text", "word_model"], default="text")
    return p


@command(build_parser)
def main(args: argparse.Namespace) -> int:
    # the library (torch) loads once the arguments parse: --help and a bad flag answer at once
    from train_embeddings.models.embedding_model import EmbeddingModel
    from train_embeddings.models.model_io import export_word_vectors, load_model

    try:
        model = load_model(args.model)
        if not isinstance(model, EmbeddingModel):
            raise ValueError(f"{args.model} is a {model!r}: export its source vectors instead")
        path = export_word_vectors(model, args.out, format=args.format)
    except (ValueError, FileNotFoundError) as error:  # a library's own (ParanmtError: run_main)
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {len(model.words or []) - 1} word vectors ({model.spec.word_dim}-d) to {path}", file=sys.stderr)
    return 0
