"""Pick a backend and a device for a model directory and build the :class:`Translator`.

A backend is used only once it has translated a probe batch (:func:`probe`): one that loads but cannot decode -- a
CUDA library opened only at the first translation, a device it cannot use -- fails here, in one line, before any
work.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from configs.schema import BUILTIN_BACKENDS, NO_CUDA_DEVICE, TranslateConfig
from paranmt.core.import_path import load_class
from translate.card import ModelDir, ModelDirError, model_or_default
from translate.ct2_backend import CTranslate2Backend, cuda_device_count
from translate.cuda_libraries import cublas_hint, cublas_line, process_route
from translate.text_chain import SourceEncoder
from translate.translator import PROBE_SENTENCES, BackendUnavailable, DecodeBackend, Translator

log = logging.getLogger(__name__)


def _torch_has_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def _gpu_visible(kernel: str) -> bool:
    """CTranslate2 or torch sees a GPU (either backend may decode); CTranslate2 loads with the CPU kernel
    ``kernel``."""
    return cuda_device_count(kernel) > 0 or _torch_has_cuda()


def check_device(requested: str, kernel: str) -> None:
    """``cuda`` asked for where neither CTranslate2 nor torch sees a GPU: :class:`BackendUnavailable`, one line
    (CTranslate2, asked, loads with the CPU kernel ``kernel``)."""
    if requested == "cuda" and not _gpu_visible(kernel):
        raise BackendUnavailable(NO_CUDA_DEVICE.format(why="CTranslate2 and torch see none"))


def decode_device(requested: str, kernel: str, gpu_visible: Callable[[], bool] | None = None) -> str:
    """``auto``: CUDA when a GPU is visible (``gpu_visible``, default :func:`_gpu_visible` with the CPU kernel
    ``kernel``: asked only for auto), else the CPU; anything else as given."""
    if requested != "auto":
        return requested
    visible = gpu_visible() if gpu_visible is not None else _gpu_visible(kernel)
    return "cuda" if visible else "cpu"


def check_ctranslate2_cuda() -> None:
    """CTranslate2 about to decode on a GPU: one info line saying which cuBLAS it opens, or
    :class:`BackendUnavailable` naming the fix where there is none (:mod:`translate.cuda_libraries`)."""
    usable, line = cublas_line(process_route())
    if not usable:
        raise BackendUnavailable(line)
    log.info(line)


def check_libraries(config: TranslateConfig, model_dir: ModelDir) -> None:
    """Before any work, on the machine that decodes: ``device: cuda`` with CTranslate2 and nothing to fall back to
    (backend ``ctranslate2``, or ``auto`` where the card has no fairseq checkpoint): :func:`check_ctranslate2_cuda`."""
    ctranslate2 = config.backend == "ctranslate2" or (config.backend == "auto" and not model_dir.complete("fairseq"))
    if config.device == "cuda" and ctranslate2 and model_dir.complete("ctranslate2"):
        check_ctranslate2_cuda()


def probe(backend: DecodeBackend, model_dir: ModelDir) -> None:
    """Translate :data:`PROBE_SENTENCES`; :class:`BackendUnavailable` with the cause where the backend cannot."""
    batch = SourceEncoder(model_dir).encode_batch(PROBE_SENTENCES)
    try:
        nbest_lists = backend.decode(batch)
        if len(nbest_lists) != len(batch) or not all(nbest_lists):
            raise RuntimeError(f"{len(nbest_lists)} n-best lists for {len(batch)} sentences, or an empty one")
    except Exception as error:
        message = f"{type(error).__name__}: {error}"
        raise BackendUnavailable(f"the {backend.name} backend loads on {backend.device} but cannot translate a probe "
                                 f"batch: {message}{cublas_hint(message)}") from error


def _probed_backend(name: str, model_dir: ModelDir, config: TranslateConfig, device: str) -> DecodeBackend:
    backend: DecodeBackend
    if name == "ctranslate2":
        if device == "cuda":
            check_ctranslate2_cuda()
        backend = CTranslate2Backend(model_dir, config, device)
    elif name == "fairseq":
        from translate.fairseq_backend import FairseqBackend  # deferred: it loads torch, and fairseq is an extra

        backend = FairseqBackend(model_dir, config, device)
    else:  # a backend of the user's, by import path
        backend_class = load_class(name, "translate.backend", BackendUnavailable, "mypackage.backends:MyBackend")
        backend = backend_class(model_dir, config, device)
    probe(backend, model_dir)
    return backend


def load_backend(config: TranslateConfig) -> tuple[ModelDir, DecodeBackend]:
    """The model directory and the decoding backend ``config`` asks for (``config.model=None``: the bundled model),
    after it has translated a probe batch (:func:`probe`).

    ``backend=auto`` prefers CTranslate2; when it cannot run or translate on the device and the card has a fairseq
    checkpoint, it falls back to fairseq -- with one warning that says why, and only once fairseq has translated the
    probe batch (else one error naming both causes).
    """
    model_dir = ModelDir(model_or_default(config.model))
    check_device(config.device, config.cpu_kernel)
    device = decode_device(config.device, config.cpu_kernel)
    name = model_dir.auto_backend if config.backend == "auto" else config.backend
    problem = model_dir.backend_problem(name) if name in BUILTIN_BACKENDS else None
    if problem is not None:
        raise ModelDirError(problem)
    try:
        return model_dir, _probed_backend(name, model_dir, config, device)
    except BackendUnavailable as error:
        if config.backend != "auto" or name != "ctranslate2" or not model_dir.complete("fairseq"):
            raise
        cause = error
    try:
        fallback = _probed_backend("fairseq", model_dir, config, device)
    except BackendUnavailable as error:
        raise BackendUnavailable(f"{cause}; and the fairseq fallback: {error}") from error
    log.warning("%s -- falling back to the fairseq backend on %s", cause, device)
    return model_dir, fallback


def load_translator(config: TranslateConfig) -> Translator:
    """Build a translator from ``config`` (see :func:`load_backend`)."""
    model_dir, backend = load_backend(config)
    return Translator(model_dir, backend, config)
