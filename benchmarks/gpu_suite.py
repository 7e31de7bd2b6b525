"""The GPU worker, measured in one run: back-translation at beam 12, the pipeline with ``--device cuda``, training.

    .venv/bin/python benchmarks/gpu_suite.py --json gpu_suite.json          # a CUDA machine with ../shared
    .venv/bin/python benchmarks/gpu_suite.py --smoke                        # the same code on the CPU, in a minute
    python3 benchmarks/gpu_suite.py --bundle DIR --json gpu_suite.json      # an offline GPU image (gpu_bundle.py)

**backend check**, first: every backend at every compute type the run uses (and the CPU reference) translates the
first 64 sentences, all at once, each in its own process and stopped after ``--check-seconds``; the JSON's
``backend_check`` says per backend whether it worked, its error, its seconds and the share of its hypotheses
identical to the CPU reference's. The cases of a backend that failed its check are recorded as skipped with that error.

**translate**: the same Czech sentences (``translate_cpu_bench.sample_bitext``: a seeded sample of every file of
the bitext) through the pipeline's ``Translator`` at beam 12:

* small-cs-en (the repository's model) with CTranslate2 at the pipeline's settings (compute type ``auto``, the
  device's default budget), at every compute type the GPU offers, a sweep of tokens per batch and of batches decoded
  at once (``inter_threads``), and with fairseq on the machine's PyTorch (``--short``: float16 and its budgets only);
* (part ``base``) a transformer-base-sized model (fairseq's ``transformer_wmt_en_de``, 6+6 layers of 512, over
  small-cs-en's vocabularies, random weights with a fixed seed) with both backends. Random weights never emit EOS,
  so its length cap is set to small-cs-en's mean output length on the same sentences: every sentence then costs as
  many decoder steps as a real translation does on average;
* the CPU reference: CTranslate2 int8 on all the machine's cores with the CPU defaults (the pipeline's CPU path).

Each case runs in a process of its own (``gpu_case.py``), stopped when it reports no progress for
``--stall-seconds``: sentences/s, target tokens/s, GPU utilisation and memory (``nvidia-smi`` sampled every 100 ms
during the case) and the share of hypotheses identical to the CPU int8 output. A case with any failed translation
or no target token out is ``status: failed`` with its first error and the count of failed translations, and no
rate (``null``); the printed line says FAILED.

**failfast**: broken backends through ``python -m pipeline.run`` on the bundled sample (:func:`fail_fast_part`):
each must end with exit 2 and one stderr line, and write no final output.

**pipeline**: ``pipeline.job.run_job`` with ``--device cuda`` (translation cache off) over the bitext and the
LibreOffice corpus in one seeded order, at two input sizes (``--pipeline-sizes``), in-process and with one worker
process per core; on a GPU also in-process with the GPU defaults this code replaced, and with ``--before DIR`` (an
older commit's packages) that code too: wall time, rows/s, the translation's span (first call to last, all workers)
and rate, Beam's time per stage, GPU utilisation over the run and over the translation span, whether every mode
wrote the same ``train/``, and per mode the marginal rate between the sizes over the standalone rates of the same
run. A run that fails, is stopped at the time limit, translates no row or has a row's translation fail is
``status: failed`` with its error and stderr's last lines, and no rate.

**train**: pairs/s of WORD, TRIGRAM and SP (300-d) at M = 1 and M = 40 on Multi30k caption pairs, the mining share
of a mega-batch step (``train_bench.run_case``), and a 5M-pair WORD epoch at M = 40 extrapolated from it.

Results are written to ``--json`` after the check and after every case, so a run cut short keeps what it measured;
``--minutes`` stops starting new cases past a time budget, and a case still running ``--stall-seconds`` after it is
stopped. ``--smoke`` runs a few cases of each part with small sizes on the CPU (the default test suite runs it).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import torch  # noqa: E402
from gpu_bundle import BITEXTS  # noqa: E402
from gpu_case import Outcome, run_case  # noqa: E402
from paths import code_commit, shown  # noqa: E402
from pipeline_driver import DRIVER, shards_digest  # noqa: E402
from train_bench import caption_pairs  # noqa: E402
from train_bench import run_case as run_train_case  # noqa: E402
from translate_cpu_bench import sample_bitext  # noqa: E402

from configs.schema import TranslateConfig  # noqa: E402
from core.pair_schema import Reason  # noqa: E402
from train_embeddings.vocab import (  # noqa: E402
    SentencePieceVocab,
    TrigramVocab,
    WordVocab,
    count_trigrams,
    count_words,
    sentence_strings,
)
from translate.card import DEFAULT_MODEL_DIR  # noqa: E402
from translate.convert import convert_fairseq  # noqa: E402
from translate.cuda_libraries import cublas_line, process_route  # noqa: E402
from translate.loading import load_translator  # noqa: E402

SHARED = REPO.parent / "shared"
EPOCH_PAIRS = 5_000_000
BEAM = 12


@dataclass(frozen=True)
class Data:
    """Where the suite's inputs are: ``../shared`` or an unpacked ``gpu_bundle.py`` archive."""

    bitexts: tuple[Path, ...]  # the pipeline's pairs: the bitext (first) and the LibreOffice corpus
    captions: Path
    small_fairseq: Path  # a model directory with small-cs-en's fairseq checkpoint (and CTranslate2 model)
    glove: Path | None  # a kumo-layout GloVe directory for the pipeline's scorer; None: the installed package

    @property
    def bitext(self) -> Path:
        """The translation cases' sentences: the bitext's folder."""
        return self.bitexts[0]

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


