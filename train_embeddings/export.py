"""``paranmt export``: a trained model for sentence-transformers, or the corpus for the original ParaNMT tooling.

    paranmt export --format sentence-transformers --model runs/word --out exported/word
    paranmt export --format paranmt-tsv --input runs/x/train --out paranmt.tsv.gz [--tokenized]

* ``sentence-transformers`` (needs the ``st`` extra): :func:`train_embeddings.st_export.export_sentence_transformers`;
  load it with ``SentenceTransformer(DIR, trust_remote_code=True)`` where paranmt is installed.
* ``paranmt-tsv``: :func:`train_embeddings.data.parquet_to_tsv` — ``sentence<TAB>paraphrase<TAB>score`` lines
  like the released ParaNMT-50M files (``.gz`` when the name ends so).

Exit status 0 on success, 2 with a one-line ``error:`` for a bad argument or input.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from configs.command_line import ArgumentParser, command_name
from train_embeddings.data import TrainDataError, parquet_to_tsv
from train_embeddings.model_dir import ModelLoadError
from train_embeddings.model_io import load_model
from train_embeddings.models import EmbeddingModel

FORMATS = ("sentence-transformers", "paranmt-tsv")


def export_model(model_path: Path, out: Path) -> str:
    """Export the model at ``model_path`` for sentence-transformers; returns what was written."""
    model = load_model(model_path)
    if not isinstance(model, EmbeddingModel):
        raise ValueError(f"{model_path} is a {model!r}: only trained paranmt encoders export to sentence-transformers")
    # deferred: optional extra (sentence-transformers), and the TSV export must work without it
    from train_embeddings.st_export import export_sentence_transformers

    export_sentence_transformers(model, out)
    return f"wrote {'+'.join(model.spec.components)} ({model.dim}-d) as a sentence-transformers model to {out}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = ArgumentParser(prog=command_name("python -m train_embeddings.export"),
                            description="Export a model for sentence-transformers, or train/ as ParaNMT TSV.")
    parser.add_argument("--format", required=True, choices=FORMATS)
    parser.add_argument("--model", type=Path, help="sentence-transformers: a saved model directory or training run")
    parser.add_argument("--input", type=Path, help="paranmt-tsv: Parquet shards (a run's train/, a file or a glob)")
    parser.add_argument("--out", required=True, type=Path, help="output directory (model) or file (TSV)")
    parser.add_argument("--tokenized", action="store_true",
                        help="paranmt-tsv: write the Moses tokens joined by spaces instead of the raw sentences")
    args = parser.parse_args(argv)
    if args.format == "sentence-transformers" and args.model is None:
        parser.error("--format sentence-transformers needs --model DIR")
    if args.format == "paranmt-tsv" and args.input is None:
        parser.error("--format paranmt-tsv needs --input (e.g. runs/x/train)")
    if args.format == "sentence-transformers" and args.out.is_file():  # it would be replaced by the model folder
        print(f"error: --out {args.out} is a file: a sentence-transformers model is a folder, choose a new path",
              file=sys.stderr)
        return 2
    try:
        if args.format == "sentence-transformers":
            message = export_model(args.model, args.out)
        else:
            message = f"wrote {parquet_to_tsv(args.input, args.out, tokenized=args.tokenized)} pairs to {args.out}"
    except (ModelLoadError, TrainDataError, ValueError, FileNotFoundError, ImportError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(message, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
