"""``paranmt sif``: build a SIF model."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paranmt.core.command_line import ArgumentParser, command
from paranmt.core.sif_settings import PC_MODES, SIF_A


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="paranmt sif",
                                description="Build a SIF sentence-embedding model (Arora et al. 2017) and save it "
                                            "as a model directory that train_embeddings.models.model_io.load_model "
                                            "reads.")
    p.add_argument("--vectors", required=True,
                   help="'kumo' (GloVe 6B 50d), a vector file (text / .npy + vocab.txt) or a WORD model directory")
    p.add_argument("--word-frequencies", type=Path, metavar="FILE",
                   help="'word count' lines for p(w) (e.g. enwiki_vocab_min200.txt); default: the fit sentences")
    p.add_argument("--fit-sentences", type=Path, metavar="FILE",
                   help="sentences (one per line, or tab-separated pairs) for p(w) and the reference PC")
    p.add_argument("--pc", choices=PC_MODES, default="reference",
                   help="reference: PC of the fit sentences, saved (default); batch: PC of each encode() call; "
                        "none: weighted average only")
    p.add_argument("--components", type=int, default=1, help="principal components to remove (default %(default)s)")
    p.add_argument("--a", type=float, default=SIF_A,
                   help="SIF weight parameter a (default %(default)s)")
    p.add_argument("--fit-sample", type=int, default=100_000, help="at most this many reference sentences")
    p.add_argument("--seed", type=int, default=0, help="seed of the reference-sentence sample")
    p.add_argument("--average", action="store_true", help="plain average instead (ignores the SIF options)")
    p.add_argument("--out", required=True, type=Path, help="model directory to write")
    return p


@command(build_parser)
def main(args: argparse.Namespace) -> int:
    # the library loads once the arguments parse: --help and a bad flag answer at once
    from train_embeddings.models.sif import build_sif, glove_average, read_fit_sentences

    try:
        if args.average:
            model = glove_average(args.vectors)
        else:
            fit = read_fit_sentences(args.fit_sentences) if args.fit_sentences else None
            model = build_sif(args.vectors, word_counts=args.word_frequencies, fit_sentences=fit, pc=args.pc,
                              n_components=args.components, a=args.a, fit_sample=args.fit_sample, seed=args.seed)
        model.save(args.out)
    except (ValueError, FileNotFoundError) as error:  # a library's own (ParanmtError: run_main)
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {model!r} to {args.out}", file=sys.stderr)
    return 0
