"""``paranmt train-nmt``: train a back-translation model."""

from __future__ import annotations

import argparse
import logging
import posixpath
from pathlib import Path
from typing import Any

from paranmt.core.command_line import ArgumentParser, command
from translate import train_recipe
from translate.train_recipe import PRESETS, TrainRecipe


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="paranmt train-nmt", description=train_recipe.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    i = p.add_argument_group("training pairs (one of the three forms)")
    i.add_argument("--cs", dest="bitext_cs", nargs="+", action="extend", default=[], type=Path,
                   metavar="FILE", help="Czech side of line-aligned pair files (.gz ok)")
    i.add_argument("--en", dest="bitext_en", nargs="+", action="extend", default=[], type=Path,
                   metavar="FILE", help="English side, in the same order")
    i.add_argument("--tsv", type=Path, action="append", default=[], help="TSV file(s), one pair per line")
    i.add_argument("--parquet", action="append", default=[], metavar="PATH",
                   help="Parquet: a file, a folder of shards or a pattern, local or gs:// s3:// (a run folder: its "
                        "train/)")
    i.add_argument("--cs-column", help="TSV: 0-based index (default 0); Parquet: name (default cs)")
    i.add_argument("--en-column", help="TSV: 0-based index (default 1); Parquet: name (default en)")
    i.add_argument("--tsv-header", action="store_true", help="TSV files start with a header line")
    i.add_argument("--valid-cs", type=Path, help="held-out validation pairs (default: a split of the input)")
    i.add_argument("--valid-en", type=Path)
    p.add_argument("--out", required=True, type=Path, help="model directory to write (a run folder)")
    p.add_argument("--preset", default="cpu-small", help=f"one of {', '.join(PRESETS)} (default cpu-small)")
    p.add_argument("--recipe", action="append", default=[], metavar="FIELD=VALUE",
                   help="override a field of the preset's recipe, e.g. --recipe bpe_merges=16000 (a recipe field, "
                        "not a config key: train-nmt reads no --config)")
    b = p.add_argument_group("budget (may change when resuming)")
    b.add_argument("--max-epoch", type=int)
    b.add_argument("--max-update", type=int)
    b.add_argument("--max-hours", type=float, help="wall-clock budget of fairseq-train, over all resumptions")
    b.add_argument("--threads", type=int, help="CPU threads (default: all cores)")
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                   help="cuda trains on every visible GPU (fairseq distributed), fp16 where the preset says")
    p.add_argument("--quantization", choices=["int8", "int8_float16", "float16"],
                   help="CTranslate2 weights (default float32; int8 can still be chosen at load time)")
    p.add_argument("--name", help="model id (default: the output folder's name)")
    p.add_argument("--overwrite", action="store_true", help="replace a folder that holds another run")
    p.add_argument("--keep-work", action="store_true", help="keep work/ (checkpoints, binarised data)")
    return p


def recipe_from_args(args: argparse.Namespace) -> TrainRecipe:
    from pydantic import ValidationError

    from translate.train import TrainError

    if args.preset not in PRESETS:
        raise TrainError(f"--preset {args.preset!r} is unknown; choose one of {', '.join(PRESETS)}")
    updates: dict[str, Any] = {}
    for item in args.recipe:
        key, sep, value = item.partition("=")
        if not sep:
            raise TrainError(f"--recipe {item!r}: write FIELD=VALUE, e.g. --recipe bpe_merges=16000")
        updates[key] = value
    for key in ("max_epoch", "max_update", "max_hours", "threads"):
        if getattr(args, key) is not None:
            updates[key] = getattr(args, key)
    try:
        return TrainRecipe.model_validate({**PRESETS[args.preset].model_dump(), **updates})
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(x) for x in first["loc"])
        flag = f"--{field.replace('_', '-')}"
        raise TrainError(f"recipe field {field!r}: {first['msg']} (check --recipe/{flag})") from None


def read_inputs(args: argparse.Namespace) -> tuple[list[str], list[str], str]:
    from translate.train import TrainError, read_pair_files, read_parquet, read_tsv

    cs: list[str] = []
    en: list[str] = []
    described = []
    if args.bitext_cs or args.bitext_en:
        a, b = read_pair_files(args.bitext_cs, args.bitext_en)
        cs, en = cs + a, en + b
        described += [p.name for p in args.bitext_cs]
    for path in args.tsv:
        a, b = read_tsv(path, int(args.cs_column or 0), int(args.en_column or 1), args.tsv_header)
        cs, en = cs + a, en + b
        described.append(path.name)
    for path in args.parquet:
        a, b = read_parquet(path, args.cs_column or "cs", args.en_column or "en")
        cs, en = cs + a, en + b
        described.append(posixpath.basename(path.rstrip("/")))
    if not described:
        raise TrainError("no training pairs: give --cs FILE --en FILE, --tsv FILE or --parquet FILE")
    if not cs:
        raise TrainError(f"the training input is empty ({', '.join(described)}); give non-empty files")
    return cs, en, ",".join(described)


@command(build_parser, log_level=logging.INFO)
def main(args: argparse.Namespace) -> int:
    from translate.train import TrainError, read_pair_files, train_model

    recipe = recipe_from_args(args)
    cs, en, described = read_inputs(args)
    valid = None
    if args.valid_cs or args.valid_en:
        if not (args.valid_cs and args.valid_en):
            raise TrainError("give both --valid-cs and --valid-en, or neither")
        valid = read_pair_files([args.valid_cs], [args.valid_en])
    out = train_model(cs, en, args.out, recipe, name=args.name, valid=valid, device=args.device,
                      quantization=args.quantization, overwrite=args.overwrite, keep_work=args.keep_work,
                      data_description=described)
    print(f"model directory ready: {out}")
    return 0
