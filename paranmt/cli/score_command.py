"""Trigram overlap and PARAGRAM-PHRASE paraphrase score of Parquet pairs (ParaNMT-50M §3, §5.4).

    paranmt score --input pairs.parquet|runs/x/pairs --out scored.parquet \\
        [--scorer fitted.npz | --embeddings VECTORS [--embeddings-format F] [--word-frequencies FREQ]] \\
        [--save-scorer fitted.npz] [--config NAME_OR_PATH] [--set score.sif_a=1e-4] [--batch-rows 65536]

Adds (or overwrites) trigram_overlap, paraphrase_score, no_known_words and scorer_id; every other column, the
translation score included, is carried unchanged. Without --scorer the scorer is fitted first on the input's
first score.fit_sample English sentences by id, as a run fits its own (a run's pairs/ with its rejected/, so
its paraphrase_score comes out the same);
--save-scorer keeps it so later runs and other workers score identically. The output's schema metadata records the
scorer id and parameters.
"""

from __future__ import annotations

import argparse
import posixpath
import sys
from pathlib import Path

from configs import command_config
from configs.schema import ParaNMTConfig
from paranmt.core.command_line import (
    ArgumentParser,
    ConfigFlag,
    add_config_arguments,
    add_config_flags,
    command,
)


def _path_or_url(value: str) -> Path | str:
    """``--scorer``: a local file, or a ``gs://`` / ``s3://`` URL as given."""
    return value if "://" in value else Path(value).expanduser()


# The flags that set config values; each one's type, help and default are its schema field's.
CONFIG_FLAGS = (
    ConfigFlag("--embeddings", "score.embeddings"),
    ConfigFlag("--embeddings-format", "score.embeddings_format"),
    ConfigFlag("--word-frequencies", "score.word_frequencies"),
    ConfigFlag("--scorer", "score.scorer", type=_path_or_url),
)


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="paranmt score", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--input", required=True,
                   help="pairs Parquet file, folder of shards or pattern (id, en_tokens, mt_tokens, ...), local or a "
                   "gs:// / s3:// URL; a run folder: its pairs/")
    p.add_argument("--out", required=True, type=Path, help="Parquet file to write")
    add_config_arguments(p, "score.sif_a=1e-4")  # the config's score section applies
    add_config_flags(p, ParaNMTConfig, CONFIG_FLAGS)
    p.add_argument("--save-scorer", type=Path, help="write the (fitted) scorer here")
    p.add_argument("--batch-rows", type=int, default=65536, help="rows scored together (default %(default)s)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


@command(build_parser, config=command_config, config_flags=CONFIG_FLAGS)
def main(args: argparse.Namespace, run_config: ParaNMTConfig) -> int:
    # the work's modules load once the arguments parse: --help and a bad flag answer at once
    from tqdm import tqdm

    from configs import ConfigError
    from configs.out_paths import out_file_problem
    from filters.paragram import ParagramScorer
    from filters.scores import fit_sample_from_parquet, score_parquet
    from paranmt.core.pair_schema import EN, EN_TOKENS, ID, MT_TOKENS
    from paranmt.core.parquet_inputs import read_parquet_input
    from paranmt.core.run_layout import PAIRS, REJECTED

    config = run_config.score
    problem = out_file_problem("--out", args.out)
    if problem:
        raise ConfigError(problem)
    fitting = config.scorer is None  # the fit sample is drawn by id
    pairs = read_parquet_input(args.input, required=(EN_TOKENS, MT_TOKENS, *((ID,) if fitting else ())),
                               run_part=PAIRS)
    out = args.out.resolve()
    folders = {Path(f).parent for f in pairs.files} if Path(args.input).is_dir() else set()  # a folder of shards
    if str(out) in pairs.files or any(folder in out.parents for folder in folders):
        raise ConfigError("--out must differ from --input (and lie outside an --input directory)")
    if args.batch_rows < 1:
        raise ConfigError(f"--batch-rows must be positive (got {args.batch_rows})")
    if config.scorer is not None:
        ignored = [item.flag for item in CONFIG_FLAGS if item.key != "score.scorer" and getattr(args, item.key)]
        if ignored:
            print(f"note: {', '.join(ignored)} ignored: the saved scorer {config.scorer} is used as fitted",
                  file=sys.stderr)
        scorer = ParagramScorer.load(config.scorer)
    else:
        rejected = None
        if pairs.run_folder is not None:  # fit on every row the run read, as it did
            rejected = read_parquet_input(pairs.prefix + posixpath.join(pairs.run_folder, REJECTED),
                                          required=(ID, EN), what="the run's")
            print(f"fitting the scorer as the run {pairs.prefix + pairs.run_folder} did: on its {PAIRS}/ and "
                  f"{REJECTED}/", file=sys.stderr)
        sample = fit_sample_from_parquet(pairs, config.fit_sample, rejected=rejected, batch_rows=args.batch_rows)
        scorer = ParagramScorer.from_config(config, sample)
        print(f"fitted {scorer} on {scorer.params['fit_sentences']:,} sentences", file=sys.stderr)
    if args.save_scorer:
        print(f"saved scorer to {scorer.save(args.save_scorer)}", file=sys.stderr)

    # disable None: tqdm's, off where stderr is not a terminal (no carriage-return bars in a log)
    with tqdm(total=pairs.num_rows, unit="pairs", disable=args.quiet or None,
              desc=f"score ({scorer.scorer_id})") as bar:
        done = score_parquet(pairs, args.out, scorer, batch_rows=args.batch_rows, progress=bar.update)
    print(f"scored {done.pairs:,} pairs in {done.seconds:.1f} s ({done.pairs / max(done.seconds, 1e-9):,.0f} "
          f"pairs/s); no_known_words {done.no_known_words:,}; mean trigram_overlap {done.mean_trigram_overlap:.3f}; "
          f"mean paraphrase_score {done.mean_paraphrase_score:.3f}; scorer {scorer.scorer_id}", file=sys.stderr)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0
