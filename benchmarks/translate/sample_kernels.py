"""The bundled sample's corpus under each ``translate.cpu_kernel`` on this machine: what the README's sample block
shows (the counts by decision, the first five pairs of ``train/``) and a digest of the rows of ``pairs/`` and
``train/`` (:func:`benchmarks.gpu.pipeline_driver.shards_digest`), added to a results file that keeps one entry per
CPU (vendor, model, ISA) and kernel.

Each kernel runs ``paranmt run --config sample`` in a process of its own (CTranslate2 reads its kernel once per
process). tests/translate/test_sample_kernels.py runs the portable kernel again and compares with this file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from benchmarks.gpu.pipeline_driver import shards_digest
from benchmarks.paths import REPO, code_commit
from benchmarks.result import argument_parser, command, write_json
from translate.cpu_kernel import FASTEST, PORTABLE, cpu_info, translation_kernel

SAMPLE = REPO / "configs" / "sample"


def sample_corpus(kernel: str, out: Path) -> dict[str, Any]:
    """Run the sample with ``kernel`` into ``out``: :func:`corpus_record` of its folder."""
    subprocess.run([sys.executable, "-m", "paranmt", "run", "--config", "sample", "--cs", str(SAMPLE / "sample.cs"),
                    "--en", str(SAMPLE / "sample.en"), "--out", str(out), "--set", f"translate.cpu_kernel={kernel}"],
                   check=True, cwd=REPO, capture_output=True)
    return corpus_record(out)


def corpus_record(out: Path) -> dict[str, Any]:
    """A sample run folder's counts by decision, first five train pairs and digests."""
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    train = sorted(pq.read_table(out / "train", columns=["id", "en", "mt"]).to_pylist(), key=lambda row: row["id"])
    return {"pairs_by_decision": summary["pairs_by_decision"], "train": summary["train"],
            "first_train_pairs": [{"en": row["en"], "mt": row["mt"]} for row in train[:5]],
            "pairs_digest": shards_digest(out / "pairs"), "train_digest": shards_digest(out / "train")}


def machine_key() -> dict[str, str]:
    """The CPU a result was measured on: what the fastest kernel depends on."""
    cpu = cpu_info()
    return {"vendor": cpu.vendor, "cpu": cpu.model, "isa": cpu.best_isa()}


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, required=True)
    args = parser.parse_args(argv)
    record = json.loads(args.json.read_text(encoding="utf-8")) if args.json.exists() else {"runs": []}
    machine = machine_key()
    with tempfile.TemporaryDirectory() as scratch:
        for kernel in (FASTEST, PORTABLE):
            result = sample_corpus(kernel, Path(scratch) / kernel)
            entry = {"machine": machine, "cpu_kernel": kernel,
                     "kernel": translation_kernel(kernel, "cpu", "ctranslate2", "auto"), **result,
                     "command": command(__file__, argv),
                     "code": code_commit(REPO)}
            record["runs"] = [r for r in record["runs"] if (r["machine"], r["cpu_kernel"]) != (machine, kernel)]
            record["runs"].append(entry)
            print(f"{machine['vendor']} {machine['isa']} {kernel}: {result['pairs_by_decision']} "
                  f"pairs {result['pairs_digest']} train {result['train_digest']}", flush=True)
    write_json(args.json, record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
