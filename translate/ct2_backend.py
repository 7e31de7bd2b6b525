"""CTranslate2 backend: the fast path (C++ beam search, int8/float16 kernels, CPU and CUDA).

On CPU the translator runs ``inter_threads`` batches at once, each on ``intra_threads`` cores, and the
:class:`~translate.translator.Translator` submits a chunk's token buckets asynchronously, longest first, so the
worker threads never wait for Python and Python detokenises finished batches while the next ones decode. A batch's
translation depends only on the batch and on how many cores share it (``intra_threads``): the thread that runs it,
the number of batches at once and the order in which they finish change nothing (tested byte for byte);
``intra_threads`` can change the last digits of a float32 score, so it is part of the translation cache's key
(docs/translate-cpu.md measures both).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from configs.schema import TranslateConfig
from translate.card import ModelDir, ModelDirError
from translate.cpu_kernel import import_ctranslate2
from translate.cuda_libraries import CUBLAS_FIX
from translate.translator import BackendUnavailable, RawHypothesis

VMAP_FILE = "vmap.txt"  # the name CTranslate2 looks up among a model's files for `use_vmap`


def cuda_device_count(kernel: str) -> int:
    """The GPUs CTranslate2 sees; asking loads it, with the CPU kernel ``kernel`` (:func:`import_ctranslate2`)."""
    ctranslate2 = import_ctranslate2(kernel)  # outside the guard: a refused kernel is an error, not "no GPU"
    try:
        return ctranslate2.get_cuda_device_count()
    except Exception:
        return 0


def compute_type_for(requested: str, device: str, kernel: str) -> str:
    """The compute type CTranslate2 is given: ``auto`` on a CUDA device is float16 where the card supports it --
    CTranslate2's own auto picks int8_float16 there, slower than float16 at the same hypotheses on an H200
    (docs/scaling.md, benchmarks/results/gpu_suite_h200.json); anything else, and auto on the CPU, as given. Asking
    the card loads CTranslate2, with the CPU kernel ``kernel``."""
    if requested != "auto" or device != "cuda":
        return requested
    ctranslate2 = import_ctranslate2(kernel)
    try:
        supported = ctranslate2.get_supported_compute_types("cuda")
    except Exception:  # no usable CUDA here: CTranslate2 decides (and says why it cannot)
        return requested
    return "float16" if "float16" in supported else requested


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, e.g. a container's cpuset), not the host's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class ThreadPlan:
    inter: int  # batches decoded at once
    intra: int  # cores per batch (0 on GPU: CTranslate2's default)


def plan_threads(config: TranslateConfig, device: str, cores: int | None = None) -> ThreadPlan:
    """The inter/intra split of ``config.threads`` cores (0: all ``cores``); explicit settings win.

    CPU default: one batch per core, as many batches as cores (a beam-12 batch of a small model splits badly over
    threads; docs/translate-cpu.md measures it). With the CPU's small buckets one 500-row chunk makes ~20 batches,
    enough to keep a many-core worker busy. GPU: one batch at a time unless ``inter_threads`` says otherwise.
    """
    if device != "cpu":
        return ThreadPlan(config.inter_threads or 1, 0)
    total = config.threads or cores or available_cores()
    inter, intra = config.inter_threads, config.intra_threads
    if inter and not intra:
        intra = max(1, total // inter)
    elif intra and not inter:
        inter = max(1, total // intra)
    elif not inter and not intra:
        inter, intra = total, 1
    return ThreadPlan(inter, intra)


def read_vmap(path: Path) -> bytes:
    """A vocabulary map's bytes, checked: UTF-8 lines of ``source n-gram<TAB>target tokens``."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ModelDirError(f"{path}: cannot read the vocabulary map ({error.strerror}); build one with "
                            "`paranmt vmap` or unset translate.vmap") from error
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        raise ModelDirError(f"{path}: the vocabulary map is not UTF-8 text; rebuild it with "
                            "`paranmt vmap`") from error
    bad = next((n for n, line in enumerate(lines, 1) if line and "\t" not in line), None)
    if not lines or bad is not None:
        where = f"line {bad} has no tab" if bad is not None else "it is empty"
        raise ModelDirError(f"{path}: not a vocabulary map ({where}; expected 'source n-gram<TAB>target "
                            "tokens' lines); rebuild it with `paranmt vmap`")
    return data


