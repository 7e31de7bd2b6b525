"""The written lexicon: one Parquet shard per run of words (``lexicon-SSSSS-of-NNNNN.parquet``, the PMI table),
``vocabulary.parquet`` (each word's counts and shard), ``top_k.tsv`` and ``stats.json``, written through Beam's file
systems (local or object stores); and finding a lexicon's shards and metadata again."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from configs.schema import LexiconConfig
from paranmt.core.pair_schema import read_metadata, with_metadata
from pipeline.analysis.lexicon.counting import KeyCounts, LexiconError, Marginals, PairCounts, Vocabulary
from pipeline.analysis.lexicon.pmi import LEXICON_SCHEMA, compute_lexicon, top_k_table
from pipeline.disk_space import room_for

__all__ = ["LEXICON_SHARD_FILE", "LEXICON_SHARD_GLOB", "STATS_FILE", "TOP_K_FILE", "VOCABULARY_FILE", "LexiconShard",
           "lexicon_files", "lexicon_metadata", "shard_file", "write_lexicon_shard", "write_lexicon_summary",
           "write_outputs"]

LEXICON_SHARD_FILE = "lexicon-{index:05d}-of-{count:05d}.parquet"
LEXICON_SHARD_GLOB = "lexicon-?????-of-?????.parquet"
VOCABULARY_FILE = "vocabulary.parquet"
STATS_FILE = "stats.json"
TOP_K_FILE = "top_k.tsv"


# ------------------------------------------------------------------------------------------ writing


def shard_file(index: int, num_shards: int) -> str:
    """The file name of shard ``index`` of ``num_shards``."""
    return LEXICON_SHARD_FILE.format(index=index, count=num_shards)


@dataclass
class LexiconShard:
    """What writing one shard leaves for the summary: its counts (stats) and its part of the top-k list."""

    index: int
    stats: dict[str, Any]
    top: pa.Table


@contextlib.contextmanager
def _create(out_dir: str | os.PathLike, name: str) -> Iterator[BinaryIO]:
    """``out_dir/name`` open for writing; a full disk is one line naming it."""
    with contextlib.suppress(Exception):  # exists, or an object store where folders are implicit
        FileSystems.mkdirs(str(out_dir))
    path = FileSystems.join(str(out_dir), name)
    with room_for(path, f"the lexicon's {name}", lambda: None), \
            FileSystems.create(path, mime_type="application/octet-stream",
                               compression_type=CompressionTypes.UNCOMPRESSED) as handle:
        yield handle


def write_lexicon_shard(out_dir: str | os.PathLike, index: int, num_shards: int, counts: PairCounts | None,
                        vocab: Vocabulary, config: LexiconConfig,
                        metadata: Mapping[str, Any] | None = None) -> LexiconShard:
    """PMI of the word pairs of one shard (``counts`` from :meth:`PairCounts.split`; None: nothing counted), written
    as ``lexicon-SSSSS-of-NNNNN.parquet``; the stats count each word pair once, in the shard of its first word."""
    counts = counts if counts is not None else PairCounts(len(vocab), config.chunk_keys)
    shard_of = vocab.shards(num_shards)
    mine = shard_of == index
    lexicon = compute_lexicon(counts, vocab, config, mine if num_shards > 1 else None)
    V = counts.size

    def owned(table: KeyCounts) -> int:
        return int(np.count_nonzero(mine[table.keys // V])) if table.keys.size else 0

    stats = {"distinct_cross_pairs": owned(counts.cross),
             "distinct_within_pairs": {s: owned(c) for s, c in counts.within.items()},
             "lexicon_rows": lexicon.num_rows}
    meta = {"lexicon_config": config.model_dump(mode="json"), "lexicon_shard": {"index": index, "of": num_shards},
            **(metadata or {})}
    with _create(out_dir, shard_file(index, num_shards)) as handle:
        pq.write_table(lexicon.replace_schema_metadata(with_metadata(LEXICON_SCHEMA, **meta).metadata), handle,
                       compression="zstd", row_group_size=1_000_000)
    return LexiconShard(index, stats, top_k_table(lexicon, config.top_k, config.min_joint, config.rank_by))


def write_lexicon_summary(out_dir: str | os.PathLike, shards: Iterable[LexiconShard], vocab: Vocabulary,
                          marginals: Marginals, config: LexiconConfig,
                          metadata: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``vocabulary.parquet`` (with each word's shard), ``top_k.tsv`` and ``stats.json`` from the written shards;
    returns the stats."""
    shards = sorted(shards, key=lambda shard: shard.index)
    stats = {**marginals.stats(), "sentences": 2 * vocab.pairs, "vocabulary": len(vocab),
             "vocabulary_excluded": vocab.excluded, "distinct_words": len(marginals.words),
             "distinct_cross_pairs": sum(s.stats["distinct_cross_pairs"] for s in shards),
             "distinct_within_pairs": {side: sum(s.stats["distinct_within_pairs"][side] for s in shards)
                                       for side in ("ref", "mt")},
             "lexicon_rows": sum(s.stats["lexicon_rows"] for s in shards), "lexicon_shards": len(shards)}
    meta = {"lexicon_config": config.model_dump(mode="json"), "lexicon_stats": stats, **(metadata or {})}
    vocabulary = pa.table({"word": vocab.words, "count_ref": vocab.ref, "count_mt": vocab.mt,
                           "shard": pa.array(vocab.shards(len(shards)), pa.int32())})
    with _create(out_dir, VOCABULARY_FILE) as handle:
        pq.write_table(vocabulary.replace_schema_metadata(with_metadata(vocabulary.schema, **meta).metadata),
                       handle, compression="zstd")
    top = pa.concat_tables([s.top for s in shards])
    lines = ["word\trank\tparaphrase\tjoint\tpmi_adj\tpmi_cross"]
    lines += [f"{u}\t{r}\t{v}\t{j}\t{a:.4f}\t{c:.4f}" for u, r, v, j, a, c in zip(
        *(top.column(n).to_pylist() for n in ("u", "rank", "v", "joint", "pmi_adj", "pmi_cross")), strict=True)]
    with _create(out_dir, TOP_K_FILE) as handle:
        handle.write(("\n".join(lines) + "\n").encode("utf-8"))
    with _create(out_dir, STATS_FILE) as handle:
        handle.write((json.dumps({"stats": stats, "lexicon_config": config.model_dump(mode="json"),
                                  **dict(metadata or {})}, indent=2, sort_keys=True, default=str) + "\n").encode())
    return stats


