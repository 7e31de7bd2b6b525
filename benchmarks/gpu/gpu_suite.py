"""The GPU worker, measured in one run of at most a few minutes: back-translation at beam 12 in steady state, the
pipeline with ``--device cuda``, broken backends, and training the back-translation model.

    .venv/bin/python benchmarks/gpu/gpu_suite.py --json gpu_suite.json          # a CUDA machine with ../shared
    .venv/bin/python benchmarks/gpu/gpu_suite.py --smoke                        # the same code on the CPU, in a minute
    python3 benchmarks/gpu/gpu_suite.py --bundle DIR --json gpu_suite.json      # an offline GPU image (gpu_bundle.py)

The parts (``--parts``, run in the order given; the backend check always first):

* **backend check**: every (backend, compute type, device) any planned case uses, and the CPU reference, translates
  the first 64 sentences, all at once, each in its own process stopped after ``--check-seconds``. The cases of a
  backend that failed its check are recorded as skipped with its error.
* **translate** / **sweep** / **base**: the cases of :data:`CASES` (one table: a name, ``translate.*`` overrides of
  the case's config, its model and what it measures), each in a process of its own (``gpu_case.py``). The
  sentences are the Czech side of the bitext and the LibreOffice corpus (distinct, non-empty, one seeded order).
  A ``steady`` case translates at least ``--sentences`` (40,000) of them, and at least :data:`STEADY_BATCHES`
  batches at its bucket; its rate is taken from its own per-batch progress timestamps, from the end of its first
  :data:`STEADY_SKIP` batches to its last (the warm-up left out), with the GPU's busy share (``nvidia-smi``, every
  100 ms) over that span. A ``latency`` case is the old 4,000-sentence case: its rate is the whole call's, a
  figure of a few batches, not of a steady state. The ``reference`` case is CTranslate2 int8 on every CPU core
  with the CPU defaults, on the first :data:`REFERENCE_SENTENCES`: every small-cs-en case reports the share of
  those sentences it translates identically (the bar: 0.85). ``base`` cases use a transformer-base-sized model
  (random weights, each sentence's length capped at the reference's mean output length).
* **failfast**: broken backends through ``python -m pipeline.run`` (:func:`fail_fast_part`): one line, exit 2,
  at most 10 s, nothing final written; recorded per scenario.
* **pipeline**: ``pipeline.job.run_job`` with ``--device cuda`` over the bitext and the LibreOffice corpus at two sizes
  (27,000 and all 108,635 pairs), in-process and with a worker process per core: the marginal rate between the
  sizes over the standalone rates of the same call, wall time over the translation span, the GPU's busy share over
  the translation span, whether every mode wrote the same ``train/``, and beside each what the CPU stand-in
  (``benchmarks/results/gpu_standin.json``) predicted.
* **nmt-train**: ``paranmt train-nmt``'s base preset on the card, time-boxed (``gpu_nmt_train.py``).
* **encoders**: WORD, TRIGRAM and SP pairs/s at M = 1 and M = 40 on caption pairs (``train_bench.run_case``).

**Budget.** ``--minutes`` bounds the run: a plan with each case's estimated seconds is printed first, and a case
whose estimate no longer fits what is left is recorded as skipped (``out of time``) and not started; a running
case is stopped :data:`GRACE_SECONDS` past the budget. Results are written to ``--json`` after every case, with no
machine's absolute path in them (:func:`scrub`). A case that fails records its error and no rate.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a file too: this checkout first

import numpy as np
import pyarrow as pa
import torch

from benchmarks.embeddings.train_bench import caption_pairs
from benchmarks.embeddings.train_bench import run_case as run_train_case
from benchmarks.gpu.gpu_bundle import BITEXTS
from benchmarks.gpu.gpu_case import Outcome, run_case
from benchmarks.gpu.gpu_nmt_train import read_pairs, start_preparation
from benchmarks.gpu.gpu_nmt_train import train_part as nmt_train_part
from benchmarks.gpu.pipeline_driver import DRIVER, shards_digest
from benchmarks.paths import REPO, SHARED, code_commit, shown
from configs import load_config
from paranmt.core.errors import ParanmtError
from paranmt.core.pair_schema import Reason
from train_embeddings.vocab import (
    SentencePieceVocab,
    TrigramVocab,
    WordVocab,
    count_trigrams,
    count_words,
    sentence_strings,
)
from translate.card import DEFAULT_MODEL_DIR
from translate.convert import convert_fairseq
from translate.cuda_libraries import cublas_line, process_route
from translate.loading import load_translator

STANDIN = REPO / "benchmarks" / "results" / "gpu_standin.json"
EPOCH_PAIRS = 5_000_000
BEAM = 12


@dataclass(frozen=True)
class Data:
    """Where the suite's inputs are: ``../shared`` or an unpacked ``gpu_bundle.py`` archive."""

    bitexts: tuple[Path, ...]  # the pipeline's pairs: the bitext (first) and the LibreOffice corpus
    captions: Path
    small_fairseq: Path  # a model directory with small-cs-en's fairseq checkpoint (and CTranslate2 model)
    glove: Path | None  # a kumo-layout GloVe directory for the pipeline's scorer; None: the installed package

    @classmethod
    def locate(cls, bundle: Path | None, work: Path) -> Data:
        if bundle is None:
            return cls(tuple(SHARED / "data" / name for name in BITEXTS),
                       SHARED / "data" / "paraphrase" / "multi30k-captions", SHARED / "models" / "small-cs-en", None)
        return cls(tuple(bundle / "data" / name for name in BITEXTS), bundle / "data" / "captions",
                   unpack_small_model(bundle / "data" / "small-cs-en", work / "small-cs-en"), bundle / "data" / "glove")


def unpack_small_model(packed: Path, out: Path) -> Path:
    """The bundle's small-cs-en (matrices as int8 + a scale per row) as a model directory: float16 fairseq weights,
    the repository's CTranslate2 model beside them."""
    if not (out / "fairseq" / "checkpoint_best.pt").exists():
        shutil.copytree(packed, out, dirs_exist_ok=True, ignore=shutil.ignore_patterns("checkpoint_int8.pt"))
        shutil.copytree(DEFAULT_MODEL_DIR / "ct2", out / "ct2", dirs_exist_ok=True)
        state = torch.load(packed / "fairseq" / "checkpoint_int8.pt", map_location="cpu", weights_only=False)
        state["model"] = {name: (v["int8"].float() * v["scale"]).half() if isinstance(v, dict) else v
                          for name, v in state["model"].items()}
        torch.save(state, out / "fairseq" / "checkpoint_best.pt")
    return out


