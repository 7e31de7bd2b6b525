"""The pipeline's own ceiling with a GPU-fast translator, measured on the CPU between device runs.

    .venv/bin/python benchmarks/gpu_standin.py [--rows 3000,6000] [--rate 1500] [--workers 2] [--baseline REF]
                                               [--json out.json]

:class:`StandInBackend` (``translate.backend=benchmarks.gpu_standin:StandInBackend``) stands in for one GPU: it
answers each batch with real translations of its sentences (small-cs-en's, made once by CTranslate2 on the CPU and
cached), after holding one lock -- the GPU -- for the time the batch would take at ``--rate`` sentences/s (a fixed
cost per batch plus a cost per target token; sleeping releases the GIL, as a GPU call does). Every batch's busy
interval is logged, so the stand-in's utilisation over the translation span is what ``nvidia-smi`` would show.

Measured in one run, on the first ``--rows`` pairs of the bitext (``../shared/data/bitext``):

* **standalone**: the pipeline's :class:`~translate.translator.Translator` alone over the Czech side, through the
  stand-in: the rate the "GPU" allows with the Translator's own batching (the ceiling);
* **pipeline**: ``pipeline.job.run_job`` in-process and with ``--workers`` worker processes, at two input sizes: wall
  time, the translation span, the **marginal** rate (rows/s between the two sizes, so a fixed start-up does not
  hide the steady state) over the standalone rate, wall / translation span, and the stand-in's utilisation over
  the span; and whether every run wrote the same ``train/``. With ``--baseline REF`` the same runs of that commit's
  pipeline (a temporary git worktree, this venv), interleaved with this code's.

On a small machine the text chain (Moses, subwords) shares the cores with the rest of the pipeline, so a ``--rate``
above what the cores can feed measures the cores, not the pipeline: pick one the standalone run reaches.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
from pipeline_driver import DRIVER, shards_digest  # noqa: E402

from configs.schema import TranslateConfig  # noqa: E402
from translate.card import DEFAULT_MODEL_DIR, ModelDir  # noqa: E402
from translate.loading import load_translator  # noqa: E402
from translate.text_chain import SourceEncoder  # noqa: E402
from translate.translator import PROBE_SENTENCES, RawHypothesis, Translator  # noqa: E402

SHARED = REPO.parent / "shared"
#: JSON settings of the stand-in, read where the backend is built (worker processes inherit the environment).
SETTINGS_ENV = "PARANMT_STANDIN"
#: The fixed part of a batch's cost: decoder start, first step, kernel launches.
BATCH_SECONDS = 0.004


@dataclass(frozen=True)
class StandInSettings:
    table: str  # Parquet: source (space-joined source subwords), target (list of target subwords), score
    seconds_per_token: float  # per target token, the GPU's throughput part
    log: str  # busy intervals are appended here, one "start end sentences" line per batch

    @classmethod
    def from_env(cls) -> StandInSettings:
        return cls(**json.loads(os.environ[SETTINGS_ENV]))


class StandInBackend:
    """A :class:`~translate.translator.DecodeBackend` that decodes at a set GPU rate with real translations."""

    name = "standin"
    compute_type = "standin"

    def __init__(self, model_dir: ModelDir, config: TranslateConfig, device: str) -> None:
        settings = StandInSettings.from_env()
        table = pq.read_table(settings.table)
        self._answers = dict(zip(table["source"].to_pylist(),
                                 zip(table["target"].to_pylist(), table["score"].to_pylist(), strict=True),
                                 strict=True))
        self.device = device
        self._seconds_per_token = settings.seconds_per_token
        self._gpu = threading.Lock()  # one device: batches from every thread and process decode one at a time
        self._log = open(settings.log, "a", encoding="utf-8")  # noqa: SIM115 -- lives as long as the backend

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        answers = [self._answers[" ".join(tokens)] for tokens in batch]
        cost = BATCH_SECONDS + self._seconds_per_token * sum(len(target) + 1 for target, _ in answers)
        with self._gpu:
            start = time.time()
            time.sleep(cost)
            end = time.time()
        self._log.write(f"{start:.6f} {end:.6f} {len(batch)}\n")
        self._log.flush()
        return [[RawHypothesis(list(target), float(score))] for target, score in answers]

    def recover(self) -> None:
        """Nothing to free."""


# ------------------------------------------------------------------------------------------------- inputs


def bitext_rows(limit: int) -> tuple[list[str], list[str]]:
    """The first ``limit`` pairs of the bitext's files (sorted by name)."""
    cs: list[str] = []
    en: list[str] = []
    for path in sorted((SHARED / "data" / "bitext").glob("*.cs")):
        cs += path.read_text(encoding="utf-8").splitlines()
        en += path.with_suffix(".en").read_text(encoding="utf-8").splitlines()
        if len(cs) >= limit:
            break
    return cs[:limit], en[:limit]


