"""``paranmt vmap``: a CTranslate2 vocabulary map from bitext.

Build a CTranslate2 vocabulary shortlist (``translate.vmap``) from a model's training bitext.

    paranmt vmap --model DIR --cs train.cs [more.cs ...] --en train.en [...] --out vmap.txt

Both sides go through the model card's own text chain (Moses normalisation and tokenisation, then the model's
BPE; :class:`translate.text_chain.SourceEncoder`), so the keys are the model's source tokens and the candidates its
target tokens. A target token is a candidate of a source token when they co-occur in pairs more than chance says,
ranked by local mutual information ``c(s,t) * log(N c(s,t) / (c(s) c(t)))`` (counts of pairs holding both, each,
and all pairs); the ``always`` most frequent target tokens (and EOS, UNK) are candidates of every batch. The file is
CTranslate2's format: ``source token<TAB>candidates`` lines, the always-on list on a line with an empty key.

CTranslate2 restricts each batch's output layer and softmax to the union of its source tokens' candidates, so a
sentence's translation then depends on its batch-mates (still only on its chunk, as the token buckets already make
it) and differs from the full-vocabulary one where the model's choice falls outside the union:
docs/translate-cpu.md measures by how much.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from paranmt.core.command_line import ArgumentParser, command


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="paranmt vmap", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--cs", required=True, type=Path, nargs="+", dest="bitext_cs", metavar="FILE",
                       help="Czech side of line-aligned pair files")
    parser.add_argument("--en", required=True, type=Path, nargs="+", dest="bitext_en", metavar="FILE",
                       help="English side, in the same order")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--per-source", type=int, default=20, help="candidates per source token")
    parser.add_argument("--always", type=int, default=200, help="most frequent target tokens always allowed")
    parser.add_argument("--min-joint", type=int, default=2, help="pairs a candidate must share with its source")
    return parser


@command(build_parser, log_level=logging.INFO)
def main(args: argparse.Namespace) -> int:
    # the work's modules (CTranslate2, sacremoses) load once the arguments parse: --help and a bad flag answer at once
    from translate.card import ModelDir, ModelDirError
    from translate.text_chain import SourceEncoder
    from translate.vmap import build_vmap, concatenated_lines, log, write_vmap

    try:
        model_dir = ModelDir(args.model)
        ct2 = model_dir.ct2_dir
        if ct2 is None:
            raise ModelDirError(f"{args.model}: the model card names no CTranslate2 model; a vmap is for CTranslate2")
        cs, en = concatenated_lines(args.bitext_cs), concatenated_lines(args.bitext_en)
    except OSError as error:  # printed as it is (a ParanmtError: run_main)
        print(f"error: {error}", file=sys.stderr)
        return 2
    if len(cs) != len(en) or not cs:
        print(f"error: {len(cs)} Czech lines but {len(en)} English lines in the bitext files (need equal, "
              "non-zero counts)", file=sys.stderr)
        return 2
    log.info("tokenising %d pairs with the model card's text chain", len(cs))
    source = SourceEncoder(model_dir).encode_batch(cs)
    target = SourceEncoder(model_dir, lang=model_dir.card.target_lang).encode_batch(en)
    source_vocab = json.loads((Path(ct2) / "source_vocabulary.json").read_text(encoding="utf-8"))
    target_vocab = json.loads((Path(ct2) / "target_vocabulary.json").read_text(encoding="utf-8"))
    always_tokens, mapping = build_vmap(source, target, source_vocab, target_vocab, args.per_source, args.always,
                                        args.min_joint)
    write_vmap(args.out, always_tokens, mapping)
    log.info("wrote %s: %d always-on target tokens, %d source tokens mapped (%d candidates each at most) of %d",
             args.out, len(always_tokens), len(mapping), args.per_source, len(source_vocab))
    return 0
