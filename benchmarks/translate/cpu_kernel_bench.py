"""CPU cost of each ``translate.cpu_kernel`` on real news sentences: the vendor's fastest kernel against the portable
pin (and candidate pins), CPU seconds, interleaved rounds.

CTranslate2 reads its kernel settings once per process, so each case runs in a process of its own, one after the
other, round after round (A B C A B C ...: a shared machine's drifts hit every case alike): the bundled model
(translate/models/small-cs-en) at beam 12 on the first ``--sentences`` Czech lines of newstest2015
(../shared/data/bitext), after a 32-sentence warm-up. Reported per case: the CPU seconds of the translation
(user + system, every thread of the process), the wall seconds, and the digest of the hypotheses; per round, each
case's CPU time over ``fastest``'s; and how many hypotheses differ from ``fastest``'s and from ``portable``'s.
Cases: the two settings, and ``mkl_cbwr_avx2`` (MKL kept, its conditional-numerical-reproducibility mode at AVX2:
``MKL_CBWR=AVX2``), a candidate pin that applies on Intel only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

from benchmarks.paths import REPO, SHARED, code_commit, shown
from benchmarks.result import argument_parser, command, write_json
from benchmarks.timing import timed
from benchmarks.translate.sample_kernels import machine_key
from configs.schema import TranslateConfig
from translate.cpu_kernel import cpu_info, translation_kernel
from translate.loading import load_translator

DEFAULT_INPUT = SHARED / "data" / "bitext" / "newstest2015.cs"
#: case -> (translate.cpu_kernel, extra environment of the case's process)
CASES: dict[str, tuple[str, dict[str, str]]] = {
    "fastest": ("fastest", {}),
    "portable": ("portable", {}),
    "mkl_cbwr_avx2": ("fastest", {"MKL_CBWR": "AVX2"}),
}


def child(case: str, source: Path, sentences: int, out: Path) -> None:
    """One case in this process: translate, then write its timings and hypotheses to ``out``."""
    kernel, environment = CASES[case]
    os.environ.update(environment)
    lines = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()][:sentences]
    translator = load_translator(TranslateConfig(device="cpu", beam_size=12, cpu_kernel=kernel))
    translator.translate(lines[:32])  # warm-up
    with timed() as seconds:
        hypotheses = [t.hypothesis for t in translator.translate(lines)]
    out.write_text(json.dumps({"cpu_seconds": round(seconds.cpu[0], 2), "wall_seconds": round(seconds.wall[0], 2),
                               "compute_type": str(translator.backend.compute_type), "hypotheses": hypotheses}))


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--input", type=Path, default=DEFAULT_INPUT, help="Czech sentences, one per line")
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--child-out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.input, args.sentences, args.child_out)
        return 0
    if not args.input.exists():
        parser.error(f"{args.input} is absent: pass --input")
    runs: dict[str, list[dict]] = {case: [] for case in CASES}
    load = [os.getloadavg()[0]]
    scratch = REPO / "runs" / "cpu_kernel_bench"
    scratch.mkdir(parents=True, exist_ok=True)
    for round_ in range(args.rounds):
        for case in CASES:
            out = scratch / f"{case}.json"
            subprocess.run([sys.executable, "-m", "benchmarks.translate.cpu_kernel_bench", "--child", case,
                            "--child-out", str(out), "--input", str(args.input), "--sentences", str(args.sentences)],
                           check=True, cwd=REPO)
            run = json.loads(out.read_text())
            runs[case].append(run)
            print(f"round {round_ + 1} {case:14s} {run['cpu_seconds']:7.1f} CPU-s {run['wall_seconds']:6.1f} s",
                  flush=True)
    load.append(os.getloadavg()[0])
    cpu = cpu_info()
    results = {}
    for case, case_runs in runs.items():
        hypotheses = case_runs[0]["hypotheses"]
        kernel, environment = CASES[case]
        results[case] = {
            "cpu_kernel": kernel, "environment": environment,
            "kernel": translation_kernel(kernel, "cpu", "ctranslate2", "auto", cpu),
            "compute_type": case_runs[0]["compute_type"],
            "cpu_seconds": [r["cpu_seconds"] for r in case_runs],
            "wall_seconds": [r["wall_seconds"] for r in case_runs],
            "cpu_ratio_to_fastest": [round(r["cpu_seconds"] / f["cpu_seconds"], 3)
                                     for r, f in zip(case_runs, runs["fastest"], strict=True)],
            "repeatable": all(r["hypotheses"] == hypotheses for r in case_runs),
            "hypotheses_sha256": hashlib.sha256("\n".join(hypotheses).encode("utf-8")).hexdigest(),
            "differ_from": {other: sum(a != b for a, b in zip(hypotheses, runs[other][0]["hypotheses"], strict=True))
                            for other in ("fastest", "portable") if other in runs and other != case},
        }
        results[case]["median_cpu_ratio_to_fastest"] = statistics.median(results[case]["cpu_ratio_to_fastest"])
    for case, result in results.items():
        print(f"{case:14s} CPU-s {result['cpu_seconds']}  x{result['median_cpu_ratio_to_fastest']:.2f} of fastest  "
              f"differ {result['differ_from']}")
    if args.json:
        record = {
            "command": command(__file__, argv),
            "code": code_commit(REPO),
            "machine": {**machine_key(), "cores": os.cpu_count(), "python": platform.python_version(),
                        "load_average_start_end": load},
            "input": shown(args.input), "sentences": args.sentences, "beam": 12,
            "model": "translate/models/small-cs-en",
            "rounds": args.rounds, "cases": results,
        }
        write_json(args.json, record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
