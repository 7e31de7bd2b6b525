"""``paranmt folds``: rank pairs by a criterion into folds (Table 5)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from configs import command_config
from configs.schema import ParaNMTConfig
from paranmt.core.command_line import (
    ArgumentParser,
    ConfigFlag,
    add_config_arguments,
    add_config_flags,
    command,
)

# The flags that set config values; each one's type, help and default are its schema field's. --folds also selects
# the top two folds (select.select_folds), as the paper's rank rule does.
CONFIG_FLAGS = (
    ConfigFlag("--criterion", "select.rank_by", choices=("paraphrase_score", "trigram_overlap", "translation_score")),
    ConfigFlag("--folds", "select.folds"),
    ConfigFlag("--seed", "seed"),
)


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="paranmt folds",
        description="Split scored pairs into equal folds by a criterion (ParaNMT-50M §5.4, Table 5). Pairs "
        "failing the config's threshold rules (missing score, no known words, score ranges, length ratio) are "
        "not ranked; the token limit is not applied (sample with it per fold).")
    parser.add_argument("--input", required=True, type=Path, help="pairs Parquet file or directory")
    parser.add_argument("--out", required=True, type=Path, help="output directory for fold-JJ-of-KK.parquet")
    add_config_flags(parser, ParaNMTConfig, CONFIG_FLAGS)
    add_config_arguments(parser, "select.max_length_ratio=2")  # the select section and the seed apply
    return parser


def folds_config(path: str | None, overrides: list[str], flags: Sequence[ConfigFlag],
                 values: dict[str, Any]) -> ParaNMTConfig:
    """The config (:func:`configs.command_config`), ``--folds`` selecting the top two folds as the paper's rank rule
    does."""
    folds = values["select.folds"]
    selected = [folds - 1, folds] if folds and folds >= 2 else None
    return command_config(path, overrides, flags, {**values, "select.select_folds": selected})


@command(build_parser, config=folds_config, config_flags=CONFIG_FLAGS)
def main(args: argparse.Namespace, config: ParaNMTConfig) -> int:
    """Rank a pairs Parquet file into folds, write one Parquet file per fold, print sizes and boundaries."""

    # the work's modules load once the arguments parse: --help and a bad flag answer at once
    from configs import ConfigError
    from filters.folds import select_training_pairs, write_fold_subsets
    from paranmt.core.pair_schema import ID, Reason
    from paranmt.core.parquet_inputs import read_parquet_input
    from paranmt.core.run_layout import PAIRS

    criterion = config.select.rank_by or "paraphrase_score"
    select_config = config.select.model_copy(update={"rank_by": criterion, "max_tokens": None, "sample": None})
    config = config.model_copy(update={"select": select_config})
    table = read_parquet_input(args.input, required=(ID, criterion), run_part=PAIRS).dataset().to_table()
    result = select_training_pairs(table, select_config, config.seed)
    ranked = int((result.fold > 0).sum())
    excluded = {k: v for k, v in result.counts.items() if k not in (Reason.KEPT, Reason.NOT_IN_SELECTED_FOLDS)}
    if ranked == 0:  # ten empty folds would only look like a result
        unscored = excluded.get(Reason.MISSING_SCORE, 0) == table.num_rows
        raise ConfigError(f"no pair of {args.input} can be ranked by {criterion} (not ranked: {excluded})"
                          + ("; score them first with paranmt score, or give a scored run's pairs/" if unscored
                             else ""))
    paths = write_fold_subsets(table, result.fold, args.out, config, criterion=criterion, folds=select_config.folds)

    print(f"ranked {ranked:,} of {table.num_rows:,} pairs by {criterion} into {select_config.folds} folds "
          f"(seed {config.seed}); not ranked: {excluded or 'none'}")
    print(f"{'fold':>4} {'size':>12} {'min':>12} {'max':>12}  file")
    for b, path in zip(result.boundaries, paths, strict=True):
        low = "-" if b.min is None else f"{b.min:.6g}"
        high = "-" if b.max is None else f"{b.max:.6g}"
        print(f"{b.fold:>4} {b.size:>12,} {low:>12} {high:>12}  {path}")
    summary = {"input": str(args.input), "criterion": criterion, "folds": select_config.folds, "seed": config.seed,
               "rows": table.num_rows, "ranked": ranked, "not_ranked": excluded,
               "boundaries": [b.as_dict() for b in result.boundaries], "files": [p.name for p in paths]}
    (args.out / "folds.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 0