class PendingBatch:
    """A batch submitted to CTranslate2's worker threads; :meth:`result` waits for it (the GIL is released)."""

    def __init__(self, futures: list[Any]):  # ctranslate2.AsyncTranslationResult
        self._futures = futures

    def result(self) -> list[list[RawHypothesis]]:
        return [_hypotheses(f.result()) for f in self._futures]


def _hypotheses(result: Any) -> list[RawHypothesis]:  # a ctranslate2.TranslationResult
    return [RawHypothesis(list(h), float(s)) for h, s in zip(result.hypotheses, result.scores, strict=True)]


class CTranslate2Backend:
    name = "ctranslate2"

    def __init__(self, model_dir: ModelDir, config: TranslateConfig, device: str):
        ct2_dir = model_dir.ct2_dir
        if ct2_dir is None:
            raise ModelDirError(f"{model_dir.root}: the model card names no CTranslate2 model (key `ctranslate2`); "
                                "convert the fairseq checkpoint with `paranmt convert fairseq`")
        self.device = device
        self.config = config
        self.threads = plan_threads(config, device)
        # Batches the Translator keeps here at once: on a GPU one waiting per stream (after a device error at most
        # one more batch decodes); on the CPU two per thread, so that no thread idles while the oldest batch ends.
        self.queue_depth = 2 * self.threads.inter if device == "cpu" else self.threads.inter + 1
        ctranslate2 = import_ctranslate2(config.cpu_kernel)
        files = None
        if config.vmap is not None:
            # The model directory stays read-only: CTranslate2 reads the model's files and the map from memory.
            files = {p.name: p.read_bytes() for p in Path(ct2_dir).iterdir() if p.is_file()}
            files[VMAP_FILE] = read_vmap(Path(config.vmap))
        try:
            self.translator = ctranslate2.Translator(
                str(ct2_dir), device=device, device_index=config.device_index,
                compute_type=compute_type_for(config.compute_type, device, config.cpu_kernel),
                inter_threads=self.threads.inter, intra_threads=self.threads.intra, files=files,
            )
        except (RuntimeError, ValueError) as error:
            message = str(error)
            if device == "cuda" and ("cuda" in message.lower() or ".so" in message):
                raise BackendUnavailable(
                    f"CTranslate2 {ctranslate2.__version__} cannot use the GPU here: {message}. Its wheel opens the "
                    f"CUDA 12 cuBLAS (libcublas.so.12) at run time: {CUBLAS_FIX} (the Dockerfile does), or use "
                    "backend fairseq on this GPU."
                ) from error
            raise ModelDirError(f"{ct2_dir}: CTranslate2 cannot load this model on {device}: {message}") from error
        self.compute_type = self.translator.compute_type
        cfg = config
        self._options = dict(
            beam_size=cfg.beam_size,
            num_hypotheses=cfg.nbest,
            length_penalty=1.0,  # score = log-prob sum / length (EOS included): same as fairseq's
            return_scores=True,
            # CT2 otherwise blocks EOS at the first step before the softmax while fairseq does it after,
            # which shifts scores; 0 makes both backends score the same hypotheses identically.
            min_decoding_length=0,
            max_decoding_length=cfg.max_decoding_length,
            max_input_length=0,  # inputs are already capped by max_source_tokens; never truncate silently
            # The Translator's buckets already fit the budget, so CT2 keeps each one as one batch.
            max_batch_size=cfg.batch_tokens(device),
            batch_type="tokens",
            use_vmap=cfg.vmap is not None,
        )

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        return [_hypotheses(r) for r in self.translator.translate_batch(batch, **self._options)]

    def submit(self, batch: list[list[str]]) -> PendingBatch:
        """Queue a batch for the next free worker thread; the same batch gives the same result as :meth:`decode`."""
        return PendingBatch(self.translator.translate_batch(batch, asynchronous=True, **self._options))

    def recover(self) -> None:
        """CT2 frees its per-batch buffers itself; nothing to do."""
