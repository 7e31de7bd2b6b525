"""``paranmt evaluate-nmt``: BLEU / chrF of a model directory.

Score a model directory on a test set: ``paranmt evaluate-nmt --model DIR --cs test.cs --en test.en``.

Translates the raw source file with the pipeline's translator (same text chain, backend and beam as a corpus run),
scores the detokenised output against the raw references with sacrebleu (BLEU and chrF; the signatures are
printed) and measures the speed. With ``--update-card`` it also records ``bleu_<name>`` / ``chrf_<name>`` (and the
speed) in the model card, with the signature and settings in its provenance; by default the model is left alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from configs.schema import ParaNMTConfig
from paranmt.core.command_line import (
    ArgumentParser,
    ConfigFlag,
    add_config_flags,
    command,
    config_values,
    flag_names,
)

# The flags that set config values, as run and translate spell them; each one's type, help and default are its
# schema field's. --beam is not among them: an evaluation decodes with the shared model card's beam, 5, by default.
CONFIG_FLAGS = (
    ConfigFlag("--backend", "translate.backend"),
    ConfigFlag("--device", "translate.device"),
    ConfigFlag("--compute-type", "translate.compute_type"),
    ConfigFlag("--threads", "translate.threads"),
)


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="paranmt evaluate-nmt", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", type=Path, required=True, help="model directory (with model_card.yaml)")
    # --cs/--en as in run, translate and train-nmt: the model's source side and the reference translations
    p.add_argument("--cs", type=Path, required=True, metavar="FILE",
                  help="raw source (Czech) sentences, one per line (.gz ok)")
    p.add_argument("--en", type=Path, required=True, metavar="FILE",
                  help="raw reference (English) translations, line-aligned")
    p.add_argument("--name", help="test set name used in the card's metric keys (default: the --cs file stem)")
    p.add_argument("--limit", type=int, help="only the first N sentences")
    p.add_argument("--beam", type=int, default=5, help="beam size (default %(default)s, as the shared model's card)")
    add_config_flags(p, ParaNMTConfig, CONFIG_FLAGS)
    p.add_argument("--out", type=Path, help="write the hypotheses here, one per line")
    # Writing into a model directory is opt-in: an evaluation must not change the model it measures unasked.
    p.add_argument("--update-card", action="store_true",
                   help="record the scores in the model's model_card.yaml (default: only print them)")
    return p


@command(build_parser)
def main(args: argparse.Namespace) -> int:
    # the work's modules (CTranslate2, sacremoses) load once the arguments parse: --help and a bad flag answer at once
    from configs import load_config
    from translate.card import CARD_FILE
    from translate.evaluate import evaluate, record
    from translate.train import TrainError, read_pair_files

    config = load_config(values={**config_values(args, CONFIG_FLAGS), "translate.beam_size": args.beam},
                         flags={**flag_names(CONFIG_FLAGS), "translate.beam_size": "--beam"}).translate
    try:
        sources, references = read_pair_files([args.cs], [args.en])
        if args.limit:
            sources, references = sources[: args.limit], references[: args.limit]
        if not sources:
            raise TrainError(f"{args.cs} is empty; give a test set with at least one sentence")
        name = args.name or args.cs.name.split(".")[0].replace("-", "_")
        result, hypotheses = evaluate(args.model, sources, references, name, config)
        if args.out:
            args.out.write_text("".join(h + "\n" for h in hypotheses), encoding="utf-8")
        card = record(args.model, result) if args.update_card else None
    except PermissionError as error:
        print(f"error: {error.filename}: cannot write the model card ({error.strerror}); drop --update-card "
              "for a read-only model", file=sys.stderr)
        return 2
    print(f"{result.test_set}: BLEU {result.bleu:.2f}  chrF {result.chrf:.2f}  ({result.sentences} sentences, "
          f"{result.sentences_per_second} sent/s, {result.backend} {result.compute_type}, beam {result.beam_size})")
    print(f"BLEU signature: {result.bleu_signature}")
    print(f"chrF signature: {result.chrf_signature}")
    print(json.dumps(asdict(result)))
    if card is not None:
        print(f"scores recorded in {card}")
    elif args.update_card:
        print(f"{CARD_FILE} not updated")
    else:
        print(f"{CARD_FILE} left unchanged (--update-card records the scores there)")
    return 0
