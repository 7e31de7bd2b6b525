"""What ``gpu_suite.py`` writes: the machine's GPU software beside the shared machine description, and the result
JSON with no machine's absolute path in it (:func:`scrub`), written after every case."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from benchmarks.paths import REPO, SHARED
from benchmarks.result import write_json, write_result
from translate.cpu_kernel import FASTEST, import_ctranslate2
from translate.cuda_libraries import cublas_line, process_route

SUITE = Path(__file__).with_name("gpu_suite.py")


# An absolute path of two or more parts that no placeholder covered: after a letter, a dot, "~", ">" or "/" it is
# part of a relative path, a placeholder's tail or a URL, not the start of one.
ABSOLUTE_PATH = re.compile(r"(?<![\w.~>/-])(?:/[\w.@+-]+){2,}")


def placeholders(roots: dict[str, Path | str | None]) -> list[tuple[str, str]]:
    """(absolute path, placeholder) for every root given, as written and resolved, longest first."""
    pairs = {}
    for name, root in roots.items():
        if not root:
            continue
        for form in {str(root), str(Path(root).resolve())}:
            if form.startswith("/") and form != "/":
                pairs[form.rstrip("/")] = f"<{name}>"
    return sorted(pairs.items(), key=lambda pair: -len(pair[0]))


def scrub(value: Any, roots: list[tuple[str, str]]) -> Any:
    """``value`` (JSON-like) with each root replaced by its placeholder and any other absolute path by
    ``<path>/NAME`` (its last part): a result names no machine's folders, error tails included."""
    if isinstance(value, dict):
        return {key: scrub(item, roots) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(item, roots) for item in value]
    if not isinstance(value, str):
        return value
    for path, name in roots:
        value = value.replace(path, name)
    return ABSOLUTE_PATH.sub(lambda match: "<path>/" + match.group(0).rsplit("/", 1)[1], value)


def suite_roots(work: Path, bundle: Path | None) -> list[tuple[str, str]]:
    return placeholders({"work": work, "bundle": bundle, "repo": REPO, "shared": SHARED, "python": sys.prefix,
                         "python-base": sys.base_prefix, "home": os.environ.get("HOME"),
                         "tmp": tempfile.gettempdir()})


def environment(device: str) -> dict[str, Any]:
    """The GPU software beside the machine (``machine`` in every result, :func:`benchmarks.result.machine`)."""
    info: dict[str, Any] = {"torch": torch.__version__}
    if device == "cuda":
        info["gpu"] = torch.cuda.get_device_name(0)
        info["torch_cuda"] = torch.version.cuda
    ctranslate2 = import_ctranslate2(FASTEST)  # the CPU kernel the suite translates with (the default)
    info["ctranslate2"] = ctranslate2.__version__
    try:
        info["fairseq"] = __import__("fairseq").__version__
    except Exception as error:
        info["fairseq"] = f"unavailable: {error}"
    with contextlib.suppress(Exception):
        info["ctranslate2_cuda_devices"] = ctranslate2.get_cuda_device_count()
    if shutil.which("nvidia-smi"):
        query = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                               capture_output=True, text=True)
        info["nvidia_smi"] = query.stdout.strip()
    if device == "cuda":  # which cuBLAS CTranslate2 opens, and how (translate.cuda_libraries), or why it has none
        info["ctranslate2_cublas"] = cublas_line(process_route())[1]
    return info


def write_report(path: Path, result: dict[str, Any], roots: list[tuple[str, str]], argv: list[str]) -> None:
    """The suite's ``result`` after its command and machine (:func:`benchmarks.result.write_result`), the
    translations without their hypotheses, scrubbed."""
    record = json.loads(json.dumps(write_result(None, result, str(SUITE), argv), default=lambda o: asdict(o)))
    for case in record.get("translation", []):
        case.pop("hypotheses", None)
    write_json(path, scrub(record, roots))
