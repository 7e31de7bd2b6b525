"""A model directory scored on a test set, for ``paranmt evaluate-nmt`` (whose help,
paranmt/cli/evaluate_nmt_command.py, says what it measures and records): the pipeline's translator,
sacrebleu's BLEU and chrF, the speed, and the card's scores."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import sacrebleu

from configs.schema import TranslateConfig
from translate.card import ModelDir, write_card
from translate.loading import load_translator

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

