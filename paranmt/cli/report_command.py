"""``paranmt report``: corpus statistics and plots of scored pairs: ParaNMT-50M's Table 1 statistics, the Table 3
score-range breakdown and score plots (each figure's definition: pipeline/analysis/corpus_report.py, and every
report.json's ``definitions``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from paranmt.core.command_line import ArgumentParser, command
from pipeline.analysis.report_defaults import DEFAULT_MAX_PARSE


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="paranmt report", description=__doc__)
    parser.add_argument("--input", required=True, type=Path,
                        help="pairs Parquet file, folder of shards or pattern; a run folder: its pairs/")
    parser.add_argument("--out", type=Path,
                        help="output directory (required, but for a finished run folder: <run>/report, which its "
                        "dataset card then shows)")
    parser.add_argument("--name", help="corpus name in the tables (default: the input's name)")
    parser.add_argument("--max-parse", type=int, default=DEFAULT_MAX_PARSE,
                    help=f"rows parsed for parse entropy (default {DEFAULT_MAX_PARSE}; 0 disables)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the parse / row / scatter samples")
    parser.add_argument("--sample", type=int, help="report on a seeded sample of this many rows (the paper: 100K)")
    return parser


@command(build_parser, pass_parser=True)
def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``paranmt report``: print Tables 1 and 3 and write the report files."""
    from pipeline.analysis.corpus_report import build_report, read_pairs  # once the arguments parse
    from pipeline.outputs.dataset_card import report_of_run, write_dataset_card

    run = report_of_run(args.input)  # a finished run folder: its pairs/, reported into its card
    if args.out is None:
        if run is None:
            parser.error("--out is required unless --input is a finished run folder")
        args.out = run.report
    table = read_pairs(args.input, args.sample, args.seed)  # a run folder: its pairs/
    if table.num_rows == 0:  # an empty folder or empty shards: a report of nothing would look like a result
        parser.error(f"--input {args.input} holds no pairs (no Parquet rows): give a run's pairs/ or train/")
    name = args.name or (args.input.stem if args.input.suffix == ".parquet" else args.input.name)
    report = build_report(table, args.out, name=name, max_parse=args.max_parse, seed=args.seed)
    print("Table 1\n\n" + report["markdown"]["table1"] + "\n")
    for corpus_name, md in report["markdown"]["table3"].items():
        print(f"Table 3: {corpus_name}\n\n{md}\n")
    print(f"wrote {args.out / 'report.json'}, {args.out / 'report.md'} and {len(report['files']['plots'])} plots "
          f"in {args.out}")
    if run is not None and args.out.resolve() == run.report.resolve():
        print(f"wrote {write_dataset_card(str(args.input))}: the card shows the report")
    return 0
