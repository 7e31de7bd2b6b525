"""Helpers shared by the tests of train_embeddings (tests/train_embeddings/ and two of tests/benchmarks/; no tests
here): real paraphrase pairs in the pipeline's Parquet layout, the way ParaNMT makes them: a Tatoeba English
sentence and the back-translation of its Czech side by the package's default model (both bundled, licensed:
tests/data/shared-taste/README.md), so every clone runs the same tests on the same pairs."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from benchmarks.reproduction.caption_pairs import tokenize
from configs.schema import TrainConfig
from paranmt.core.pair_schema import PAIRS_SCHEMA, with_metadata
from tests.support.pair_tables import table_from_columns
from tests.support.taste_data import TASTE_DATA, taste_pairs
from tests.support.text_files import read_lines


@functools.cache
def pair_lines(side: str, n: int) -> tuple[str, ...]:
    """The first ``n`` lines of one side: ``en`` and ``mt`` of :func:`~tests.support.taste_data.taste_pairs` (line i
    of both is pair i), or ``other``, more real English text (the bundled LibreOffice help excerpt, 300 lines)."""
    if side == "other":
        lines = read_lines(TASTE_DATA / "bitext-software" / "libreoffice-help.en")
        assert len(lines) >= n
        return tuple(lines[:n])
    _, en, mt = taste_pairs(n)
    return tuple({"en": en, "mt": mt}[side])


@functools.cache
def pair_tokens(side: str, n: int) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(t) for t in tokenize(pair_lines(side, n)))


def pairs_table(en: Sequence[str], mt: Sequence[str], en_tokens: Sequence[Sequence[str]],
                mt_tokens: Sequence[Sequence[str]], ids: Sequence[str], **extra: Sequence) -> pa.Table:
    n = len(en)
    columns = {"id": list(ids), "source": ["tatoeba"] * n, "en": list(en), "mt": list(mt),
               "en_tokens": [list(t) for t in en_tokens], "mt_tokens": [list(t) for t in mt_tokens],
               "keep": [True] * n, **{k: list(v) for k, v in extra.items()}}
    return table_from_columns(columns, with_metadata(PAIRS_SCHEMA))


def tatoeba_pairs_parquet(directory: Path, n: int = 300, shards: int = 2, offset: int = 0) -> Path:
    """``n`` real pairs (pairs offset..offset+n-1 of :func:`pair_lines`), Moses-tokenised, as ``shards`` Parquet
    files in the core.pair_schema layout; the id names the line."""
    en, mt = pair_lines("en", offset + n)[offset:], pair_lines("mt", offset + n)[offset:]
    table = pairs_table(en, mt, pair_tokens("en", offset + n)[offset:], pair_tokens("mt", offset + n)[offset:],
                        [f"line{offset + i}" for i in range(n)],
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