# ------------------------------------------------------------------------------------------------- translation

# translate.max_batch_tokens, max_batch_sentences and pipeline.cache_chunk_lines on a GPU before docs/scaling.md's
# measurements set the GPU defaults
BEFORE_GPU_DEFAULTS = ["translate.max_batch_tokens=4096", "translate.max_batch_sentences=512",
                       "pipeline.cache_chunk_lines=500"]
FAIL_FAST_SECONDS = 60.0  # a broken backend's run is stopped after this long (the goal is one line within 10 s)
CHECK_SENTENCES = {False: 64, True: 8}  # by --smoke: fairseq at beam 12 is slow on a CPU, a few sentences check
# Each case first decodes a warm-up of its first sentences: a quarter of them, at most 256.
WARMUP = 256
CPU_REFERENCE = ("ctranslate2", "int8", "cpu")
# CTranslate2's compute types per run (--smoke on the CPU; --short and the full run on the GPU); fairseq's likewise.
SMOKE_CT2 = ("float32", "int8_float32")
GPU_CT2 = {True: ("float16",), False: ("float16", "bfloat16", "int8_float16", "int8", "float32")}
GPU_FAIRSEQ = {True: ("float16",), False: ("float16", "bfloat16")}
# float16 token budgets swept after the 4096 case (--short: around the GPU default, translate.max_batch_tokens None)
GPU_BUDGETS = {True: (32768, 65536), False: (1024, 2048, 8192, 16384, 32768, 65536)}


@dataclass
class TranslationCase:
    model: str
    backend: str
    compute_type: str
    device: str
    batch_tokens: int | None  # None: the device's default bucket
    inter_threads: int = 0
    max_decoding_length: int = 256
    status: str = ""  # ok; failed (error says why, no rate); skipped (not run, error says why)
    error: str | None = None
    failed: int = 0  # translations that failed (Status.FAILED), warm-up included
    ran_backend: str = ""
    ran_compute_type: str = ""
    sentences: int = 0
    seconds: float | None = None
    sentences_per_second: float | None = None
    target_tokens_per_second: float | None = None
    mean_output_tokens: float | None = None
    hit_length_cap: int = 0
    identical_to_cpu_int8: float | None = None
    gpu_util_mean: float | None = None
    gpu_util_samples: int = 0
    gpu_memory_max_mib: float | None = None
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


def backend_plan(device: str, short: bool) -> list[tuple[str, str, str]]:
    """(backend, compute type, device) of every translation case the run may start: what the check covers."""
    if device == "cpu":
        return [CPU_REFERENCE, *(("ctranslate2", c, "cpu") for c in SMOKE_CT2), ("fairseq", "float32", "cpu")]
    return [CPU_REFERENCE, *(("ctranslate2", c, "cuda") for c in GPU_CT2[short]),
            *(("fairseq", c, "cuda") for c in GPU_FAIRSEQ[short])]


def case_config(model_dir: Path, backend: str, compute_type: str, device: str, batch_tokens: int | None = None,
                inter_threads: int = 0, max_decoding_length: int = 256) -> dict[str, Any]:
    return TranslateConfig(model=model_dir, backend=backend, device=device, compute_type=compute_type,
                           beam_size=BEAM, threads=0, max_batch_tokens=batch_tokens, inter_threads=inter_threads,
                           max_decoding_length=max_decoding_length).model_dump(mode="json")


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
        outcome = run_case(case_config(model_dir, *key), path, 0, load_translator, work / ("check-" + "-".join(key)
                           + ".log"), limits.check_seconds, started + limits.check_seconds)
        result = BackendCheck(*key, ok=outcome.status == "ok", error=outcome.error, failed=outcome.failed,
                              seconds=round(time.monotonic() - started, 1), log_tail=outcome.log_tail)
        return result, outcome

    with ThreadPoolExecutor(len(plan)) as pool:
        done = list(pool.map(check, plan))
    reference = dict(zip(plan, done, strict=True)).get(CPU_REFERENCE)
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


