"""The translation part of ``gpu_suite.py``: the cases (:data:`CASES`), where the inputs are, the budget, the
GPU's busy share, and each case in a watched process of its own (``gpu_case.py``) with its steady rate and its
agreement with the CPU reference."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from benchmarks.gpu.gpu_bundle import BITEXTS
from benchmarks.gpu.gpu_case import Outcome, run_case
from benchmarks.gpu.gpu_nmt_train import read_pairs
from benchmarks.paths import SHARED
from configs import load_config
from paranmt.core.errors import ParanmtError
from translate.card import DEFAULT_MODEL_DIR
from translate.convert import convert_fairseq
from translate.loading import load_translator

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
TRANSLATION_PARTS = ("translate", "sweep", "base")
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


