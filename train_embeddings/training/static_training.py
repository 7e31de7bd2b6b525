"""What a training run with a ``static`` component adds to its set-up: the teacher loss's targets for the run's
sentences and the static part's training-only terms (teacher loss, pull toward the distilled table)."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pyarrow.compute as pc

from configs.schema import TrainConfig
from train_embeddings.models.encoder import SentenceEncoder
from train_embeddings.static.teacher import STATIC
from train_embeddings.static.teacher_targets import TeacherTargets, teacher_targets
from train_embeddings.training.data import LEFT, LEFT_TEXT, RIGHT, RIGHT_TEXT, PairSource
from train_embeddings.training.vocab_building import Vocabularies

__all__ = ["configure_static", "source_sentences", "static_teacher_targets"]


def source_sentences(source: PairSource, sides: str = "left") -> Iterator[str]:
    """The ``left`` (the English references), ``right`` or ``both`` sides of every filtered pair of ``source`` as
    the static component reads them (raw text when the source has it, else the tokens joined by spaces)."""
    columns = {"left": ((LEFT_TEXT, LEFT),), "right": ((RIGHT_TEXT, RIGHT),),
               "both": ((LEFT_TEXT, LEFT), (RIGHT_TEXT, RIGHT))}[sides]
    for table in source.scan():
        for text, tokens in columns:
            column = table[text] if text in table.column_names else pc.binary_join(table[tokens], " ")
            yield from pa.chunked_array(column).to_pylist() if isinstance(column, pa.Array) else column.to_pylist()


def static_teacher_targets(cfg: TrainConfig, source: PairSource) -> TeacherTargets | None:
    """The teacher vectors of the run's English references when ``static_teacher_loss`` > 0 (else None): the
    human-written side, as Tokenlearn's corpus is human text; the back-translations get no teacher term."""
    if STATIC not in TrainConfig.parse_model(cfg.model)[0] or cfg.static_teacher_loss <= 0:
        return None
    return teacher_targets(source_sentences(source), cfg.teacher, cfg.static_cache)


def configure_static(cfg: TrainConfig, encoder: SentenceEncoder, vocabularies: Vocabularies) -> None:
    """Give the static part its teacher-loss and pull weights (and the pull's anchor, the distilled table)."""
    if STATIC in encoder.parts:
        initial = vocabularies.static.initial if vocabularies.static is not None else None
        encoder.parts[STATIC].configure(cfg.static_teacher_loss, cfg.static_pull, initial)