def build_base_model(vocabulary: Path, out: Path, smoke: bool) -> Path:
    """A transformer-base-sized fairseq model (``--smoke``: 1+1 layers of 64) over small-cs-en's dictionaries and
    BPE, random weights (seed 1), converted to CTranslate2 float16; the directory serves both backends."""
    if (out / "model_card.yaml").exists():
        return out
    from fairseq import options, tasks
    from fairseq.dataclass.utils import convert_namespace_to_omegaconf
    from omegaconf import OmegaConf

    data = out.parent / f"{out.name}-data"
    data.mkdir(parents=True, exist_ok=True)
    for lang in ("cs", "en"):
        shutil.copy(vocabulary / "fairseq" / f"dict.{lang}.txt", data / f"dict.{lang}.txt")
    shape = (["--arch", "transformer", "--encoder-layers", "1", "--decoder-layers", "1", "--encoder-embed-dim", "64",
              "--decoder-embed-dim", "64", "--encoder-ffn-embed-dim", "128", "--decoder-ffn-embed-dim", "128",
              "--encoder-attention-heads", "2", "--decoder-attention-heads", "2"] if smoke
             else ["--arch", "transformer_wmt_en_de"])
    parser = options.get_training_parser()
    args = options.parse_args_and_arch(parser, [str(data), "--task", "translation", "-s", "cs", "-t", "en", *shape])
    cfg = convert_namespace_to_omegaconf(args)
    task = tasks.setup_task(cfg.task)
    torch.manual_seed(1)
    model = task.build_model(cfg.model)
    checkpoint = data / "checkpoint_base.pt"
    torch.save({"cfg": OmegaConf.to_container(cfg, resolve=True, enum_to_str=True), "args": None,
                "model": model.state_dict(), "criterion": None, "task_state": {}, "last_optimizer_state": None,
                "optimizer_history": [{"criterion_name": "CrossEntropyCriterion", "optimizer_name": "Adam",
                                       "lr_scheduler_state": {"best": None}, "num_updates": 0}],
                "extra_state": {"epoch": 1, "previous_training_time": 0}}, checkpoint)
    return convert_fairseq(checkpoint, data, out, bpe_codes=vocabulary / "bpe.codes", quantization="float16",
                           name="random-transformer-base" if not smoke else "random-transformer-tiny")


# ------------------------------------------------------------------------------------------------- GPU sampling


