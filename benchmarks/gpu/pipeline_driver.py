"""One pipeline run in a process of its own, as the GPU benchmarks time it (``gpu_suite.py``, ``gpu_standin.py``).

:data:`DRIVER` runs ``pipeline.job.run_job`` on one pair of files and prints its summary as one ``SUMMARY {json}``
line, then leaves as the commands do (``paranmt.core.command_line.exit_process``): without the interpreter's
teardown, where a native library's thread pool can abort a finished run (docs/scaling.md, "GPU workers").
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow.parquet as pq

DRIVER = """
import json, sys
from configs import load_config
from paranmt.core.command_line import exit_process
from pipeline.inputs.plan import InputSpec
from pipeline.job import run_job
a = json.loads(sys.argv[1])
summary = run_job(load_config(None, a["sets"]), [InputSpec.pair(a["cs"], a["en"])], a["out"], a["beam_args"])
keep = ("read", "pairs", "train", "rejected", "rejected_by_reason", "deadletter", "wall_seconds", "stage_seconds",
        "step_seconds", "translation_seconds", "translation_window", "translated_rows", "metrics", "runner")
print("SUMMARY " + json.dumps({k: summary.get(k) for k in keep}))
exit_process(0)
"""


def shards_digest(folder: Path) -> str:
    """A digest of the rows of a folder's shards (not of the files, whose metadata names the code version)."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.parquet")):
        digest.update(json.dumps(pq.read_table(path).to_pydict(), default=str).encode())
    return digest.hexdigest()[:16]
