"""Translator loaders that break the way backends broke on GPU machines, for benchmarks/gpu/gpu_suite.py's tests.

The suite runs each case in a process of its own that imports its loader by name, so these live in a module (not
in a test file, which would drag pytest's conftest into every case's process).
"""

from __future__ import annotations

import os
import time
from typing import NoReturn

from configs.schema import TranslateConfig
from translate.loading import load_translator
from translate.translator import DecodeBackend, RawHypothesis, Translator

CUBLAS_MISSING = "Library libcublas.so.12 is not found or cannot be loaded"


class CublasMissing:
    """Loads, then fails every batch: CTranslate2 4.8.5 on a CUDA 13 machine without the CUDA 12 cuBLAS."""

    def __init__(self, backend: DecodeBackend):
        self.name, self.device = backend.name, backend.device

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        raise RuntimeError(CUBLAS_MISSING)

    def recover(self) -> None:
        pass


class Mute(CublasMissing):
    """Decodes every batch to empty hypotheses: no error, no token out."""

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        return [[RawHypothesis([], 0.0)] for _ in batch]


def int8_float32_without_cublas(config: TranslateConfig) -> Translator:
    """The suite's loader, except that CTranslate2 at int8_float32 fails every batch."""
    translator = load_translator(config)
    if config.compute_type == "int8_float32":
        translator.backend = CublasMissing(translator.backend)
    return translator


def every_batch_fails(config: TranslateConfig) -> Translator:
    translator = load_translator(config)
    translator.backend = CublasMissing(translator.backend)
    return translator


def no_tokens(config: TranslateConfig) -> Translator:
    translator = load_translator(config)
    translator.backend = Mute(translator.backend)
    return translator


def hangs(config: TranslateConfig) -> NoReturn:
    while True:  # a decoder that never comes back
        time.sleep(3600)


def dies(config: TranslateConfig) -> NoReturn:
    os._exit(3)  # a crash that leaves no Python error behind
