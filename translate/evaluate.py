"""Score a model directory on a test set: ``python -m translate.evaluate --model DIR --src test.cs --ref test.en``.

Translates the raw source file with the pipeline's translator (same text chain, backend and beam as a corpus run),
scores the detokenised output against the raw references with sacrebleu (BLEU and chrF; the signatures are
printed), measures the speed, and records ``bleu_<name>`` / ``chrf_<name>`` (and the speed) in the model card,
with the signature and settings in its provenance. ``--no-update-card`` leaves the card alone (a read-only model).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import sacrebleu

from configs.command_line import ArgumentParser, command_name
from configs.schema import TranslateConfig
from translate.card import CARD_FILE, ModelDir, ModelDirError, write_card
from translate.ct2_backend import BackendUnavailable
from translate.loading import load_translator
from translate.train import TrainError, read_pair_files

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Evaluation:
    test_set: str
    sentences: int
    bleu: float
    chrf: float
    bleu_signature: str
    chrf_signature: str
    seconds: float
    sentences_per_second: float
    backend: str
    compute_type: str
    beam_size: int


def evaluate(model: Path, sources: list[str], references: list[str], test_set: str,
             config: TranslateConfig | None = None) -> tuple[Evaluation, list[str]]:
    """BLEU/chrF of the model's best hypotheses (empty for inputs it could not translate) and its speed."""

    config = (config or TranslateConfig()).model_copy(update={"model": model})
    translator = load_translator(config)
    started = time.perf_counter()
    translations = translator.translate(sources)
    seconds = time.perf_counter() - started
    hypotheses = [t.hypothesis for t in translations]
    bleu, chrf = sacrebleu.metrics.BLEU(), sacrebleu.metrics.CHRF()
    bleu_score = bleu.corpus_score(hypotheses, [references])
    chrf_score = chrf.corpus_score(hypotheses, [references])
    result = Evaluation(
        test_set=test_set, sentences=len(sources), bleu=round(bleu_score.score, 2), chrf=round(chrf_score.score, 2),
        bleu_signature=str(bleu.get_signature()), chrf_signature=str(chrf.get_signature()),
        seconds=round(seconds, 2), sentences_per_second=round(len(sources) / seconds, 1) if seconds else 0.0,
        backend=translator.backend.name, compute_type=str(getattr(translator.backend, "compute_type", "")),
        beam_size=config.beam_size,
    )
    return result, hypotheses


def record(model: Path, result: Evaluation) -> Path:
    """Write the scores into the model card (metrics) and how they were measured (provenance)."""
    model_dir = ModelDir(model)
    card = model_dir.card
    card.metrics[f"bleu_{result.test_set}"] = result.bleu
    card.metrics[f"chrf_{result.test_set}"] = result.chrf
    card.metrics[f"sentences_per_second_{result.test_set}"] = result.sentences_per_second
    card.provenance[f"evaluation_{result.test_set}"] = (
        f"{result.sentences} sentences, beam {result.beam_size}, {result.backend} {result.compute_type}; "
        f"{result.bleu_signature}; {result.chrf_signature}")
    return write_card(model_dir.root, card)


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog=command_name("python -m translate.evaluate"), description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", type=Path, required=True, help="model directory (with model_card.yaml)")
    p.add_argument("--src", type=Path, required=True, help="raw source sentences, one per line (.gz ok)")
    p.add_argument("--ref", type=Path, required=True, help="raw reference translations, line-aligned")
    p.add_argument("--name", help="test set name used in the card's metric keys (default: the --src file stem)")
    p.add_argument("--limit", type=int, help="only the first N sentences")
    p.add_argument("--beam", type=int, default=5, help="beam size (default 5, as the shared model's card)")
    p.add_argument("--backend", choices=["auto", "ctranslate2", "fairseq"], default="auto")
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    p.add_argument("--compute-type", default="auto")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--out", type=Path, help="write the hypotheses here, one per line")
    p.add_argument("--no-update-card", dest="update_card", action="store_false",
                   help="do not write the scores into the model card")
    return p


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    args = build_parser().parse_args(argv)
    try:
        sources, references = read_pair_files([args.src], [args.ref])
        if args.limit:
            sources, references = sources[: args.limit], references[: args.limit]
        if not sources:
            raise TrainError(f"{args.src} is empty; give a test set with at least one sentence")
        name = args.name or args.src.name.split(".")[0].replace("-", "_")
        config = TranslateConfig(backend=args.backend, device=args.device, compute_type=args.compute_type,
                                 beam_size=args.beam, threads=args.threads)
        result, hypotheses = evaluate(args.model, sources, references, name, config)
        if args.out:
            args.out.write_text("".join(h + "\n" for h in hypotheses), encoding="utf-8")
        card = record(args.model, result) if args.update_card else None
    except (TrainError, ModelDirError, BackendUnavailable) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except PermissionError as error:
        print(f"error: {error.filename}: cannot write the model card ({error.strerror}); add --no-update-card "
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