def write_outputs(out_dir: str | os.PathLike, counts: PairCounts, vocab: Vocabulary, marginals: Marginals,
                  config: LexiconConfig, metadata: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Write the lexicon from counts held in memory (the stand-alone build): ``lexicon.num_shards`` (default 1)
    shards of the table, ``vocabulary.parquet``, ``top_k.tsv`` and ``stats.json`` into ``out_dir`` (local or any
    Beam file system), replacing the shards of an earlier build there; returns the stats."""
    num_shards = config.num_shards or 1
    stale = FileSystems.match([FileSystems.join(str(out_dir), LEXICON_SHARD_GLOB)])[0].metadata_list
    if stale:
        FileSystems.delete([m.path for m in stale])
    parts = dict(counts.split(vocab.shards(num_shards), num_shards))
    shards = [write_lexicon_shard(out_dir, index, num_shards, parts.get(index), vocab, config, metadata)
              for index in range(num_shards)]
    return write_lexicon_summary(out_dir, shards, vocab, marginals, config, metadata)


# ------------------------------------------------------------------------------------------ reading


def lexicon_files(path: str | os.PathLike) -> list[Path]:
    """The table files of a lexicon directory in shard order (or the one file given); an error naming what is
    missing or left over."""
    path = Path(path)
    if path.is_file():
        return [path]
    files = sorted(path.glob(LEXICON_SHARD_GLOB))
    if not files:
        raise LexiconError(f"{path} holds no lexicon table ({LEXICON_SHARD_GLOB}; build it with paranmt "
                           "lexicon build, or give the table file of an older build)")
    num_shards = int(files[0].stem.rsplit("-", 1)[1])
    expected = [path / shard_file(index, num_shards) for index in range(num_shards)]
    if files != expected:
        raise LexiconError(f"{path}: the lexicon shards are not one complete set of {num_shards} (found "
                           f"{len(files)}: {', '.join(f.name for f in files[:3])}...); rebuild it into an empty folder")
    return files


def lexicon_metadata(path: str | os.PathLike) -> dict[str, Any]:
    """The ``paranmt.*`` schema metadata of a written lexicon directory (config and stats, from
    ``vocabulary.parquet``)."""
    return read_metadata(pq.read_schema(Path(path) / VOCABULARY_FILE))
