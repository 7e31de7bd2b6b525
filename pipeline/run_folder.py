"""One rule for every run folder: what makes two runs the same run (``<out>/_RUN``), resume or refuse, and the
code version written into outputs' metadata."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from pipeline.input_files import InputError
from pipeline.input_plan import InputSpec
from pipeline.write import OUTPUTS, write_marker


def code_version() -> str:
    """``<package version>+g<commit>`` (``PARANMT_CODE_VERSION`` overrides, e.g. in a container image)."""
    if os.environ.get("PARANMT_CODE_VERSION"):
        return os.environ["PARANMT_CODE_VERSION"]
    try:
        from importlib.metadata import version

        base = version("paranmt")
    except Exception:
        base = "unknown"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=Path(__file__).resolve().parent,
                                capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        return f"{base}+g{commit}" if commit else base
    except Exception:
        return base


RUN_FILE = "_RUN"


# Settings that change how a run executes, not what it writes: a rerun may change them and still be the same run.
_EXECUTION_ONLY = {("pipeline", "runner"), ("pipeline", "beam_options"), ("pipeline", "cache_dir"),
                   ("translate", "threads"), ("translate", "device_index")}


def run_identity(config: Any, specs: Sequence[InputSpec]) -> dict[str, Any]:
    """What makes two runs the same run: the inputs and every setting that can change the outputs."""
    settings = config.model_dump(mode="json")
    for section, key in _EXECUTION_ONLY:
        settings.get(section, {}).pop(key, None)
    return {"inputs": [s.to_dict() for s in specs], "config": settings}


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        return {k: v for key, item in value.items() for k, v in _flat(item, f"{prefix}{key}.").items()}
    return {prefix.rstrip("."): value}


def claim_output(output: str, identity: dict[str, Any], *, overwrite: bool) -> None:
    """One rule for every run folder: a folder that holds this run (same inputs and settings) is resumed — finished
    translations are reused and the outputs rewritten identically —, one that holds a different run is refused
    unless ``overwrite`` (its outputs are then deleted; the content-addressed translation cache is kept). The
    identity is written to ``<output>/_RUN`` before any work."""
    path = FileSystems.join(output, RUN_FILE)
    if FileSystems.exists(path):
        with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as handle:
            stored = json.loads(handle.read().decode("utf-8"))
        if stored != identity:
            if not overwrite:
                before, after = _flat(stored), _flat(identity)
                changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
                shown = ", ".join(f"{k} {before.get(k)!r} -> {after.get(k)!r}" for k in changed[:3])
                more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
                raise InputError(f"{output} holds a different run ({shown}{more}): pass --overwrite to replace it, "
                                 "or choose another --out")
            stale = [FileSystems.join(output, name) for name in (*OUTPUTS, LEXICON_DIR, "scorer", "summary.json",
                                                                 "_SUCCESS")]
            FileSystems.delete([p for p in stale if FileSystems.exists(p)])
    write_marker(output, RUN_FILE, json.dumps(identity, indent=1, sort_keys=True))  # FileSystems makes the folder


LEXICON_DIR = "lexicon"