class GpuSampler:
    """``nvidia-smi`` sampled every 100 ms in the background: utilisation (%) and memory used (MiB) over time."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float, float]] = []
        self._process: subprocess.Popen[str] | None = None
        if shutil.which("nvidia-smi") is None:
            return
        self._process = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=utilization.gpu,memory.used", "--format=csv,noheader,nounits", "-lms", "100"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            try:
                util, memory = (float(x) for x in line.split(","))
            except ValueError:
                continue
            self.samples.append((time.monotonic(), util, memory))

    def window(self, start: float, end: float) -> dict[str, float | None]:
        inside = [(u, m) for t, u, m in self.samples if start <= t <= end]
        if not inside:
            return {"gpu_util_mean": None, "gpu_util_samples": 0, "gpu_memory_max_mib": None}
        util = np.array([u for u, _ in inside])
        return {"gpu_util_mean": round(float(util.mean()), 1), "gpu_util_samples": len(inside),
                "gpu_memory_max_mib": max(m for _, m in inside)}

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()


# ------------------------------------------------------------------------------------------------- no machine's paths

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


# ------------------------------------------------------------------------------------------------- the cases


@dataclass(frozen=True)
class CaseRow:
    """One translation case: ``sets`` are ``translate.*`` overrides (``--set`` syntax) on the case's config, which
    is CTranslate2 on the run's device at beam 12 with the device's defaults; a knob any code version accepts is
    swept by adding a row (one its code lacks makes the case fail with the config's error, and no rate)."""

    name: str
    sets: tuple[str, ...] = ()
    model: str = "small-cs-en"  # or "base-random"
    measure: str = "steady"  # steady; latency (the old short case: the whole call's rate); reference


F16, I8F16, BF16 = "translate.compute_type=float16", "translate.compute_type=int8_float16", \
    "translate.compute_type=bfloat16"
REFERENCE_ROW = CaseRow("CPU reference: CTranslate2 int8, every core, the CPU defaults",
                        ("translate.device=cpu", "translate.compute_type=int8"), measure="reference")
# By part, in the order run (the budget cuts from the end). Device: cuda; --smoke: cpu.
CASES: dict[str, dict[str, tuple[CaseRow, ...]]] = {"cuda": {
    "translate": (
        CaseRow("float16, the default bucket", (F16,)),
        CaseRow("the pipeline's settings (compute type auto, the default bucket)"),
        CaseRow("latency: float16, the default bucket, 4,000 sentences", (F16,), measure="latency"),
        CaseRow("float16, 65,536-token buckets", (F16, "translate.max_batch_tokens=65536"))),
    "sweep": (
        CaseRow("float16, 131,072-token buckets", (F16, "translate.max_batch_tokens=131072")),
        CaseRow("int8_float16, the default bucket", (I8F16,)),
        CaseRow("float16, 2 batches at once", (F16, "translate.inter_threads=2")),
        CaseRow("float16, 4 batches at once", (F16, "translate.inter_threads=4")),
        CaseRow("bfloat16, the default bucket", (BF16,)),
        CaseRow("int8_float16, 65,536-token buckets", (I8F16, "translate.max_batch_tokens=65536")),
        CaseRow("latency: fairseq float16, the default bucket", ("translate.backend=fairseq", F16),
                measure="latency")),
    "base": (
        CaseRow("base: float16, the default bucket", (F16,), model="base-random"),
        CaseRow("base: float16, 65,536-token buckets", (F16, "translate.max_batch_tokens=65536"), model="base-random"),
        CaseRow("base: int8_float16, the default bucket", (I8F16,), model="base-random"),
        CaseRow("base: float16, 2 batches at once", (F16, "translate.inter_threads=2"), model="base-random"),
        CaseRow("latency: base, fairseq float16", ("translate.backend=fairseq", F16), model="base-random",
                measure="latency")),
}, "cpu": {
    "translate": (
        CaseRow("int8, 96-token buckets", ("translate.compute_type=int8", "translate.max_batch_tokens=96")),
        CaseRow("int8_float32, 96-token buckets",
                ("translate.compute_type=int8_float32", "translate.max_batch_tokens=96")),
        CaseRow("latency: float32, the default bucket", ("translate.compute_type=float32",), measure="latency")),
    "sweep": (
        # fairseq on small-cs-en: the check covers it; a case of it at beam 12 takes minutes of a CPU
        CaseRow("int8, 96-token buckets, 2 batches at once",
                ("translate.compute_type=int8", "translate.max_batch_tokens=96", "translate.inter_threads=2")),),
    "base": (
        CaseRow("base: float32, 96-token buckets",
                ("translate.compute_type=float32", "translate.max_batch_tokens=96"), model="base-random"),
        CaseRow("latency: base, fairseq float32", ("translate.backend=fairseq", "translate.compute_type=float32"),
                model="base-random", measure="latency")),
}}
# Sentences per case by measure, GPU / --smoke; a steady case also holds STEADY_BATCHES batches of its bucket.
SENTENCES = {"cuda": {"steady": 40_000, "latency": 4_000, "reference": 1_000},
             "cpu": {"steady": 24, "latency": 8, "reference": 8}}
REFERENCE_SENTENCES = SENTENCES["cuda"]["reference"]
STEADY_BATCHES = 12
SOURCE_TOKENS = 20  # about a bitext sentence's subword tokens with padding: how many sentences a bucket holds
STEADY_SKIP = {"cuda": 2, "cpu": 1}  # batches of the timed call left out of the steady rate (its warm-up)
WARMUP = 256  # each case first decodes min(256, N/4) of its sentences, untimed (model load, first kernels)
CHECK_SENTENCES = {"cuda": 64, "cpu": 8}
IDENTICAL_BAR = 0.85


# ------------------------------------------------------------------------------------------------- the budget

GRACE_SECONDS = 30.0  # a case still running this long past the budget is stopped
# What a case costs before it has measured anything: its process and model load, and sentences/s by (model,
# backend); rows/s of the pipeline, seconds of the training parts. A case measured in the run replaces its prior.
LOAD_SECONDS = {"cuda": 8.0, "cpu": 4.0}
PRIOR_RATE = {"cuda": {"small-cs-en ctranslate2": 2000.0, "base-random ctranslate2": 1500.0, "fairseq": 400.0,
                       "cpu": 300.0},
              "cpu": {"small-cs-en ctranslate2": 40.0, "base-random ctranslate2": 60.0, "fairseq": 15.0,
                      "cpu": 40.0}}
PIPELINE_PRIOR = {"cuda": (20.0, 1500.0), "cpu": (20.0, 40.0)}  # (start-up seconds, rows/s)
CHECK_PRIOR = {"cuda": 30.0, "cpu": 60.0}  # the H200's check took 23-26 s, its PTX compilation included
FAIL_FAST_PRIOR = 8.0  # seconds a scenario
# a broken backend's run is stopped after this long (the goal: one line within 10 s; a loaded CPU starts slowly)
FAIL_FAST_LIMIT = {"cuda": 30.0, "cpu": 300.0}
FAIL_FAST_GOAL = 10.0
ENCODERS_SECONDS = {"cuda": 90.0, "cpu": 60.0}
NMT_TRAIN_OVERHEAD = {"cuda": 45.0, "cpu": 60.0}  # fairseq's start, the stop's checkpoint, conversion, decoding


@dataclass
class Budget:
    started: float  # time.monotonic()
    seconds: float

    @property
    def end(self) -> float:
        """Past this a running case is stopped."""
        return self.started + self.seconds + GRACE_SECONDS

    def left(self) -> float:
        return self.started + self.seconds - time.monotonic()

    def refuse(self, estimate: float) -> str | None:
        """Why a case of ``estimate`` seconds must not start now, or None."""
        left = self.left()
        return None if estimate <= left else f"out of time: needs ~{estimate:.0f} s, {max(left, 0):.0f} s left"


# ------------------------------------------------------------------------------------------------- translation


@dataclass
class TranslationCase:
    name: str
    model: str
    measure: str
    sets: list[str]
    backend: str = ""  # the case's config, resolved
    compute_type: str = ""
    device: str = ""
    batch_tokens: int = 0
    inter_threads: int = 0
    max_decoding_length: int = 256
    status: str = ""  # ok; failed (error says why, no rate); skipped (not run, error says why)
    error: str | None = None
    failed: int = 0  # translations that failed (Status.FAILED), warm-up included
    ran_backend: str = ""
    ran_compute_type: str = ""
    sentences: int = 0  # timed
    batches: int = 0  # of the timed call
    seconds: float | None = None  # the timed call
    call_sentences_per_second: float | None = None  # the whole call, its text chain before the first batch included
    steady_sentences: int = 0  # after the first STEADY_SKIP batches
    steady_seconds: float | None = None
    sentences_per_second: float | None = None  # steady: the steady rate; latency, reference: the call's
    target_tokens_per_second: float | None = None  # the whole call
    mean_output_tokens: float | None = None
    hit_length_cap: int = 0
    identical_to_cpu_int8: float | None = None  # on the first REFERENCE_SENTENCES (small-cs-en only)
    compared: int = 0
    meets_identity_bar: bool | None = None  # identical_to_cpu_int8 >= IDENTICAL_BAR
    gpu_util_mean: float | None = None  # over the span of sentences_per_second
    gpu_util_samples: int = 0
    gpu_memory_max_mib: float | None = None
    call_gpu_util_mean: float | None = None
    log_tail: list[str] = field(default_factory=list)  # a failed case's last log lines
    hypotheses: list[str] = field(default_factory=list, repr=False)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.backend, self.compute_type, self.device


@dataclass
class BackendCheck:
    """A backend at one compute type on the first 64 sentences, before any long case; the cases of a backend that
    fails it are skipped with its error."""

    backend: str
    compute_type: str
    device: str
    ok: bool = False
    error: str | None = None
    failed: int = 0
    seconds: float = 0.0  # the whole check: process start, model load, first decode (where a GPU compiles kernels)
    identical_to_cpu_int8: float | None = None
    log_tail: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Limits:
    stall_seconds: float  # a case that reports no progress for this long is stopped
    check_seconds: float  # each backend check's limit, start-up included
    end: float  # time.monotonic() past which a running case is stopped


def case_config(row: CaseRow, model_dir: Path, device: str, length: int | None = None) -> dict[str, Any]:
    """The case's TranslateConfig (as JSON): CTranslate2 on ``device`` at beam 12, all cores, the row's sets last;
    an invalid set raises the config's one-line error."""
    sets = [f"translate.model={model_dir}", "translate.backend=ctranslate2", f"translate.device={device}",
            f"translate.beam_size={BEAM}", "translate.threads=0",
            *([f"translate.max_decoding_length={length}"] if length else []), *row.sets]
    return load_config(None, sets).translate.model_dump(mode="json")


def describe_failure(failed: int, error: str | None) -> str:
    return f"FAILED{f' ({failed} translations failed)' if failed else ''}: {error}"


def backend_checks(plan: list[tuple[str, str, str]], model_dir: Path, sentences: list[str], work: Path,
                   limits: Limits) -> list[BackendCheck]:
    """Every (backend, compute type, device) of ``plan`` on ``sentences``, all at once, each in its own process and
    stopped after ``limits.check_seconds``."""
    path = work / "check-sentences.json"
    path.write_text(json.dumps(sentences), encoding="utf-8")

    def check(key: tuple[str, str, str]) -> tuple[BackendCheck, Outcome]:
        started = time.monotonic()
        row = CaseRow("check", (f"translate.backend={key[0]}", f"translate.compute_type={key[1]}",
                                f"translate.device={key[2]}"))
        outcome = run_case(case_config(row, model_dir, key[2]), path, None, 0, None, load_translator,
                           work / ("check-" + "-".join(key) + ".log"), limits.check_seconds,
                           min(limits.end, started + limits.check_seconds))
        result = BackendCheck(*key, ok=outcome.status == "ok", error=outcome.error, failed=outcome.failed,
                              seconds=round(time.monotonic() - started, 1), log_tail=outcome.log_tail)
        return result, outcome

    with ThreadPoolExecutor(len(plan)) as pool:
        done = list(pool.map(check, plan))
    reference = dict(zip(plan, done, strict=True)).get(("ctranslate2", "int8", "cpu"))
    for result, outcome in done:
        if reference is not None and reference[0].ok and result.ok:
            same = sum(a == b for a, b in zip(outcome.hypotheses, reference[1].hypotheses, strict=True))
            result.identical_to_cpu_int8 = round(same / len(outcome.hypotheses), 4)
        verdict = "ok" if result.ok else describe_failure(result.failed, result.error)
        if result.identical_to_cpu_int8 is not None:
            verdict += f", hypotheses identical to CPU int8: {result.identical_to_cpu_int8:.0%}"
        print(f"  {result.backend:11s} {result.compute_type:13s} {result.device:4s} {result.seconds:5.1f}s {verdict}",
              flush=True)
    return [result for result, _ in done]


def steady_span(marks: list[tuple[float, int]], skip: int) -> tuple[float, float, int] | None:
    """(start, end, sentences) from the end of the timed call's batch ``skip`` to its last batch (``marks``: each
    batch's end time and the sentences done by then); None with fewer than two batches after the skipped ones."""
    if len(marks) < skip + 2:
        return None
    (start, before), (end, after) = marks[skip - 1] if skip else marks[0], marks[-1]
    return start, end, after - before


def fill_rates(case: TranslationCase, outcome: Outcome, skip: int, sampler: GpuSampler) -> None:
    """A finished case's rates: the call's, and the steady state's (the headline of a steady case) with the GPU's
    busy share over the same span."""
    assert outcome.start is not None and outcome.end is not None
    n, seconds = outcome.sentences, outcome.end - outcome.start
    case.sentences, case.seconds, case.batches = n, round(seconds, 3), len(outcome.marks)
    case.call_sentences_per_second = round(n / seconds, 1)
    case.target_tokens_per_second = round(outcome.target_tokens / seconds, 1)
    case.mean_output_tokens = round(outcome.target_tokens / n, 2)
    case.hit_length_cap, case.hypotheses = outcome.hit_length_cap, outcome.hypotheses
    call = sampler.window(outcome.start, outcome.end)
    case.call_gpu_util_mean = call["gpu_util_mean"]
    span = steady_span(outcome.marks, skip)
    if span is not None and span[1] > span[0]:
        case.steady_sentences, case.steady_seconds = span[2], round(span[1] - span[0], 6)  # a CPU smoke span is ms long
    if case.measure != "steady":
        case.sentences_per_second, window = case.call_sentences_per_second, call
    elif span is None or span[1] <= span[0]:
        case.status, case.error = "failed", f"no steady state: {len(outcome.marks)} batches, fewer than {skip + 2}"
        return
    else:
        case.sentences_per_second = round(span[2] / (span[1] - span[0]), 1)
        window = sampler.window(span[0], span[1])
    for key, value in window.items():
        setattr(case, key, value)


def time_translation(case: TranslationCase, config: dict[str, Any], sentences: Path, n: int, keep: int,
                     skip: int, sampler: GpuSampler, limits: Limits, log: Path) -> None:
    """Warm up on the first min(256, n/4) of the JSON list ``sentences``, then translate its first ``n`` (timed)
    in a watched process (:func:`gpu_case.run_case`); fills ``case``: its rates when every translation succeeded,
    else its error. ``keep``: the hypotheses kept (the reference subset)."""
    outcome = run_case(config, sentences, n, min(WARMUP, n // 4), keep, load_translator, log, limits.stall_seconds,
                       limits.end)
    case.ran_backend, case.ran_compute_type = outcome.ran_backend, outcome.ran_compute_type
    case.status, case.error, case.failed = outcome.status, outcome.error, outcome.failed
    if outcome.status != "ok" or outcome.start is None or outcome.end is None:
        case.log_tail = outcome.log_tail
        return
    fill_rates(case, outcome, skip, sampler)


def case_sentences(folders: tuple[Path, ...], n: int) -> list[str]:
    """``n`` distinct non-empty Czech sentences of the folders' pairs, in one seeded order (all when fewer)."""
    pool = sorted({line for line in read_pairs(folders)[0] if line.strip()})
    return random.Random(0).sample(pool, min(n, len(pool)))


def case_size(row: CaseRow, config: dict[str, Any], device: str, steady: int, available: int) -> int:
    """Sentences a case translates: its measure's count; a steady case also STEADY_BATCHES buckets' worth."""
    n = steady if row.measure == "steady" else SENTENCES[device][row.measure]
    if row.measure == "steady":
        bucket = config.get("max_batch_tokens") or load_config(None, [f"translate.device={device}"]).translate \
            .batch_tokens(device)
        n = max(n, math.ceil(STEADY_BATCHES * bucket / SOURCE_TOKENS))
    return min(n, available)


class TranslationPart:
    """The backend check, the reference, then the cases of :data:`CASES` by part, so that the pipeline's runs can
    come between them; every case is recorded under ``translation`` as it ends."""

    def __init__(self, data: Data, work: Path, device: str, steady: int, sampler: GpuSampler, budget: Budget,
                 limits: Limits, record: Any) -> None:
        self.work, self.device, self.steady, self.sampler = work, device, steady, sampler
        self.budget, self.limits, self.record, self.write = budget, limits, record, record("translation")
        self.small, self.base = data.small_fairseq, work / "base"
        wanted = max(steady, math.ceil(STEADY_BATCHES * 131_072 / SOURCE_TOKENS)) if device == "cuda" else steady
        self.sample = case_sentences(data.bitexts, max(wanted, CHECK_SENTENCES[device]))
        self.sentences = work / "sentences.json"
        self.sentences.write_text(json.dumps(self.sample), encoding="utf-8")
        self.checks: dict[tuple[str, str, str], BackendCheck] = {}
        self.cases: list[TranslationCase] = []
        self.rates: dict[str, float] = {}  # measured call rates by prior key: the budget's estimates

    def prior_key(self, case: TranslationCase) -> str:
        if case.device == "cpu" and self.device == "cuda":
            return "cpu"
        return "fairseq" if case.backend == "fairseq" else f"{case.model} {case.backend}"

    def estimate(self, case: TranslationCase, n: int) -> float:
        key = self.prior_key(case)
        rate = self.rates.get(key, PRIOR_RATE[self.device][key])
        return LOAD_SECONDS[self.device] + (n + min(WARMUP, n // 4)) / rate

    def resolve(self, row: CaseRow) -> tuple[TranslationCase, dict[str, Any] | None]:
        """The row as a case and its config, or the case failed with the config's error."""
        case = TranslationCase(row.name, row.model, row.measure, list(row.sets))
        length = None
        if row.model == "base-random":  # random weights never stop: every sentence costs the reference's mean
            reference = self.cases[0] if self.cases else None
            length = max(1, round(reference.mean_output_tokens or 16)) if reference else 16
        try:
            config = case_config(row, self.small if row.model == "small-cs-en" else self.base, self.device, length)
        except (ParanmtError, ValueError) as error:
            case.status, case.error = "failed", f"its config: {str(error).splitlines()[0]}"
            return case, None
        case.backend, case.compute_type, case.device = config["backend"], config["compute_type"], config["device"]
        case.batch_tokens = config.get("max_batch_tokens") or 0
        case.inter_threads, case.max_decoding_length = config.get("inter_threads", 0), config["max_decoding_length"]
        return case, config

    def plan(self, rows: list[CaseRow]) -> list[tuple[str, float]]:
        """(case name, estimated seconds) of every row, from the priors."""
        planned = []
        for row in rows:
            case, config = self.resolve(row)
            n = case_size(row, config or {}, self.device, self.steady, len(self.sample))
            planned.append((row.name, self.estimate(case, n) if config else 0.0))
        return planned

    def backend_plan(self, parts: list[str]) -> list[tuple[str, str, str]]:
        """(backend, compute type, device) of every case of ``parts`` and of the reference: what the check covers."""
        keys = {}
        for row in (REFERENCE_ROW, *(row for part in parts for row in CASES[self.device].get(part, ()))):
            case, config = self.resolve(row)
            if config is not None:
                keys[case.key] = None
        return list(keys)

    def check(self, parts: list[str]) -> None:
        n_check = CHECK_SENTENCES[self.device]
        print(f"backend check ({n_check} sentences, {self.limits.check_seconds:.0f} s each, all at once):", flush=True)
        self.checks = {(c.backend, c.compute_type, c.device): c for c in backend_checks(
            self.backend_plan(parts), self.small, self.sample[:n_check], self.work, self.limits)}
        self.record("backend_check")({"sentences": n_check, "seconds_limit": self.limits.check_seconds,
                                      "checks": list(self.checks.values())})

    def run(self, row: CaseRow) -> TranslationCase:
        case, config = self.resolve(row)
        if config is not None:
            self.start(case, row, config)
        self.cases.append(case)
        self.compare(case)
        if case.status == "ok":
            verdict = f"{case.sentences_per_second:8.1f} sent/s ({case.measure}"
            verdict += f", GPU {case.gpu_util_mean}%)" if case.gpu_util_mean is not None else ")"
            if case.identical_to_cpu_int8 is not None:
                verdict += f", {case.identical_to_cpu_int8:.1%} = CPU int8"
                verdict += "" if case.meets_identity_bar else f" (below the {IDENTICAL_BAR:.0%} bar)"
        elif case.status == "failed":
            verdict = describe_failure(case.failed, case.error)
        else:
            verdict = f"skipped: {case.error}"
        print(f"  {case.name:62s} {verdict}", flush=True)
        self.write(self.cases)
        return case

    def start(self, case: TranslationCase, row: CaseRow, config: dict[str, Any]) -> None:
        """Run the case unless its backend failed the check or its estimate does not fit the budget."""
        n = case_size(row, config, self.device, self.steady, len(self.sample))
        check = self.checks.get(case.key)
        if check is not None and not check.ok:
            case.status, case.error = "skipped", f"its backend check failed: {check.error}"
            return
        refused = self.budget.refuse(self.estimate(case, n))
        if refused:
            case.status, case.error = "skipped", refused
            return
        if row.model == "base-random" and not (self.base / "model_card.yaml").exists():
            build_base_model(self.small, self.base, self.device == "cpu")
            config = case_config(row, self.base, self.device, case.max_decoding_length)
        keep = SENTENCES[self.device]["reference"] if row.model == "small-cs-en" else 0
        time_translation(case, config, self.sentences, n, keep, STEADY_SKIP[self.device], self.sampler,
                         self.limits, self.work / f"case-{len(self.cases)}.log")
        if case.status == "ok" and case.call_sentences_per_second:
            self.rates[self.prior_key(case)] = case.call_sentences_per_second

    def compare(self, case: TranslationCase) -> None:
        """The share of the reference subset ``case`` translated as the CPU int8 reference did."""
        reference = self.cases[0]
        if case.status == reference.status == "ok" and case.model == "small-cs-en" and reference.hypotheses:
            pairs = list(zip(case.hypotheses, reference.hypotheses, strict=False))
            case.compared = len(pairs)
            case.identical_to_cpu_int8 = round(sum(a == b for a, b in pairs) / len(pairs), 4) if pairs else None
            if case.identical_to_cpu_int8 is not None:
                case.meets_identity_bar = case.identical_to_cpu_int8 >= IDENTICAL_BAR

    def part(self, name: str) -> None:
        if not self.cases:
            print("translation, beam 12:", flush=True)
            self.run(REFERENCE_ROW)
        for row in CASES[self.device].get(name, ()):
            self.run(row)

    def standalone(self) -> dict[str, Any]:
        """The standalone rates the pipeline is compared with: the case at the pipeline's settings (no sets), and
        the best steady small-cs-en case on the device."""
        ok = [c for c in self.cases if c.status == "ok" and c.model == "small-cs-en" and c.device == self.device
              and c.measure == "steady"]
        # the case with no sets on a GPU; on the CPU the reference, whose sets are the CPU's pipeline settings
        same = next((c for c in ok if not c.sets), None) if self.device == "cuda" else (
            self.cases[0] if self.cases and self.cases[0].status == "ok" else None)
        best = max(ok, key=lambda c: c.sentences_per_second or 0, default=None)
        return {"pipeline_settings": same.sentences_per_second if same else None,
                "best": best.sentences_per_second if best else None, "best_case": best.name if best else None}


# ------------------------------------------------------------------------------------------------- pipeline

def bitext_inputs(bitexts: tuple[Path, ...], work: Path, sizes: list[int]) -> list[tuple[Path, Path, int]]:
    """Every pair of the bitexts' files (by folder, then by name) in one seeded random order, so that every size
    has the same mix of sources; the first ``n`` pairs of that order as one pair of files per size (0: all)."""
    cs, en = read_pairs(bitexts)
    order = np.random.default_rng(0).permutation(len(cs))
    inputs = []
    for size in sizes:
        n = min(size or len(order), len(order))
        paths = []
        for side, lines in (("cs", cs), ("en", en)):
            path = work / f"bitext-{n}.{side}"
            path.write_text("".join(lines[i] + "\n" for i in order[:n]), encoding="utf-8")
            paths.append(path)
        inputs.append((paths[0], paths[1], n))
    return inputs


def run_driver(code: Path, payload: dict[str, Any], end: float) -> tuple[int | None, str, str, bool]:
    """The pipeline driver in its own process and session (a run stopped at ``end``, monotonic, takes its worker
    processes with it): (exit code, stdout, stderr, stopped)."""
    # PYTHONFAULTHANDLER: a run that dies of a signal leaves every thread's Python stack in its stderr tail.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(code), os.environ.get("PYTHONPATH", "")]),
           "PARANMT_CODE_VERSION": "gpu-suite", "PYTHONFAULTHANDLER": "1"}
    process = subprocess.Popen([sys.executable, "-c", DRIVER, json.dumps(payload)], env=env, cwd=code,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=max(0.0, end - time.monotonic()))
        return process.returncode, stdout, stderr, False
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
            os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        return process.returncode, stdout, stderr, True


def pipeline_run(label: str, code: Path, inputs: tuple[Path, Path], out: Path, sets: list[str], workers: int,
                 sampler: GpuSampler, end: float) -> dict[str, Any]:
    """One run of the pipeline in its own process; rows/s only when it finished and every row's translation
    succeeded, else ``status: failed`` with its error and stderr's last lines. Stopped at ``end`` (monotonic)."""
    beam_args = ["--runner=FnApiRunner"]
    if workers > 1:
        beam_args += ["--direct_running_mode=multi_processing", f"--direct_num_workers={workers}"]
    payload = {"cs": str(inputs[0]), "en": str(inputs[1]), "out": str(out), "sets": sets, "beam_args": beam_args}
    start = time.monotonic()
    exit_code, stdout, stderr, stopped = run_driver(code, payload, end)
    finish = time.monotonic()
    row: dict[str, Any] = {"label": label, "code": "this" if code == REPO else str(code), "workers": workers,
                           "sets": [shown_setting(s) for s in sets], "status": "failed",
                           "process_seconds": round(finish - start, 1), **sampler.window(start, finish)}
    lines = [line for line in stdout.splitlines() if line.startswith("SUMMARY ")]
    if stopped or exit_code or not lines:
        finished = "after its summary" if lines else "before its summary"
        row["error"] = ("stopped: past the time limit" if stopped else
                        f"exit {exit_code} {finished}: {' | '.join(stderr.strip().splitlines()[-3:])}")
        row["stderr_tail"] = stderr.strip().splitlines()[-80:]
        return row
    summary = json.loads(lines[-1].removeprefix("SUMMARY "))
    window = summary.pop("translation_window", None)
    row.update(summary)
    translated, span = summary.get("translated_rows") or 0, summary.get("translation_seconds")
    failed = (summary.get("rejected_by_reason") or {}).get(Reason.TRANSLATION_FAILED.value, 0)
    row["translated"] = translated
    if failed or not translated:
        row["error"] = f"{failed} of {summary['read']} rows' translations failed" if failed else "no row translated"
        row["stderr_tail"] = stderr.strip().splitlines()[-80:]
        return row
    row["status"] = "ok"
    row["rows_per_second"] = round(summary["read"] / summary["wall_seconds"], 1)
    if span:
        row["translation_rows_per_second"] = round(translated / span, 1)
        row["wall_over_translation"] = round(summary["wall_seconds"] / span, 3)
    if window:  # the translation's span is on the wall clock (all workers'), the sampler's on this one's monotonic
        offset = time.time() - time.monotonic()
        row["translation_gpu"] = sampler.window(window[0] - offset, window[1] - offset)
    row["train_digest"] = shards_digest(out / "train")
    return row


def shown_setting(setting: str) -> str:
    """``key=value`` with a path value shown relative to the repository (:func:`paths.shown`)."""
    key, _, value = setting.partition("=")
    return f"{key}={shown(value)}" if value.startswith("/") else setting


def marginal(small: dict[str, Any], large: dict[str, Any]) -> dict[str, Any] | None:
    """Rows/s between two runs of one mode at two input sizes: what each row more costs, a fixed start-up left out
    (as benchmarks/pipeline_bench.py measures it); None unless both finished."""
    if small.get("status") != "ok" or large.get("status") != "ok" or large["read"] <= small["read"]:
        return None
    seconds = large["wall_seconds"] - small["wall_seconds"]
    rows = large["read"] - small["read"]
    return {"rows": rows, "seconds": round(seconds, 3),
            "rows_per_second": round(rows / seconds, 1) if seconds > 0 else None}


def standin_predictions(path: Path = STANDIN) -> dict[str, Any]:
    """What the CPU stand-in (``gpu_standin.py``) measured per mode at its largest size, this code: marginal rate
    over its standalone rate, wall over the translation span, the stand-in's busy share over the span."""
    if not path.is_file():
        return {}
    standin = json.loads(path.read_text(encoding="utf-8"))
    predicted: dict[str, Any] = {}
    for run in standin.get("pipeline", []):
        if run.get("code", "this code") != "this code":
            continue
        mode = "in-process" if run.get("workers", 1) == 1 else "workers"
        if run.get("rows", 0) >= predicted.get(mode, {}).get("rows", 0):
            predicted[mode] = {"rows": run.get("rows"), "workers": run.get("workers"),
                               "marginal_over_standalone": run.get("marginal_over_standalone"),
                               "wall_over_translation": run.get("wall_over_translation"),
                               "busy_share": run.get("busy_share"), "note": run.get("note")}
    return {"source": shown(path), "command": standin.get("command"), "rate": standin.get("rate"),
            "cores": standin.get("cores"), "modes": predicted}


def pipeline_summary(rows: list[dict[str, Any]], modes: dict[str, int], sizes: tuple[int, int],
                     standalone: dict[str, Any], standin: dict[str, Any]) -> dict[str, Any]:
    """Per mode: the marginal rate between the sizes over the standalone rates, wall over the translation span and
    the GPU's busy share over it at the larger size, each beside the stand-in's prediction."""
    summary = {}
    for mode in modes:
        runs = {r["input_pairs"]: r for r in rows if r.get("name") == "this" and r.get("mode") == mode}
        rate = marginal(runs.get(sizes[0], {}), runs.get(sizes[1], {}))
        entry: dict[str, Any] = {"marginal": rate}
        for key in ("pipeline_settings", "best"):
            base = standalone.get(key)
            if rate and rate["rows_per_second"] and base:
                entry[f"marginal_over_standalone_{key}"] = round(rate["rows_per_second"] / base, 3)
        top = runs.get(sizes[1], {})
        entry["wall_over_translation"] = top.get("wall_over_translation")
        entry["translation_gpu_util_mean"] = (top.get("translation_gpu") or {}).get("gpu_util_mean")
        entry["standin_predicted"] = standin.get("modes", {}).get(mode)
        summary[f"this, {mode}"] = entry
        if rate:
            print(f"  {mode}: marginal {rate['rows_per_second']} rows/s ("
                  f"{', '.join(f'{k} {v}' for k, v in entry.items() if k.startswith('marginal_over'))}); "
                  f"stand-in predicted {(entry['standin_predicted'] or {}).get('marginal_over_standalone')}",
                  flush=True)
    return summary


def same_train(rows: list[dict[str, Any]], modes: dict[str, int], sizes: tuple[int, int]) -> dict[str, bool]:
    """Per size: whether every mode wrote the same ``train/`` rows (sizes where every mode finished)."""
    same = {}
    for n in sizes:
        digests = {r["mode"]: r.get("train_digest") for r in rows
                   if r.get("name") == "this" and r.get("input_pairs") == n and r["status"] == "ok"}
        if len(digests) == len(modes):
            same[str(n)] = len(set(digests.values())) == 1
    return same


def pipeline_part(data: Data, work: Path, device: str, before: Path | None, sizes: list[int], workers: int,
                  sampler: GpuSampler, budget: Budget, record: Any, standalone: dict[str, Any]) -> dict[str, Any]:
    """The pipeline in-process and with worker processes, each at two input sizes (the larger first), optionally
    an older checkout's beside it; the marginal rates of each mode beside the standalone rates of the same run."""
    small, large = bitext_inputs(data.bitexts, work, sizes)
    # The model is named: an older checkout's packages do not carry it.
    sets = [f"translate.model={DEFAULT_MODEL_DIR}", f"translate.device={device}", "pipeline.translation_cache=false",
            "lexicon.enabled=false"]
    if data.glove is not None:
        sets += [f"score.embeddings={data.glove}", "score.embeddings_format=kumo"]
    modes = {"in-process": 1, "workers": workers}
    plans = [("this", REPO, mode, size) for mode in modes for size in (large, small)]
    plans += [("before", before, mode, size) for mode in modes for size in (large, small)] if before else []
    rows: list[dict[str, Any]] = []
    result: dict[str, Any] = {"sizes": [small[2], large[2]], "standalone": standalone, "runs": rows}
    start_seconds, rate = PIPELINE_PRIOR[device]
    for k, (name, code, mode, inputs) in enumerate(plans):
        label = f"{name}, {mode}, {inputs[2]} pairs"
        refused = budget.refuse(start_seconds + inputs[2] / rate)
        if refused:
            rows.append({"label": label, "name": name, "mode": mode, "input_pairs": inputs[2], "status": "skipped",
                         "error": refused})
            print(f"  {label:34s} skipped: {refused}", flush=True)
            continue
        row = pipeline_run(label, code, inputs[:2], work / f"pipeline-{k}", sets, modes[mode], sampler, budget.end)
        row.update(name=name, mode=mode, input_pairs=inputs[2])
        rows.append(row)
        if row["status"] == "ok":
            rate = row["rows_per_second"]  # the estimates of the runs after it: start-up included, so on the safe side
            util = (row.get("translation_gpu") or {}).get("gpu_util_mean")
            print(f"  {label:34s} wall {row['wall_seconds']:7.1f}s  {row['rows_per_second']:8.1f} rows/s  "
                  f"translation {row.get('translation_seconds') or 0:6.1f}s "
                  f"({row.get('translation_rows_per_second', 0):.0f}/s, GPU {util if util is not None else '-'}%)",
                  flush=True)
        else:
            print(f"  {label:34s} FAILED: {row['error']}", flush=True)
        record(result)
    result.update(modes=pipeline_summary(rows, modes, (small[2], large[2]), standalone, standin_predictions()),
                  same_train_in_every_mode=same_train(rows, modes, (small[2], large[2])))
    record(result)
    return result


# ------------------------------------------------------------------------------------------------- fail fast


def fail_fast_scenarios(device: str) -> list[tuple[str, list[str], dict[str, str], str]]:
    """(label, flags, environment, code run before the pipeline) of each broken backend: a backend that fails on
    its device after the probe (:mod:`broken_backend`); on a GPU also a CTranslate2 that cannot open cuBLAS
    (imported before paranmt's ``translate``, so the libraries are not routed) and a GPU that is not visible."""
    scenarios = [("backend fails on its device mid-run",
                  [f"--device={device}", "--set=translate.backend=benchmarks.gpu.broken_backend:DeviceFault"], {}, "")]
    if device == "cuda":
        scenarios += [
            ("CTranslate2 without cuBLAS", ["--device=cuda", "--backend=ctranslate2"], {}, "import ctranslate2"),
            ("no GPU visible", ["--device=cuda"], {"CUDA_VISIBLE_DEVICES": ""}, "")]
    return scenarios


def fail_fast_run(out: Path, flags: list[str], env: dict[str, str], before: str, limit: float
                  ) -> tuple[int | None, str, float]:
    """``python -m pipeline.run`` on the bundled sample with ``flags``: (exit code, stderr, seconds)."""
    sample = REPO / "configs" / "sample"
    argv = ["--cs", str(sample / "sample.cs"), "--en", str(sample / "sample.en"), "--out", str(out), "--quiet",
            "--no-translation-cache", *flags]
    code = (f"{before}\nimport runpy, sys\nsys.argv = ['pipeline.run', *{argv!r}]\n"
            "runpy.run_module('pipeline.run', run_name='__main__')")
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                              timeout=limit, env={**os.environ, **env, "PYTHONPATH": os.pathsep.join(
                                  [str(REPO), os.environ.get("PYTHONPATH", "")])})
        exit_code, stderr = done.returncode, done.stderr
    except subprocess.TimeoutExpired as error:
        exit_code = None
        stderr = error.stderr.decode(errors="replace") if isinstance(error.stderr, bytes) else (error.stderr or "")
    return exit_code, stderr, round(time.monotonic() - started, 1)


def fail_fast_part(work: Path, device: str, record: Any) -> list[dict[str, Any]]:
    """Each broken backend of :func:`fail_fast_scenarios`: it must end with exit 2 and one stderr line, write no
    final output (``ok``), and within :data:`FAIL_FAST_GOAL` seconds (``within_goal``, recorded beside it)."""
    rows = []
    for k, (label, flags, env, before) in enumerate(fail_fast_scenarios(device)):
        out = work / f"fail-fast-{k}"
        exit_code, stderr, seconds = fail_fast_run(out, flags, env, before, FAIL_FAST_LIMIT[device])
        lines = [line for line in stderr.splitlines() if line.strip()]
        final = sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) if out.is_dir() else []
        ok = exit_code == 2 and len(lines) == 1 and not {"train", "pairs", "summary.json"} & set(final)
        rows.append({"label": label, "ok": ok, "within_goal": seconds <= FAIL_FAST_GOAL, "goal_seconds":
                     FAIL_FAST_GOAL, "exit_code": exit_code, "seconds": seconds, "stderr_lines": len(lines),
                     "stderr_tail": lines[-5:], "written": final})
        print(f"  {label:40s} exit {exit_code} in {seconds:5.1f}s, {len(lines)} stderr line(s)"
              f"{'' if ok else ' -- NOT as it should be'}: {lines[-1] if lines else ''}", flush=True)
        record(rows)
    return rows


# ------------------------------------------------------------------------------------------------- training


def encoders_part(data: Data, device: torch.device, smoke: bool, budget: Budget, record: Any) -> dict[str, Any]:
    """WORD, TRIGRAM and SP pairs/s at two mega-batch sizes on caption pairs, and a 5M-pair WORD epoch from them."""
    n_pairs, min_pairs, dim, megabatches = (1_200, 400, 32, (1, 4)) if smoke else (60_000, 40_000, 300, (1, 40))
    left, right, groups = caption_pairs(data.captions, n_pairs)
    both = pa.chunked_array([left, right])
    pieces = SentencePieceVocab.train(sentence_strings(both).to_pylist(), vocab_size=2_000 if smoke else 16_000)
    vocab = (WordVocab.build(count_words(both)), TrigramVocab.build(count_trigrams(sentence_strings(both))), pieces)
    cases: list[dict[str, Any]] = []
    per_case = ENCODERS_SECONDS["cpu" if smoke else "cuda"] / 6
    for model in ("word", "trigram", "sp"):
        for m in megabatches:
            refused = budget.refuse(per_case)
            if refused:
                cases.append({"model": model, "megabatch": m, "status": "skipped", "error": refused})
                continue
            case = run_train_case(model, m, device, (left, right, groups), vocab, min_pairs, 0, dim)
            cases.append({**asdict(case), "status": "ok"})
            print(f"  {model:8s} M={m:<3d} {case.pairs_per_second:10.0f} pairs/s  mining "
                  f"{100 * case.mining_fraction:5.1f}%", flush=True)
            record({"cases": cases})
    word = [c for c in cases if c["model"] == "word" and c["status"] == "ok"]
    epoch = None
    if word:
        top = max(word, key=lambda c: c["megabatch"])
        epoch = {"pairs": EPOCH_PAIRS, "megabatch": top["megabatch"],
                 "minutes": round(EPOCH_PAIRS / top["pairs_per_second"] / 60, 2)}
    return {"pairs": n_pairs, "dim": dim, "cases": cases, "word_epoch": epoch}


# ------------------------------------------------------------------------------------------------- main

# The default order is the priority: a part the budget reaches late is the one cut (a second call runs the rest).
PARTS = ("translate", "failfast", "pipeline", "nmt-train", "base", "sweep", "encoders")
TRANSLATION_PARTS = ("translate", "sweep", "base")


def environment(device: str) -> dict[str, Any]:
    info: dict[str, Any] = {"python": platform.python_version(), "torch": torch.__version__,
                            "cpu_cores": os.cpu_count(), "machine": platform.machine()}
    if device == "cuda":
        info["gpu"] = torch.cuda.get_device_name(0)
        info["torch_cuda"] = torch.version.cuda
    for name in ("ctranslate2", "fairseq"):
        try:
            info[name] = __import__(name).__version__
        except Exception as error:
            info[name] = f"unavailable: {error}"
    with contextlib.suppress(Exception):
        info["ctranslate2_cuda_devices"] = __import__("ctranslate2").get_cuda_device_count()
    if shutil.which("nvidia-smi"):
        query = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                               capture_output=True, text=True)
        info["nvidia_smi"] = query.stdout.strip()
    if device == "cuda":  # which cuBLAS CTranslate2 opens, and how (translate.cuda_libraries), or why it has none
        info["ctranslate2_cublas"] = cublas_line(process_route())[1]
    return info


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="CPU, small sizes: the code paths in a minute or two")
    parser.add_argument("--bundle", type=Path, help="an unpacked gpu_bundle.py archive instead of ../shared")
    parser.add_argument("--before", type=Path, help="an older commit's packages: its pipeline runs beside this one")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"comma-separated, run in the order given (the backend check first): {', '.join(PARTS)}")
    parser.add_argument("--sentences", type=int,
                        help="sentences of a steady translation case, at least (default 40,000; --smoke 24); a case "
                             f"also translates {STEADY_BATCHES} batches of its bucket")
    parser.add_argument("--pipeline-sizes", default=None,
                        help="the pipeline's two input sizes in pairs (0: every pair of the bitext and the "
                             "LibreOffice corpus; default 27000,0; --smoke 60,120)")
    parser.add_argument("--workers", type=int, help="worker processes of the multi-process runs (default: cores)")
    parser.add_argument("--train-seconds", type=float,
                        help="the back-translation model's training box (default 60; --smoke 20)")
    parser.add_argument("--minutes", type=float, default=7.0,
                        help="the run's budget: a case whose estimate no longer fits is skipped, a running one is "
                             f"stopped {GRACE_SECONDS:.0f} s past it")
    parser.add_argument("--stall-seconds", type=float, default=60.0,
                        help="stop a translation case that reports no progress (a loaded model, a decoded batch) "
                             "for this long")
    parser.add_argument("--check-seconds", type=float, default=60.0,
                        help="the limit of each backend's check (a few sentences, before any long case)")
    parser.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    parser.add_argument("--json", type=Path, help="write the results here (after every case)")
    args = parser.parse_args(argv)
    args.parts = [part for part in args.parts.split(",") if part]
    unknown = sorted(set(args.parts) - set(PARTS))
    if unknown:
        parser.error(f"--parts: unknown {', '.join(unknown)} (known: {', '.join(PARTS)})")
    return args


