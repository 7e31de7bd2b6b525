"""``paranmt report``: corpus statistics and plots."""

from __future__ import annotations

import argparse
from pathlib import Path

from paranmt.core.command_line import ArgumentParser, command, module_doc, module_literal

DEFAULT_MAX_PARSE = module_literal("pipeline.analysis.corpus_report:DEFAULT_MAX_PARSE")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="paranmt report",
                            description=module_doc("pipeline.analysis.corpus_report").splitlines()[0])
    parser.add_argument("--input", required=True, type=Path, help="pairs Parquet file or directory of shards")
    parser.add_argument("--out", required=True, type=Path, help="output directory")
    parser.add_argument("--name", help="corpus name in the tables (default: the input's name)")
    parser.add_argument("--max-parse", type=int, default=DEFAULT_MAX_PARSE,
                    help=f"rows parsed for parse entropy (default {DEFAULT_MAX_PARSE}; 0 disables)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the parse / row / scatter samples")
    parser.add_argument("--sample", type=int, help="report on a seeded sample of this many rows (the paper: 100K)")
    return parser


@command(build_parser, pass_parser=True)
def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``paranmt report``: print Tables 1 and 3 and write the report files."""
    if not args.input.exists():
        parser.error(f"--input {args.input} does not exist")
    from pipeline.analysis.corpus_report import build_report, read_pairs  # once the arguments parse

    table = read_pairs(args.input, args.sample, args.seed)
    if table.num_rows == 0:  # an empty folder or empty shards: a report of nothing would look like a result
        parser.error(f"--input {args.input} holds no pairs (no Parquet rows): give a run's pairs/ or train/")
    name = args.name or (args.input.stem if args.input.is_file() else args.input.name)
    report = build_report(table, args.out, name=name, max_parse=args.max_parse, seed=args.seed)
    print("Table 1\n\n" + report["markdown"]["table1"] + "\n")
    for corpus_name, md in report["markdown"]["table3"].items():
        print(f"Table 3: {corpus_name}\n\n{md}\n")
    print(f"wrote {args.out / 'report.json'}, {args.out / 'report.md'} and {len(report['files']['plots'])} plots "
          f"in {args.out}")
    return 0
