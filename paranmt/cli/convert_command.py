"""``paranmt convert``: make a model directory from another toolkit's model."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from paranmt.core.command_line import ArgumentParser, command
from translate import convert
from translate.card import ModelDir


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="paranmt convert", description=convert.__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="format", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--out", required=True, type=Path, help="model directory to write")
        p.add_argument("--name", help="model id recorded in outputs (default: the output folder's name)")
        p.add_argument("--source-lang", default="cs")
        p.add_argument("--target-lang", default="en")

    p = sub.add_parser("fairseq", help="fairseq checkpoint -> CTranslate2 (keeps the checkpoint for fairseq)")
    common(p)
    p.add_argument("--input", required=True, type=Path, metavar="CHECKPOINT", help="fairseq checkpoint (.pt)")
    p.add_argument("--dicts", required=True, type=Path, metavar="DIR",
                   help="the fairseq dictionaries' directory (dict.<src>.txt and dict.<tgt>.txt)")
    p.add_argument("--bpe-codes", type=Path,
                   help="subword-nmt BPE codes the model was trained with (Moses-tokenised input)")
    p.add_argument("--spm", type=Path, help="SentencePiece model the model was trained with (instead of --bpe-codes)")
    p.add_argument("--moses", action=argparse.BooleanOptionalAction, default=None,
                   help="Moses (de)tokenisation around the subwords (default: on with --bpe-codes, off with --spm)")
    p.add_argument("--quantization", choices=convert.QUANTIZATIONS)
    p.add_argument("--keep-checkpoint", action=argparse.BooleanOptionalAction, default=True,
                   help="copy the checkpoint and dictionaries into the model directory for the fairseq backend "
                   "(--no-keep-checkpoint: a CTranslate2-only directory, a third of the size for a small model)")

    for name, model_type, help_text in [
        ("marian", Path, "OPUS-MT / Marian model directory -> CTranslate2"),
        ("hf-marian", str, "Hugging Face Marian model (local folder or name) -> CTranslate2"),
    ]:
        p = sub.add_parser(name, help=help_text)
        common(p)
        p.add_argument("--input", required=True, type=model_type, metavar="MODEL", help="the model to convert")
        p.add_argument("--prefix", nargs="*", help="target-language token for multi-target models, e.g. '>>eng<<'")
        p.add_argument("--quantization", choices=convert.QUANTIZATIONS)

    p = sub.add_parser("argos", help="Argos Translate .argosmodel package -> model directory")
    common(p)
    p.add_argument("--input", required=True, type=Path, metavar="PACKAGE", help=".argosmodel package")

    p = sub.add_parser("card", help="write a model card for an existing CTranslate2 model")
    common(p)
    p.add_argument("--input", required=True, type=Path, metavar="DIR",
                   help="CTranslate2 model directory (with model.bin)")
    p.add_argument("--spm", type=Path, help="source SentencePiece model")
    p.add_argument("--target-spm", type=Path, help="target SentencePiece model (default: --spm)")
    p.add_argument("--bpe-codes", type=Path, help="subword-nmt BPE codes (Moses tokenisation is then applied)")
    return parser


def _fairseq(args: argparse.Namespace) -> Path:
    return convert.convert_fairseq(args.input, args.dicts, args.out, bpe_codes=args.bpe_codes, spm=args.spm,
                                   moses=args.moses, quantization=args.quantization,
                                   keep_checkpoint=args.keep_checkpoint, **_naming(args))


def _marian(args: argparse.Namespace) -> Path:
    return convert.convert_marian(args.input, args.out, quantization=args.quantization, prefix=args.prefix,
                                  **_naming(args))


def _hf_marian(args: argparse.Namespace) -> Path:
    return convert.convert_hf_marian(args.input, args.out, quantization=args.quantization, prefix=args.prefix,
                                     **_naming(args))


def _argos(args: argparse.Namespace) -> Path:
    return convert.convert_argos(args.input, args.out, **_naming(args))


def _card(args: argparse.Namespace) -> Path:
    return convert.write_card_only(args.input, args.out, spm=args.spm, target_spm=args.target_spm,
                                   bpe_codes=args.bpe_codes, **_naming(args))


def _naming(args: argparse.Namespace) -> dict[str, str | None]:
    """The options every converter shares (:func:`common`)."""
    return {"name": args.name, "source_lang": args.source_lang, "target_lang": args.target_lang}


#: ``paranmt convert FORMAT`` -> the function that runs it (each one calls its converter of
#: :mod:`translate.convert`, which loads CTranslate2's converters and torch only when one runs).
CONVERTERS: dict[str, Callable[[argparse.Namespace], Path]] = {
    "fairseq": _fairseq, "marian": _marian, "hf-marian": _hf_marian, "argos": _argos, "card": _card,
}


@command(build_parser)
def main(args: argparse.Namespace) -> int:
    try:
        out = CONVERTERS[args.format](args)
        ModelDir(out)  # validates what was written
    except (FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"model directory ready: {out}")
    return 0