def answer_table(czech: list[str], cache: Path) -> Path:
    """Real translations of ``czech`` and of the translator's probe sentences (its load-time check), keyed by their
    source subwords: small-cs-en by CTranslate2 int8 on the CPU, beam 2 (the lengths of real output, made fast),
    cached by content."""
    czech = [*czech, *PROBE_SENTENCES]
    digest = hashlib.sha256("\n".join(czech).encode()).hexdigest()[:16]
    path = cache / f"answers-{digest}.parquet"
    if path.exists():
        return path
    translator = load_translator(TranslateConfig(device="cpu", beam_size=2))
    encoder = SourceEncoder(translator.model_dir)
    translations = translator.translate(czech)
    sources = [" ".join(pieces) for pieces in encoder.encode_batch(czech)]
    cache.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({"source": sources, "target": [list(t.tokens) for t in translations],
                             "score": [t.score for t in translations]}), path)
    return path


# ------------------------------------------------------------------------------------------------- runs


def busy_share(log: Path, start: float, end: float) -> float | None:
    """The stand-in's busy share of ``[start, end]`` (wall clock), from its interval log."""
    if end <= start or not log.exists():
        return None
    busy = 0.0
    for line in log.read_text().splitlines():
        a, b, _ = line.split()
        busy += max(0.0, min(float(b), end) - max(float(a), start))
    return round(busy / (end - start), 3)


def log_span(log: Path) -> tuple[float, float]:
    lines = [line.split() for line in log.read_text().splitlines()]
    return min(float(a) for a, _, _ in lines), max(float(b) for _, b, _ in lines)


def standalone(czech: list[str], settings: StandInSettings, config: TranslateConfig) -> dict[str, Any]:
    os.environ[SETTINGS_ENV] = json.dumps(settings.__dict__)
    translator = Translator(ModelDir(DEFAULT_MODEL_DIR), StandInBackend(ModelDir(DEFAULT_MODEL_DIR), config, "cpu"),
                            config)
    translator.translate(czech[:200])
    started = time.time()
    translator.translate(czech)
    ended = time.time()
    return {"rows": len(czech), "seconds": round(ended - started, 3),
            "rows_per_second": round(len(czech) / (ended - started), 1),
            "busy_share": busy_share(Path(settings.log), started, ended)}




def pipeline_run(code: Path, cs: Path, en: Path, out: Path, sets: list[str], workers: int,
                 settings: StandInSettings) -> dict[str, Any]:
    beam_args = ["--runner=FnApiRunner"]
    if workers > 1:
        beam_args += ["--direct_running_mode=multi_processing", f"--direct_num_workers={workers}"]
    Path(settings.log).write_text("")
    env = {**os.environ, SETTINGS_ENV: json.dumps(settings.__dict__),
           "PYTHONPATH": os.pathsep.join([str(code), os.environ.get("PYTHONPATH", "")]),
           "PARANMT_CODE_VERSION": "gpu-standin"}
    payload = {"cs": str(cs), "en": str(en), "out": str(out), "sets": sets, "beam_args": beam_args}
    done = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(payload)], env=env, cwd=code,
                          capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith("SUMMARY ")]
    if done.returncode or not lines:
        return {"workers": workers, "error": f"exit {done.returncode}: {done.stderr.strip().splitlines()[-3:]}"}
    summary = json.loads(lines[-1].removeprefix("SUMMARY "))
    first, last = log_span(Path(settings.log))
    span = last - first
    return {"workers": workers, "rows": summary["read"], "wall_seconds": summary["wall_seconds"],
            "translation_seconds": round(span, 3), "wall_over_translation": round(summary["wall_seconds"] / span, 2),
            "translation_rows_per_second": round(summary["translated_rows"] / span, 1),
            "busy_share": busy_share(Path(settings.log), first, last), "stage_seconds": summary["stage_seconds"],
            "step_seconds": summary["step_seconds"],
            "train_digest": shards_digest(out / "train")}


