"""Stand-alone translator: ``python -m translate --model DIR --input cs.txt --out en.tsv``.

Reads raw source sentences (one per line, UTF-8, plain or .gz) in chunks, decodes each chunk with token-bucketed
beam search, and writes a TSV with one row per input line (``nbest`` rows with ``--nbest``), in input order:

    line  rank  status  score  hypothesis  source_tokens  target_tokens  hit_length_cap  error

Lines that are not valid UTF-8 are reported with status ``invalid_utf8`` instead of stopping the run.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from tqdm import tqdm

from configs import ConfigError, add_config_arguments, load_config
from configs.command_line import ArgumentParser, command_name, config_flags, out_file_problem, run_main
from core.chunking import in_lists
from translate.card import ModelDirError
from translate.ct2_backend import BackendUnavailable
from translate.loading import load_translator
from translate.translator import Translation

COLUMNS = ["line", "rank", "status", "score", "hypothesis", "source_tokens", "target_tokens", "hit_length_cap",
           "error"]
INVALID_UTF8 = "invalid_utf8"


def _open(path: Path, mode: str) -> IO:
    return gzip.open(path, mode) if path.suffix == ".gz" else path.open(mode)


def _clean(text: str) -> str:
    return text.replace("\t", " ").replace("\n", " ").replace("\r", " ")


def _decoded_line(number: int, raw: bytes) -> tuple[int, str | None, str | None]:
    try:
        return number, raw.rstrip(b"\r\n").decode("utf-8"), None
    except UnicodeDecodeError as error:
        return number, None, f"invalid UTF-8: {error.reason} at byte {error.start}"


def read_chunks(path: Path, chunk_size: int) -> Iterator[list[tuple[int, str | None, str | None]]]:
    """(line number, text or None, decode error or None) in chunks; bytes are decoded per line."""
    with _open(path, "rb") as handle:
        yield from in_lists((_decoded_line(number, raw) for number, raw in enumerate(handle, start=1)), chunk_size)


def format_rows(line: int, translation: Translation) -> list[str]:
    base = [translation.status.value]
    hyps = translation.nbest or ()
    if not hyps:
        return ["\t".join([str(line), "1", *base, "", "", str(translation.source_tokens), "0", "false",
                           _clean(translation.error or "")])]
    return ["\t".join([str(line), str(rank), *base, f"{h.score:.6f}", _clean(h.text), str(translation.source_tokens),
                       str(len(h.tokens)), str(rank == 1 and translation.hit_length_cap).lower(), ""])
            for rank, h in enumerate(hyps, start=1)]


def count_lines(path: Path) -> int | None:
    if path.suffix == ".gz":
        return None
    with path.open("rb") as handle:
        return sum(block.count(b"\n") for block in iter(lambda: handle.read(1 << 20), b""))


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog=command_name("python -m translate"), description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--input", required=True, type=Path, help="source sentences, one per line (.gz ok)")
    p.add_renamed("--out", "--output", required=True, type=Path, help="TSV to write (.gz ok)")
    add_config_arguments(p, "translate.max_source_tokens=150")
    p.add_argument("--model", type=Path, help="model directory (default: the bundled small-cs-en model)")
    p.add_argument("--backend", choices=["auto", "ctranslate2", "fairseq"])
    p.add_argument("--device", choices=["auto", "cpu", "cuda"])
    p.add_argument("--compute-type", help="auto, int8, int8_float32, float16, bfloat16, float32")
    p.add_argument("--beam", type=int, help="beam size (default 12)")
    p.add_argument("--nbest", type=int, help="hypotheses written per sentence (default 1)")
    p.add_argument("--max-batch-tokens", type=int)
    p.add_argument("--max-source-tokens", type=int)
    p.add_argument("--threads", type=int, help="CPU threads (default: all cores)")
    p.add_argument("--chunk-size", type=int, default=20000, help="lines read and sorted together")
    p.add_argument("--summary", type=Path, help="also write the run summary as JSON here")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", force=True)
    try:
        values = {
            "translate.model": str(args.model.resolve()) if args.model else None,
            "translate.backend": args.backend, "translate.device": args.device,
            "translate.compute_type": args.compute_type, "translate.beam_size": args.beam,
            "translate.nbest": args.nbest, "translate.max_batch_tokens": args.max_batch_tokens,
            "translate.max_source_tokens": args.max_source_tokens, "translate.threads": args.threads,
        }
        config = load_config(args.config, args.overrides, values,
                             flags=config_flags(parser, values, {"translate.beam_size": "--beam"}))
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
    except (ConfigError, ModelDirError, BackendUnavailable) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    started = time.perf_counter()
    invalid = 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with _open(args.out, "wt") as out, tqdm(total=count_lines(args.input), unit="sent", disable=args.quiet,
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


if __name__ == "__main__":
    sys.exit(run_main(main))
