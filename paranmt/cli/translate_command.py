"""``paranmt translate``: back-translate a text file with a model directory.

Stand-alone translator: ``paranmt translate --model DIR --input cs.txt --out en.tsv``.

Reads raw source sentences (one per line, UTF-8, plain or .gz) in chunks, decodes each chunk with token-bucketed
beam search, and writes a TSV with one row per input line (``nbest`` rows with ``--nbest``), in input order:

    line  rank  status  score  hypothesis  source_tokens  target_tokens  hit_length_cap  error

Lines that are not valid UTF-8 are reported with status ``invalid_utf8`` instead of stopping the run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
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
from pipeline.run import TRANSLATE_FLAGS

# The flags that set config values: run's back-translation flags and the hypotheses kept per sentence.
CONFIG_FLAGS = (*TRANSLATE_FLAGS, ConfigFlag("--nbest", "translate.nbest"))


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="paranmt translate", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--input", required=True, type=Path, help="source sentences, one per line (.gz ok)")
    p.add_argument("--out", required=True, type=Path, help="TSV to write (.gz ok)")
    add_config_arguments(p, "translate.max_source_tokens=150")
    add_config_flags(p, ParaNMTConfig, CONFIG_FLAGS)
    p.add_argument("--chunk-size", type=int, default=20000, help="lines read and sorted together")
    p.add_argument("--summary", type=Path, help="also write the run summary as JSON here")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


@command(build_parser, config=command_config, config_flags=CONFIG_FLAGS)
def main(args: argparse.Namespace, config: ParaNMTConfig) -> int:
    # the work's modules (CTranslate2, sacremoses) load once the arguments parse: --help and a bad flag answer at once
    from tqdm import tqdm

    from configs import ConfigError
    from configs.out_paths import out_file_problem
    from translate.file_translator import (
        COLUMNS,
        INVALID_UTF8,
        count_lines,
        format_rows,
        open_text_file,
        read_chunks,
    )
    from translate.loading import load_translator

    if args.input.is_dir():
        raise ConfigError(f"--input {args.input} is a folder: give a text file, one sentence per line")
    if not args.input.is_file():
        raise ConfigError(f"--input {args.input} does not exist")
    for flag, path in (("--out", args.out), ("--summary", args.summary)):
        problem = out_file_problem(flag, path) if path is not None else None
        if problem:
            raise ConfigError(problem)
    if args.chunk_size < 1:
        raise ConfigError(f"--chunk-size must be positive (got {args.chunk_size})")

    translator = load_translator(config.translate)

    started = time.perf_counter()
    invalid = 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # disable None: tqdm's, off where stderr is not a terminal (no carriage-return bars in a log)
    with open_text_file(args.out, "wt") as out, tqdm(total=count_lines(args.input), unit="sent",
                                                     disable=args.quiet or None,
                                                     desc=f"translate ({translator.backend.name}, "
                                                          f"{translator.backend.device})") as bar:
        out.write("\t".join(COLUMNS) + "\n")
        for chunk in read_chunks(args.input, args.chunk_size):
            valid = [(n, text) for n, text, _ in chunk if text is not None]
            translations = iter(translator.translate([text for _, text in valid], progress=bar.update))
            for number, text, error in chunk:
                if text is None:
                    invalid += 1
                    bar.update(1)
                    out.write("\t".join([str(number), "1", INVALID_UTF8, "", "", "0", "0", "false", error or ""])
                              + "\n")
                else:
                    out.write("\n".join(format_rows(number, next(translations))) + "\n")
    stats = translator.stats
    summary = {
        **translator.describe(),
        "input": str(args.input), "output": str(args.out),
        "lines": stats.sentences + invalid, "ok": stats.ok, "empty": stats.empty, "too_long": stats.too_long,
        "failed": stats.failed, "invalid_utf8": invalid, "hit_length_cap": stats.hit_length_cap,
        "oom_splits": stats.oom_splits, "decode_seconds": round(stats.seconds, 3),
        "wall_seconds": round(time.perf_counter() - started, 3),
        "sentences_per_second": round(stats.sentences / stats.seconds, 2) if stats.seconds else None,
        "target_tokens_per_second": round(stats.target_tokens / stats.seconds, 1) if stats.seconds else None,
        "config": config.model_dump(mode="json"),
    }
    if args.summary:
        args.summary.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"{stats.summary()}; invalid UTF-8 {invalid}", file=sys.stderr)
    print(f"wrote {args.out}" + (f" and {args.summary}" if args.summary else ""), file=sys.stderr)
    return 0