def time_translation(case: TranslationCase, model_dir: Path, sentences: Path, warmup: int, sampler: GpuSampler,
                     limits: Limits, log: Path) -> None:
    """Warm up on the first ``warmup`` sentences of the JSON list ``sentences``, then translate all of them once
    (timed), in a watched process (:func:`gpu_case.run_case`); fills ``case``: its rates when every translation
    succeeded, else its error."""
    config = case_config(model_dir, case.backend, case.compute_type, case.device, case.batch_tokens,
                         case.inter_threads, case.max_decoding_length)
    outcome = run_case(config, sentences, warmup, load_translator, log, limits.stall_seconds, limits.end)
    case.ran_backend, case.ran_compute_type = outcome.ran_backend, outcome.ran_compute_type
    case.status, case.error, case.failed = outcome.status, outcome.error, outcome.failed
    if outcome.status != "ok" or outcome.start is None or outcome.end is None:
        case.log_tail = outcome.log_tail
        return
    n, seconds = outcome.sentences, outcome.end - outcome.start
    case.sentences, case.seconds = n, round(seconds, 3)
    case.sentences_per_second = round(n / seconds, 1)
    case.target_tokens_per_second = round(outcome.target_tokens / seconds, 1)
    case.mean_output_tokens = round(outcome.target_tokens / n, 2)
    case.hit_length_cap = outcome.hit_length_cap
    case.hypotheses = outcome.hypotheses
    for key, value in sampler.window(outcome.start, outcome.end).items():
        setattr(case, key, value)


