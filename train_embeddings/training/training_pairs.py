"""The pairs a training run reads: the configured source, with released-ParaNMT TSV tokenised once into the run
folder's ``data/`` Parquet shards, which every later pass, epoch or resume reads instead."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

from configs.schema import TrainConfig
from core import pair_schema as S
from train_embeddings.training.data import PairSource, tsv_to_parquet
from train_embeddings.training.progress_log import TRAINER_LOG

__all__ = ["open_training_pairs"]

log = logging.getLogger(TRAINER_LOG)


def open_training_pairs(cfg: TrainConfig, out: Path) -> PairSource:
    """``cfg``'s pairs (Parquet as they are). TSV is converted into ``out/data/`` unless that folder exists
    (staged in ``out/.data.tmp`` and moved into place, so a killed conversion is redone). Raises
    :class:`~train_embeddings.training.data.TrainDataError` for missing or malformed data."""
    source = PairSource.from_config(cfg)
    if source.format != "tsv":
        return source
    converted = out / "data"
    if not converted.is_dir():
        staging = out / ".data.tmp"
        shutil.rmtree(staging, ignore_errors=True)
        log.info("tokenising %d TSV file(s) once into %s", len(source.files), converted)
        for file in source.files:
            tsv_to_parquet(file, staging, filesystem=source.filesystem if "://" in source.path else None)
        os.replace(staging, converted)
    return PairSource(converted, data_format="parquet", group_column=S.ID if cfg.group_column else None,
                      min_score=cfg.min_score, max_score=cfg.max_score, max_tokens=cfg.max_tokens,
                      only_kept=cfg.only_kept, read_batch_rows=cfg.read_batch_rows)