def marginal_fields(small: dict[str, Any], large: dict[str, Any], sizes: list[int], ceiling: float) -> dict[str, Any]:
    """The marginal rate between two runs' sizes, and its share of the standalone ``ceiling``; none, with a note,
    where the machine's noise outweighs the difference (the larger input not slower, or faster than the ceiling)."""
    if "error" in small or "error" in large:
        return {}
    extra = large["wall_seconds"] - small["wall_seconds"]
    marginal = (sizes[-1] - sizes[0]) / extra if extra > 0 else None
    if marginal is None or marginal > 1.05 * ceiling:
        return {"marginal_rows_per_second": None, "marginal_over_standalone": None,
                "note": f"noise: {sizes[-1]} rows took {extra:+.1f} s over {sizes[0]} (start-up varied more than "
                        "the work); make the sizes further apart or the machine quieter"}
    return {"marginal_rows_per_second": round(marginal, 1), "marginal_over_standalone": round(marginal / ceiling, 3)}


def _without_scratch(argv: list[str]) -> list[str]:
    """The command line as a result records it: the scratch folder is the machine's, not part of the command."""
    out, skip = [], False
    for arg in argv:
        if skip or arg.startswith("--work="):
            skip = False
            continue
        skip = arg == "--work"
        if not skip:
            out.append(arg)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default="3000,6000", help="the two input sizes (pairs)")
    parser.add_argument("--rate", type=float, default=1500.0, help="the stand-in GPU's sentences/s at the bitext's "
                        "mean output length")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the multi-process runs")
    parser.add_argument("--baseline", help="a git ref whose pipeline runs beside this code's (a temporary worktree)")
    parser.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not (SHARED / "data" / "bitext").is_dir():
        print(f"error: {SHARED / 'data' / 'bitext'} is absent: the benchmark reads the bitext", file=sys.stderr)
        return 2
    sizes = sorted(int(n) for n in args.rows.split(","))
    work = args.work or Path(tempfile.mkdtemp(prefix="gpu-standin-"))
    work.mkdir(parents=True, exist_ok=True)
    czech, english = bitext_rows(sizes[-1])
    table = answer_table(czech, REPO / ".cache" / "gpu_standin")
    targets = pq.read_table(table)["target"].to_pylist()
    mean_tokens = sum(len(t) + 1 for t in targets) / len(targets)
    # The per-token cost that makes the stand-in decode --rate sentences/s of mean length in full batches.
    settings = StandInSettings(str(table), 1 / (args.rate * mean_tokens), str(work / "busy.log"))
    config = TranslateConfig(device="cpu", max_batch_tokens=4096)  # the GPU's bucket
    result: dict[str, Any] = {
        "command": "python benchmarks/gpu_standin.py " + " ".join(_without_scratch(argv or sys.argv[1:])),
        "cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(), "rate": args.rate,
        "mean_target_tokens": round(mean_tokens, 2), "batch_seconds": BATCH_SECONDS}
    Path(settings.log).write_text("")
    result["standalone"] = standalone(czech, settings, config)
    print(f"standalone: {result['standalone']}", flush=True)
    sets = ["translate.backend=benchmarks.gpu_standin:StandInBackend", "translate.device=cpu",
            "translate.max_batch_tokens=4096", "pipeline.translation_cache=false", "lexicon.enabled=false"]
    codes = [("this code", REPO)]
    if args.baseline:
        baseline = work / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", "-f", str(baseline), args.baseline], cwd=REPO,
                       check=True, capture_output=True)
        codes.append((f"baseline {args.baseline}", baseline))
    inputs = {}
    for n in sizes:
        for side, lines in (("cs", czech[:n]), ("en", english[:n])):
            path = work / f"in-{n}.{side}"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            inputs.setdefault(n, []).append(path)
    runs = []
    try:
        for workers in sorted({1, args.workers}):
            by_size: dict[tuple[str, int], dict[str, Any]] = {}
            for n in sizes:
                for label, code in codes:  # interleaved: the machine's load falls on both codes alike
                    row = pipeline_run(code, *inputs[n], work / f"out-{len(runs)}", sets, workers, settings)
                    row["code"] = label
                    print(f"{label}, {workers} worker(s), {n} rows: {row}", flush=True)
                    by_size[label, n] = row
                    runs.append(row)
            for label, _ in codes:
                large = by_size[label, sizes[-1]]
                large.update(marginal_fields(by_size[label, sizes[0]], large, sizes,
                                             result["standalone"]["rows_per_second"]))
    finally:
        if args.baseline:
            subprocess.run(["git", "worktree", "remove", "--force", str(work / "baseline")], cwd=REPO,
                           capture_output=True)
    result["pipeline"] = runs
    digests = {r["train_digest"] for r in runs if r.get("rows") == sizes[-1]}
    result["same_train_everywhere"] = len(digests) == 1
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