class TranslationPart:
    """The backend check, then the translation cases in two groups (the small model's, the base model's) so that the
    pipeline's runs can come between them; every case is recorded under ``translation`` as it ends."""

    def __init__(self, data: Data, work: Path, device: str, n: int, smoke: bool, short: bool, sampler: GpuSampler,
                 limits: Limits, record: Any, out_of_time: Any) -> None:
        self.work, self.device, self.n, self.smoke, self.short = work, device, n, smoke, short
        self.sampler, self.limits, self.out_of_time = sampler, limits, out_of_time
        self.record, self.write = record, record("translation")
        self.sample = sample_bitext(data.bitext, max(n, CHECK_SENTENCES[smoke]))
        self.sentences = work / "sentences.json"
        self.sentences.write_text(json.dumps(self.sample[:n]), encoding="utf-8")
        self.small = data.small_fairseq
        self.checks: dict[tuple[str, str, str], BackendCheck] = {}
        self.cases: list[TranslationCase] = []
        self.best_tokens: int | None = None  # the float16 budget that decoded small-cs-en fastest

    def check(self) -> None:
        n_check = CHECK_SENTENCES[self.smoke]
        print(f"backend check ({n_check} sentences, {self.limits.check_seconds:.0f} s each, all at once):", flush=True)
        self.checks = {(c.backend, c.compute_type, c.device): c for c in backend_checks(
            backend_plan(self.device, self.short), self.small, self.sample[:n_check], self.work, self.limits)}
        self.record("backend_check")({"sentences": n_check, "seconds_limit": self.limits.check_seconds,
                                      "checks": list(self.checks.values())})

    def run(self, case: TranslationCase, model_dir: Path) -> TranslationCase:
        check = self.checks.get(case.key)
        if check is not None and not check.ok:
            case.status, case.error = "skipped", f"its backend check failed: {check.error}"
        elif self.out_of_time():
            case.status, case.error = "skipped", "out of time"
        else:
            time_translation(case, model_dir, self.sentences, min(WARMUP, self.n // 4), self.sampler, self.limits,
                             self.work / f"case-{len(self.cases)}.log")
        self.cases.append(case)
        reference = self.cases[0]
        if case.status == reference.status == "ok" and case.model == "small-cs-en":
            same = sum(a == b for a, b in zip(case.hypotheses, reference.hypotheses, strict=True))
            case.identical_to_cpu_int8 = round(same / len(reference.hypotheses), 4)
        if case.status == "ok":
            verdict = f"{case.sentences_per_second:8.1f} sent/s"
        elif case.status == "failed":
            verdict = describe_failure(case.failed, case.error)
        else:
            verdict = f"skipped: {case.error}"
        print(f"  {case.model:12s} {case.ran_backend or case.backend:11s} {case.compute_type:13s} "
              f"{case.device:4s} tokens {case.batch_tokens or 'default'!s:>7s} x{case.inter_threads or 1}: "
              f"{verdict}", flush=True)
        self.write(self.cases)
        return case

    def small_model(self) -> None:
        """The CPU reference, then small-cs-en: CTranslate2 at the pipeline's settings (compute type auto, the
        default budget), every compute type, a sweep of budgets and of batches at once; fairseq."""
        print("translation, beam 12:", flush=True)
        small = self.small
        self.run(TranslationCase("small-cs-en", *CPU_REFERENCE, None), small)
        if self.device == "cpu":  # smoke: the code paths, not the speeds
            for compute in SMOKE_CT2:
                self.run(TranslationCase("small-cs-en", "ctranslate2", compute, "cpu", 2048), small)
            self.run(TranslationCase("small-cs-en", "fairseq", "float32", "cpu", 2048), small)
            return
        self.run(TranslationCase("small-cs-en", "ctranslate2", "auto", "cuda", None), small)
        budgets: dict[int, TranslationCase] = {}
        for compute in GPU_CT2[self.short]:
            case = self.run(TranslationCase("small-cs-en", "ctranslate2", compute, "cuda", 4096), small)
            if compute == "float16":
                budgets[4096] = case
        for tokens in GPU_BUDGETS[self.short]:
            budgets[tokens] = self.run(TranslationCase("small-cs-en", "ctranslate2", "float16", "cuda", tokens), small)
        rates = {t: c.sentences_per_second for t, c in budgets.items() if c.sentences_per_second is not None}
        best = self.best_tokens = max(rates, key=lambda t: rates[t]) if rates else None
        if self.short:  # --short: the other compute types, batches at once and fairseq only in the full run
            return
        for inter in (2, 4):
            self.run(TranslationCase("small-cs-en", "ctranslate2", "float16", "cuda", best or 4096,
                                     inter_threads=inter), small)
        self.run(TranslationCase("small-cs-en", "ctranslate2", "int8_float16", "cuda", best or 4096), small)
        for compute in GPU_FAIRSEQ[self.short]:
            self.run(TranslationCase("small-cs-en", "fairseq", compute, "cuda", 4096), small)
        self.run(TranslationCase("small-cs-en", "fairseq", "float16", "cuda", best or 4096), small)

    def base_model(self) -> None:
        """A transformer-base-sized model (random weights, every sentence as long as the CPU reference's mean
        output) with both backends."""
        if self.out_of_time():
            print("base model: skipped, out of time", flush=True)
            return
        base = build_base_model(self.small, self.work / "base", self.smoke)
        length = max(1, round(self.cases[0].mean_output_tokens or 16)) if self.cases else 16
        if self.device == "cpu":
            for backend in ("ctranslate2", "fairseq"):
                self.run(TranslationCase("base-random", backend, "float32", "cpu", 2048, max_decoding_length=length),
                         base)
            return
        best = self.best_tokens
        budgets_base = (best or 4096,) if self.short else sorted({4096, best or 4096})
        for compute in ("float16",) if self.short else ("float16", "int8_float16"):
            for tokens in budgets_base:
                self.run(TranslationCase("base-random", "ctranslate2", compute, "cuda", tokens,
                                         max_decoding_length=length), base)
        for tokens in budgets_base:
            self.run(TranslationCase("base-random", "fairseq", "float16", "cuda", tokens,
                                     max_decoding_length=length), base)

    def standalone(self) -> dict[str, Any]:
        """The standalone rates the pipeline is compared with: CTranslate2 at the pipeline's settings, and the best
        small-cs-en case on the device."""
        ok = [c for c in self.cases if c.status == "ok" and c.model == "small-cs-en" and c.device == self.device
              and c.backend == "ctranslate2"]
        same = next((c for c in ok if c.compute_type == ("auto" if self.device == "cuda" else "int8")
                     and c.batch_tokens is None), None)
        best = max(ok, key=lambda c: c.sentences_per_second or 0, default=None)
        return {"pipeline_settings": same.sentences_per_second if same else None,
                "best": best.sentences_per_second if best else None,
                "best_case": f"{best.compute_type}, {best.batch_tokens or 'default'} tokens, x{best.inter_threads or 1}"
                if best else None}


# ------------------------------------------------------------------------------------------------- pipeline

def bitext_inputs(bitexts: tuple[Path, ...], work: Path, sizes: list[int]) -> list[tuple[Path, Path, int]]:
    """Every pair of the bitexts' files (by folder, then by name) in one seeded random order, so that every size
    has the same mix of sources; the first ``n`` pairs of that order as one pair of files per size (0: all)."""
    sides: dict[str, list[str]] = {"cs": [], "en": []}
    for folder in bitexts:
        for cs in sorted(folder.glob("*.cs")):
            en = cs.with_suffix(".en")
            if en.exists():
                sides["cs"] += cs.read_text(encoding="utf-8").splitlines()
                sides["en"] += en.read_text(encoding="utf-8").splitlines()
    order = np.random.default_rng(0).permutation(len(sides["cs"]))
    inputs = []
    for size in sizes:
        n = min(size or len(order), len(order))
        paths = []
        for side in ("cs", "en"):
            path = work / f"bitext-{n}.{side}"
            path.write_text("".join(sides[side][i] + "\n" for i in order[:n]), encoding="utf-8")
            paths.append(path)
        inputs.append((paths[0], paths[1], n))
    return inputs


def pipeline_run(label: str, code: Path, inputs: tuple[Path, Path], out: Path, sets: list[str], workers: int,
                 sampler: GpuSampler, end: float) -> dict[str, Any]:
    """One run of the pipeline in its own process; rows/s only when it finished and every row's translation
    succeeded, else ``status: failed`` with its error and stderr's last lines. Stopped at ``end`` (monotonic)."""
    beam_args = ["--runner=FnApiRunner"]
    if workers > 1:
        beam_args += ["--direct_running_mode=multi_processing", f"--direct_num_workers={workers}"]
    payload = {"cs": str(inputs[0]), "en": str(inputs[1]), "out": str(out), "sets": sets, "beam_args": beam_args}
    # PYTHONFAULTHANDLER: a run that dies of a signal leaves every thread's Python stack in its stderr tail.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(code), os.environ.get("PYTHONPATH", "")]),
           "PARANMT_CODE_VERSION": "gpu-suite", "PYTHONFAULTHANDLER": "1"}
    start = time.monotonic()
    # Its own session: a run stopped at the time limit takes its worker processes with it.
    process = subprocess.Popen([sys.executable, "-c", DRIVER, json.dumps(payload)], env=env, cwd=code,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=max(0.0, end - start))
        stopped = False
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
            os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        stopped = True
    finish = time.monotonic()
    row: dict[str, Any] = {"label": label, "code": "this" if code == REPO else str(code), "workers": workers,
                           "sets": [shown_setting(s) for s in sets], "status": "failed",
                           "process_seconds": round(finish - start, 1),
                           **sampler.window(start, finish)}
    lines = [line for line in stdout.splitlines() if line.startswith("SUMMARY ")]
    if stopped or process.returncode or not lines:
        finished = "after its summary" if lines else "before its summary"
        row["error"] = ("stopped: past the time limit" if stopped else
                        f"exit {process.returncode} {finished}: {' | '.join(stderr.strip().splitlines()[-3:])}")
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


