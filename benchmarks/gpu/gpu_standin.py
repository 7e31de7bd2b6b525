"""The pipeline's own ceiling with a GPU-fast translator, measured on the CPU between device runs.

:class:`StandInBackend` (``translate.backend=benchmarks.gpu.gpu_standin:StandInBackend``) stands in for one GPU: it
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
  pipeline (a temporary git worktree, this venv), interleaved with this code's;
* **host side** (``--standalone-rates``): each code's host CPU per sentence for each step of a translate call
  (Moses, subwords, token buckets, detokenisation, storing the results; :func:`host_stages`), and the Translator
  alone over the larger ``--rows`` in one call through a stand-in "cuda" device at each of those rates, with each
  ``--text-processes``: rate, this process's CPU per sentence and the stand-in's busy share.

On a small machine the text chain (Moses, subwords) shares the cores with the rest of the pipeline, so a ``--rate``
above what the cores can feed measures the cores, not the pipeline: pick one the standalone run reaches.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from benchmarks.baseline import checkout
from benchmarks.gpu.pipeline_driver import run_driver, shards_digest, write_pair
from benchmarks.paths import REPO
from benchmarks.paths import SHARED as SHARED_BESIDE_REPO
from benchmarks.result import argument_parser, write_json, write_result
from benchmarks.timing import marginal_rate
from configs.schema import TranslateConfig
from translate.batching import token_buckets
from translate.card import DEFAULT_MODEL_DIR, ModelDir
from translate.loading import load_translator
from translate.text_chain import SourceEncoder, moses_words
from translate.translator import PROBE_SENTENCES, RawHypothesis, Translator

#: This file, relative to a checkout's root (run there for a baseline commit too).
HERE = Path("benchmarks/gpu/gpu_standin.py")
#: ../shared; a baseline's worktree (elsewhere) is told where it is (standalone_in).
SHARED = Path(os.environ.get("PARANMT_STANDIN_SHARED", SHARED_BESIDE_REPO))
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
    """A :class:`~translate.translator.DecodeBackend` that decodes at a set GPU rate with real translations; like
    CTranslate2 on a GPU (``inter_threads`` 1) it also takes batches with ``submit``, decoded by one thread of its
    own while the caller's thread works."""

    name = "standin"
    compute_type = "standin"
    queue_depth = 2  # CTranslate2's on a GPU with one stream: one batch decoding, one waiting

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
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="standin-gpu")

    def submit(self, batch: list[list[str]]) -> Future[list[list[RawHypothesis]]]:
        return self._thread.submit(self.decode, batch)

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


