"""``paranmt lexicon``: the PMI paraphrase lexicon."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from configs import command_config
from paranmt.core.command_line import ArgumentParser, add_config_arguments, command
from pipeline.analysis import lexicon as lexicon_package


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="paranmt lexicon",
                            description=(lexicon_package.__doc__ or "").split("\n\n")[0],
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="count and write a lexicon from Parquet pair shards")
    b.add_argument("--input", action="append", required=True, help="Parquet file, directory of shards or glob")
    b.add_argument("--out", required=True, help="output directory")
    b.add_argument("--quiet", action="store_true", help="no progress bars")
    add_config_arguments(b, "lexicon.min_score=0.5")
    n = sub.add_parser("neighbours", help="the best paraphrases of words")
    n.add_argument("--lexicon", required=True, help="a lexicon directory (or one table file)")
    n.add_argument("words", nargs="+")
    n.add_argument("-k", type=int, default=20)
    n.add_argument("--min-joint", type=int, default=10)
    n.add_argument("--by", choices=["pmi_adj", "pmi_cross"], default="pmi_adj")
    e = sub.add_parser("evaluate", help="Spearman's rho against word-similarity sets")
    e.add_argument("--lexicon", required=True)
    e.add_argument("--wordsim", action="append", required=True, help="word1 word2 score file (repeatable)")
    e.add_argument("--min-joint", type=int, default=1, help="pairs seen fewer times count as unseen")
    e.add_argument("--json", help="also write the results as JSON")
    return parser


@command(build_parser)
def main(args: argparse.Namespace) -> int:
    # the work's modules (Beam's file systems) load once the arguments parse: --help and a bad flag answer at once
    from pipeline.analysis.lexicon.counting import LexiconError, build_from_parquet
    from pipeline.analysis.lexicon.evaluation import evaluate_wordsim, format_results
    from pipeline.analysis.lexicon.query import neighbours
    from pipeline.analysis.lexicon.shards import (
        LEXICON_SHARD_GLOB,
        STATS_FILE,
        TOP_K_FILE,
        VOCABULARY_FILE,
        write_outputs,
    )

    if args.command == "build":
        config = command_config(args.config, args.overrides, (), {})
        started = time.perf_counter()
        counts, vocab, marginals = build_from_parquet(args.input, config.lexicon, progress=not args.quiet)
        if marginals.used == 0:
            stats = marginals.stats()
            hint = ("; no pair has a paraphrase_score (the pairs/ of a --no-score run?): give a scored run's "
                    "pairs/, or --set lexicon.min_score=null" if stats["skipped"].get("missing_score") == stats["read"]
                    else "")
            raise LexiconError(f"no pair passed the lexicon filter of {', '.join(map(str, args.input))}: "
                               f"{json.dumps(stats)}{hint}")
        stats = write_outputs(args.out, counts, vocab, marginals, config.lexicon,
                              {"inputs": [str(i) for i in args.input], "seed": config.seed})
        elapsed = time.perf_counter() - started
        skipped = ", ".join(f"{r} {n}" for r, n in stats["skipped"].items() if n) or "none"
        print(f"read {stats['read']} pairs: used {stats['used']}, skipped {skipped}")
        print(f"vocabulary {stats['vocabulary']} words (of {stats['distinct_words']}); "
              f"{stats['distinct_cross_pairs']} cross-sentence word pairs; {stats['lexicon_rows']} lexicon rows")
        print(f"{stats['read'] / elapsed:.0f} pairs/s ({elapsed:.1f}s); wrote {args.out}/"
              f"{{{LEXICON_SHARD_GLOB} ({stats['lexicon_shards']}),{VOCABULARY_FILE},{TOP_K_FILE},{STATS_FILE}}}")
    elif args.command == "neighbours":
        for word in args.words:
            table = neighbours(args.lexicon, word, args.k, args.min_joint, args.by)
            shown = ", ".join(f"{v} ({s:.2f}, {j})" for v, s, j in zip(
                table.column("v").to_pylist(), table.column(args.by).to_pylist(),
                table.column("joint").to_pylist(), strict=True))
            print(f"{word}\t{shown or '-'}")
    else:
        results = []
        for path in args.wordsim:
            results += evaluate_wordsim(args.lexicon, path, min_joint=args.min_joint)
        print(format_results(results))
        if args.json:
            Path(args.json).write_text(json.dumps([r.as_dict() for r in results], indent=2) + "\n")
    return 0