def pipeline_part(data: Data, work: Path, device: str, before: Path | None, sizes: list[int], workers: int,
                  short: bool, sampler: GpuSampler, limits: Limits, record: Any, out_of_time: Any,
                  standalone: dict[str, Any]) -> dict[str, Any]:
    """The pipeline in-process and with worker processes, each at two input sizes (the larger first); on a GPU also
    in-process at the larger size with the GPU defaults this code replaced; the marginal rates of each mode beside
    the standalone translation rates measured earlier in the same run."""
    small, large = bitext_inputs(data.bitexts, work, sizes)
    # The model is named: an older checkout's packages do not carry it.
    sets = [f"translate.model={DEFAULT_MODEL_DIR}", f"translate.device={device}", "pipeline.translation_cache=false",
            "lexicon.enabled=false"]
    if data.glove is not None:
        sets += [f"score.embeddings={data.glove}", "score.embeddings_format=kumo"]
    modes = {"in-process": 1, "workers": workers}
    plans = [("this", REPO, mode, size, sets) for mode in modes for size in (large, small)]
    if device == "cuda":  # the GPU defaults before docs/scaling.md measured them, in the same call
        plans.append(("this, 4096-token buckets in 500-row chunks", REPO, "in-process", large,
                      [*sets, *BEFORE_GPU_DEFAULTS]))
    if before is not None and not short:
        plans += [("before", before, mode, size, sets) for mode in modes for size in (large, small)]
    rows: list[dict[str, Any]] = []
    result: dict[str, Any] = {"sizes": [small[2], large[2]], "standalone": standalone, "runs": rows}
    for k, (name, code, mode, inputs, run_sets) in enumerate(plans):
        label = f"{name}, {mode}, {inputs[2]} pairs"
        if out_of_time():
            rows.append({"label": label, "status": "skipped", "error": "out of time"})
            continue
        row = pipeline_run(label, code, inputs[:2], work / f"pipeline-{k}", run_sets, modes[mode], sampler,
                           limits.end)
        row.update(name=name, mode=mode, input_pairs=inputs[2])
        rows.append(row)
        if row["status"] == "ok":
            util = (row.get("translation_gpu") or {}).get("gpu_util_mean")
            print(f"  {label:34s} wall {row['wall_seconds']:7.1f}s  {row['rows_per_second']:8.1f} rows/s  "
                  f"translation {row.get('translation_seconds') or 0:6.1f}s "
                  f"({row.get('translation_rows_per_second', 0):.0f}/s, GPU {util if util is not None else '-'}%)",
                  flush=True)
        else:
            print(f"  {label:34s} FAILED: {row['error']}", flush=True)
        record(result)
    summary = {}
    for name in dict.fromkeys(plan[0] for plan in plans):
        for mode in modes:
            runs = {r["input_pairs"]: r for r in rows if r.get("name") == name and r.get("mode") == mode}
            if not runs:
                continue
            rate = marginal(runs.get(small[2], {}), runs.get(large[2], {}))
            entry: dict[str, Any] = {"marginal": rate}
            for key, base in standalone.items():
                if rate and rate["rows_per_second"] and isinstance(base, float | int) and base:
                    entry[f"marginal_over_standalone_{key}"] = round(rate["rows_per_second"] / base, 3)
            top = runs.get(large[2], {})
            entry["wall_over_translation"] = top.get("wall_over_translation")
            entry["translation_gpu_util_mean"] = (top.get("translation_gpu") or {}).get("gpu_util_mean")
            summary[f"{name}, {mode}"] = entry
            if rate:
                print(f"  {name}, {mode}: marginal {rate['rows_per_second']} rows/s "
                      f"({', '.join(f'{k} {v}' for k, v in entry.items() if k.startswith('marginal_over'))})",
                      flush=True)
    same = {}
    for n in (small[2], large[2]):
        digests = {r["mode"]: r.get("train_digest") for r in rows
                   if r.get("name") == "this" and r.get("input_pairs") == n and r["status"] == "ok"}
        if len(digests) == len(modes):
            same[str(n)] = len(set(digests.values())) == 1
    result.update(modes=summary, same_train_in_every_mode=same)
    digests = {r.get("name"): r.get("train_digest") for r in rows
               if r.get("mode") == "in-process" and r.get("input_pairs") == large[2] and r["status"] == "ok"}
    if len(digests) > 1:  # a GPU's rounding may follow a batch's composition, which the bucket and chunk set
        result["same_train_as_before_gpu_defaults"] = len(set(digests.values())) == 1
    record(result)
    return result