class Suite:
    """One run: the result dictionary written (scrubbed) after every case, the budget, the parts in order."""

    def __init__(self, args: argparse.Namespace, argv: list[str]) -> None:
        self.args, self.device = args, "cpu" if args.smoke else "cuda"
        self.started = time.monotonic()
        self.work = args.work or Path(tempfile.mkdtemp(prefix="gpu-suite-"))
        self.work.mkdir(parents=True, exist_ok=True)
        self.roots = suite_roots(self.work, args.bundle)
        self.budget = Budget(self.started, args.minutes * 60)
        self.limits = Limits(args.stall_seconds, args.check_seconds, self.budget.end)
        self.result: dict[str, Any] = {"command": " ".join(["python", "benchmarks/gpu/gpu_suite.py", *argv]),
                                       "code": code_commit(REPO), "device": self.device, "beam": BEAM,
                                       "minutes": args.minutes, "parts": args.parts}
        self.sampler = GpuSampler()
        self.data = Data.locate(args.bundle, self.work)
        self.preparation = None
        if "nmt-train" in args.parts:  # CPU work: it overlaps the GPU cases
            self.preparation = start_preparation(self.data.bitexts, self.work / "nmt-train", args.smoke,
                                                 DEFAULT_MODEL_DIR / "bpe.codes")
        self.translation = TranslationPart(self.data, self.work, self.device, args.sentences or SENTENCES[
            self.device]["steady"], self.sampler, self.budget, self.limits, self.record)

    def record(self, key: str) -> Any:
        def write(value: Any) -> None:
            self.result[key] = value
            self.write()
        return write

    def write(self) -> None:
        self.result["seconds"] = round(time.monotonic() - self.started, 1)
        if not self.args.json:
            return
        clean = json.loads(json.dumps(self.result, default=lambda o: asdict(o)))
        for case in clean.get("translation", []):
            case.pop("hypotheses", None)
        self.args.json.write_text(json.dumps(scrub(clean, self.roots), indent=1) + "\n", encoding="utf-8")

    def plan(self) -> None:
        """Print and record every planned case with its estimate (the priors), in order, against the budget."""
        parts, device = self.args.parts, self.device
        planned: list[tuple[str, float]] = []
        if set(parts) & {*TRANSLATION_PARTS, "pipeline"}:
            planned.append(("backend check", min(CHECK_PRIOR[device], self.args.check_seconds)))
        reference = [REFERENCE_ROW]  # planned once, with the first translation part
        for part in parts:
            if part in TRANSLATION_PARTS:
                planned += self.translation.plan([*reference, *CASES[device].get(part, ())])
                reference = []
            elif part == "failfast":
                planned.append(("fail fast", FAIL_FAST_PRIOR * len(fail_fast_scenarios(device))))
            elif part == "pipeline":
                start_seconds, rate = PIPELINE_PRIOR[device]
                planned += [(f"pipeline, {mode}, {n} pairs", start_seconds + n / rate)
                            for mode in ("in-process", "workers") for n in self.pipeline_sizes()[::-1]]
            elif part == "nmt-train":
                planned.append(("nmt-train", self.train_seconds() + NMT_TRAIN_OVERHEAD[device]))
            elif part == "encoders":
                planned.append(("encoders", ENCODERS_SECONDS[device]))
        total, budget = 0.0, self.budget.seconds
        print(f"plan ({budget:.0f} s budget; estimates from priors, a case that no longer fits is skipped):")
        for name, seconds in planned:
            total += seconds
            print(f"  {total:6.0f} s  {name}{'' if total <= budget else '  (past the budget)'}", flush=True)
        self.result["plan"] = [{"case": name, "estimate_seconds": round(s, 1)} for name, s in planned]

    def pipeline_sizes(self) -> list[int]:
        text = self.args.pipeline_sizes or ("60,120" if self.args.smoke else "27000,0")
        total = len(read_pairs(self.data.bitexts)[0])
        return [min(int(n) or total, total) for n in text.split(",")]

    def train_seconds(self) -> float:
        return self.args.train_seconds or (20.0 if self.args.smoke else 60.0)

    def nmt_train(self) -> None:
        seconds = self.train_seconds()
        estimate = seconds + NMT_TRAIN_OVERHEAD[self.device]
        refused = self.budget.refuse(estimate)
        if refused:
            if self.preparation is not None:
                self.preparation.kill()
            self.record("nmt_train")({"status": "skipped", "error": refused})
            print(f"  skipped: {refused}", flush=True)
            return
        row = nmt_train_part(self.work / "nmt-train", self.device, self.args.smoke, seconds, self.preparation,
                             self.budget.left() - estimate, self.translation.sample[:4])
        self.record("nmt_train")(row)
        if row["status"] == "ok":
            czeng = row.get("czeng") or {}
            print(f"  {row['preset']}: {row['target_tokens_per_second']:.0f} target / "
                  f"{row['source_tokens_per_second']:.0f} source tokens/s; CzEng: {czeng.get('hours_per_epoch')} h "
                  f"an epoch, {czeng.get('hours')} h for {czeng.get('epochs')}; decoded: {row['decoded'][:1]}",
                  flush=True)
        else:
            print(f"  FAILED: {row.get('error')}", flush=True)

    def run_part(self, part: str) -> None:
        if part in TRANSLATION_PARTS:
            print(f"{part}:", flush=True)
            self.translation.part(part)
        elif part == "failfast":
            print("fail fast (broken backends, one line each):", flush=True)
            fail_fast_part(self.work, self.device, self.record("fail_fast"))
        elif part == "pipeline":
            print("pipeline:", flush=True)
            pipeline_part(self.data, self.work, self.device, self.args.before, self.pipeline_sizes(),
                          self.args.workers or (2 if self.args.smoke else os.cpu_count() or 1), self.sampler,
                          self.budget, self.record("pipeline"), self.translation.standalone())
        elif part == "nmt-train":
            print("nmt-train (the back-translation model's base preset, time-boxed):", flush=True)
            self.nmt_train()
        elif part == "encoders":
            print("encoders (WORD, TRIGRAM, SP):", flush=True)
            self.record("encoders")(encoders_part(self.data, torch.device(self.device), self.args.smoke,
                                                  self.budget, self.record("encoders")))

    def run(self) -> None:
        self.result["environment"] = environment(self.device)
        print(json.dumps(scrub(self.result["environment"], self.roots), indent=1), flush=True)
        self.plan()
        self.write()
        try:
            if set(self.args.parts) & {*TRANSLATION_PARTS, "pipeline"}:
                self.translation.check([p for p in self.args.parts if p in TRANSLATION_PARTS])
            for part in self.args.parts:
                self.run_part(part)
        finally:
            self.sampler.stop()
            if self.preparation is not None and self.preparation.poll() is None:
                self.preparation.kill()
            self.write()
        print(f"suite: {time.monotonic() - self.started:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.smoke and not torch.cuda.is_available():
        print("error: no CUDA device visible: run with --smoke to check the suite on the CPU", file=sys.stderr)
        return 2
    if args.bundle is None and not SHARED.is_dir():
        print(f"error: {SHARED} is absent: pass --bundle (benchmarks/gpu/gpu_bundle.py) or put ../shared beside the "
              "repository", file=sys.stderr)
        return 2
    Suite(args, sys.argv[1:] if argv is None else argv).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
