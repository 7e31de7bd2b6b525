"""The ``pipeline`` section of the configuration, its loader, and how Beam options are assembled.

:class:`PipelineConfig` is a pydantic section in the style of :mod:`configs.schema` (unknown keys are errors that
name the key); it is the ``pipeline`` section of :class:`configs.schema.ParaNMTConfig`, so ``--set
pipeline.num_shards=8`` and a ``pipeline:`` section in a YAML file both work.

Precedence, lowest first:

1. built-in defaults (this module, :mod:`configs.schema`);
2. the YAML file (``--config NAME_OR_PATH``);
3. ``--set section.key=value`` overrides;
4. dedicated flags (``--num-shards``, ``--beam``, ``--limit``, ...);
5. Beam options on the command line (``--runner``, ``--direct_num_workers``, ...), which also override
   ``pipeline.runner`` and ``pipeline.beam_options``.

This module imports nothing from :mod:`configs` at import time, so :mod:`configs.schema` can import
:class:`PipelineConfig` without a cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# The local runner used unless something else is named: Beam 2.77's default (DirectRunner) first tries to
# download the Prism runner. FnApiRunner is the portable in-process runner; it also runs multi-process with
# --direct_running_mode=multi_processing --direct_num_workers=N.
DEFAULT_RUNNER = "FnApiRunner"

BeamValue = str | int | float | bool | list[str]


class PipelineConfig(BaseModel):
    """The corpus pipeline (``pipeline/``): reading, pre-filtering, output layout and runner."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    # Runner and Beam options (command-line Beam options override both).
    runner: str = Field(default=DEFAULT_RUNNER, description="Beam runner when --runner is not given.")
    beam_options: dict[str, BeamValue] = Field(
        default_factory=dict,
        description="Extra Beam pipeline options, e.g. {direct_num_workers: 2, project: my-project}; "
        "the same options on the command line win.",
    )
    score: bool = Field(
        default=True,
        description="Score and select (stage 6: filters/ scores, the filter section's rules and rank rule, train/). "
        "false: pairs/ without scores or decisions (e.g. to score later with python -m filters.scores).",
    )
    # Reading and splitting.
    chunk_lines: int = Field(default=100_000, ge=1, description="Most lines per read task for pair files.")
    split_bytes: int = Field(default=64 << 20, ge=1 << 10, description="Most bytes per TSV/JSONL read task.")
    min_splits: int = Field(
        default=16, ge=1,
        description="Split inputs into at least this many read tasks when large enough (pair files: tasks of "
        "at least index_every lines; TSV/JSONL: of at least 64 KiB), so small inputs still spread over workers.",
    )
    index_every: int = Field(
        default=1000, ge=1,
        description="Pair files: the counting pre-pass records a byte offset every this many lines; read "
        "tasks start on these offsets (chunk sizes are rounded to a multiple of it).",
    )
    allow_misaligned: bool = Field(
        default=False,
        description="Pair files of different lengths: dead-letter the unmatched tail (reason misaligned) "
        "instead of stopping with an error before any work.",
    )
    max_line_bytes: int = Field(
        default=10_000, ge=16,
        description="A raw line (or field) longer than this is a dead letter (unparseable): it is not a "
        "sentence, and it is never decoded or tokenised.",
    )
    deadletter_raw_bytes: int = Field(default=4096, ge=0, description="Raw bytes kept per dead letter.")
    tsv_header: bool = Field(default=False, description="TSV inputs start with a header line (skipped).")
    # Pre-filter (stage 3).
    max_source_tokens: int | None = Field(
        default=None, ge=1,
        description="Most Moses tokens on the Czech side; None: translate.max_source_tokens (subword tokens "
        "are never fewer than Moses tokens, so longer inputs could not be decoded anyway).",
    )
    max_length_ratio: float | None = Field(
        default=3.0, gt=1, description="Longer side / shorter side in Moses tokens; None: no ratio check."
    )
    length_ratio_min_tokens: int = Field(
        default=6, ge=1, description="The ratio check applies only when the longer side has this many tokens."
    )
    min_alnum_ratio: float = Field(
        default=0.3, ge=0, le=1,
        description="Garbage: fewer letters and digits than this fraction of the non-space characters.",
    )
    dedup: bool = Field(default=True, description="Reject exact duplicates of the normalised pair.")
    # Back-translation (stage 4).
    mt_model_id: str = Field(
        default="external", min_length=1,
        description="nmt_model_id written for translations given in an MT column.",
    )
    translation_cache: bool = Field(
        default=True, description="Cache each translated chunk at once, so a rerun (after a kill) skips finished "
        "work.")
    cache_dir: str | None = Field(default=None, description="Translation cache root; None: <output>/cache.")
    cache_chunk_lines: int = Field(
        default=500, ge=1,
        description="Chunk size (input lines or rows) for sources addressed by line or row number. A chunk is "
        "translated in one call and cached at once: a kill loses at most the chunks being translated.")
    cache_chunk_bytes: int = Field(
        default=64 << 10, ge=1 << 10, description="Chunk size for sources addressed by byte offset (TSV, JSONL).")
    # Output (stages 6-7).
    num_shards: int = Field(default=4, ge=1, le=100_000, description="Shards of pairs/, train/ and rejected/.")
    deadletter_shards: int = Field(default=1, ge=1, le=100_000)
    row_group_rows: int = Field(default=100_000, ge=1, description="Most rows per Parquet row group.")
    compression: Literal["zstd", "snappy", "gzip", "brotli", "lz4", "none"] = "zstd"
    compression_level: int | None = Field(default=None, description="None: the codec's default.")
    limit: int | None = Field(default=None, ge=1, description="Only the first N input rows (quick looks).")

    @model_validator(mode="after")
    def _cache_dir_not_blank(self) -> PipelineConfig:
        if self.cache_dir is not None and not self.cache_dir.strip():
            raise ValueError("cache_dir is blank; use null for <output>/cache")
        return self


def _flag_names(args: Sequence[str]) -> set[str]:
    names = set()
    for arg in args:
        if arg.startswith("--"):
            names.add(arg[2:].split("=", 1)[0].replace("-", "_"))
    return names


def beam_argv(config: PipelineConfig, cli_beam_args: Sequence[str]) -> list[str]:
    """The Beam argument list: ``pipeline.runner`` and ``pipeline.beam_options`` first, then the command line's
    own Beam options, which win (a command-line option replaces the config's option of the same name)."""
    given = _flag_names(cli_beam_args)
    argv: list[str] = []
    if "runner" not in given:
        argv.append(f"--runner={config.runner}")
    for name, value in sorted(config.beam_options.items()):
        if name.replace("-", "_") in given:
            continue
        if isinstance(value, bool):
            if value:
                argv.append(f"--{name}")
        elif isinstance(value, list):
            argv.extend(f"--{name}={item}" for item in value)
        else:
            argv.append(f"--{name}={value}")
    return [*argv, *cli_beam_args]