# ------------------------------------------------------------------------------------------------- fail fast


def fail_fast_part(work: Path, device: str, limit_seconds: float, record: Any) -> list[dict[str, Any]]:
    """Broken backends, each through ``python -m pipeline.run`` on the bundled sample: a CTranslate2 that cannot
    open cuBLAS (imported before paranmt's ``translate``, so the libraries are not routed), a GPU that is not
    visible (``CUDA_VISIBLE_DEVICES`` empty) and a backend that fails on its device after the probe
    (:mod:`broken_backend`). Each must end with exit 2 and one line within seconds, and write no final output."""
    sample = REPO / "configs" / "sample"
    scenarios: list[tuple[str, list[str], dict[str, str], str]] = [
        ("backend fails on its device mid-run",
         [f"--device={device}", "--set=translate.backend=benchmarks.broken_backend:DeviceFault"], {}, "")]
    if device == "cuda":
        scenarios += [
            ("CTranslate2 without cuBLAS", ["--device=cuda", "--backend=ctranslate2"], {}, "import ctranslate2"),
            ("no GPU visible", ["--device=cuda"], {"CUDA_VISIBLE_DEVICES": ""}, "")]
    rows = []
    for k, (label, flags, env, before) in enumerate(scenarios):
        out = work / f"fail-fast-{k}"
        argv = ["--cs", str(sample / "sample.cs"), "--en", str(sample / "sample.en"), "--out", str(out), "--quiet",
                "--no-translation-cache", *flags]
        code = (f"{before}\nimport runpy, sys\nsys.argv = ['pipeline.run', *{argv!r}]\n"
                "runpy.run_module('pipeline.run', run_name='__main__')")
        started = time.monotonic()
        try:
            done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                                  timeout=limit_seconds, env={**os.environ, **env, "PYTHONPATH": os.pathsep.join(
                                      [str(REPO), os.environ.get("PYTHONPATH", "")])})
            exit_code, stderr = done.returncode, done.stderr
        except subprocess.TimeoutExpired as error:
            exit_code, stderr = None, (error.stderr or b"").decode(errors="replace") if isinstance(
                error.stderr, bytes) else (error.stderr or "")
        seconds = round(time.monotonic() - started, 1)
        lines = [line for line in stderr.splitlines() if line.strip()]
        final = sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) if out.is_dir() else []
        ok = exit_code == 2 and len(lines) == 1 and not {"train", "pairs", "summary.json"} & set(final)
        rows.append({"label": label, "ok": ok, "exit_code": exit_code, "seconds": seconds,
                     "stderr_lines": len(lines), "stderr_tail": lines[-5:], "written": final})
        print(f"  {label:40s} exit {exit_code} in {seconds:5.1f}s, {len(lines)} stderr line(s)"
              f"{'' if ok else ' -- NOT as it should be'}: {lines[-1] if lines else ''}", flush=True)
        record(rows)
    return rows