def _cpu_seconds(step: Callable[[], Any], repeats: int = 3) -> float:
    """The least of ``repeats`` runs of ``step`` in this thread's CPU time (what other processes add least to)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.thread_time()
        step()
        best = min(best, time.thread_time() - start)
    return best


def host_stages(czech: list[str], translator: Translator) -> dict[str, float]:
    """CPU microseconds per sentence of each host step of a translate call (the least of three runs of each, in
    this thread's CPU time): the Moses steps, subwords, token buckets, detokenisation, the rest of storing a result
    (Hypothesis and Translation objects), and a whole call through a stand-in that costs nothing.
    ``host_bound_sentences_per_second``: what one process can feed a device at best, 10^6 / the whole call."""
    n = len(czech)
    encoder = translator.encoder
    words = [moses_words(t, encoder._normalizer, encoder._tokenizer, encoder._aggressive) for t in czech]
    subwords = getattr(encoder, "_subwords", None) or (lambda w: encoder._bpe.process_line(w).split() if w else [])
    pieces = encoder.encode_batch(czech)
    nbest = _Free(translator.backend).decode(pieces)
    free = Translator(translator.model_dir, _Free(translator.backend), translator.config)
    results: list[Any] = [None] * n
    seconds = {
        "moses": _cpu_seconds(lambda: [moses_words(t, encoder._normalizer, encoder._tokenizer, encoder._aggressive)
                                       for t in czech]),
        "subwords": _cpu_seconds(lambda: [subwords(w) for w in words]),
        "token_buckets": _cpu_seconds(lambda: token_buckets([len(p) for p in pieces], translator.batch_tokens,
                                                            translator.batch_sentences)),
        "detokenise": _cpu_seconds(lambda: [translator.decoder.decode(h[0].tokens) for h in nbest]),
        "store": _cpu_seconds(lambda: translator._store(list(range(n)), nbest, czech, pieces, results)),
        "whole_call": _cpu_seconds(lambda: free.translate(czech)),
    }
    out = {k: round(v * 1e6 / n, 1) for k, v in seconds.items()}
    out["host_bound_sentences_per_second"] = round(1e6 / out["whole_call"], 1)
    return out


class _Free:
    """The stand-in's answers at no device time: a translate call's host work alone."""

    def __init__(self, standin: StandInBackend) -> None:
        self.name, self.device, self._answers = "free", standin.device, standin._answers

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        return [[RawHypothesis(list(t), float(s))] for t, s in (self._answers[" ".join(b)] for b in batch)]

    def recover(self) -> None:
        """Nothing to free."""


def standalone(czech: list[str], settings: StandInSettings, config: TranslateConfig) -> dict[str, Any]:
    """The Translator alone over ``czech`` in one call, through the stand-in on a "cuda" device (the GPU's batch
    limits), after a warm-up call: the rate and the stand-in's busy share over the call."""
    os.environ[SETTINGS_ENV] = json.dumps(settings.__dict__)
    model = ModelDir(DEFAULT_MODEL_DIR)
    translator = Translator(model, StandInBackend(model, config, "cuda"), config)
    translator.translate(czech[:200])
    started, cpu = time.time(), time.process_time()
    translator.translate(czech)
    ended, cpu = time.time(), time.process_time() - cpu
    # CPU time of this process (all its threads, not a text process's): on a loaded machine the wall rate measures
    # the load; this does not.
    return {"rows": len(czech), "seconds": round(ended - started, 3),
            "rows_per_second": round(len(czech) / (ended - started), 1),
            "process_cpu_us_per_sentence": round(cpu * 1e6 / len(czech), 1),
            "busy_share": busy_share(Path(settings.log), started, ended)}


def standalone_cases(czech: list[str], table: str, mean_tokens: float, args: argparse.Namespace,
                     work: Path) -> dict[str, Any]:
    """This code's host steps (:func:`host_stages`) and the standalone rate at each of ``--standalone-rates``, for
    each ``--text-processes`` (0 only where the code has no such setting)."""
    has_processes = "text_processes" in TranslateConfig.model_fields
    bucket = {"max_batch_tokens": args.bucket}
    out: dict[str, Any] = {"rates": []}
    settings = StandInSettings(table, 1 / (max(args.standalone_rates) * mean_tokens), str(work / "stages.log"))
    os.environ[SETTINGS_ENV] = json.dumps(settings.__dict__)
    model = ModelDir(DEFAULT_MODEL_DIR)
    config = TranslateConfig(device="cuda", **bucket)
    out["host_us_per_sentence"] = host_stages(czech, Translator(model, StandInBackend(model, config, "cuda"),
                                                                config))
    for rate in args.standalone_rates:
        for processes in args.text_processes if has_processes else [0]:
            config = TranslateConfig(device="cuda", **bucket, **({"text_processes": processes} if processes else {}))
            log = work / f"standalone-{rate}-{processes}.log"
            log.write_text("")
            row = standalone(czech, StandInSettings(table, 1 / (rate * mean_tokens), str(log)), config)
            out["rates"].append({"rate": rate, "text_processes": processes, **row})
            print(f"standalone at {rate}/s, {processes} text processes: {row}", flush=True)
    return out


def standalone_in(code: Path, rows: int, argv: list[str]) -> dict[str, Any]:
    """:func:`standalone_cases` of the code in ``code`` (its own translate package; this file's stand-in, copied
    there), in a process of its own."""
    done = subprocess.run([sys.executable, str(code / HERE), "--standalone-only",
                           "--rows", str(rows), *argv], cwd=code, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(code), "PARANMT_STANDIN_SHARED": str(SHARED)})
    lines = [line for line in done.stdout.splitlines() if line.startswith("STANDALONE ")]
    if done.returncode or not lines:
        return {"error": f"exit {done.returncode}: {done.stderr.strip().splitlines()[-3:]}"}
    return json.loads(lines[-1].removeprefix("STANDALONE "))


