"""Helpers shared by the tests/train_embeddings/test_*.py modules (no tests here): caption pairs in the
pipeline's Parquet layout, built from ../shared/data/paraphrase/multi30k-captions."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from benchmarks.caption_pairs import tokenize
from configs.schema import TrainConfig
from core.pair_schema import PAIRS_SCHEMA, table_from_columns, with_metadata
from tests.conftest import shared_data

CAPTIONS = "paraphrase/multi30k-captions"


@functools.cache
def caption_lines(which: int, n: int) -> tuple[str, ...]:
    """The first ``n`` lines of ``train.<which>.en`` (line i of every file describes image i)."""
    path = shared_data(CAPTIONS) / f"train.{which}.en"
    return tuple(path.read_text(encoding="utf-8").splitlines()[:n])


@functools.cache
def caption_tokens(which: int, n: int) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(t) for t in tokenize(caption_lines(which, n)))


def pairs_table(en: Sequence[str], mt: Sequence[str], en_tokens: Sequence[Sequence[str]],
                mt_tokens: Sequence[Sequence[str]], ids: Sequence[str], **extra: Sequence) -> pa.Table:
    n = len(en)
    columns = {"id": list(ids), "source": ["multi30k"] * n, "en": list(en), "mt": list(mt),
               "en_tokens": [list(t) for t in en_tokens], "mt_tokens": [list(t) for t in mt_tokens],
               "keep": [True] * n, **{k: list(v) for k, v in extra.items()}}
    return table_from_columns(columns, with_metadata(PAIRS_SCHEMA))


def caption_parquet(directory: Path, n: int = 300, shards: int = 2, offset: int = 0) -> Path:
    """``n`` real pairs (caption 1 and caption 2 of images offset..offset+n-1), Moses-tokenised, as ``shards``
    Parquet files in the core.pair_schema layout; the id names the image."""
    en, mt = caption_lines(1, offset + n)[offset:], caption_lines(2, offset + n)[offset:]
    table = pairs_table(en, mt, caption_tokens(1, offset + n)[offset:], caption_tokens(2, offset + n)[offset:],
                        [f"img{offset + i}" for i in range(n)],
                        paraphrase_score=[0.5 + 0.4 * ((i * 7919) % 100) / 100 for i in range(n)])
    directory.mkdir(parents=True, exist_ok=True)
    per = -(-n // shards)
    for k in range(shards):
        pq.write_table(table.slice(k * per, per), directory / f"pairs-{k:05d}-of-{shards:05d}.parquet")
    return directory


def tiny(model: str, data, **overrides) -> TrainConfig:
    """A training config that runs in about a second: 16-d components, a few steps, one thread."""
    values = dict(data=str(data), model=model, batch_size=20, megabatch=3, max_steps=4, word_dim=16, trigram_dim=16,
                  lstm_dim=16, sp_dim=16, sp_vocab_size=400, threads=1, shuffle_buffer=100,
                  evals_per_epoch=0)
    values.update(overrides)
    return TrainConfig(**values)