# ------------------------------------------------------------------------------------------------- training


def train_part(data: Data, device: torch.device, smoke: bool, short: bool, record: Any,
               out_of_time: Any) -> dict[str, Any]:
    n_pairs, min_pairs, dim, megabatches = (1_200, 400, 32, (1, 4)) if smoke else (60_000, 40_000, 300, (1, 40))
    if short:
        min_pairs, megabatches = 20_000, megabatches[-1:]
    left, right, groups = caption_pairs(data.captions, n_pairs)
    both = pa.chunked_array([left, right])
    strings = sentence_strings(both).to_pylist()
    pieces = SentencePieceVocab.train(strings, vocab_size=2_000 if smoke else 16_000)
    vocab = (WordVocab.build(count_words(both)), TrigramVocab.build(count_trigrams(sentence_strings(both))), pieces)
    cases = []
    for model in ("word", "trigram", "sp"):
        for m in megabatches:
            if out_of_time():
                continue
            case = run_train_case(model, m, device, (left, right, groups), vocab, min_pairs, 0, dim)
            cases.append(asdict(case))
            print(f"  {model:8s} M={m:<3d} {case.pairs_per_second:10.0f} pairs/s  mining "
                  f"{100 * case.mining_fraction:5.1f}%", flush=True)
            record({"cases": cases})
    word = [c for c in cases if c["model"] == "word"]
    epoch = None
    if word:
        top = max(word, key=lambda c: c["megabatch"])
        epoch = {"pairs": EPOCH_PAIRS, "megabatch": top["megabatch"],
                 "minutes": round(EPOCH_PAIRS / top["pairs_per_second"] / 60, 2)}
    return {"pairs": n_pairs, "dim": dim, "cases": cases, "word_epoch": epoch}


# ------------------------------------------------------------------------------------------------- main


