"""``paranmt convert``: make a model directory from another toolkit's model."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paranmt.core.command_line import ArgumentParser, command, module_doc, module_literal

QUANTIZATIONS = module_literal("translate.convert:QUANTIZATIONS")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="paranmt convert", description=module_doc("translate.convert"),
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_renamed("--out", "--output", required=True, type=Path, help="model directory to write")
        p.add_argument("--name", help="model id recorded in outputs (default: the output folder's name)")
        p.add_argument("--source-lang", default="cs")
        p.add_argument("--target-lang", default="en")

    p = sub.add_parser("fairseq", help="fairseq checkpoint -> CTranslate2 (keeps the checkpoint for fairseq)")
    common(p)
    p.add_renamed("--input", "--checkpoint", required=True, type=Path, dest="checkpoint", metavar="CHECKPOINT",
                  help="fairseq checkpoint (.pt)")
    p.add_argument("--data", required=True, type=Path, help="directory with dict.<src>.txt and dict.<tgt>.txt")
    p.add_argument("--bpe-codes", type=Path,
                   help="subword-nmt BPE codes the model was trained with (Moses-tokenised input)")
    p.add_argument("--spm", type=Path, help="SentencePiece model the model was trained with (instead of --bpe-codes)")
    p.add_argument("--moses", action=argparse.BooleanOptionalAction, default=None,
                   help="Moses (de)tokenisation around the subwords (default: on with --bpe-codes, off with --spm)")
    p.add_argument("--quantization", choices=QUANTIZATIONS)
    p.add_argument("--keep-checkpoint", action=argparse.BooleanOptionalAction, default=True,
                   help="copy the checkpoint and dictionaries into the model directory for the fairseq backend "
                   "(--no-keep-checkpoint: a CTranslate2-only directory, a third of the size for a small model)")
    p.set_defaults(run="convert_fairseq")

    for name, run, model_type, help_text in [
        ("marian", "convert_marian", Path, "OPUS-MT / Marian model directory -> CTranslate2"),
        ("hf-marian", "convert_hf_marian", str, "Hugging Face Marian model (local folder or name) -> CTranslate2"),
    ]:
        p = sub.add_parser(name, help=help_text)
        common(p)
        p.add_renamed("--input", "--model-dir", required=True, type=model_type, dest="model_dir", metavar="MODEL",
                      help="the model to convert")
        p.add_argument("--prefix", nargs="*", help="target-language token for multi-target models, e.g. '>>eng<<'")
        p.add_argument("--quantization", choices=QUANTIZATIONS)
        p.set_defaults(run=run)

    p = sub.add_parser("argos", help="Argos Translate .argosmodel package -> model directory")
    common(p)
    p.add_renamed("--input", "--package", required=True, type=Path, dest="package", metavar="PACKAGE",
                  help=".argosmodel package")
    p.set_defaults(run="convert_argos")

    p = sub.add_parser("card", help="write a model card for an existing CTranslate2 model")
    common(p)
    p.add_renamed("--input", "--ct2", required=True, type=Path, dest="ct2", metavar="DIR",
                  help="CTranslate2 model directory (with model.bin)")
    p.add_argument("--spm", type=Path, help="source SentencePiece model")
    p.add_argument("--target-spm", type=Path, help="target SentencePiece model (default: --spm)")
    p.add_argument("--bpe-codes", type=Path, help="subword-nmt BPE codes (Moses tokenisation is then applied)")
    p.set_defaults(run="write_card_only")
    return parser


@command(build_parser)
def main(args: argparse.Namespace) -> int:
    # the work's modules load once the arguments parse: --help and a bad flag answer at once
    from translate import convert
    from translate.card import ModelDir

    options = {k: v for k, v in vars(args).items() if k not in ("command", "run")}  # the converter's parameters
    try:
        out = getattr(convert, args.run)(**options)
        ModelDir(out)  # validates what was written
    except (FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"model directory ready: {out}")
    return 0
