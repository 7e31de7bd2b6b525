"""Pick a backend and a device for a model directory and build the :class:`Translator`."""

from __future__ import annotations

import logging

from configs.schema import BUILTIN_BACKENDS, TranslateConfig
from core.import_path import load_class
from translate.card import ModelDir, model_or_default
from translate.ct2_backend import BackendUnavailable, CTranslate2Backend, cuda_device_count
from translate.translator import DecodeBackend, Translator

log = logging.getLogger(__name__)


def _torch_has_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def _gpu_visible() -> bool:
    """CTranslate2 or torch sees a GPU (either backend may decode)."""
    return cuda_device_count() > 0 or _torch_has_cuda()


def check_device(requested: str) -> None:
    """``cuda`` asked for where neither CTranslate2 nor torch sees a GPU: :class:`BackendUnavailable`, one line."""
    if requested == "cuda" and not _gpu_visible():
        raise BackendUnavailable("--device cuda: no CUDA device is visible here (CTranslate2 and torch see none); "
                                 "use --device cpu, or auto to decode on what there is")


def decode_device(requested: str) -> str:
    """``auto``: CUDA when a GPU is visible (:func:`_gpu_visible`), else the CPU; anything else as given."""
    if requested != "auto":
        return requested
    return "cuda" if _gpu_visible() else "cpu"


def load_backend(config: TranslateConfig) -> tuple[ModelDir, DecodeBackend]:
    """The model directory and the decoding backend ``config`` asks for (``config.model=None``: the bundled model).

    ``backend=auto`` prefers CTranslate2 and falls back to fairseq (with a warning that says why) when the card
    has a fairseq checkpoint and CTranslate2 cannot run on the device.
    """
    model_dir = ModelDir(model_or_default(config.model))
    check_device(config.device)
    device = decode_device(config.device)
    card = model_dir.card
    backend_name = config.backend
    if backend_name not in BUILTIN_BACKENDS:  # a backend of the user's, by import path
        backend_class = load_class(backend_name, "translate.backend", BackendUnavailable,
                                   "mypackage.backends:MyBackend")
        return model_dir, backend_class(model_dir, config, device)
    if backend_name == "auto":
        backend_name = "ctranslate2" if card.ctranslate2 is not None else "fairseq"
    if backend_name == "ctranslate2":
        try:
            return model_dir, CTranslate2Backend(model_dir, config, device)
        except BackendUnavailable as error:
            if config.backend != "auto" or card.fairseq is None:
                raise
            log.warning("%s -- falling back to the fairseq backend on %s", error, device)

    from translate.fairseq_backend import FairseqBackend  # deferred: it loads torch, and fairseq is an extra

    return model_dir, FairseqBackend(model_dir, config, device)


def load_translator(config: TranslateConfig) -> Translator:
    """Build a translator from ``config`` (see :func:`load_backend`)."""
    model_dir, backend = load_backend(config)
    return Translator(model_dir, backend, config)