def environment(device: str) -> dict[str, Any]:
    info: dict[str, Any] = {"python": platform.python_version(), "torch": torch.__version__,
                            "cpu_cores": os.cpu_count(), "machine": platform.machine()}
    if device == "cuda":
        info["gpu"] = torch.cuda.get_device_name(0)
        info["torch_cuda"] = torch.version.cuda
    try:
        import ctranslate2

        info["ctranslate2"] = ctranslate2.__version__
        info["ctranslate2_cuda_devices"] = ctranslate2.get_cuda_device_count()
    except Exception as error:
        info["ctranslate2"] = f"unavailable: {error}"
    try:
        import fairseq

        info["fairseq"] = fairseq.__version__
    except Exception as error:
        info["fairseq"] = f"unavailable: {error}"
    if shutil.which("nvidia-smi"):
        query = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                               capture_output=True, text=True)
        info["nvidia_smi"] = query.stdout.strip()
    if device == "cuda":  # which cuBLAS CTranslate2 opens, and how (translate.cuda_libraries), or why it has none
        info["ctranslate2_cublas"] = cublas_line(process_route())[1]
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="CPU, small sizes: the code paths in a minute")
    parser.add_argument("--short", action="store_true",
                        help="the main cases only: fewer compute types, budgets and runs")
    parser.add_argument("--bundle", type=Path, help="an unpacked gpu_bundle.py archive instead of ../shared")
    parser.add_argument("--before", type=Path, help="an older commit's packages: its pipeline runs beside this one")
    parser.add_argument("--parts", default="translate,failfast,pipeline,base,train",
                        help="comma-separated, run in this order whatever the order given: the backend check and "
                             "the small model's cases (translate), broken backends (failfast), the pipeline, the "
                             "base-sized model's cases (base), training")
    parser.add_argument("--sentences", type=int,
                        help="timed Czech sentences per translation case (default 4,000; --smoke 48); each case first "
                             "decodes min(256, N/4) of them as its warm-up")
    parser.add_argument("--pipeline-sizes", default=None,
                        help="the pipeline's two input sizes in pairs, e.g. 50000,0 (0: every pair of the bitext and "
                             "the LibreOffice corpus; default: half and all; --smoke 200,400)")
    parser.add_argument("--workers", type=int, help="worker processes of the multi-process runs (default: cores)")
    parser.add_argument("--minutes", type=float, default=8.0,
                        help="start no new case after this many minutes; a case still running --stall-seconds "
                             "after that is stopped")
    parser.add_argument("--stall-seconds", type=float, default=120.0,
                        help="stop a translation case that reports no progress (a loaded model, a decoded batch) "
                             "for this long")
    parser.add_argument("--check-seconds", type=float, default=60.0,
                        help="the limit of each backend's check (64 sentences, before any long case)")
    parser.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    parser.add_argument("--json", type=Path, help="write the results here (after every case)")
    args = parser.parse_args(argv)
    device = "cpu" if args.smoke else "cuda"
    if device == "cuda" and not torch.cuda.is_available():
        print("error: no CUDA device visible: run with --smoke to check the suite on the CPU", file=sys.stderr)
        return 2
    if args.bundle is None and not SHARED.is_dir():
        print(f"error: {SHARED} is absent: pass --bundle (benchmarks/gpu_bundle.py) or put ../shared beside the "
              "repository", file=sys.stderr)
        return 2
    started = time.monotonic()
    work = args.work or Path(tempfile.mkdtemp(prefix="gpu-suite-"))
    work.mkdir(parents=True, exist_ok=True)
    data = Data.locate(args.bundle, work)
    parts = set(args.parts.split(","))
    result: dict[str, Any] = {"command": " ".join(["python", "benchmarks/gpu_suite.py", *(argv or sys.argv[1:])]),
                              "code": code_commit(REPO), "device": device, "environment": environment(device),
                              "beam": BEAM}
    print(json.dumps(result["environment"], indent=1), flush=True)
    sampler = GpuSampler()
    limits = Limits(args.stall_seconds, args.check_seconds, started + args.minutes * 60 + args.stall_seconds)

    def out_of_time() -> bool:
        return time.monotonic() - started > args.minutes * 60

    def record(key: str) -> Any:
        def write(value: Any) -> None:
            result[key] = value
            result["seconds"] = round(time.monotonic() - started, 1)
            if args.json:
                clean = json.loads(json.dumps(result, default=lambda o: asdict(o)))
                for case in clean.get("translation", []):
                    case.pop("hypotheses", None)
                args.json.write_text(json.dumps(clean, indent=1) + "\n", encoding="utf-8")
        return write

    translation = TranslationPart(data, work, device, args.sentences or (48 if args.smoke else 4000), args.smoke,
                                  args.short, sampler, limits, record, out_of_time)
    try:
        if "translate" in parts:
            translation.check()
        if "failfast" in parts:
            print("fail fast (broken backends, one line each):", flush=True)
            fail_fast_part(work, device, FAIL_FAST_SECONDS, record("fail_fast"))
        if "translate" in parts:
            translation.small_model()
        if "pipeline" in parts:
            print("pipeline:", flush=True)
            sizes = [int(n) for n in (args.pipeline_sizes or ("200,400" if args.smoke else "0,0")).split(",")]
            if not args.pipeline_sizes and not args.smoke:  # half and all of the pairs
                total = sum(len(p.read_text(encoding="utf-8").splitlines())
                            for folder in data.bitexts for p in folder.glob("*.cs") if p.with_suffix(".en").exists())
                sizes = [total // 2, total]
            pipeline_part(data, work, device, args.before, sizes,
                          args.workers or (2 if args.smoke else os.cpu_count() or 1), args.short, sampler, limits,
                          record("pipeline"), out_of_time, translation.standalone())
        if "base" in parts:
            translation.base_model()
        if "train" in parts:
            print("training:", flush=True)
            record("train")(train_part(data, torch.device(device), args.smoke, args.short, record("train"),
                                       out_of_time))
    finally:
        sampler.stop()
    print(f"suite: {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