def pipeline_run(code: Path, cs: Path, en: Path, out: Path, sets: list[str], workers: int,
                 settings: StandInSettings) -> dict[str, Any]:
    Path(settings.log).write_text("")
    done = run_driver(code, (cs, en), out, sets, workers, {SETTINGS_ENV: json.dumps(settings.__dict__),
                                                           "PARANMT_CODE_VERSION": "gpu-standin"})
    summary = done.summary
    if done.exit_code or summary is None:
        return {"workers": workers, "error": f"exit {done.exit_code}: {done.tail(3)}"}
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
    marginal = marginal_rate((sizes[0], small["wall_seconds"]), (sizes[-1], large["wall_seconds"]))
    if marginal is None or marginal > 1.05 * ceiling:
        extra = large["wall_seconds"] - small["wall_seconds"]
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


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--rows", default="3000,6000", help="the two input sizes (pairs)")
    parser.add_argument("--rate", type=float, default=1500.0, help="the stand-in GPU's sentences/s at the bitext's "
                        "mean output length")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the multi-process runs")
    parser.add_argument("--baseline", help="a git ref whose pipeline runs beside this code's (a temporary worktree)")
    parser.add_argument("--standalone-rates", type=lambda v: [float(r) for r in v.split(",")], default=[],
                        help="also the host side: each code's host CPU per step and its standalone rate at each of "
                        "these stand-in rates (e.g. 6000,10000), over the larger --rows in one call")
    parser.add_argument("--text-processes", type=lambda v: [int(n) for n in v.split(",")], default=[0],
                        help="translate.text_processes of the standalone cases (e.g. 0,2)")
    parser.add_argument("--bucket", type=int, default=8192, help="translate.max_batch_tokens of those cases")
    parser.add_argument("--no-pipeline", action="store_true", help="the host-side cases only (written under "
                        "host_side into an existing --json file, beside a full run's results)")
    parser.add_argument("--standalone-only", action="store_true", help=argparse.SUPPRESS)  # standalone_in's
    parser.add_argument("--answers", type=Path, help=argparse.SUPPRESS)  # standalone_in's: the launcher's table
    parser.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    if not (SHARED / "data" / "bitext").is_dir():
        print(f"error: {SHARED / 'data' / 'bitext'} is absent: the benchmark reads the bitext", file=sys.stderr)
        return 2
    sizes = sorted(int(n) for n in args.rows.split(","))
    work = args.work or Path(tempfile.mkdtemp(prefix="gpu-standin-"))
    work.mkdir(parents=True, exist_ok=True)
    czech, english = bitext_rows(sizes[-1])
    table = args.answers or answer_table(czech, REPO / ".cache" / "gpu_standin")
    targets = pq.read_table(table)["target"].to_pylist()
    mean_tokens = sum(len(t) + 1 for t in targets) / len(targets)
    if args.standalone_only:
        print("STANDALONE " + json.dumps(standalone_cases(czech, str(table), mean_tokens, args, work)), flush=True)
        return 0
    result: dict[str, Any] = {"cores": os.cpu_count(), "rate": args.rate, "mean_target_tokens": round(mean_tokens, 2),
                              "batch_seconds": BATCH_SECONDS}
    codes = [("this code", REPO)]
    with contextlib.ExitStack() as stack:
        if args.baseline:
            baseline = stack.enter_context(checkout(args.baseline, work / "baseline"))
            # The same stand-in for both codes: this file's, and the driver it imports.
            (baseline / HERE.parent).mkdir(parents=True, exist_ok=True)
            for path in (HERE, HERE.parent / "pipeline_driver.py"):
                (baseline / path).write_bytes((REPO / path).read_bytes())
            codes.append((f"baseline {args.baseline}", baseline))
        if args.standalone_rates:
            host_argv = ["--answers", str(table), "--standalone-rates", ",".join(map(str, args.standalone_rates)),
                         "--text-processes", ",".join(map(str, args.text_processes)), "--bucket", str(args.bucket),
                         "--work", str(work)]
            result["host_side"] = {label: standalone_in(code, sizes[-1], host_argv) for label, code in codes}
        if not args.no_pipeline:
            result.update(pipeline_cases(czech, english, sizes, codes, args, str(table), mean_tokens, work))
    record = write_result(None, result, __file__, _without_scratch(sys.argv[1:] if argv is None else argv))
    if args.no_pipeline and args.json and args.json.exists():  # beside a full run's results, its command with it
        record = {**json.loads(args.json.read_text(encoding="utf-8")), "host_side": record}
    print(json.dumps(record, indent=1))
    if args.json:
        write_json(args.json, record)
    return 0


def pipeline_cases(czech: list[str], english: list[str], sizes: list[int], codes: list[tuple[str, Path]],
                   args: argparse.Namespace, table: str, mean_tokens: float, work: Path) -> dict[str, Any]:
    """The standalone ceiling at ``--rate`` (the pipeline's 4,096-token bucket, on the CPU device the pipeline runs
    are given) and the pipeline runs of every code, in-process and with ``--workers``, interleaved."""
    # The per-token cost that makes the stand-in decode --rate sentences/s of mean length in full batches.
    settings = StandInSettings(table, 1 / (args.rate * mean_tokens), str(work / "busy.log"))
    Path(settings.log).write_text("")
    out: dict[str, Any] = {"standalone": standalone(czech, settings, TranslateConfig(device="cpu",
                                                                                     max_batch_tokens=4096))}
    print(f"standalone: {out['standalone']}", flush=True)
    sets = ["translate.backend=benchmarks.gpu.gpu_standin:StandInBackend", "translate.device=cpu",
            "translate.max_batch_tokens=4096", "pipeline.translation_cache=false", "lexicon.enabled=false"]
    inputs = {n: write_pair(work, f"in-{n}", czech[:n], english[:n]) for n in sizes}
    runs = []
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
            large.update(marginal_fields(by_size[label, sizes[0]], large, sizes, out["standalone"]["rows_per_second"]))
    out["pipeline"] = runs
    out["same_train_everywhere"] = len({r["train_digest"] for r in runs if r.get("rows") == sizes[-1]}) == 1
    return out


if __name__ == "__main__":
    sys.exit(main())
